#pragma once
// The format-neutral shape of a report that several commands share: a titled list of verdicts, each on one
// thing, with its kind in the command's own words, how a test runner counts it, and why. `check` and
// `acceptance` are each turned into one here, and the shared format (JUnit XML, junit_report.hpp) is written
// from it alone, so that no command writes its own.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/acceptance/acceptance_verdict.hpp"
#include "harness/results/results_document.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// How a test runner counts a verdict: as a passed, a skipped or a failed test case.
enum class Tally { Passed, Skipped, Failed };

struct ListedVerdict {
  // What it belongs to, the node's host name in it, so that the reports of several nodes stay apart where a CI
  // system keys test cases on group and name: "gpubench.HOST.memory" (a family), "acceptance.HOST.gpu0" (a GPU, the node).
  std::string group;
  std::string name;     // what was judged: a metric id, an acceptance stage
  std::string kind;     // the verdict in its command's words: regression, noisy, fail, ...
  Tally tally = Tally::Passed;
  std::string message;  // one line: the verdict and why
  std::string detail;   // all there is to say, over several lines when needed; "" when nothing
  std::vector<std::pair<std::string, std::string>> properties;  // what identifies the thing judged: "uuid" -> "GPU-..."
  std::optional<double> seconds;  // how long what was judged ran, where that is known
};

struct VerdictList {
  std::string title;  // the command: "gpubench check"
  std::string suite;  // what was judged as a whole: "gpubench.HOST", "acceptance.HOST"
  std::string host;   // the node judged
  std::string started_at;         // when the judged work began, as results documents write it (utc_time.hpp)
  std::optional<double> seconds;  // how long it took, where that is known
  std::vector<ListedVerdict> verdicts;
  int count(Tally tally) const;
};

// One per metric, worst first, after one for the figures that decide acceptance and were not judged, if any (a
// skipped case listing them, so that a CI dashboard shows it). Regressions and failures fail; noisy, missing and
// informational are skipped (they neither pass nor fail the run); the rest pass. The message is "kind: reason", and a
// "baseline" property names the baseline that judged. `run` is the run judged, whose start and end the list keeps.
// How long each metric took is not known: a family measures all of its metrics in one process.
VerdictList verdict_list(const CheckReport& report, const RunInfo& run);

// What `acceptance` timed: when it began, how long it took, and how long each stage (doctor, performance, stress,
// dcgm) took; a stage judges every GPU at once, so each GPU's verdict on it took the stage's time.
struct AcceptanceTiming {
  std::string started_at;
  double seconds = 0;
  std::map<std::string, double> stage_seconds;  // by stage name
};

// One per stage of the node, then of each GPU: a failed stage fails, a stage that could not run is skipped, the
// others pass with their reasons. A GPU's stages carry its PCI bus id, UUID and serial as properties.
VerdictList verdict_list(const AcceptanceReport& report, const std::string& host, const AcceptanceTiming& timing);

}  // namespace gpubench
