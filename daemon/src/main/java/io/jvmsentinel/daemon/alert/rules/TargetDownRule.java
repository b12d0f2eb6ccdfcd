package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleInput.Signal;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SignalWindow;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The daemon cannot reach the target: it is down, hung, or its JMX port is closed. What the target
 * was doing just before it went dark is told when it points at a cause: a JVM thrashing in GC, or
 * starting threads by the thousand, stops answering JMX before it dies or recovers.
 */
public final class TargetDownRule implements AlertRule {
  static final String DOWN_FOR = "downForSeconds";
  // The last moments the daemon saw, and what in them is worth naming (GcOverhead's and
  // ThreadStorm's default lines).
  private static final Duration BEFORE = Duration.ofSeconds(30);
  private static final double GC_SHARE_WORTH_NAMING = 0.2;
  private static final double THREAD_STARTS_WORTH_NAMING = 50;

  @Override
  public String id() {
    return "TargetDown";
  }

  @Override
  public Severity severity() {
    return Severity.CRITICAL;
  }

  @Override
  public String description() {
    return "The daemon has not been able to reach the target for a while.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(DOWN_FOR, 60, "seconds", "How long the target must be unreachable"));
  }

  @Override
  public Duration clearFor() {
    return Duration.ZERO;
  }

  /** The connection's state, known as it changes. */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    return List.of(RuleInput.anyCadence(Signal.CONNECTION));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    SignalSample latest = context.history().latest().orElse(null);
    if (latest == null || latest.up() || seenDownSeconds(latest) < context.threshold(DOWN_FOR)) {
      return List.of();
    }
    SignalSample.Target status = latest.details().target();
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("address", status.address());
    evidence.put("downSince", status.since().toString());
    if (status.lastFailure() != null) {
      evidence.put("lastFailure", status.lastFailure().toString());
    }
    evidence.put("lastError", status.lastError());
    evidence.put("connectAttempts", status.connectAttempts());
    String before = beforeItWentDark(context.history(), latest, evidence);
    return List.of(
        new Finding(
            "",
            "Target "
                + context.target()
                + " unreachable for "
                + Math.round(latest.downSeconds())
                + " s: "
                + status.lastError(),
            "The daemon has not held a working JMX connection to "
                + status.address()
                + " since "
                + status.since()
                + ". The JVM may be down, hung (a poll timed out), or its JMX port closed or"
                + " firewalled; the daemon keeps reconnecting with backoff."
                + before,
            "Check the process and its logs; check the JMX port and credentials; a hung JVM:"
                + " take a thread dump (jstack -F / jcmd) before restarting it.",
            evidence));
  }

  /**
   * How long the target has been seen down: from when it went down until the daemon last found it
   * unreachable. Between reconnect attempts nobody looks (the backoff grows to {@code
   * reconnectMaxDelay}, 30 s by default), so the time since it went down overstates the outage by
   * up to that: measured, a 33 s JMX outage read as 51 s down, and one of 55 s paged as 60 s down
   * although the target answered again before anyone tried. Recordings made before the moment was
   * sampled: the time since it went down.
   */
  static double seenDownSeconds(SignalSample latest) {
    SignalSample.Target status = latest.details().target();
    if (status.lastFailure() == null) {
      return latest.downSeconds();
    }
    double seen = Duration.between(status.since(), status.lastFailure()).toMillis() / 1000.0;
    return Math.min(latest.downSeconds(), seen);
  }

  /**
   * What the target did in its last {@link #BEFORE} of data, when that names a likely cause: adds
   * it to the evidence and returns a sentence for the explanation (empty when nothing stood out or
   * nothing is known).
   */
  private static String beforeItWentDark(
      SignalWindow history, SignalSample latest, Map<String, Object> evidence) {
    SignalWindow lastSeen =
        history.endingAgo(Duration.ofMillis((long) (latest.downSeconds() * 1000)));
    double gcShare = lastSeen.rate(BEFORE, SignalSample::gcPauseSeconds, SignalSample::up);
    double threadStarts = lastSeen.rate(BEFORE, SignalSample::threadStarts, SignalSample::up);
    StringBuilder said = new StringBuilder();
    if (gcShare >= GC_SHARE_WORTH_NAMING) {
      evidence.put("gcPauseShareBeforeDown", Math.round(gcShare * 1000) / 1000.0);
      said.append(
          " In its last "
              + BEFORE.toSeconds()
              + " s before it stopped answering it spent "
              + Rates.percent(gcShare)
              + " of the time in GC pauses: a JVM thrashing in GC (heap exhausted, an"
              + " OutOfMemoryError near) stops answering JMX; check its GC log and heap.");
    }
    if (threadStarts >= THREAD_STARTS_WORTH_NAMING) {
      evidence.put("threadStartsPerSecondBeforeDown", Math.round(threadStarts * 10) / 10.0);
      said.append(
          " In its last "
              + BEFORE.toSeconds()
              + " s it started "
              + Math.round(threadStarts)
              + " threads a second: a thread storm can exhaust memory or native threads"
              + " (\"unable to create native thread\") and stop JMX answering.");
    }
    return said.toString();
  }
}
