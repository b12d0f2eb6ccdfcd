package io.jvmsentinel.collectors.jfr.handler;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How one JFR event is enabled on the target. Every setting is explicit: an event enabled without a
 * period falls back to its built-in default (once per chunk for {@code jdk.CPULoad}), not to {@code
 * default.jfc}, so periodic events always carry a period, and stack traces and thresholds are
 * always stated.
 *
 * @param period for periodic events, how often the target emits them; null for other events
 * @param threshold for duration events, the minimum duration recorded; null for instant events
 * @param stackTrace whether the target walks the stack for each event (costly on hot events)
 */
public record EventSettings(Duration period, Duration threshold, boolean stackTrace) {

  /** A periodic event (statistics, CPU loads) emitted every {@code period}. */
  public static EventSettings periodic(Duration period) {
    return new EventSettings(period, null, false);
  }

  /** An instant event (no duration), with or without stack traces. */
  public static EventSettings instant(boolean stackTrace) {
    return new EventSettings(null, null, stackTrace);
  }

  /** A duration event recorded when it lasts at least {@code threshold}. */
  public static EventSettings duration(Duration threshold, boolean stackTrace) {
    return new EventSettings(null, threshold, stackTrace);
  }

  /**
   * The settings map for {@code RecordingStream.setSettings}, e.g. {@code jdk.X#period=1000 ms}.
   */
  public Map<String, String> toJfrSettings(String eventName) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(eventName + "#enabled", "true");
    settings.put(eventName + "#stackTrace", Boolean.toString(stackTrace));
    if (period != null) {
      settings.put(eventName + "#period", period.toMillis() + " ms");
    }
    if (threshold != null) {
      settings.put(eventName + "#threshold", threshold.toMillis() + " ms");
    }
    return settings;
  }
}
