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
import io.jvmsentinel.daemon.alert.SubWindows;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * GC pauses take a large share of wall-clock time: over the window, and still in its latest
 * sub-window (pressure that has already ended is not paged). A firing alert is judged on the latest
 * sub-window alone, so it resolves once the pauses stop instead of once they have averaged out of
 * the whole window.
 *
 * <p>A freeze long enough to time out the polls (a run of full GCs) is never notified; its time is
 * recovered from the collectors' totals at the first poll after, and so lies between the last
 * sample before the outage and the first after. Rates are therefore taken over the samples of an
 * answering target, the outage inside their span: the freeze counts over the time it took.
 */
public final class GcOverheadRule implements AlertRule {
  static final String SHARE = "share";
  static final String WINDOW = "windowSeconds";
  private static final String UNNOTIFIED = "unnotifiedPauseSeconds";

  @Override
  public String id() {
    return "GcOverhead";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String description() {
    return "GC pauses take a large share of wall-clock time.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(SHARE, 0.2, "fraction", "Share of wall-clock time spent in GC pauses"),
        new RuleThreshold(
            WINDOW,
            60,
            "seconds",
            "Window the share is measured over; the latest sixth of it must show half the share"
                + " (to fire, and to stay firing)"));
  }

  /** GC pauses, pushed as they happen. */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    return List.of(RuleInput.anyCadence(Signal.GC_PAUSES));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    if (!Rates.up(context)) {
      return List.of();
    }
    Duration window = Rates.seconds(context.threshold(WINDOW));
    // Only what the rule reads (the window, and the sub-window's sample before it), not the whole
    // 15-minute history every tick.
    SignalWindow answered =
        new SignalWindow(
            context.history().window(window.plus(window.dividedBy(SubWindows.PARTS))).stream()
                .filter(SignalSample::up)
                .toList());
    double share = answered.rate(window, SignalSample::gcPauseSeconds);
    double recent =
        SubWindows.rate(
            Latest.subWindow(answered, window), SignalSample::gcPauseSeconds, sample -> true);
    double resolveShare = context.threshold(SHARE) / 2;
    boolean overhead =
        context.firing("")
            || freshShare(answered, window, share, resolveShare) >= context.threshold(SHARE);
    if (Double.isNaN(share) || !overhead || !(recent >= resolveShare)) {
      return List.of();
    }
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("pauseShareOfWallTime", Math.round(share * 1000) / 1000.0);
    double unnotified = answered.increase(window, SignalSample::unnotifiedGcPauseSeconds);
    if (unnotified > 0) {
      evidence.put(UNNOTIFIED, Math.round(unnotified * 10) / 10.0);
    }
    Map<String, Object> worst = new TreeMap<>();
    context
        .history()
        .latest()
        .orElseThrow()
        .details()
        .gcPauses()
        .forEach(
            (collectorAndCause, pauses) ->
                worst.put(
                    collectorAndCause,
                    Math.round(pauses.maxMillis()) + " ms max, " + pauses.count() + " pauses"));
    evidence.put("pausesByCollectorAndCause", worst);
    return List.of(
        new Finding(
            "",
            "GC overhead on "
                + context.target()
                + ": "
                + Rates.percent(share)
                + " of time in GC pauses",
            "Over the last "
                + window.toSeconds()
                + " s the target spent "
                + Rates.percent(share)
                + " of wall-clock time paused for garbage collection"
                + (unnotified > 0
                    ? unnotified(unnotified, answeredThroughout(context, window))
                    : "")
                + ": the heap is too small for the live data or the allocation rate.",
            "Check heap use after GC (jvm_memory_used_bytes of the old generation) for a leak;"
                + " raise -Xmx or reduce allocation.",
            evidence));
  }

  /**
   * The share of the window paused from the latest sub-window under the resolve share on (the whole
   * window's when none is): an episode that ended and resolved still fills half the window, and one
   * full GC after it paged it again.
   */
  private static double freshShare(
      SignalWindow answered, Duration window, double share, double resolveShare) {
    List<List<SignalSample>> slices = SubWindows.of(answered, window, SubWindows.PARTS);
    List<List<SignalSample>> fresh =
        SubWindows.since(
            slices,
            slice ->
                SubWindows.rate(slice, SignalSample::gcPauseSeconds, s -> true) < resolveShare);
    if (fresh.size() == slices.size()) {
      return share;
    }
    double paused = 0;
    // From the quiet sub-window on: pressure that began within it counts.
    for (List<SignalSample> slice :
        slices.subList(slices.size() - fresh.size() - 1, slices.size())) {
      paused += slice.isEmpty() ? 0 : SignalWindow.increase(slice, SignalSample::gcPauseSeconds);
    }
    // Over the span the window's share is taken over (shorter while the history is).
    double all = answered.increase(window, SignalSample::gcPauseSeconds);
    return all > 0 ? share * Math.min(1, paused / all) : share;
  }

  private static boolean answeredThroughout(RuleContext context, Duration window) {
    return context.history().window(window).stream().allMatch(SignalSample::up);
  }

  private static String unnotified(double seconds, boolean answeredThroughout) {
    return String.format(
        java.util.Locale.ROOT,
        answeredThroughout
            ? " (%.1f s of it in collections whose notifications were lost: read from the"
                + " collectors' totals)"
            : " (%.1f s of it in collections that froze the target so long it did not answer JMX:"
                + " read from the collectors' totals when it answered again)",
        seconds);
  }
}
