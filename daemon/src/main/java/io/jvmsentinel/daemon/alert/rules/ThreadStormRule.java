package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Thread starts are abnormally frequent: above an absolute floor over a short window, well above
 * the target's own baseline, and sustained through the window (both halves carry starts), so a pool
 * of threads created once at start-up is not a storm. Names the code that starts them and
 * recognises known causes (seed incident 1).
 */
public final class ThreadStormRule implements AlertRule {
  static final String MIN_RATE = "minRate";
  static final String BASELINE_FACTOR = "baselineFactor";
  static final String WINDOW = "windowSeconds";
  private static final Duration BASELINE_WINDOW = Duration.ofMinutes(9);
  private static final Duration BASELINE_GAP = Duration.ofMinutes(1);

  @Override
  public String id() {
    return "ThreadStorm";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String description() {
    return "Threads are being started at an abnormal rate (one thread per request or task).";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(MIN_RATE, 50, "threads/s", "Thread start rate that is always abnormal"),
        new RuleThreshold(
            BASELINE_FACTOR,
            5,
            "ratio",
            "The rate must also exceed the target's own baseline (the rate of the 9 minutes"
                + " before the last one) by this factor"),
        new RuleThreshold(
            WINDOW,
            5,
            "seconds",
            "Window over which the rate is measured; both halves must carry starts (a one-off"
                + " burst fills only one)"));
  }

  @Override
  public Duration clearFor() {
    return Duration.ofSeconds(15);
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    Optional<SignalSample> latest = context.history().latest();
    if (latest.isEmpty() || !latest.get().up()) {
      return List.of();
    }
    // Counts from JFR and from JMX are different counters: never mix them in one rate.
    boolean jfr = latest.get().jfr();
    Predicate<SignalSample> sameSource = sample -> sample.up() && sample.jfr() == jfr;
    Duration window = Rates.seconds(context.threshold(WINDOW));
    Duration half = window.dividedBy(2);
    double rate = context.history().rate(window, SignalSample::threadStarts, sameSource);
    double newer = context.history().rate(half, SignalSample::threadStarts, sameSource);
    double older =
        context.history().rateEndingAgo(half, half, SignalSample::threadStarts, sameSource);
    double baseline =
        context
            .history()
            .rateEndingAgo(BASELINE_GAP, BASELINE_WINDOW, SignalSample::threadStarts, sameSource);
    double floor = context.threshold(MIN_RATE);
    double limit =
        Math.max(
            floor, context.threshold(BASELINE_FACTOR) * (Double.isNaN(baseline) ? 0 : baseline));
    boolean storming;
    if (context.firing("")) {
      // Hysteresis: a firing storm resolves only once the rate falls well below the floor. The
      // baseline is left out here: a long storm would otherwise become its own baseline.
      storming = rate >= floor / 2;
    } else {
      storming = rate >= limit && newer >= floor / 2 && older >= floor / 2;
    }
    if (!storming) {
      return List.of();
    }
    return List.of(finding(context, latest.get(), rate, baseline, window));
  }

  private Finding finding(
      RuleContext context, SignalSample latest, double rate, double baseline, Duration window) {
    boolean jfr = latest.jfr();
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("startsPerSecond", round(rate));
    evidence.put("baselinePerSecond", Double.isNaN(baseline) ? null : round(baseline));
    evidence.put("window", window.toSeconds() + "s");
    evidence.put(
        "source",
        jfr
            ? "JFR jdk.ThreadStart"
            : latest.jfrStormPaused()
                ? "JMX TotalStartedThreadCount; creator sites from JFR before the stream was paused"
                    + " to spare the target (jfr.stormPauseAboveRate)"
                : "JMX TotalStartedThreadCount");
    double shortLived =
        context.history().rate(window, SignalSample::shortLivedThreads, s -> s.jfr());
    if (!Double.isNaN(shortLived) && rate > 0) {
      evidence.put("shortLivedShare", round(Math.min(1, shortLived / rate)));
    }
    String summary =
        "Thread storm on " + context.target() + ": " + Rates.format(rate) + " thread starts/s";
    String explanation;
    String action;
    if (!jfr && !latest.jfrStormPaused()) {
      explanation =
          "The target starts "
              + Rates.format(rate)
              + " threads/s. Its creator sites are unknown: the target has no JFR stream"
              + " (JDK 15 or older, or JFR off), so only the JMX started-thread count is seen.";
      action =
          "Take a thread dump (jcmd <pid> Thread.print) a few times and look for short-lived"
              + " threads, or run the target on JDK 16+ so the daemon can name the creator.";
      return new Finding("", summary, explanation, action, evidence);
    }
    ThreadStartReport report = context.watched().jfr().threadStarts().snapshot(5);
    List<Map<String, Object>> sites = new ArrayList<>();
    for (ThreadStartReport.Site site : report.sites()) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("site", site.site());
      s.put("share", round(site.share()));
      s.put("count", site.count());
      s.put(
          "threadNames",
          site.threadNames().stream().map(n -> n.name() + " x" + n.count()).toList());
      s.put("parentThreads", site.parentThreads().stream().map(n -> n.name()).toList());
      s.put("stack", site.sampleStack().subList(0, Math.min(12, site.sampleStack().size())));
      sites.add(s);
    }
    evidence.put("topCreatorSites", sites);
    ThreadStartReport.Site top = report.sites().isEmpty() ? null : report.sites().get(0);
    Optional<KnownCause> cause =
        top == null
            ? Optional.empty()
            : KnownCause.match(top.site(), top.threadNames().stream().map(n -> n.name()).toList());
    if (top != null) {
      summary += ", " + Rates.percent(top.share()) + " from " + top.site();
    }
    if (cause.isPresent()) {
      evidence.put("knownCause", cause.get().id());
      summary += " (" + cause.get().title() + ")";
      explanation = cause.get().explanation();
      action =
          "Confirm with the creator stack in the evidence, then fix the connection reuse as"
              + " described; the full list is at /api/v1/targets/"
              + context.target()
              + "/thread-starts.";
    } else {
      explanation =
          "The target starts "
              + Rates.format(rate)
              + " threads/s"
              + (top == null ? "." : "; the busiest creator is " + top.site() + ".")
              + " Threads started per request or task cost CPU, memory and latency.";
      action =
          "Open the creator stacks (evidence, or /api/v1/targets/"
              + context.target()
              + "/thread-starts and .collapsed) and replace per-task thread creation with a"
              + " bounded pool.";
    }
    return new Finding("", summary, explanation, action, evidence);
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
