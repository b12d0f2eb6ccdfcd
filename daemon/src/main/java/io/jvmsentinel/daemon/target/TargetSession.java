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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
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
 * cheap values detection needs ({@link TargetPolling}); both share one poll loop, so the watchdog
 * and the loss handling are the same for both.
 *
 * <p>The poll watchdog ({@link PollWatchdog}, injected, shared by the daemon's sessions) only marks
 * a poll overdue ({@link SessionStatus}): the session thread is the only one that calls into
 * pollers or listeners and the only writer of the status, so a poller is never cleared while its
 * poll runs. Readers on other threads (HTTP, the up gauge, detection) see the mark through {@link
 * #status()}, which reports an overdue target down at once. What is polled, its meters and poll
 * problems are {@link TargetPolling}'s. Old connectors are closed on one bounded helper thread per
 * target, never on a thread per drop.
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
  private boolean closed;

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
    this.name = name;
    this.connector = connector;
    this.callTimeout = callTimeout;
    this.backoff = backoff;
    this.tags = tags;
    this.registry = registry;
    this.watchdog = watchdog;
    watchdog.attach(this);
    this.polling = new TargetPolling(name, pollInterval, registry, tags);
    this.status = new SessionStatus(name, connector, callTimeout, clock, registry, tags);
    this.listeners = new ConnectionListeners(name);
    this.thread = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("target-" + name));
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

  private void connect() {
    if (closed) {
      return;
    }
    status.attempt();
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
      polling.connected(mbeans);
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
    status.connected();
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
        status.identityText());
    listeners.connected(opened, mbeans);
    polling.schedule(thread, this::poll, this::pollDetectionSignals);
  }

  private void poll() {
    poll(TargetPolling.Kind.FULL);
  }

  /** The fast detection poll: only while the target has no JFR event source. */
  private void pollDetectionSignals() {
    if (polling.signalsWanted()) {
      poll(TargetPolling.Kind.SIGNALS);
    }
  }

  /** One poll of every poller, under the watchdog; an IOException loses the connection. */
  private void poll(TargetPolling.Kind kind) {
    if (mbeans == null) {
      return;
    }
    long started = System.nanoTime();
    PollWatchdog.Alarm alarm = watchdog.arm(callTimeout, status::overran);
    try {
      polling.poll(kind, mbeans);
    } catch (IOException e) {
      connectionLost(generation, "poll failed: " + ConnectFailure.describe(e));
      return;
    } finally {
      alarm.cancel();
      polling.took(kind, System.nanoTime() - started);
    }
    if (status.answeredAfterOverrun()) {
      // Slow, not dead: the poll finished after all.
      markUp();
      log.info("target {}: answering again after a slow poll", name);
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
    // Down since the poll overran, if it did.
    status.lost();
    dropConnection();
    failed(ConnectFailure.LOST, reason);
  }

  /** Forgets the current connection: values go NaN, listeners stop, the connector is closed. */
  private void dropConnection() {
    polling.disconnected();
    status.clearOverdue();
    if (connection != null) {
      listeners.disconnected();
    }
    JMXConnector old = connection;
    connection = null;
    mbeans = null;
    if (old != null) {
      // Closing talks to the target, which may be hung: never on this thread.
      closer.closeLater(old);
    }
  }

  private void failed(ConnectFailure reason, String message) {
    Duration delay = backoff.next();
    if (status.down(reason, message)) {
      log.warn(
          "target {}: {}; retrying in {} ms (backoff, logged once until it changes)",
          name,
          message,
          delay.toMillis());
    } else {
      log.debug("target {}: {}; retrying in {} ms", name, message, delay.toMillis());
    }
    if (!closed) {
      thread.schedule(this::connect, delay.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void markUp() {
    status.up(polling.pollers().identity().identity());
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
    closer.close();
    watchdog.detach(this);
    connector.close();
  }
}
