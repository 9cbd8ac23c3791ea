// The run summary's findings: a PCIe link below its maximum is listed, also when only one repetition saw it
// (its params then list each repetition's value); a GPU whose aggregate copy bandwidth falls below its siblings'.
#include "harness/report/run_summary.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace gpubench {
namespace {

Metric pcie_metric(int device, const std::map<std::string, std::string>& link) {
  Metric m;
  m.id = "pcie/h2d/pinned/1GiB/gpu" + std::to_string(device) + "/bandwidth";
  m.benchmark = "pcie/h2d/pinned/1GiB/gpu" + std::to_string(device);
  m.family = "pcie";
  m.device = device;
  m.value = 50;
  m.unit = "GB/s";
  m.samples = {50, 50, 50};
  m.params = link;
  return m;
}

std::string summary_of(const std::vector<Metric>& metrics) {
  ResultsDocument document;
  document.metrics = metrics;
  std::ostringstream out;
  print_run_summary(document, out);
  return out.str();
}

TEST(RunSummary, ALinkBelowItsMaximumInAnyRepetitionIsListed) {
  const std::string text = summary_of({
      pcie_metric(0, {{"link_below_max", "false"}, {"pcie_current_generation", "5"}, {"pcie_current_width", "16"},
                      {"pcie_max_generation", "5"}, {"pcie_max_width", "16"}}),
      pcie_metric(1, {{"link_below_max", "false; true; false"}, {"pcie_current_generation", "5; 4; 5"},
                      {"pcie_current_width", "16"}, {"pcie_max_generation", "5"}, {"pcie_max_width", "16"}}),
  });
  ASSERT_NE(text.find("PCIe links below their maximum"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU 1: PCIe gen 5; 4; 5 x16 while the link can do gen 5 x16"), std::string::npos) << text;
  EXPECT_EQ(text.find("GPU 0: PCIe"), std::string::npos) << text;
}

TEST(RunSummary, NoSectionWhenEveryLinkRunsAtItsMaximum) {
  const std::string text = summary_of({pcie_metric(0, {{"link_below_max", "false"}})});
  EXPECT_EQ(text.find("PCIe links below their maximum"), std::string::npos) << text;
}

Metric all_to_one_metric(int device, double value) {
  Metric m = pcie_metric(device, {});
  m.benchmark = "p2p/ce_all_to_one/512MiB/gpu" + std::to_string(device);
  m.id = m.benchmark + "/bandwidth";
  m.family = "p2p";
  m.value = value;
  return m;
}

TEST(RunSummary, AGpuBelowItsSiblingsIsListed) {
  const std::string text = summary_of({all_to_one_metric(0, 360), all_to_one_metric(1, 250)});
  ASSERT_NE(text.find("GPUs below their siblings"), std::string::npos) << text;
  EXPECT_NE(text.find("p2p/ce_all_to_one/512MiB/gpu1/bandwidth: -30.6 % against the other GPU (360 GB/s)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("gpu0/bandwidth:"), std::string::npos) << text;
}

}  // namespace
}  // namespace gpubench
