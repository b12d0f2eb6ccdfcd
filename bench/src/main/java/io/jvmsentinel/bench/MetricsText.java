package io.jvmsentinel.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The values of one metric per {@code target} label in a Prometheus text scrape. */
final class MetricsText {
  private static final Pattern TARGET = Pattern.compile("[{,]target=\"([^\"]*)\"");

  private MetricsText() {}

  /**
   * {@code name}'s samples (exactly that name, any other labels) by target; a target with several
   * samples gets their sum. NaN samples are left out.
   */
  static Map<String, Double> byTarget(String body, String name) {
    Map<String, Double> values = new LinkedHashMap<>();
    for (String line : body.split("\n")) {
      if (!line.startsWith(name + "{")) {
        continue;
      }
      Matcher target = TARGET.matcher(line);
      int space = line.lastIndexOf(' ');
      if (!target.find() || space < 0) {
        continue;
      }
      double value = Double.parseDouble(line.substring(space + 1));
      if (!Double.isNaN(value)) {
        values.merge(target.group(1), value, Double::sum);
      }
    }
    return values;
  }
}
