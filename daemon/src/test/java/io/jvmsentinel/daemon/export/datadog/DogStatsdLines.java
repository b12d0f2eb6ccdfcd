package io.jvmsentinel.daemon.export.datadog;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of DogStatsD datagrams, as the Datadog Agent documents the protocol: one message
 * per line, each a metric ({@code name:value|type|@rate|#tags}), an event ({@code
 * _e{title.length,text.length}:title|text|d:|h:|k:|p:|s:|t:|#tags}) or a service check ({@code
 * _sc|name|status|d:|h:|#tags|m:message}). Anything else fails the test that reads it.
 */
public final class DogStatsdLines {
  /** Metrics the client sends about itself every 10 s; tests look past them. */
  static final String CLIENT_TELEMETRY = "datadog.dogstatsd.client.";

  private static final Pattern METRIC =
      Pattern.compile("([A-Za-z][A-Za-z0-9_.]*):(-?[0-9]+(?:\\.[0-9]+)?)\\|(c|g|ms|h|s|d)(\\|.*)?");
  private static final Pattern EVENT_HEAD = Pattern.compile("_e\\{([0-9]+),([0-9]+)\\}:");
  // Fields the client may add to any message: container id, external env, cardinality.
  private static final Set<String> ORIGIN_FIELDS = Set.of("c", "e", "card");

  private DogStatsdLines() {}

  public sealed interface Line permits Metric, Event, ServiceCheck {}

  /**
   * @param tags sorted: DogStatsD tags have no order
   */
  public record Metric(String name, double value, String type, List<String> tags) implements Line {
    public Metric {
      tags = tags.stream().sorted().toList();
    }
  }

  /**
   * @param fields {@code d}, {@code h}, {@code k}, {@code p}, {@code s}, {@code t} as present
   */
  public record Event(String title, String text, Map<String, String> fields, List<String> tags)
      implements Line {
    public Event {
      tags = tags.stream().sorted().toList();
    }
  }

  public record ServiceCheck(String name, int status, Map<String, String> fields, List<String> tags)
      implements Line {
    public ServiceCheck {
      tags = tags.stream().sorted().toList();
    }
  }

  /** Every message of one datagram; it must end with a line break, as the client sends it. */
  public static List<Line> parse(byte[] datagram) {
    String text = new String(datagram, StandardCharsets.UTF_8);
    if (!text.endsWith("\n")) {
      throw new AssertionError("datagram does not end with a line break: " + text);
    }
    List<Line> lines = new ArrayList<>();
    for (String line : text.substring(0, text.length() - 1).split("\n", -1)) {
      lines.add(parseLine(line));
    }
    return lines;
  }

  static Line parseLine(String line) {
    if (line.startsWith("_e{")) {
      return event(line);
    }
    if (line.startsWith("_sc|")) {
      return serviceCheck(line);
    }
    Matcher m = METRIC.matcher(line);
    if (!m.matches()) {
      throw new AssertionError("not a DogStatsD metric: " + line);
    }
    List<String> tags = new ArrayList<>();
    Map<String, String> fields = fields(line, m.group(4), Set.of("@", "T"), tags);
    if (fields.containsKey("@")) {
      Double.parseDouble(fields.get("@"));
    }
    return new Metric(m.group(1), Double.parseDouble(m.group(2)), m.group(3), tags);
  }

  private static Event event(String line) {
    Matcher m = EVENT_HEAD.matcher(line);
    if (!m.lookingAt()) {
      throw new AssertionError("not a DogStatsD event: " + line);
    }
    // The lengths count UTF-8 bytes of the title and text as sent (line breaks escaped).
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    int start = m.end(); // the head is ASCII: chars and bytes agree
    int titleLength = Integer.parseInt(m.group(1));
    int textLength = Integer.parseInt(m.group(2));
    if (start + titleLength + 1 + textLength > bytes.length || bytes[start + titleLength] != '|') {
      throw new AssertionError("event lengths do not match its title and text: " + line);
    }
    String title = utf8(bytes, start, titleLength);
    String text = utf8(bytes, start + titleLength + 1, textLength);
    String rest = utf8(bytes, start + titleLength + 1 + textLength, -1);
    List<String> tags = new ArrayList<>();
    Map<String, String> fields = fields(line, rest, Set.of("d", "h", "k", "p", "s", "t"), tags);
    check(fields, "d", "[0-9]+", line);
    check(fields, "p", "normal|low", line);
    check(fields, "t", "error|warning|info|success", line);
    return new Event(unescape(title), unescape(text), fields, tags);
  }

  private static ServiceCheck serviceCheck(String line) {
    String[] parts = line.split("\\|", 4);
    if (parts.length < 3 || !parts[1].matches("[A-Za-z][A-Za-z0-9_.]*")) {
      throw new AssertionError("not a DogStatsD service check: " + line);
    }
    if (!parts[2].matches("[0-3]")) {
      throw new AssertionError("service check status must be 0..3: " + line);
    }
    List<String> tags = new ArrayList<>();
    Map<String, String> fields =
        fields(line, parts.length == 4 ? "|" + parts[3] : "", Set.of("d", "h", "m"), tags);
    check(fields, "d", "[0-9]+", line);
    if (fields.containsKey("m")) {
      fields.put("m", unescape(fields.get("m").replace("m\\:", "m:")));
    }
    return new ServiceCheck(parts[1], Integer.parseInt(parts[2]), fields, tags);
  }

  /** {@code |key:value} fields (or {@code |#tags}, {@code |@rate}, {@code |T123}), each once. */
  private static Map<String, String> fields(
      String line, String rest, Set<String> allowed, List<String> tags) {
    Map<String, String> fields = new LinkedHashMap<>();
    if (rest == null || rest.isEmpty()) {
      return fields;
    }
    if (!rest.startsWith("|")) {
      throw new AssertionError("expected '|' before \"" + rest + "\" in: " + line);
    }
    boolean tagsSeen = false;
    for (String field : rest.substring(1).split("\\|", -1)) {
      String key;
      String value;
      if (field.startsWith("#")) {
        if (tagsSeen) {
          throw new AssertionError("two tag fields in: " + line);
        }
        tagsSeen = true;
        List<String> list = Arrays.asList(field.substring(1).split(",", -1));
        if (list.stream().anyMatch(String::isEmpty)) {
          throw new AssertionError("empty tag in: " + line);
        }
        tags.addAll(list);
        continue;
      } else if (field.startsWith("@") && allowed.contains("@")) {
        key = "@";
        value = field.substring(1);
      } else if (field.matches("T[0-9]+") && allowed.contains("T")) {
        key = "T";
        value = field.substring(1);
      } else {
        int colon = field.indexOf(':');
        if (colon < 1) {
          throw new AssertionError("malformed field \"" + field + "\" in: " + line);
        }
        key = field.substring(0, colon);
        value = field.substring(colon + 1);
        if (!allowed.contains(key) && !ORIGIN_FIELDS.contains(key)) {
          throw new AssertionError("unknown field \"" + field + "\" in: " + line);
        }
      }
      if (fields.put(key, value) != null) {
        throw new AssertionError("field " + key + " twice in: " + line);
      }
    }
    ORIGIN_FIELDS.forEach(fields::remove);
    return fields;
  }

  private static void check(Map<String, String> fields, String key, String regex, String line) {
    if (fields.containsKey(key) && !fields.get(key).matches(regex)) {
      throw new AssertionError("field " + key + " must match " + regex + " in: " + line);
    }
  }

  private static String utf8(byte[] bytes, int from, int length) {
    int end = length < 0 ? bytes.length : from + length;
    return new String(bytes, from, end - from, StandardCharsets.UTF_8);
  }

  private static String unescape(String text) {
    return text.replace("\\n", "\n");
  }
}
