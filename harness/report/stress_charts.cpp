#include "harness/report/stress_charts.hpp"

#include <algorithm>

#include "harness/report/thinned_series.hpp"
#include "harness/results/input_error.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

// The stress section is kept as read (the reader of results documents does not look into it), so each field is
// checked here as it is used.
class StressReader {
 public:
  explicit StressReader(std::string path) : path_(std::move(path)) {}

  // An absent array or object is nothing to draw; one of another type is a bad document.
  const json* optional_array(const json& object, const std::string& key, const std::string& where) const {
    return optional(object, key, where, &json::is_array, "an array");
  }
  const json* optional_object(const json& object, const std::string& key, const std::string& where) const {
    return optional(object, key, where, &json::is_object, "an object");
  }
  const json& array(const json& object, const std::string& key, const std::string& where) const {
    return required(optional_array(object, key, where), where + "." + key);
  }
  double number(const json& object, const std::string& key, const std::string& where) const {
    return required(optional(object, key, where, &json::is_number, "a number"), where + "." + key).get<double>();
  }
  long long whole_number(const json& object, const std::string& key, const std::string& where) const {
    const json& value = required(optional(object, key, where, &json::is_number_integer, "a whole number"),
                                 where + "." + key);
    if (value.get<long long>() < 0) fail(where + "." + key, "is negative");
    return value.get<long long>();
  }

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw InputError(path_, where, problem);
  }

 private:
  const json* optional(const json& object, const std::string& key, const std::string& where,
                       bool (json::*is_wanted)() const noexcept, const char* wanted) const {
    if (!object.contains(key)) return nullptr;
    const json& value = object.at(key);
    if (!(value.*is_wanted)()) fail(where + "." + key, "is " + std::string(value.type_name()) + ", not " + wanted);
    return &value;
  }

  const json& required(const json* value, const std::string& where) const {
    if (!value) fail(where, "absent");
    return *value;
  }

  std::string path_;
};

struct Quantity {
  const char* column;  // as the telemetry's columns name it
  const char* title;
  const char* unit;
};

constexpr Quantity kTelemetry[] = {
    {"sm_clock_mhz", "stress: SM clock", "MHz"},
    {"temperature_c", "stress: temperature", "degrees C"},
    {"power_w", "stress: power", "W"},
};

ReportChart over_time(const std::string& title, const std::string& unit) {
  ReportChart chart;
  chart.title = title + " (" + unit + ")";
  chart.x_axis = ChartXAxis::Seconds;
  chart.x_title = "seconds since the start";
  chart.y_title = unit;
  return chart;
}

ChartSeries line_of(const std::string& label, const XySeries& points) {
  ChartSeries line;
  line.label = label;
  line.x = points.x;
  line.y = points.y;
  return line;
}

XySeries window_throughput(const json& windows, const std::string& where, const StressReader& read) {
  XySeries points;
  for (std::size_t w = 0; w < windows.size(); ++w) {
    const std::string at = where + ".windows[" + std::to_string(w) + "]";
    if (!windows[w].is_object()) read.fail(at, "is not an object");
    points.x.push_back((read.number(windows[w], "start_s", at) + read.number(windows[w], "end_s", at)) / 2);
    points.y.push_back(read.number(windows[w], "tflops", at));
  }
  return points;
}

// Each column of the telemetry, as a series over its t_s column; none without a t_s column.
std::vector<XySeries> telemetry_columns(const json& telemetry, const std::vector<std::string>& wanted,
                                        const std::string& where, const StressReader& read) {
  const json& columns = read.array(telemetry, "columns", where);
  const json& samples = read.array(telemetry, "samples", where);
  std::vector<std::string> names;
  for (const json& name : columns) {
    if (!name.is_string()) read.fail(where + ".columns", "holds a name that is not a string");
    names.push_back(name.get<std::string>());
  }
  const auto column_of = [&names](const std::string& name) -> std::optional<std::size_t> {
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end()) return std::nullopt;
    return static_cast<std::size_t>(found - names.begin());
  };
  std::vector<XySeries> series(wanted.size());
  const std::optional<std::size_t> time = column_of("t_s");
  if (!time) return series;
  for (std::size_t r = 0; r < samples.size(); ++r) {
    const json& row = samples[r];
    const std::string at = where + ".samples[" + std::to_string(r) + "]";
    if (!row.is_array() || row.size() != names.size()) read.fail(at, "is not a row as long as columns");
    if (!std::all_of(row.begin(), row.end(), [](const json& v) { return v.is_number(); })) {
      read.fail(at, "holds something other than numbers");
    }
    for (std::size_t q = 0; q < wanted.size(); ++q) {
      const std::optional<std::size_t> column = column_of(wanted[q]);
      if (!column) continue;
      const double value = row[*column].get<double>();
      series[q].x.push_back(row[*time].get<double>());
      series[q].y.push_back(value < 0 ? std::nullopt : std::optional<double>(value));  // -1: not readable
    }
  }
  return series;
}

}  // namespace

std::vector<ReportChart> stress_charts(const ResultsDocument& results, const std::string& path) {
  if (results.stress.is_null()) return {};
  const StressReader read(path);
  if (!results.stress.is_object()) read.fail("stress", "is not an object");
  const json& gpus = read.array(results.stress, "gpus", "stress");
  ReportChart throughput = over_time("stress: verified GEMM throughput", "TFLOP/s");
  std::vector<ReportChart> telemetry;
  std::vector<std::string> columns;
  for (const Quantity& q : kTelemetry) {
    telemetry.push_back(over_time(q.title, q.unit));
    columns.push_back(q.column);
  }
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const std::string where = "stress.gpus[" + std::to_string(g) + "]";
    if (!gpus[g].is_object()) read.fail(where, "is not an object");
    const std::string gpu = "gpu" + std::to_string(read.whole_number(gpus[g], "index", where));
    if (const json* windows = read.optional_array(gpus[g], "windows", where)) {
      throughput.series.push_back(line_of(gpu, window_throughput(*windows, where, read)));
    }
    const json* samples = read.optional_object(gpus[g], "telemetry", where);
    if (!samples) continue;
    const std::vector<XySeries> series = telemetry_columns(*samples, columns, where + ".telemetry", read);
    for (std::size_t q = 0; q < series.size(); ++q) {
      if (series[q].x.empty()) continue;
      telemetry[q].series.push_back(line_of(gpu, thinned_series(series[q], kMostStressPoints)));
      if (series[q].x.size() > kMostStressPoints) {
        telemetry[q].notes.push_back(gpu + ": " + std::to_string(series[q].x.size()) + " readings, drawn as the lowest " +
                                     "and highest of each of " + std::to_string(kMostStressPoints / 2) + " equal stretches");
      }
    }
  }
  std::vector<ReportChart> charts;
  if (!throughput.series.empty()) charts.push_back(std::move(throughput));
  for (ReportChart& chart : telemetry) {
    if (!chart.series.empty()) charts.push_back(std::move(chart));
  }
  return charts;
}

}  // namespace gpubench
