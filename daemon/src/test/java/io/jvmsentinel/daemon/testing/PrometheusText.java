package io.jvmsentinel.daemon.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A parsed Prometheus text-format scrape, for assertions on series, labels and values. */
public final class PrometheusText {
  private static final Pattern SAMPLE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? (\\S+)(?: \\d+)?");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

  /** One sample line. */
  public record Sample(String name, Map<String, String> labels, double value) {
    public boolean has(Map<String, String> wanted) {
      return labels.entrySet().containsAll(wanted.entrySet());
    }
  }

  private final List<Sample> samples;

  private PrometheusText(List<Sample> samples) {
    this.samples = samples;
  }

  public static PrometheusText parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException("not a Prometheus sample line: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(2) != null) {
        Matcher l = LABEL.matcher(m.group(2));
        while (l.find()) {
          labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
      }
      samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
    }
    return new PrometheusText(samples);
  }

  public List<Sample> samples() {
    return samples;
  }

  public List<Sample> series(String name, Map<String, String> labels) {
    return samples.stream().filter(s -> s.name().equals(name) && s.has(labels)).toList();
  }

  public List<Sample> series(String name) {
    return series(name, Map.of());
  }

  /** The value of the only series matching, if there is exactly one. */
  public Optional<Double> value(String name, Map<String, String> labels) {
    List<Sample> found = series(name, labels);
    if (found.size() > 1) {
      throw new IllegalStateException(
          found.size() + " series match " + name + labels + ": " + found);
    }
    return found.stream().findFirst().map(Sample::value);
  }

  public double sum(String name, Map<String, String> labels) {
    return series(name, labels).stream().mapToDouble(Sample::value).sum();
  }
}
