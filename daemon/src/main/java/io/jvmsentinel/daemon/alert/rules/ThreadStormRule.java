package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.EvidenceOrder;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleInput.Signal;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SignalWindow;
import io.jvmsentinel.daemon.alert.WindowedEvidence;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Thread starts are abnormally frequent: above an absolute floor over a short window, well above
 * the target's own baseline, and sustained through the window (both halves carry starts), so a pool
 * of threads created once at start-up is not a storm. Names the code that starts them in this
 * storm's own window (an earlier storm's creator is not this one's) and recognises known causes
 * (seed incident 1), which page at a far lower rate since their signature is unambiguous.
 *
 * <p>The thread starts the monitoring itself causes (the JDK serving the daemon's JMX connection
 * and JFR stream, told by their stacks) are real starts of the target and count in the rate, but
 * are never its cause: the creators named, their shares and the known cause are the application's
 * starts only, and a known cause's lower floor is held against the application's own rate.
 */
public final class ThreadStormRule implements AlertRule {
  public static final String MIN_RATE = "minRate";
  static final String BASELINE_FACTOR = "baselineFactor";
  static final String WINDOW = "windowSeconds";
  static final String KNOWN_CAUSE_MIN_RATE = "knownCauseMinRate";
  // The known cause must account for most of the application's sampled starts in the storm.
  private static final double KNOWN_CAUSE_SHARE = 0.5;
  private static final Duration QUIET_GAP = Duration.ofSeconds(5);
  private static final String OWN_ONLY =
      " The starts with a stack are all the monitoring's own: the JDK serving JMX and JFR"
          + " connections (RMI connection threads, JMX and JFR timers), the daemon's or another"
          + " client's.";
  // The baseline: the median minute of the 9 before the last one.
  private static final Duration BASELINE_SLICE = Duration.ofMinutes(1);
  private static final int BASELINE_SLICES = 9;
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
            "The rate must also exceed the target's own baseline (the median of its per-minute"
                + " rates over the 9 minutes before the last one) by this factor"),
        new RuleThreshold(
            WINDOW,
            5,
            "seconds",
            "Window over which the rate is measured; both halves must carry starts, from the"
                + " same creators where stack traces tell (a one-off burst fills only one)"),
        new RuleThreshold(
            KNOWN_CAUSE_MIN_RATE,
            5,
            "threads/s",
            "Sustained start rate that is a storm when most of its starts match a known cause"
                + " (e.g. JDK-8246039), whatever the baseline"));
  }

  /** Thread starts in both halves of the window: a reading at least every half window. */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    double window = thresholds.get(WINDOW);
    return List.of(
        RuleInput.every(Signal.THREAD_STARTS, Rates.seconds(window / 2), Rates.window(window)));
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
    // The target's usual minute, not its average: a storm that ended minutes ago is in the
    // window but is not the normal the next storm is held against (sequences: a storm recurring).
    double baseline =
        context
            .history()
            .medianRateEndingAgo(
                BASELINE_GAP,
                BASELINE_SLICE,
                BASELINE_SLICES,
                SignalSample::threadStarts,
                sameSource);
    double floor = context.threshold(MIN_RATE);
    double knownFloor = context.threshold(KNOWN_CAUSE_MIN_RATE);
    double limit =
        Math.max(
            floor, context.threshold(BASELINE_FACTOR) * (Double.isNaN(baseline) ? 0 : baseline));
    boolean firing = context.firing("");
    boolean storming;
    if (firing) {
      // Hysteresis: a firing storm resolves only once the rate falls well below the floor. The
      // baseline is left out here: a long storm would otherwise become its own baseline.
      storming = rate >= floor / 2;
    } else {
      storming =
          rate >= limit
              && newer >= floor / 2
              && older >= floor / 2
              && (jfr
                  ? sustainedByItsCreators(context.history(), window, rate, floor)
                  : sustainedByItsThreadKinds(context.history(), window, rate, floor, sameSource));
    }
    // The creators of this storm only: the starts since its onset, not since the stream began.
    // The application's: the monitoring's own starts are never the cause.
    List<SignalSample> storm = stormWindow(context.history(), window, Math.min(floor, knownFloor));
    ThreadStartReport creators = WindowedEvidence.creatorSites(storm, 5, false);
    Optional<KnownCause> cause = knownCause(creators);
    if (!storming && cause.isPresent()) {
      // A known signature is unambiguous evidence: it pages at a far lower sustained rate, and
      // whatever the baseline (a service that always did this still has the bug). The rate is
      // the application's: the monitoring's own starts must not lift the cause over its floor.
      ToDoubleFunction<SignalSample> application = s -> s.threadStarts() - s.ownThreadStarts();
      double appRate = context.history().rate(window, application, sameSource);
      double appNewer = context.history().rate(half, application, sameSource);
      double appOlder = context.history().rateEndingAgo(half, half, application, sameSource);
      storming =
          firing
              ? appRate >= knownFloor / 2
              : appRate >= knownFloor && appNewer >= knownFloor / 2 && appOlder >= knownFloor / 2;
    }
    if (!storming) {
      return List.of();
    }
    return List.of(
        finding(
            context, latest.get(), rate, baseline, window, storm, creators, cause.orElse(null)));
  }

  /**
   * Whether the window's starts come from creators that keep starting threads: the application's
   * creator sites seen in both halves of the window carry the floor's rate between them. Two
   * one-off bursts back to back (a batch job's threads, then a pool started at once) fill both
   * halves from different creators, neither of them sustained (sequences: storm-then-bursts).
   * Without application stacks in either half (no JFR, stacks sampled at high rates, only the
   * monitoring's own starts) the creators cannot tell: the counts alone decide.
   */
  static boolean sustainedByItsCreators(
      SignalWindow history, Duration window, double rate, double floor) {
    List<SignalSample> samples = history.window(window);
    if (samples.isEmpty()) {
      return true;
    }
    WindowHalves halves = WindowHalves.endingAtLatest(samples, window);
    Map<String, Long> older =
        applicationStartsBySite(samples.stream().filter(halves::inOlder).toList());
    Map<String, Long> newer =
        applicationStartsBySite(samples.stream().filter(halves::inNewer).toList());
    return carriedByCreatorsOfBothHalves(older, newer, rate, floor);
  }

  /**
   * The same without JFR: the kinds of threads JMX saw first alive ({@code pool-#-thread-#}) and
   * the starts that ended unseen stand for the creators. A pool started at once is seen alive, all
   * of one kind, in one half; a thread per request mostly ends unseen, in both (sequences: a batch
   * job's threads, then a pool started at once, on a target without JFR).
   */
  static boolean sustainedByItsThreadKinds(
      SignalWindow history,
      Duration window,
      double rate,
      double floor,
      Predicate<SignalSample> source) {
    List<Map<String, Long>> halves = ThreadKinds.halves(history, window, source);
    return carriedByCreatorsOfBothHalves(halves.get(0), halves.get(1), rate, floor);
  }

  /**
   * Whether the creators seen in both halves carry the floor's share of {@code rate}; true when
   * either half shows none (nothing tells the creators apart: the counts alone decide).
   */
  private static boolean carriedByCreatorsOfBothHalves(
      Map<String, Long> older, Map<String, Long> newer, double rate, double floor) {
    if (older.isEmpty() || newer.isEmpty()) {
      return true;
    }
    long all = 0;
    long sustained = 0;
    for (Map<String, Long> half : List.of(older, newer)) {
      for (Map.Entry<String, Long> site : half.entrySet()) {
        all += site.getValue();
        if (older.containsKey(site.getKey()) && newer.containsKey(site.getKey())) {
          sustained += site.getValue();
        }
      }
    }
    return rate * sustained / all >= floor;
  }

  /**
   * The application's thread starts by creator site over {@code samples} (not the monitoring's).
   */
  private static Map<String, Long> applicationStartsBySite(List<SignalSample> samples) {
    Map<String, Long> starts = new HashMap<>();
    for (ThreadStartReport.Site site :
        WindowedEvidence.creatorSites(samples, Integer.MAX_VALUE, false).sites()) {
      starts.put(site.site(), site.count());
    }
    return starts;
  }

  /**
   * The samples of the storm going on now: back from the latest sample while thread starts keep
   * coming at {@code level}/2 or more, bridging quiet spells of up to {@link #QUIET_GAP}; at least
   * the rule's window. A storm that ended a minute ago is not part of the next one.
   */
  static List<SignalSample> stormWindow(SignalWindow history, Duration window, double level) {
    List<SignalSample> all = history.all();
    if (all.isEmpty()) {
      return all;
    }
    Instant latest = all.get(all.size() - 1).at();
    Instant onset = latest.minus(window);
    Instant lastBusy = latest;
    for (int i = all.size() - 1; i > 0; i--) {
      SignalSample current = all.get(i);
      SignalSample previous = all.get(i - 1);
      double seconds = Duration.between(previous.at(), current.at()).toMillis() / 1000.0;
      double started = current.threadStarts() - previous.threadStarts();
      boolean busy =
          seconds > 0 && current.jfr() == previous.jfr() && started / seconds >= level / 2;
      if (busy) {
        lastBusy = previous.at();
      } else if (Duration.between(previous.at(), lastBusy).compareTo(QUIET_GAP) > 0) {
        break;
      }
      if (previous.at().isBefore(onset) && busy) {
        onset = previous.at();
      }
    }
    Instant from = onset;
    return all.stream().filter(sample -> !sample.at().isBefore(from)).toList();
  }

  /**
   * The known cause of the busiest application site, if it has most of the application's starts.
   */
  private static Optional<KnownCause> knownCause(ThreadStartReport creators) {
    if (creators.sites().isEmpty()) {
      return Optional.empty();
    }
    ThreadStartReport.Site top = creators.sites().get(0);
    if (applicationShare(top, creators) < KNOWN_CAUSE_SHARE) {
      return Optional.empty();
    }
    return KnownCause.of(top);
  }

  /** A site's share of the application's sampled starts (the monitoring's own left out). */
  private static double applicationShare(ThreadStartReport.Site site, ThreadStartReport report) {
    long application = report.applicationStarts();
    return application <= 0 ? 0 : (double) site.count() / application;
  }

  private Finding finding(
      RuleContext context,
      SignalSample latest,
      double rate,
      double baseline,
      Duration window,
      List<SignalSample> storm,
      ThreadStartReport report,
      KnownCause cause) {
    boolean jfr = latest.jfr();
    Duration stormSpan =
        storm.isEmpty()
            ? Duration.ZERO
            : Duration.between(storm.get(0).at(), storm.get(storm.size() - 1).at());
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("startsPerSecond", round(rate));
    evidence.put("baselinePerSecond", Double.isNaN(baseline) ? null : round(baseline));
    evidence.put("window", window.toSeconds() + "s");
    evidence.put("stormWindow", stormSpan.toSeconds() + "s");
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
      // No stacks: the kinds of threads JMX saw alive, and how many ended unseen, are the clue.
      evidence.put(
          "threadKinds",
          storm.isEmpty()
              ? List.of()
              : ThreadKinds.top(
                  ThreadKinds.between(
                      storm,
                      storm.get(0).at(),
                      latest.at(),
                      sample -> sample.up() && !sample.jfr()),
                  5));
      explanation =
          "The target starts "
              + Rates.format(rate)
              + " threads/s. "
              + unknownCreators(latest.details().target().jfrState());
      action =
          "Take a thread dump (jcmd <pid> Thread.print) a few times and look for short-lived"
              + " threads. The daemon names the creator once it receives JFR events from the"
              + " target: 'jfr' in /api/v1/targets says why it does not.";
      return new Finding("", summary, explanation, action, evidence);
    }
    List<Map<String, Object>> sites = new ArrayList<>();
    for (ThreadStartReport.Site site : report.sites()) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("site", site.site());
      s.put("share", round(applicationShare(site, report)));
      s.put("count", site.count());
      s.put(
          "threadNames",
          site.threadNames().stream().map(n -> n.name() + " x" + n.count()).toList());
      s.put("parentThreads", site.parentThreads().stream().map(n -> n.name()).toList());
      s.put("stack", site.sampleStack().subList(0, Math.min(12, site.sampleStack().size())));
      sites.add(s);
    }
    evidence.put("topCreatorSites", sites);
    if (report.ownStarts() > 0) {
      // Counted in the rate, never a cause; the sites' shares are of the application's starts.
      evidence.put("ownStarts", report.ownStarts());
    }
    ThreadStartReport.Site top = report.sites().isEmpty() ? null : report.sites().get(0);
    if (top != null) {
      summary += ", " + Rates.percent(applicationShare(top, report)) + " from " + top.site();
    }
    if (cause != null) {
      evidence.put("knownCause", cause.id());
      summary += " (" + cause.title() + ")";
      explanation = cause.explanation();
      action =
          "Confirm with the creator stack in the evidence, then fix the connection reuse as"
              + " described; the full list is at /api/v1/targets/"
              + context.target()
              + "/thread-starts?window=5m.";
    } else {
      explanation =
          "The target starts "
              + Rates.format(rate)
              + " threads/s"
              + (top == null ? "." : "; the busiest creator is " + top.site() + ".")
              + (top == null && report.ownStarts() > 0 ? OWN_ONLY : "")
              + " Threads started per request or task cost CPU, memory and latency.";
      action =
          "Open the creator stacks (evidence, or /api/v1/targets/"
              + context.target()
              + "/thread-starts?window=5m and .collapsed) and replace per-task thread creation"
              + " with a bounded pool.";
    }
    // What the sinks are told the cause is: an update follows when it becomes known or changes.
    String named = cause != null ? cause.id() : top != null ? top.site() : "";
    return new Finding(
        "",
        summary,
        explanation,
        action,
        EvidenceOrder.causeFirst(evidence, "topCreatorSites", "knownCause"),
        named);
  }

  /**
   * Why the creator sites are unknown, with the JFR stream's own reason ({@code jfrState}; null in
   * recordings made before it was sampled): only what is known, never a guessed cause.
   */
  static String unknownCreators(String jfrState) {
    String why =
        jfrState == null || jfrState.isBlank()
            ? "why was not recorded"
            : jfrState.equals("not started") ? "the JFR stream is starting" : jfrState;
    return "Its creator sites are unknown: the daemon has no JFR stream of the target ("
        + why
        + "), so only the JMX started-thread count is seen.";
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
