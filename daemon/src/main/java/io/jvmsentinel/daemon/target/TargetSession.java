package io.jvmsentinel.daemon.target;

import io.jvmsentinel.collectors.jmx.JmxPoller;
import io.jvmsentinel.collectors.jmx.JmxPollers;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.jvmsentinel.daemon.support.Backoff;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.remote.JMXConnectionNotification;
import javax.management.remote.JMXConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One long-lived JMX connection to one target, and the polling on top of it.
 *
 * <p>Implementation notes. Everything that touches the connection runs on this session's own single
 * thread, so a hung target can only ever block itself, and the state needs no locks: the thread
 * connects, polls, and handles loss. Loss is noticed three ways: the connector's {@code
 * jmx.remote.connection.failed}/{@code closed} notification (measured 0.3 to 0.7 s after a kill), a
 * poll failing with an {@link IOException} (a {@code SIGSTOP}ped target fails after the RMI
 * response timeout), or a connect attempt failing. Each connection gets a generation number so a
 * late notification from an old connection cannot tear down a new one. Reconnects back off
 * exponentially with jitter; meters are bound once, so series continue across reconnects.
 *
 * <p>While the target has no JFR event source, a second schedule on the same thread reads the few
 * cheap values detection needs ({@link JmxPoller#pollDetectionSignals}) every {@code
 * detection.signalPollInterval}: ThreadStorm judges a 5 s window, which a count that moves once per
 * 10 s poll never fills. Both schedules share one poll loop, so the watchdog and the loss handling
 * are the same for both.
 *
 * <p>The poll watchdog only sets a flag ({@code overdueSince}): the session thread is the only one
 * that calls into pollers or listeners and the only writer of {@code status}, so a poller is never
 * cleared while its poll runs. Readers on other threads (HTTP, the up gauge, detection) see the
 * flag through {@link #status()}, which reports an overdue target down at once. Old connectors are
 * closed on one bounded helper thread per target, never on a thread per drop.
 */
public final class TargetSession implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TargetSession.class);

  /**
   * Marks a target down when a poll overruns the call timeout. The RMI timeouts alone are not
   * enough: the JMX client retries a failed call and re-checks the connection, so a hung target
   * surfaces as an exception only after several timeouts (8 s measured for a 2 s timeout).
   */
  // Connections waiting to be closed while one close hangs on a dead target.
  private static final int CLOSE_QUEUE = 4;

  private static final ScheduledExecutorService WATCHDOG =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread t = new Thread(runnable, "poll-watchdog");
            t.setDaemon(true);
            return t;
          });

  /** One poller's part of a poll: its full read, or only its detection signals. */
  @FunctionalInterface
  private interface PollStep {
    void read(JmxPoller poller, MBeanServerConnection mbeans) throws IOException, JMException;
  }

  /** Told when a connection comes up and goes away (JFR streaming hangs off this). */
  public interface ConnectionListener {
    void connected(JMXConnector connector, MBeanServerConnection mbeans);

    void disconnected();
  }

  private final String name;
  private final Connector connector;
  private final Duration pollInterval;
  private final Duration callTimeout;
  private final Backoff backoff;
  private final JmxPollers pollers;
  private final Clock clock;
  private final Tags tags;
  private final MeterRegistry registry;
  private final ScheduledExecutorService thread;
  private final ThreadPoolExecutor closer;
  private final Set<ConnectionListener> listeners = ConcurrentHashMap.newKeySet();
  private final List<JmxPoller> extraPollers = new java.util.concurrent.CopyOnWriteArrayList<>();
  // Set before start: the fast detection poll's period (zero: off) and when it applies.
  private volatile Duration signalPollInterval = Duration.ZERO;
  private volatile BooleanSupplier noEventSource = () -> false;

  private final Counter attempts;
  private final Map<ConnectFailure, Counter> failures = new EnumMap<>(ConnectFailure.class);
  private final Timer pollDuration;
  private final Timer signalPollDuration;
  private final Map<String, Counter> pollErrors = new ConcurrentHashMap<>();

  // Confined to the session thread.
  private JMXConnector connection;
  private MBeanServerConnection mbeans;
  private ScheduledFuture<?> pollTask;
  private ScheduledFuture<?> signalPollTask;
  private int generation;
  private final Set<String> loggedPollProblems = new HashSet<>();
  private String lastLoggedFailure;
  private boolean closed;

  // Written only by the session thread; an immutable record, published through the volatile.
  private volatile TargetStatus status;
  // The one thing the watchdog writes: when a poll overran the call timeout; null when none.
  // Cleared by the session thread once the poll returns (slow) or the connection is dropped.
  private volatile Instant overdueSince;

  public TargetSession(
      String name,
      Connector connector,
      Duration pollInterval,
      Duration callTimeout,
      Backoff backoff,
      MeterRegistry registry,
      Tags tags,
      Clock clock) {
    this.name = name;
    this.connector = connector;
    this.pollInterval = pollInterval;
    this.callTimeout = callTimeout;
    this.backoff = backoff;
    this.clock = clock;
    this.tags = tags;
    this.registry = registry;
    this.pollers = JmxPollers.create(tags);
    this.pollers.all().forEach(poller -> poller.bindTo(registry));
    // Before the gauge: a target added while the daemon serves can be scraped at once.
    this.status =
        new TargetStatus(name, connector.describe(), false, clock.instant(), null, 0, null);
    SentinelMetric.SENTINEL_TARGET_UP.gauge(
        registry, tags, this, session -> session.status().up() ? 1 : 0);
    this.attempts = SentinelMetric.SENTINEL_CONNECTION_ATTEMPTS.counter(registry, tags);
    for (ConnectFailure reason : ConnectFailure.values()) {
      failures.put(
          reason,
          SentinelMetric.SENTINEL_CONNECTION_FAILURES.counter(
              registry, tags.and("reason", reason.tag())));
    }
    this.pollDuration = SentinelMetric.SENTINEL_POLL_DURATION.timer(registry, tags);
    this.signalPollDuration = SentinelMetric.SENTINEL_SIGNAL_POLL_DURATION.timer(registry, tags);
    pollers.all().forEach(this::bindPollErrors);
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread t = new Thread(runnable, "target-" + name);
              t.setDaemon(true);
              return t;
            });
    this.closer = HelperThread.withQueue("jmx-close-" + name, CLOSE_QUEUE);
  }

  public String name() {
    return name;
  }

  /** The tags every series of this target carries ({@code target} and the configured ones). */
  public Tags tags() {
    return tags;
  }

  /** The registry this target's meters live in (rules read timers from it for evidence). */
  public MeterRegistry registry() {
    return registry;
  }

  public JmxPollers pollers() {
    return pollers;
  }

  /**
   * The target's state, safe to read from any thread; a target whose poll is overdue reads down
   * with the reason, although the session thread is still waiting on it.
   */
  public TargetStatus status() {
    TargetStatus current = status;
    Instant overdue = overdueSince;
    if (overdue == null || !current.up()) {
      return current;
    }
    return new TargetStatus(
        name,
        current.address(),
        false,
        overdue,
        "poll did not finish within the call timeout ("
            + callTimeout.toMillis()
            + " ms): target hung or overloaded",
        current.connectAttempts(),
        current.identity());
  }

  /**
   * Adds a poller that needs more than the target's tags (e.g. state shared with JFR handlers),
   * bound now; call before {@link #start}.
   */
  public void addPoller(JmxPoller poller) {
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
  private List<JmxPoller> allPollers() {
    List<JmxPoller> all = new ArrayList<>(pollers.all());
    all.addAll(extraPollers);
    return all;
  }

  /**
   * Reads the pollers' detection signals every {@code interval} while {@code noEventSource} says
   * the target has no JFR event source (the full poll runs on at the poll interval); call before
   * {@link #start}. Zero, or an interval not shorter than the poll interval, adds nothing.
   */
  public void pollDetectionSignals(Duration interval, BooleanSupplier noEventSource) {
    this.signalPollInterval = interval;
    this.noEventSource = noEventSource;
  }

  /** How often the JMX values are polled in full. */
  public Duration pollInterval() {
    return pollInterval;
  }

  /**
   * How often detection's JMX values are read while the target has no JFR event source: the fast
   * detection poll's interval, or the poll interval when that is off or not shorter.
   */
  public Duration detectionSignalInterval() {
    return fastSignalPoll() ? signalPollInterval : pollInterval;
  }

  private boolean fastSignalPoll() {
    return !signalPollInterval.isZero() && signalPollInterval.compareTo(pollInterval) < 0;
  }

  public void addListener(ConnectionListener listener) {
    listeners.add(listener);
  }

  public void start() {
    thread.execute(this::connect);
  }

  private void connect() {
    if (closed) {
      return;
    }
    attempts.increment();
    long started = System.nanoTime();
    JMXConnector opened;
    try {
      opened = connector.connect();
    } catch (IOException | RuntimeException e) {
      ConnectFailure reason = ConnectFailure.classify(e);
      failed(
          reason,
          "connect to "
              + connector.describe()
              + " failed: "
              + ConnectFailure.describe(e)
              + reason.hint());
      return;
    }
    int myGeneration = ++generation;
    connection = opened;
    try {
      opened.addConnectionNotificationListener(lossListener(myGeneration), null, null);
      mbeans = opened.getMBeanServerConnection();
      for (JmxPoller poller : allPollers()) {
        try {
          poller.connected(mbeans);
        } catch (JMException | RuntimeException e) {
          pollProblem(poller, e);
        }
      }
    } catch (IOException e) {
      dropConnection();
      failed(
          ConnectFailure.classify(e),
          "connected to "
              + connector.describe()
              + " but reading it failed: "
              + ConnectFailure.describe(e));
      return;
    }
    backoff.reset();
    lastLoggedFailure = null;
    overdueSince = null;
    // "Up" means data: poll once before saying so, so no scrape sees up=1 without the series.
    poll();
    if (mbeans == null) {
      return; // The first poll lost the connection; a reconnect is already scheduled.
    }
    markUp();
    log.info(
        "target {}: connected to {} in {} ms ({})",
        name,
        connector.describe(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
        describeIdentity());
    listeners.forEach(listener -> notifyConnected(listener, opened));
    pollTask =
        thread.scheduleWithFixedDelay(
            this::poll, pollInterval.toMillis(), pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    if (fastSignalPoll()) {
      long every = signalPollInterval.toMillis();
      signalPollTask =
          thread.scheduleWithFixedDelay(
              this::pollDetectionSignals, every, every, TimeUnit.MILLISECONDS);
    }
  }

  private void poll() {
    poll(JmxPoller::poll, pollDuration);
  }

  /** The fast detection poll: only while the target has no JFR event source. */
  private void pollDetectionSignals() {
    if (noEventSource.getAsBoolean()) {
      poll(JmxPoller::pollDetectionSignals, signalPollDuration);
    }
  }

  /** One poll of every poller, under the watchdog; an IOException loses the connection. */
  private void poll(PollStep step, Timer duration) {
    if (mbeans == null) {
      return;
    }
    long started = System.nanoTime();
    ScheduledFuture<?> alarm =
        WATCHDOG.schedule(this::pollOverran, callTimeout.toMillis(), TimeUnit.MILLISECONDS);
    try {
      for (JmxPoller poller : allPollers()) {
        try {
          step.read(poller, mbeans);
        } catch (JMException | RuntimeException e) {
          pollProblem(poller, e);
        }
      }
    } catch (IOException e) {
      connectionLost(generation, "poll failed: " + ConnectFailure.describe(e));
      return;
    } finally {
      alarm.cancel(false);
      duration.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
    }
    if (overdueSince != null) {
      // Slow, not dead: the poll finished after all.
      overdueSince = null;
      markUp();
      log.info("target {}: answering again after a slow poll", name);
    }
  }

  /**
   * Runs on the watchdog thread while the session thread is still stuck in a poll: it only raises
   * the flag. The session thread acts when the poll returns (slow: up again; failed: dropped).
   */
  private void pollOverran() {
    overdueSince = clock.instant();
    log.warn(
        "target {}: poll did not finish within the call timeout ({} ms): target hung or"
            + " overloaded",
        name,
        callTimeout.toMillis());
  }

  /** A poller that cannot read what it wants: counted every time, logged once per connection. */
  private void pollProblem(JmxPoller poller, Exception e) {
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

  private NotificationListener lossListener(int connectionGeneration) {
    return (Notification notification, Object handback) -> {
      String type = notification.getType();
      if (JMXConnectionNotification.FAILED.equals(type)
          || JMXConnectionNotification.CLOSED.equals(type)) {
        thread.execute(() -> connectionLost(connectionGeneration, "JMX connection " + type));
      }
    };
  }

  private void connectionLost(int connectionGeneration, String reason) {
    if (closed || connectionGeneration != generation || connection == null) {
      return;
    }
    // Down since the poll overran, if it did: read before dropConnection clears the flag.
    TargetStatus seen = status();
    dropConnection();
    status = seen;
    failed(ConnectFailure.LOST, reason);
  }

  /** Forgets the current connection: values go NaN, listeners stop, the connector is closed. */
  private void dropConnection() {
    if (pollTask != null) {
      pollTask.cancel(false);
      pollTask = null;
    }
    if (signalPollTask != null) {
      signalPollTask.cancel(false);
      signalPollTask = null;
    }
    allPollers().forEach(JmxPoller::disconnected);
    overdueSince = null;
    if (connection != null) {
      listeners.forEach(this::notifyDisconnected);
    }
    JMXConnector old = connection;
    connection = null;
    mbeans = null;
    loggedPollProblems.clear();
    if (old == null) {
      return;
    }
    // Closing talks to the target, which may be hung: never on this thread. One close runs at a
    // time and a few wait; beyond that the connector is left to the JVM (its sockets time out).
    try {
      closer.execute(() -> TimeLimitedConnect.closeQuietly(old));
    } catch (RejectedExecutionException e) {
      log.warn(
          "target {}: {} earlier connections are still closing (target hung); not waiting to"
              + " close this one",
          name,
          closer.getQueue().size() + 1);
    }
  }

  private void failed(ConnectFailure reason, String message) {
    failures.get(reason).increment();
    Duration delay = backoff.next();
    TargetStatus previous = status;
    status =
        new TargetStatus(
            name,
            connector.describe(),
            false,
            previous.up() ? clock.instant() : previous.since(),
            message,
            (long) attempts.count(),
            previous.identity());
    if (!message.equals(lastLoggedFailure)) {
      log.warn(
          "target {}: {}; retrying in {} ms (backoff, logged once until it changes)",
          name,
          message,
          delay.toMillis());
      lastLoggedFailure = message;
    } else {
      log.debug("target {}: {}; retrying in {} ms", name, message, delay.toMillis());
    }
    if (!closed) {
      thread.schedule(this::connect, delay.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void markUp() {
    status =
        new TargetStatus(
            name,
            connector.describe(),
            true,
            clock.instant(),
            null,
            (long) attempts.count(),
            pollers.identity().identity());
  }

  private void notifyConnected(ConnectionListener listener, JMXConnector opened) {
    try {
      listener.connected(opened, mbeans);
    } catch (RuntimeException e) {
      log.warn("target {}: connection listener failed: {}", name, ConnectFailure.describe(e), e);
    }
  }

  private void notifyDisconnected(ConnectionListener listener) {
    try {
      listener.disconnected();
    } catch (RuntimeException e) {
      log.warn("target {}: connection listener failed: {}", name, ConnectFailure.describe(e), e);
    }
  }

  private String describeIdentity() {
    var identity = pollers.identity().identity();
    if (identity == null) {
      return "identity unknown";
    }
    return identity.vmVendor()
        + " "
        + identity.javaVersion()
        + ", pid "
        + identity.pid()
        + ", options "
        + identity.vmOptions();
  }

  @Override
  public void close() {
    try {
      thread
          .submit(
              () -> {
                closed = true;
                if (connection != null) {
                  dropConnection();
                }
              })
          .get(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      log.debug("target {}: close did not finish cleanly: {}", name, e.toString());
    }
    thread.shutdownNow();
    closer.shutdown();
    connector.close();
  }
}
