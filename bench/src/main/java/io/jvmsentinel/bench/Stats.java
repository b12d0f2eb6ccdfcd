package io.jvmsentinel.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Order statistics over a small sample, and rounding for stable JSON. */
final class Stats {
  private Stats() {}

  static double median(List<Double> values) {
    return percentile(values, 50);
  }

  /** Nearest-rank percentile; NaN for no values. */
  static double percentile(List<Double> values, double p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    if (p == 50 && sorted.size() % 2 == 0) {
      int mid = sorted.size() / 2;
      return (sorted.get(mid - 1) + sorted.get(mid)) / 2;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }

  static double min(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  static double max(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  /** {@code median}, {@code min}, {@code max} and {@code n}, rounded to {@code digits}. */
  static Map<String, Object> summary(List<Double> values, int digits) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("median", round(median(values), digits));
    map.put("min", round(min(values), digits));
    map.put("max", round(max(values), digits));
    map.put("n", values.size());
    return map;
  }

  /** Rounds for the JSON; NaN and infinities become null (JSON has no NaN). */
  static Double round(double value, int digits) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return null;
    }
    double scale = Math.pow(10, digits);
    return Math.round(value * scale) / scale;
  }
}
