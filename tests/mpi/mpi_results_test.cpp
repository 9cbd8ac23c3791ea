// gpubench-mpi's results on the CPU: every collective of the sweep belongs to the nccl row, its variant label and
// repetitions come from the catalogue, every rank's
// clocks are put together as gpubench-micro does for several GPUs, and what a rank measured reaches the document
// through the import of gpubench-micro's output, with its clocks and throttle.
#include "harness/mpi/mpi_results.hpp"

#include <gtest/gtest.h>

#include <set>

#include "benchmarks/nccl/collective_sweep.hpp"
#include "benchmarks/nccl/collective_table.hpp"
#include "harness/mpi/nccl_catalogue.hpp"
#include "harness/mpi/rank_clocks.hpp"
#include "harness/results/clock_events.hpp"
#include "harness/results/gbench_import.hpp"

namespace gpubench {
namespace {

MpiCollectiveOutcome measured(std::vector<double> busbw) {
  MpiCollectiveOutcome outcome;
  outcome.busbw_samples = std::move(busbw);
  outcome.median.bytes = 1 << 30;
  outcome.median.ranks = 2;
  outcome.median.mean_seconds = 0.01;
  outcome.median.forced = {"ring", "simple"};
  outcome.median.mode = "mpi";
  return outcome;
}

ImportedBenchmarks imported(const MpiCollectiveOutcome& outcome, const RankClocks& clocks) {
  const std::string name = "nccl/allreduce/ring/simple/1GiB/out_of_place";
  return import_google_benchmark_json(collective_benchmark_json(name, outcome, clocks), "nccl", "test");
}

TEST(MpiResults, VariantLabelsAreTheCataloguesAndRepetitionsItsRow) {
  const FamilySpec& family = nccl_family(forced_combination("Ring", "Simple"));
  EXPECT_EQ(family.name, "nccl");
  EXPECT_EQ(variant_label(family, forced_combination("Ring", "Simple")), "nccl.ring_simple");
  EXPECT_EQ(variant_label(family, forced_combination("TREE", "LL128")), "nccl.tree_ll128");
  EXPECT_EQ(variant_label(family, forced_combination(nullptr, nullptr)), "nccl.auto");
  EXPECT_EQ(variant_label(family, forced_combination("Ring", nullptr)), "nccl.ring_auto") << "not a catalogue variant";
}

TEST(MpiResults, EveryCollectiveOfTheSweepBelongsToTheNcclRow) {
  // gpubench-mpi runs sweep_points, as gpubench-micro's nccl family does; every name is the nccl row's.
  for (const NcclCombination& forced : {forced_combination(nullptr, nullptr), forced_combination("Tree", "LL")}) {
    const FamilySpec& family = nccl_family(forced);
    for (const SweepPoint& point : sweep_points(Suite::Quick, forced)) {
      EXPECT_EQ(family_of(benchmark_name(point, forced)), &family) << benchmark_name(point, forced);
    }
  }
  std::set<Collective> quick;
  for (const SweepPoint& point : sweep_points(Suite::Quick, forced_combination(nullptr, nullptr))) quick.insert(point.collective);
  EXPECT_EQ(quick.size(), collective_table().size()) << "where NCCL chooses, the quick suite runs every collective";
}

TEST(MpiResults, AnotherCollectivesMeasurementHasTheNcclFamilysId) {
  MpiCollectiveOutcome outcome = measured({300});
  outcome.median.collective = Collective::AllToAll;
  const std::string name = "nccl/alltoall/auto/auto/1GiB/out_of_place";
  const ImportedBenchmarks result = import_google_benchmark_json(collective_benchmark_json(name, outcome, {}), "nccl", "test");
  ASSERT_EQ(result.metrics.size(), 1u);
  EXPECT_EQ(result.metrics[0].id, name + "/busbw");
  EXPECT_EQ(result.metrics[0].params.at("collective"), "alltoall");
}

TEST(MpiResults, ClocksOfAllRanksAreTheLowestClockAndEveryReason) {
  const RankClocks clocks = combine_rank_clocks({R"({"sm_clock_mhz": 1980, "clock_event_reasons": 1})",
                                                 R"({"sm_clock_mhz": 1755, "clock_event_reasons": 8})", "{}"});
  EXPECT_EQ(clocks.sm_clock_mhz, 1755);
  EXPECT_EQ(clocks.clock_event_reasons, 9u);
  const RankClocks none = combine_rank_clocks({"{}", "{}"});
  EXPECT_FALSE(none.sm_clock_mhz);
  EXPECT_FALSE(none.clock_event_reasons);
}

TEST(MpiResults, AMeasurementIsImportedAsGpubenchMicrosWithClocksAndThrottle) {
  const std::uint64_t hw_slowdown = 0x8;  // nvmlClocksEventReasonHwSlowdown
  const RankClocks clocks{1755.0, hw_slowdown};
  const ImportedBenchmarks result = imported(measured({350, 360, 355}), clocks);
  ASSERT_EQ(result.metrics.size(), 1u);
  const Metric& m = result.metrics[0];
  EXPECT_EQ(m.id, "nccl/allreduce/ring/simple/1GiB/out_of_place/busbw");
  EXPECT_EQ(m.family, "nccl");
  EXPECT_EQ(m.unit, "GB/s");
  EXPECT_EQ(m.samples, (std::vector<double>{350, 360, 355}));
  EXPECT_EQ(m.value, 355);
  EXPECT_EQ(m.sm_clock_mhz, 1755);
  EXPECT_EQ(m.clock_event_reasons, hw_slowdown);
  EXPECT_TRUE(m.throttled);
  EXPECT_EQ(m.params.at("mode"), "mpi");
}

TEST(MpiResults, SkipsAndFailuresKeepTheirReasonAndKind) {
  MpiCollectiveOutcome skipped;
  skipped.kind = MpiCollectiveOutcome::Kind::Skipped;
  skipped.reason = "NCCL refused Tree/LL128 on this topology";
  const ImportedBenchmarks skip = imported(skipped, {});
  ASSERT_EQ(skip.skipped.size(), 1u);
  EXPECT_EQ(skip.skipped[0].reason, skipped.reason);
  EXPECT_TRUE(skip.metrics.empty());

  MpiCollectiveOutcome failed;
  failed.kind = MpiCollectiveOutcome::Kind::Failed;
  failed.failure = FailureKind::WrongResult;
  failed.reason = "rank 1 (GPU 0): 12 of 268435456 elements wrong";
  const ImportedBenchmarks failure = imported(failed, {});
  ASSERT_EQ(failure.failures.size(), 1u);
  EXPECT_EQ(failure.failures[0].kind, FailureKind::WrongResult);
  EXPECT_EQ(failure.failures[0].reason, failed.reason);
  EXPECT_FALSE(failure.failures[0].advice.empty());
}

}  // namespace
}  // namespace gpubench
