#pragma once
// The format-neutral shape of a report that several commands share: a titled list of verdicts, each on one
// thing, with its kind in the command's own words, how a test runner counts it, and why. `check` and
// `acceptance` are each turned into one here, and the shared format (JUnit XML, junit_report.hpp) is written
// from it alone, so that no command writes its own.
#include <string>
#include <utility>
#include <vector>

#include "harness/acceptance/acceptance_verdict.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// How a test runner counts a verdict: as a passed, a skipped or a failed test case.
enum class Tally { Passed, Skipped, Failed };

struct ListedVerdict {
  std::string group;    // what it belongs to: "gpubench.memory" (a family), "acceptance.gpu0" (a GPU, the node)
  std::string name;     // what was judged: a metric id, an acceptance stage
  std::string kind;     // the verdict in its command's words: regression, noisy, fail, ...
  Tally tally = Tally::Passed;
  std::string message;  // one line: the verdict and why
  std::string detail;   // all there is to say, over several lines when needed; "" when nothing
  std::vector<std::pair<std::string, std::string>> properties;  // what identifies the thing judged: "uuid" -> "GPU-..."
};

struct VerdictList {
  std::string title;  // the command: "gpubench check"
  std::string suite;  // what was judged as a whole: "gpubench.HOST", "acceptance"
  std::vector<ListedVerdict> verdicts;
  int count(Tally tally) const;
};

// One per metric, worst first: regressions and failures fail; noisy, missing and informational are skipped
// (they neither pass nor fail the run); the rest pass. The message is "kind: reason".
VerdictList verdict_list(const CheckReport& report);
// One per stage of the node, then of each GPU: a failed stage fails, a stage that could not run is skipped, the
// others pass with their reasons. A GPU's stages carry its PCI bus id, UUID and serial as properties.
VerdictList verdict_list(const AcceptanceReport& report);

}  // namespace gpubench
