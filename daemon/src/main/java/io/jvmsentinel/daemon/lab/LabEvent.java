package io.jvmsentinel.daemon.lab;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One machine-readable line of the lab, {@code LAB <type> key=value ...}, e.g. {@code LAB onset
 * scenario=thread-per-request phase=storm rate=200 at=1700000000000}.
 */
public record LabEvent(String type, Map<String, String> attributes) {

  public LabEvent {
    attributes = Map.copyOf(attributes);
  }

  /** Parses a lab output line; empty for any other line (JVM warnings, stack traces). */
  public static Optional<LabEvent> parse(String line) {
    String[] tokens = line.strip().split(" +");
    if (tokens.length < 2 || !tokens[0].equals("LAB")) {
      return Optional.empty();
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    for (int i = 2; i < tokens.length; i++) {
      int equals = tokens[i].indexOf('=');
      if (equals > 0) {
        attributes.put(tokens[i].substring(0, equals), tokens[i].substring(equals + 1));
      }
    }
    return Optional.of(new LabEvent(tokens[1], attributes));
  }

  public Optional<String> attribute(String key) {
    return Optional.ofNullable(attributes.get(key));
  }

  /** The {@code phase} of an onset event, or empty. */
  public Optional<String> phase() {
    return attribute("phase");
  }

  /** When the lab printed the line ({@code at}, epoch ms). */
  public long atEpochMillis() {
    return Long.parseLong(
        attribute("at").orElseThrow(() -> new IllegalStateException("no 'at' in " + this)));
  }
}
