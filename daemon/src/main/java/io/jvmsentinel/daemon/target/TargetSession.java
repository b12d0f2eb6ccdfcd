package io.jvmsentinel.daemon.target;

import io.jvmsentinel.collectors.jmx.JmxPoller;
import io.jvmsentinel.collectors.jmx.JmxPollers;
import io.jvmsentinel.daemon.support.Backoff;
import io.jvmsentinel.daemon.support.DaemonThreads;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One long-lived JMX connection to one target, and the polling on top of it.
 *
 * <p>Implementation notes. Everything that touches the connection runs on this session's own single
 * thread (injected; tests drive it by hand with the clock), so a hung target can only ever block
 * itself, and the state needs no locks: the thread connects, polls and handles loss, moving the
 * session through its {@link ConnectionPhase}s (the state machine, every allowed move). Loss is
 * noticed three ways: the connector's {@code jmx.remote.connection.failed}/{@code closed}
 * notification (measured 0.3 to 0.7 s after a kill), a poll failing with an {@link IOException} (a
 * {@code SIGSTOP}ped target fails after the RMI response timeout), or a connect attempt failing.
 * Each connection gets a generation number so a late notification from an old connection cannot
 * tear down a new one. Reconnects back off exponentially with jitter; meters are bound once.
 *
 * <p>While the target has no JFR event source, a second schedule on the same thread reads the cheap
 * values detection needs ({@link TargetPolling}: what is polled, its meters and problems); one poll
 * loop, so the watchdog and the loss handling are the same for both.
 *
 * <p>The poll watchdog ({@link PollWatchdog}, injected) only marks a poll overdue ({@link
 * SessionStatus}): the session thread alone calls into pollers and listeners and writes the status,
 * so a poller is never cleared while its poll runs; {@link #status()} reads an overdue target down
 * at once. Old connectors are closed on one bounded helper thread ({@link ConnectorCloser}).
 */
public final class TargetSession implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TargetSession.class);

  /** Told when a connection comes up and goes away (JFR streaming hangs off this). */
  public interface ConnectionListener {
    void connected(JMXConnector connector, MBeanServerConnection mbeans);

    void disconnected();
  }

  private final String name;
  private final Connector connector;
  private final Duration callTimeout;
  private final Backoff backoff;
  private final Clock clock;
  private final Tags tags;
  private final MeterRegistry registry;
  private final PollWatchdog watchdog;
  private final TargetPolling polling;
  private final SessionStatus status;
  private final ScheduledExecutorService thread;
  private final ConnectorCloser closer;
  private final ConnectionListeners listeners;

  // Confined to the session thread.
  private JMXConnector connection;
  private MBeanServerConnection mbeans;
  private int generation;
  // Written by the session thread only; volatile for tests and diagnostics.
  private volatile ConnectionPhase phase = ConnectionPhase.NEW;

  /** {@code watchdog}: shared with the daemon's other sessions (or a session's own). */
  public TargetSession(
      String name,
      Connector connector,
      Duration pollInterval,
      Duration callTimeout,
      Backoff backoff,
      MeterRegistry registry,
      Tags tags,
      Clock clock,
      PollWatchdog watchdog) {
    this(
        name,
        connector,
        pollInterval,
        callTimeout,
        backoff,
        registry,
        tags,
        clock,
        watchdog,
        Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("target-" + name)));
  }

  /** {@code thread}: the session's own single thread (tests pass one they drive by hand). */
  TargetSession(
      String name,
      Connector connector,
      Duration pollInterval,
      Duration callTimeout,
      Backoff backoff,
      MeterRegistry registry,
      Tags tags,
      Clock clock,
      PollWatchdog watchdog,
      ScheduledExecutorService thread) {
    this.name = name;
    this.connector = connector;
    this.callTimeout = callTimeout;
    this.backoff = backoff;
    this.clock = clock;
    this.tags = tags;
    this.registry = registry;
    this.watchdog = watchdog;
    watchdog.attach(this);
    this.polling = new TargetPolling(name, pollInterval, registry, tags);
    this.status = new SessionStatus(name, connector, callTimeout, clock, registry, tags);
    this.listeners = new ConnectionListeners(name);
    this.thread = thread;
    this.closer = new ConnectorCloser(name);
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
    return polling.pollers();
  }

  /**
   * The target's state, safe to read from any thread; a target whose poll is overdue reads down
   * with the reason, although the session thread is still waiting on it.
   */
  public TargetStatus status() {
    return status.current();
  }

  /**
   * Adds a poller that needs more than the target's tags (e.g. state shared with JFR handlers),
   * bound now; call before {@link #start}.
   */
  public void addPoller(JmxPoller poller) {
    polling.add(poller);
  }

  /**
   * Reads the pollers' detection signals every {@code interval} while {@code noEventSource} says
   * the target has no JFR event source (the full poll runs on at the poll interval); call before
   * {@link #start}. Zero, or an interval not shorter than the poll interval, adds nothing.
   */
  public void pollDetectionSignals(Duration interval, BooleanSupplier noEventSource) {
    polling.pollDetectionSignals(interval, noEventSource);
  }

  /** How often the JMX values are polled in full. */
  public Duration pollInterval() {
    return polling.pollInterval();
  }

  /**
   * How often detection's JMX values are read while the target has no JFR event source: the fast
   * detection poll's interval, or the poll interval when that is off or not shorter.
   */
  public Duration detectionSignalInterval() {
    return polling.signalInterval();
  }

  public void addListener(ConnectionListener listener) {
    listeners.add(listener);
  }

  public void start() {
    thread.execute(this::connect);
  }

  /** Where the connection is; see {@link ConnectionPhase}. */
  ConnectionPhase phase() {
    return phase;
  }

  /** Moves if {@link ConnectionPhase#canBecome} allows it; false (nothing moves) if not. */
  private boolean moveTo(ConnectionPhase next) {
    if (!phase.canBecome(next)) {
      return false;
    }
    phase = next;
    return true;
  }

  private void connect() {
    if (!moveTo(ConnectionPhase.CONNECTING)) {
      return; // Closed meanwhile (or started twice).
    }
    status.attempt();
    Instant started = clock.instant();
    JMXConnector opened;
    try {
      opened = connector.connect();
    } catch (IOException | RuntimeException e) {
      String why = ConnectFailure.describe(e) + ConnectFailure.hintFor(e);
      failed(e, "connect to " + connector.describe() + " failed: " + why);
      return;
    }
    int myGeneration = ++generation;
    connection = opened;
    moveTo(ConnectionPhase.CONNECTED);
    try {
      opened.addConnectionNotificationListener(
          ConnectionListeners.onLoss(
              type -> thread.execute(() -> connectionLost(myGeneration, "JMX connection " + type))),
          null,
          null);
      mbeans = opened.getMBeanServerConnection();
      polling.connected(mbeans);
    } catch (IOException e) {
      dropConnection();
      failed(
          e,
          "connected to "
              + connector.describe()
              + " but reading it failed: "
              + ConnectFailure.describe(e));
      return;
    }
    backoff.reset();
    status.connected();
    // "Up" means data: poll once before saying so, so no scrape sees up=1 without the series.
    poll(TargetPolling.Kind.FULL);
    if (phase != ConnectionPhase.CONNECTED) {
      return; // The first poll lost the connection; a reconnect is already scheduled.
    }
    status.up(polling.pollers().identity().identity());
    log.info(
        "target {}: connected to {} in {} ms ({})",
        name,
        connector.describe(),
        Duration.between(started, clock.instant()).toMillis(),
        status.identityText());
    listeners.connected(opened, mbeans);
    polling.schedule(thread, () -> poll(TargetPolling.Kind.FULL), this::pollDetectionSignals);
    moveTo(ConnectionPhase.POLLING);
  }

  /** The fast detection poll: only while the target has no JFR event source. */
  private void pollDetectionSignals() {
    if (polling.signalsWanted()) {
      poll(TargetPolling.Kind.SIGNALS);
    }
  }

  /** One poll of every poller, under the watchdog; an IOException loses the connection. */
  private void poll(TargetPolling.Kind kind) {
    if (!phase.connected()) {
      return;
    }
    Instant started = clock.instant();
    PollWatchdog.Alarm alarm = watchdog.arm(callTimeout, status::overran);
    try {
      polling.poll(kind, mbeans);
    } catch (IOException e) {
      connectionLost(generation, "poll failed: " + ConnectFailure.describe(e));
      return;
    } finally {
      alarm.cancel();
      polling.took(kind, Duration.between(started, clock.instant()));
    }
    if (status.answeredAfterOverrun()) {
      // Slow, not dead: the poll finished after all.
      status.up(polling.pollers().identity().identity());
      log.info("target {}: answering again after a slow poll", name);
    }
  }

  private void connectionLost(int connectionGeneration, String reason) {
    if (connectionGeneration != generation || !phase.connected()) {
      return; // A late notice of a connection already dropped, or closed.
    }
    // Down since the poll overran, if it did.
    status.lost();
    dropConnection();
    failed(ConnectFailure.LOST, reason, reason);
  }

  /** Forgets the open connection: values go NaN, listeners stop, the connector is closed. */
  private void dropConnection() {
    polling.disconnected();
    status.clearOverdue();
    listeners.disconnected();
    // Closing talks to the target, which may be hung: never on this thread.
    closer.closeLater(connection);
    connection = null;
    mbeans = null;
  }

  /** A connect or the first read failed with {@code e}. */
  private void failed(Exception e, String message) {
    failed(ConnectFailure.classify(e), message, ConnectFailure.sameness(e, message));
  }

  /** Backs off; logged unless {@code sameness} is that of the failure logged last. */
  private void failed(ConnectFailure reason, String message, String sameness) {
    moveTo(ConnectionPhase.BACKING_OFF);
    Duration delay = reason.nextDelay(backoff.next());
    status.failed(reason, message, sameness, delay);
    thread.schedule(this::connect, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    try {
      thread
          .submit(
              () -> {
                boolean open = phase.connected();
                moveTo(ConnectionPhase.STOPPED);
                if (open) {
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
    closer.close();
    watchdog.detach(this);
    connector.close();
  }
}
