#include "harness/report/stress_display.hpp"

#include "harness/report/text_table.hpp"

namespace gpubench {

void draw_stress_progress(std::ostream& out, double elapsed_s, double duration_s, const std::vector<GpuStressRecord>& gpus,
                          bool terminal, int& lines_drawn) {
  if (terminal && lines_drawn > 0) out << "\033[" << lines_drawn << "F";  // back to the first line of the block
  lines_drawn = 0;
  for (const GpuStressRecord& gpu : gpus) {
    // The pulse load's bursts, once it pulses; before that (and under the other loads) the last window.
    const double tflops = !gpu.bursts.empty() ? gpu.bursts.back().tflops : gpu.windows.empty() ? 0 : gpu.windows.back().tflops;
    const StressSample* last = gpu.telemetry.empty() ? nullptr : &gpu.telemetry.back();
    out << (terminal ? "\033[K" : "") << "GPU " << gpu.index << "  " << format_number(elapsed_s, 0) << "/"
        << format_number(duration_s, 0) << " s  " << format_number(tflops, 1) << " TFLOP/s  "
        << (last ? format_number(last->temperature_c, 0) : "?") << " C  " << (last ? format_number(last->power_w, 0) : "?")
        << " W  " << (last ? format_number(last->sm_clock_mhz, 0) : "?") << " MHz  errors "
        << gpu.gemm_mismatches + gpu.memtest_errors + gpu.xid_events.size() << (gpu.worker_error.empty() ? "" : "  FAILED")
        << "\n";
    ++lines_drawn;
  }
  out.flush();
}

void print_stress_summary(std::ostream& out, const std::vector<GpuStressRecord>& gpus,
                          const std::vector<GpuStressVerdict>& verdicts) {
  TextTable table;
  for (const char* h : {"GPU", "verdict", "TFLOP/s", "max C", "max W", "GEMMs", "mismatches", "memtest passes", "memory errors"}) {
    table.add_column(h, std::string(h) == "verdict" ? TextTable::Align::Left : TextTable::Align::Right);
  }
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const GpuStressRecord& gpu = gpus[g];
    const GpuStressVerdict& v = verdicts[g];
    table.add_row({std::to_string(gpu.index), to_string(v.verdict), format_number(v.median_tflops, 1), format_number(v.max_temperature_c, 0),
                   format_number(v.max_power_w, 0), std::to_string(gpu.gemm_runs), std::to_string(gpu.gemm_mismatches),
                   std::to_string(gpu.memtest_passes), std::to_string(gpu.memtest_errors)});
  }
  out << "\n";
  table.print(out);
  for (const GpuStressVerdict& v : verdicts) {
    for (const StressFinding& f : v.findings) out << "  GPU " << v.index << " " << f.severity << " " << f.check << ": " << f.message << "\n";
  }
  out << "\nnode: " << to_string(node_verdict(verdicts)) << "\n";
}

}  // namespace gpubench
