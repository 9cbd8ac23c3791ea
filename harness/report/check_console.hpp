#pragma once
// `gpubench check` at a terminal: where the baselines came from, a table of verdicts worst first, and the verdict.
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// The figures that need a person (failed, regression, noisy, missing, improved), each reason cut so that its row fits
// `width` columns (whole where no width is known: a file or a log), then the summary, which counts every verdict and
// never reads a plain PASS while a figure that decides acceptance was not judged: those are listed beneath it.
// `every_figure` lists every verdict with its whole reason. Colour (red regressions and failures, yellow noisy/missing,
// green passes) when `colour`. A regression measured while another process used its GPU is a regression under
// contention, counted apart from a GPU regression.
void print_check_console(const CheckReport& report, std::ostream& out, bool colour, bool every_figure = false,
                         std::optional<std::size_t> width = std::nullopt);

// "1 figure", "2 figures": a count and its noun, singular or plural.
std::string counted(std::size_t count, const std::string& singular, const std::string& plural);

}  // namespace gpubench
