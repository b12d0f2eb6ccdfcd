package io.jvmsentinel.daemon.export.otlp;

import java.util.Map;
import java.util.Objects;

/**
 * How one of our meters is named in OTLP: the OpenTelemetry semantic-convention name, its UCUM
 * unit, the attribute each of our tags becomes (with value translations where the conventions
 * define the values), and the factor that converts our unit into theirs.
 *
 * @param name the OpenTelemetry metric name
 * @param unit the UCUM unit, e.g. {@code By}, {@code s}, {@code {thread}}
 * @param attributes our tag key to the attribute key; tags not listed keep their key
 * @param values per our tag key, our value to the convention's value; others are kept
 * @param scale multiplies every value (1 unless the units differ, e.g. 1e-9 for ns to s)
 */
public record OtelName(
    String name,
    String unit,
    Map<String, String> attributes,
    Map<String, Map<String, String>> values,
    double scale) {
  public OtelName {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(unit, "unit");
    attributes = Map.copyOf(attributes);
    values = Map.copyOf(values);
  }

  static OtelName of(String name, String unit) {
    return new OtelName(name, unit, Map.of(), Map.of(), 1);
  }

  OtelName attribute(String tag, String attribute) {
    Map<String, String> more = new java.util.HashMap<>(attributes);
    more.put(tag, attribute);
    return new OtelName(name, unit, more, values, scale);
  }

  OtelName value(String tag, String ours, String theirs) {
    Map<String, Map<String, String>> more = new java.util.HashMap<>(values);
    Map<String, String> forTag = new java.util.HashMap<>(values.getOrDefault(tag, Map.of()));
    forTag.put(ours, theirs);
    more.put(tag, Map.copyOf(forTag));
    return new OtelName(name, unit, attributes, more, scale);
  }

  OtelName scaledBy(double factor) {
    return new OtelName(name, unit, attributes, values, factor);
  }
}
