package io.jvmsentinel.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One part of the benchmark: measures something and returns its figures. Sections are listed in
 * {@link BenchMain#SECTIONS}; a new one (e.g. the storm cost) is one class and one line there.
 */
interface BenchSection {

  /** The key of this section in the results JSON, e.g. {@code overhead}. */
  String name();

  /**
   * Whether this section runs only when named in {@code --only} (the 50-JVM fleet: too heavy for a
   * full run or the smoke run in {@code ./mvnw verify}).
   */
  default boolean onRequestOnly() {
    return false;
  }

  /** Runs the measurement; figures go into {@link Result#json}, one line per figure to text. */
  Result run(BenchContext context) throws Exception;

  /** A section's figures, its human summary and the issue-7 targets it checks. */
  final class Result {
    final Map<String, Object> json = new LinkedHashMap<>();
    final List<String> summary = new ArrayList<>();
    final List<TargetCheck> targets = new ArrayList<>();

    Result put(String key, Object value) {
      json.put(key, value);
      return this;
    }

    Result line(String format, Object... args) {
      summary.add(String.format(java.util.Locale.ROOT, format, args));
      return this;
    }

    Result target(String target, String goal, String measured, Boolean met) {
      targets.add(new TargetCheck(target, goal, measured, met));
      return this;
    }
  }

  /** A target of issue 7 and whether this run met it ({@code null}: not measured in this run). */
  record TargetCheck(String target, String goal, String measured, Boolean met) {
    Map<String, Object> toJson() {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("target", target);
      map.put("goal", goal);
      map.put("measured", measured);
      map.put("met", met);
      return map;
    }
  }
}
