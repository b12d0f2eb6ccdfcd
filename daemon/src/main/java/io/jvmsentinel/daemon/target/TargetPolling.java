package io.jvmsentinel.daemon.target;

import io.jvmsentinel.collectors.jmx.JmxPoller;
import io.jvmsentinel.collectors.jmx.JmxPollers;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What is polled on one target and how often: the standard pollers and the added ones, bound once
 * (series continue across reconnects), one poll of them all, timed, and the problems of a poller
 * that cannot read what it wants: counted every time, logged once per connection, the other pollers
 * carry on. Polls run on the session thread, on two schedules while connected: the full poll every
 * poll interval, and, while the target has no JFR event source, the few cheap values detection
 * needs ({@link JmxPoller#pollDetectionSignals}) every {@code detection.signalPollInterval}:
 * ThreadStorm judges a 5 s window, which a count that moves once per 10 s poll never fills.
 */
final class TargetPolling {
  private static final Logger log = LoggerFactory.getLogger(TargetSession.class);

  /** A full poll, or only the detection signals. */
  enum Kind {
    FULL,
    SIGNALS
  }

  /** One poller's part of a poll: its full read, or only its detection signals. */
  @FunctionalInterface
  private interface PollStep {
    void read(JmxPoller poller, MBeanServerConnection mbeans) throws IOException, JMException;
  }

  private final String name;
  private final Duration pollInterval;
  private final Tags tags;
  private final MeterRegistry registry;
  private final JmxPollers pollers;
  private final List<JmxPoller> extraPollers = new CopyOnWriteArrayList<>();
  private final Timer pollDuration;
  private final Timer signalPollDuration;
  private final Map<String, Counter> pollErrors = new ConcurrentHashMap<>();
  // Confined to the session thread.
  private final Set<String> loggedPollProblems = new HashSet<>();
  // Confined to the session thread: the schedules of the current connection.
  private ScheduledFuture<?> pollTask;
  private ScheduledFuture<?> signalPollTask;
  // Set before start: the fast detection poll's period (zero: off) and when it applies.
  private volatile Duration signalPollInterval = Duration.ZERO;
  private volatile BooleanSupplier noEventSource = () -> false;

  TargetPolling(String name, Duration pollInterval, MeterRegistry registry, Tags tags) {
    this.name = name;
    this.pollInterval = pollInterval;
    this.tags = tags;
    this.registry = registry;
    this.pollers = JmxPollers.create(tags);
    this.pollers.all().forEach(poller -> poller.bindTo(registry));
    this.pollDuration = SentinelMetric.SENTINEL_POLL_DURATION.timer(registry, tags);
    this.signalPollDuration = SentinelMetric.SENTINEL_SIGNAL_POLL_DURATION.timer(registry, tags);
    pollers.all().forEach(this::bindPollErrors);
  }

  Duration pollInterval() {
    return pollInterval;
  }

  JmxPollers pollers() {
    return pollers;
  }

  /** Adds a poller, bound now; call before the session starts. */
  void add(JmxPoller poller) {
    poller.bindTo(registry);
    bindPollErrors(poller);
    extraPollers.add(poller);
  }

  private void bindPollErrors(JmxPoller poller) {
    for (PollProblem reason : PollProblem.values()) {
      pollErrors.put(
          poller.name() + "|" + reason.tag(),
          SentinelMetric.SENTINEL_POLL_ERRORS.counter(
              registry, tags.and("poller", poller.name(), "reason", reason.tag())));
    }
  }

  /** The standard pollers, then the added ones, in the order they run. */
  private List<JmxPoller> all() {
    List<JmxPoller> all = new ArrayList<>(pollers.all());
    all.addAll(extraPollers);
    return all;
  }

  /** See {@link TargetSession#pollDetectionSignals}. */
  void pollDetectionSignals(Duration interval, BooleanSupplier noEventSource) {
    this.signalPollInterval = interval;
    this.noEventSource = noEventSource;
  }

  /**
   * Schedules the full poll and, when on, the fast detection poll on the session's {@code thread},
   * until {@link #disconnected}.
   */
  void schedule(ScheduledExecutorService thread, Runnable poll, Runnable signalPoll) {
    long every = pollInterval.toMillis();
    pollTask = thread.scheduleWithFixedDelay(poll, every, every, TimeUnit.MILLISECONDS);
    if (fastSignalPoll()) {
      long fast = signalPollInterval.toMillis();
      signalPollTask = thread.scheduleWithFixedDelay(signalPoll, fast, fast, TimeUnit.MILLISECONDS);
    }
  }

  /** Whether the fast detection poll runs: on, and shorter than the poll interval. */
  private boolean fastSignalPoll() {
    return !signalPollInterval.isZero() && signalPollInterval.compareTo(pollInterval) < 0;
  }

  /** The fast detection poll's period, or the poll interval when it is off. */
  Duration signalInterval() {
    return fastSignalPoll() ? signalPollInterval : pollInterval;
  }

  /** Whether the fast detection poll reads now: only while the target has no JFR event source. */
  boolean signalsWanted() {
    return noEventSource.getAsBoolean();
  }

  /** Tells every poller about a new connection; an IOException loses it. */
  void connected(MBeanServerConnection mbeans) throws IOException {
    for (JmxPoller poller : all()) {
      try {
        poller.connected(mbeans);
      } catch (JMException | RuntimeException e) {
        problem(poller, e);
      }
    }
  }

  /** One poll of every poller; an IOException loses the connection. */
  void poll(Kind kind, MBeanServerConnection mbeans) throws IOException {
    PollStep step = kind == Kind.FULL ? JmxPoller::poll : JmxPoller::pollDetectionSignals;
    for (JmxPoller poller : all()) {
      try {
        step.read(poller, mbeans);
      } catch (JMException | RuntimeException e) {
        problem(poller, e);
      }
    }
  }

  /** Records how long a poll of {@code kind} took, failed or not. */
  void took(Kind kind, Duration took) {
    (kind == Kind.FULL ? pollDuration : signalPollDuration).record(took);
  }

  /**
   * The connection went away: the schedules stop, values go NaN, and problems are logged again on
   * the next connection.
   */
  void disconnected() {
    if (pollTask != null) {
      pollTask.cancel(false);
      pollTask = null;
    }
    if (signalPollTask != null) {
      signalPollTask.cancel(false);
      signalPollTask = null;
    }
    all().forEach(JmxPoller::disconnected);
    loggedPollProblems.clear();
  }

  /** A poller that cannot read what it wants: counted every time, logged once per connection. */
  private void problem(JmxPoller poller, Exception e) {
    PollProblem reason = PollProblem.classify(e);
    pollErrors.get(poller.name() + "|" + reason.tag()).increment();
    if (loggedPollProblems.add(poller.name() + "|" + reason.tag())) {
      log.warn(
          "target {}: poller '{}' cannot read the target ({}; counted in"
              + " jvm_sentinel_poll_errors_total, logged once per connection, the other pollers"
              + " carry on): {}",
          name,
          poller.name(),
          reason.tag(),
          ConnectFailure.describe(e));
    }
  }
}
