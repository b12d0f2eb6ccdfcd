package io.jvmsentinel.daemon.export.datadog;

import io.jvmsentinel.collectors.text.SafeText;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Metric names and tags as a DogStatsD datagram can carry them. The datagram separates fields with
 * '|', tags with ',' and messages with line breaks, so those never appear inside a name or a tag;
 * tag values (many name the target's code, pools or peers) are also cut to the Agent's own limit of
 * {@value #TAG_MAX} characters and {@linkplain SafeText made safe}.
 */
public final class DogStatsdNames {
  private static final Pattern NOT_IN_NAME = Pattern.compile("[^A-Za-z0-9_.]");
  private static final Pattern NOT_IN_TAG = Pattern.compile("[,|\\r\\n]");
  // The Agent cuts longer tags itself: cut here, a tag stays what this daemon meant.
  static final int TAG_MAX = 200;

  private DogStatsdNames() {}

  /** The Micrometer dot.case name as it is, e.g. {@code jvm.memory.used}. */
  public static String name(String micrometerName) {
    return NOT_IN_NAME.matcher(micrometerName).replaceAll("_");
  }

  /** {@code key:value} for every tag of the meter (common tags included), in the id's order. */
  public static String[] tags(Meter.Id id) {
    List<String> tags = new ArrayList<>();
    for (Tag tag : id.getTagsAsIterable()) {
      // An empty value is a key this target lacks (see TargetTagKeys): Datadog would keep "key:".
      if (!tag.getValue().isEmpty()) {
        tags.add(tag(tag.getKey(), tag.getValue()));
      }
    }
    return tags.toArray(String[]::new);
  }

  public static String[] tags(Map<String, String> tags) {
    return tags.entrySet().stream()
        .filter(e -> !e.getValue().isEmpty())
        .map(e -> tag(e.getKey(), e.getValue()))
        .toArray(String[]::new);
  }

  public static String tag(String key, String value) {
    String tag = clean(key) + ":" + clean(value);
    return SafeText.bounded(tag, TAG_MAX);
  }

  /**
   * A service check's message: the last field of its datagram, so the Agent must not find a field
   * separator in it (a '|#' there would add tags); the client escapes its line breaks.
   */
  public static String message(String text) {
    return SafeText.of(text.replace('|', '/'));
  }

  private static String clean(String text) {
    return NOT_IN_TAG.matcher(text).replaceAll("_");
  }
}
