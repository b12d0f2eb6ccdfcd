package io.jvmsentinel.daemon.alert;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whether each rule can judge a target with the data the target really delivers, and if not, why,
 * in words an on-call engineer understands: {@code "judged from JMX TotalStartedThreadCount every 1
 * s"}, or {@code "not judged: thread counts arrive every 10 s, the rule's 5 s window needs a
 * reading at least every 2.5 s"}, or {@code "not judged: needs JFR compilation events; this target
 * has none (...)"}. Computed from each rule's declared {@link RuleInput}s with the thresholds in
 * effect for the target (a longer window tolerates sparser readings), never silently: {@code
 * /api/v1/targets} lists it per target.
 *
 * <p>A signal's cadence is how often a fresh value reaches the rules: JFR events are counted as
 * they arrive and sampled every detection tick; JMX values arrive every full poll ({@code
 * pollInterval}), or every fast detection poll while the target has no JFR events; pushed
 * notifications as they happen. Nothing reaches a rule faster than the detection tick.
 */
public final class RuleCoverage {
  private final List<AlertRule> rules;
  private final RuleSettings settings;
  private final boolean enabled;
  private final Duration tick;

  /**
   * @param rules every rule the daemon has (judged or not)
   * @param settings thresholds and disabled rules
   * @param enabled false when detection is off ({@code detection.enabled: false})
   * @param tick how often the rules run ({@code detection.interval})
   */
  public RuleCoverage(
      List<AlertRule> rules, RuleSettings settings, boolean enabled, Duration tick) {
    this.rules = List.copyOf(rules);
    this.settings = settings;
    this.enabled = enabled;
    this.tick = tick;
  }

  /**
   * What one target delivers now.
   *
   * @param jfrEvents whether JFR events flow from the target
   * @param jfrState why not, when they do not (the JFR stream's state, e.g. "the target has no
   *     FlightRecorder MBean, so only JMX metrics are collected")
   * @param pollInterval how often the JMX values are polled in full
   * @param detectionPollInterval how often detection's JMX values are read while the target has no
   *     JFR events (the fast detection poll, or the poll interval when that is off)
   * @param missingEvents JFR event types the target's JVM does not have (jdk.Deoptimization before
   *     JDK 14): a signal only they carry comes from JMX, or not at all
   */
  public record Sources(
      boolean jfrEvents,
      String jfrState,
      Duration pollInterval,
      Duration detectionPollInterval,
      Set<String> missingEvents) {
    public Sources {
      missingEvents = Set.copyOf(missingEvents);
    }

    public Sources(
        boolean jfrEvents, String jfrState, Duration pollInterval, Duration detectionPollInterval) {
      this(jfrEvents, jfrState, pollInterval, detectionPollInterval, Set.of());
    }

    /** Whether JFR events carry {@code signal} from this target. */
    boolean jfrCarries(RuleInput.Signal signal) {
      return jfrEvents && signal.jfr() != null && !missingEvents.containsAll(signal.events());
    }
  }

  /** Rule id to whether it is judged on {@code target} and from what, or why not; rule order. */
  public Map<String, String> judgements(String target, Sources sources) {
    Map<String, String> result = new LinkedHashMap<>();
    for (AlertRule rule : rules) {
      result.put(rule.id(), judgement(rule, target, sources));
    }
    return result;
  }

  private String judgement(AlertRule rule, String target, Sources sources) {
    if (!enabled) {
      return "not judged: detection is off (detection.enabled: false)";
    }
    if (!settings.enabled(rule)) {
      return "not judged: switched off (detection.disabled)";
    }
    List<String> from = new ArrayList<>();
    for (RuleInput input : rule.inputs(settings.thresholds(rule, target))) {
      RuleInput.Signal signal = input.signal();
      boolean jfr = sources.jfrCarries(signal);
      if (!jfr && signal.jfrOnly()) {
        return "not judged: needs JFR "
            + signal.readings()
            + "; this target has none ("
            + (sources.jfrEvents()
                ? "its JVM has no " + String.join(" or ", signal.events())
                : sources.jfrState() == null ? "JFR state unknown" : sources.jfrState())
            + ")";
      }
      Duration arrives = jfr ? null : jmxCadence(signal, sources);
      // A value is read into the rules once per detection tick, however often it arrives.
      Duration reaches = arrives == null || arrives.compareTo(tick) < 0 ? tick : arrives;
      if (input.every() != null && reaches.compareTo(input.every()) > 0) {
        return "not judged: "
            + signal.readings()
            + (arrives != null && arrives.equals(reaches)
                ? " arrive every " + seconds(reaches)
                : " are sampled every " + seconds(reaches) + " (detection.interval)")
            + ", "
            + input.because()
            + " needs a reading at least every "
            + seconds(input.every());
      }
      if (jfr) {
        from.add(jfrSource(signal, sources));
      } else if (arrives == null) {
        from.add(signal.jmx() + " as they arrive");
      } else {
        from.add(signal.jmx() + " every " + seconds(arrives));
      }
    }
    return from.isEmpty() ? "judged" : "judged from " + String.join(" and ", from);
  }

  /**
   * The JFR events a signal is judged from on this target: all of them, or those its JVM has when
   * it lacks some ("JFR jdk.Compilation events (its JVM has no jdk.Deoptimization)").
   */
  private static String jfrSource(RuleInput.Signal signal, Sources sources) {
    List<String> lacking =
        signal.events().stream().filter(sources.missingEvents()::contains).toList();
    if (lacking.isEmpty()) {
      return signal.jfr();
    }
    List<String> has = signal.events().stream().filter(e -> !lacking.contains(e)).toList();
    return "JFR "
        + String.join(" and ", has)
        + " events (its JVM has no "
        + String.join(" or ", lacking)
        + ")";
  }

  /** How often a JMX-sourced signal brings a fresh value; null when pushed as it happens. */
  private static Duration jmxCadence(RuleInput.Signal signal, Sources sources) {
    return switch (signal.jmxRead()) {
      case PUSHED -> null;
      case FULL_POLL -> sources.pollInterval();
      // The fast detection poll runs only while the target has no JFR events.
      case DETECTION_POLL ->
          sources.jfrEvents() ? sources.pollInterval() : sources.detectionPollInterval();
    };
  }

  /** {@code 10 s}, {@code 2.5 s}, {@code 0.5 s}. */
  public static String seconds(Duration duration) {
    long millis = duration.toMillis();
    if (millis % 1000 == 0) {
      return millis / 1000 + " s";
    }
    return String.format(Locale.ROOT, "%.3f", millis / 1000.0).replaceAll("0+$", "") + " s";
  }
}
