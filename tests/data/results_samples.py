"""A metric's repetitions and the statistics gpubench writes of them (docs/results-schema.md), for the scripts that
make test documents (show/make_show_data.py, report/make_report_data.py)."""
import statistics


def with_samples(metric, samples):
    median = statistics.median(samples)
    mean = statistics.fmean(samples)
    stddev = statistics.stdev(samples) if len(samples) > 1 else 0.0
    metric.update(samples=samples, value=median)
    metric["statistics"] = {"count": len(samples), "median": median, "mean": mean, "min": min(samples),
                            "max": max(samples), "stddev": stddev,
                            "mad": statistics.median([abs(s - median) for s in samples]), "cv": stddev / mean}
    if "peak" in metric:
        metric["efficiency"] = median / metric["peak"]
    return metric
