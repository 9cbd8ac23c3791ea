#include "harness/watch/watch_timeline.hpp"

#include <cmath>

#include "harness/results/input_error.hpp"
#include "harness/results/wrong_type_error.hpp"
#include "harness/watch/thread_wait.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

constexpr const char* kNotAWatchDocument = "the file may be truncated or not a gpubench watch timeline";

struct OptionalField {
  const char* name;
  std::optional<double> GpuSample::*member;
  bool share;  // must lie in 0..1
};

constexpr OptionalField kSampleFields[] = {
    {"utilization", &GpuSample::utilization, true},      {"memory_used_gib", &GpuSample::memory_used_gib, false},
    {"memory_total_gib", &GpuSample::memory_total_gib, false}, {"power_w", &GpuSample::power_w, false},
    {"sm_clock_mhz", &GpuSample::sm_clock_mhz, false},   {"temperature_c", &GpuSample::temperature_c, false},
    {"sm_active", &GpuSample::sm_active, true},          {"sm_occupancy", &GpuSample::sm_occupancy, true},
    {"tensor_active", &GpuSample::tensor_active, true},  {"dram_active", &GpuSample::dram_active, true},
    {"fp64_active", &GpuSample::fp64_active, true},      {"fp32_active", &GpuSample::fp32_active, true},
    {"fp16_active", &GpuSample::fp16_active, true},      {"pcie_tx_gbps", &GpuSample::pcie_tx_gbps, false},
    {"pcie_rx_gbps", &GpuSample::pcie_rx_gbps, false},   {"nvlink_tx_gbps", &GpuSample::nvlink_tx_gbps, false},
    {"nvlink_rx_gbps", &GpuSample::nvlink_rx_gbps, false},
};

json sample_json(const GpuSample& sample) {
  json out{{"t_s", sample.t_s}};
  for (const OptionalField& field : kSampleFields) {
    if (sample.*field.member) out[field.name] = *(sample.*field.member);
  }
  if (sample.clock_event_reasons) out["clock_event_reasons"] = *sample.clock_event_reasons;
  if (sample.pcie_gen) out["pcie_gen"] = *sample.pcie_gen;
  if (sample.pcie_width) out["pcie_width"] = *sample.pcie_width;
  return out;
}

json gpu_json(const GpuTimeline& gpu) {
  json out{{"index", gpu.index}, {"name", gpu.name}, {"samples", json::array()}};
  if (gpu.dram_peak_gbps) out["dram_peak_gbps"] = *gpu.dram_peak_gbps;
  if (gpu.pcie_max_gen) out["pcie_max_gen"] = *gpu.pcie_max_gen;
  if (gpu.pcie_max_width) out["pcie_max_width"] = *gpu.pcie_max_width;
  if (gpu.slowdown_temperature_c) out["slowdown_temperature_c"] = *gpu.slowdown_temperature_c;
  if (gpu.power_limit_w) out["power_limit_w"] = *gpu.power_limit_w;
  if (gpu.default_power_limit_w) out["default_power_limit_w"] = *gpu.default_power_limit_w;
  if (!gpu.events_unwatched.empty()) out["events_unwatched"] = gpu.events_unwatched;
  for (const GpuSample& sample : gpu.samples) out["samples"].push_back(sample_json(sample));
  return out;
}

// Field access that names the file and the field's path ("gpus[0].samples[3].sm_active").
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  const json& member(const json& object, const std::string& key, const std::string& path) const {
    if (!object.is_object()) throw InputError(source_, path, "expected an object", kNotAWatchDocument);
    const auto it = object.find(key);
    if (it == object.end()) throw InputError(source_, path + key, "missing", kNotAWatchDocument);
    return *it;
  }
  const json& array(const json& object, const std::string& key, const std::string& path) const {
    const json& value = member(object, key, path);
    if (!value.is_array()) throw InputError(source_, path + key, "expected an array");
    return value;
  }
  double number(const json& value, const std::string& path) const {
    if (!value.is_number()) {
      throw InputError(source_, path, "expected a number, found " + std::string(value.type_name()));
    }
    const double x = value.get<double>();
    if (!std::isfinite(x)) throw InputError(source_, path, "not a finite number");
    return x;
  }
  double non_negative(const json& value, const std::string& path) const {
    const double x = number(value, path);
    if (x < 0) throw InputError(source_, path, "negative (" + json(x).dump() + ")");
    return x;
  }
  double share(const json& value, const std::string& path) const {
    const double x = number(value, path);
    if (x < 0 || x > 1) throw InputError(source_, path, json(x).dump() + " is not a share between 0 and 1");
    return x;
  }
  int whole(const json& value, const std::string& path) const {
    if (!value.is_number_integer()) throw InputError(source_, path, "expected a whole number");
    return value.get<int>();
  }
  std::optional<int> optional_whole(const json& object, const std::string& key, const std::string& path) const {
    return object.contains(key) ? std::optional<int>(whole(object.at(key), path + key)) : std::nullopt;
  }
  std::optional<double> optional_number(const json& object, const std::string& key, const std::string& path) const {
    return object.contains(key) ? std::optional<double>(non_negative(object.at(key), path + key)) : std::nullopt;
  }
  std::string optional_text(const json& object, const std::string& key, const std::string& path) const {
    const auto it = object.find(key);
    if (it == object.end()) return "";
    if (!it->is_string()) fail(path + key, "expected text");
    return it->get<std::string>();
  }
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw InputError(source_, path, problem);
  }

 private:
  std::string source_;
};

GpuSample read_sample(const Reader& read, const json& object, const std::string& path) {
  GpuSample sample;
  sample.t_s = read.non_negative(read.member(object, "t_s", path), path + "t_s");
  for (const OptionalField& field : kSampleFields) {
    if (!object.contains(field.name)) continue;
    const json& value = object.at(field.name);
    const std::string where = path + field.name;
    sample.*field.member = field.share ? read.share(value, where) : read.non_negative(value, where);
  }
  if (object.contains("clock_event_reasons")) {
    const json& reasons = object.at("clock_event_reasons");
    if (!reasons.is_number_unsigned()) {
      read.fail(path + "clock_event_reasons", "expected NVML's bit mask, a whole number");
    }
    sample.clock_event_reasons = reasons.get<std::uint64_t>();
  }
  sample.pcie_gen = read.optional_whole(object, "pcie_gen", path);
  sample.pcie_width = read.optional_whole(object, "pcie_width", path);
  return sample;
}

GpuTimeline read_gpu(const Reader& read, const json& object, const std::string& path) {
  GpuTimeline gpu;
  gpu.index = read.whole(read.member(object, "index", path), path + "index");
  gpu.name = object.value("name", "");
  gpu.dram_peak_gbps = read.optional_number(object, "dram_peak_gbps", path);
  gpu.pcie_max_gen = read.optional_whole(object, "pcie_max_gen", path);
  gpu.pcie_max_width = read.optional_whole(object, "pcie_max_width", path);
  gpu.slowdown_temperature_c = read.optional_number(object, "slowdown_temperature_c", path);
  gpu.power_limit_w = read.optional_number(object, "power_limit_w", path);
  gpu.default_power_limit_w = read.optional_number(object, "default_power_limit_w", path);
  gpu.events_unwatched = read.optional_text(object, "events_unwatched", path);
  const json& samples = read.array(object, "samples", path);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const std::string where = path + "samples[" + std::to_string(i) + "].";
    gpu.samples.push_back(read_sample(read, samples[i], where));
    if (i > 0 && gpu.samples[i].t_s < gpu.samples[i - 1].t_s) {
      read.fail(where + "t_s", "earlier than the sample before");
    }
  }
  return gpu;
}

HostSample::Threads read_threads(const Reader& read, const json& object, const std::string& path) {
  HostSample::Threads threads;
  const auto count = [&](const char* key) {
    const int n = read.whole(read.member(object, key, path), path + key);
    if (n < 0) read.fail(path + key, "negative");
    return n;
  };
  threads.total = count("total");
  threads.running = count("running");
  threads.working = count("working");
  const json& waits = read.member(object, "waits", path);
  if (!waits.is_object()) read.fail(path + "waits", "expected an object of counts by what the threads waited on");
  for (const auto& [kind, n] : waits.items()) {
    if (!wait_kind_from_name(kind)) {
      read.fail(path + "waits." + kind, "not a kind of wait (disk, network, sleep, lock, gpu, local or other)");
    }
    threads.waits[kind] = read.whole(n, path + "waits." + kind);
  }
  threads.wait_detail = read.optional_text(object, "wait_detail", path);
  return threads;
}

HostSample read_host_sample(const Reader& read, const json& object, const std::string& path) {
  HostSample sample;
  sample.t_s = read.non_negative(read.member(object, "t_s", path), path + "t_s");
  sample.cpu_cores = read.non_negative(read.member(object, "cpu_cores", path), path + "cpu_cores");
  sample.busiest_thread = read.share(read.member(object, "busiest_thread", path), path + "busiest_thread");
  if (object.contains("io_wait")) sample.io_wait = read.share(object.at("io_wait"), path + "io_wait");
  if (object.contains("threads")) sample.threads = read_threads(read, object.at("threads"), path + "threads.");
  sample.storage_read_gbps = read.optional_number(object, "storage_read_gbps", path);
  sample.storage_write_gbps = read.optional_number(object, "storage_write_gbps", path);
  return sample;
}

WatchEvent read_event(const Reader& read, const json& object, const std::string& path) {
  WatchEvent event;
  event.t_s = read.non_negative(read.member(object, "t_s", path), path + "t_s");
  event.gpu = read.whole(read.member(object, "gpu", path), path + "gpu");
  event.kind = read.member(object, "kind", path).get<std::string>();
  if (event.kind != "xid" && event.kind != "ecc_corrected" && event.kind != "ecc_uncorrected") {
    read.fail(path + "kind", "'" + event.kind + "' is not xid, ecc_corrected or ecc_uncorrected");
  }
  event.code = read.member(object, "code", path).get<long long>();
  event.detail = object.value("detail", "");
  return event;
}

}  // namespace

json to_json(const WatchTimeline& timeline) {
  json out{{"schema", kWatchSchema}, {"command", timeline.command}, {"interval_s", timeline.interval_s},
           {"cpus_allowed", timeline.cpus_allowed}, {"gpus", json::array()}, {"host", json::array()},
           {"events", json::array()}};
  for (const GpuTimeline& gpu : timeline.gpus) out["gpus"].push_back(gpu_json(gpu));
  for (const HostSample& s : timeline.host) {
    json host{{"t_s", s.t_s}, {"cpu_cores", s.cpu_cores}, {"busiest_thread", s.busiest_thread}};
    if (s.io_wait) host["io_wait"] = *s.io_wait;
    if (s.threads) {
      host["threads"] = {{"total", s.threads->total},
                         {"running", s.threads->running},
                         {"working", s.threads->working},
                         {"waits", s.threads->waits}};
      if (!s.threads->wait_detail.empty()) host["threads"]["wait_detail"] = s.threads->wait_detail;
    }
    if (s.storage_read_gbps) host["storage_read_gbps"] = *s.storage_read_gbps;
    if (s.storage_write_gbps) host["storage_write_gbps"] = *s.storage_write_gbps;
    out["host"].push_back(std::move(host));
  }
  for (const WatchEvent& e : timeline.events) {
    out["events"].push_back({{"t_s", e.t_s}, {"gpu", e.gpu}, {"kind", e.kind}, {"code", e.code}, {"detail", e.detail}});
  }
  return out;
}

WatchTimeline watch_timeline_from_json(const json& document, const std::string& source) {
  return with_wrong_types_as_input_errors(source, kNotAWatchDocument, [&] {
    const Reader read(source);
    const json& schema = read.member(document, "schema", "");
    if (schema != kWatchSchema) {
      throw InputError(source, "schema", "is " + schema.dump() + ", expected \"" + kWatchSchema + "\"",
                       "a watch timeline is written by `gpubench watch`");
    }
    WatchTimeline timeline;
    timeline.command = read.member(document, "command", "").get<std::vector<std::string>>();
    timeline.interval_s = read.non_negative(read.member(document, "interval_s", ""), "interval_s");
    if (timeline.interval_s <= 0) read.fail("interval_s", "must be above 0");
    timeline.cpus_allowed = read.whole(read.member(document, "cpus_allowed", ""), "cpus_allowed");
    const json& gpus = read.array(document, "gpus", "");
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      timeline.gpus.push_back(read_gpu(read, gpus[i], "gpus[" + std::to_string(i) + "]."));
    }
    const json& host = read.array(document, "host", "");
    for (std::size_t i = 0; i < host.size(); ++i) {
      const std::string where = "host[" + std::to_string(i) + "].";
      timeline.host.push_back(read_host_sample(read, host[i], where));
      if (i > 0 && timeline.host[i].t_s < timeline.host[i - 1].t_s) {
        read.fail(where + "t_s", "earlier than the sample before");
      }
    }
    const json& events = read.array(document, "events", "");
    for (std::size_t i = 0; i < events.size(); ++i) {
      timeline.events.push_back(read_event(read, events[i], "events[" + std::to_string(i) + "]."));
    }
    return timeline;
  });
}

}  // namespace gpubench
