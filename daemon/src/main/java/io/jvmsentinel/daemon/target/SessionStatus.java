package io.jvmsentinel.daemon.target;

import io.jvmsentinel.collectors.jmx.JvmIdentity;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether one target is up, since when, and why not: the connection state of a {@link
 * TargetSession} with its meters (the up gauge, connection attempts and failures by reason). The
 * session thread makes every transition; the poll watchdog only marks a poll overdue ({@link
 * #overran}), and {@link #current} then reads the target down at once, although the session thread
 * is still waiting on it. Times come from the injected clock, so the transitions are tested without
 * a target.
 */
final class SessionStatus {
  private static final Logger log = LoggerFactory.getLogger(TargetSession.class);

  private final String name;
  private final Connector connector;
  private final Duration callTimeout;
  private final Clock clock;
  private final Counter attempts;
  private final Map<ConnectFailure, Counter> failures = new EnumMap<>(ConnectFailure.class);
  // Written only by the session thread; an immutable record, published through the volatile.
  private volatile TargetStatus status;
  // The one thing the watchdog writes: when a poll overran the call timeout; null when none.
  // Cleared by the session thread once the poll returns (slow) or the connection is dropped.
  private volatile Instant overdueSince;
  // Confined to the session thread: failures are logged once until the message changes.
  private String lastLoggedFailure;

  SessionStatus(
      String name,
      Connector connector,
      Duration callTimeout,
      Clock clock,
      MeterRegistry registry,
      Tags tags) {
    this.name = name;
    this.connector = connector;
    this.callTimeout = callTimeout;
    this.clock = clock;
    // Before the gauge: a target added while the daemon serves can be scraped at once.
    this.status =
        new TargetStatus(name, connector.describe(), false, clock.instant(), null, 0, null, null);
    SentinelMetric.SENTINEL_TARGET_UP.gauge(
        registry, tags, this, session -> session.current().up() ? 1 : 0);
    this.attempts = SentinelMetric.SENTINEL_CONNECTION_ATTEMPTS.counter(registry, tags);
    for (ConnectFailure reason : ConnectFailure.values()) {
      failures.put(
          reason,
          SentinelMetric.SENTINEL_CONNECTION_FAILURES.counter(
              registry, tags.and("reason", reason.tag())));
    }
  }

  /** The target's state; a target whose poll is overdue reads down with the reason. */
  TargetStatus current() {
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
        current.identity(),
        // The poll is still outstanding: the target is not answering now.
        clock.instant());
  }

  /** A connect attempt starts. */
  void attempt() {
    attempts.increment();
  }

  /** Connected (not yet polled): no poll is overdue, and the next failure is news again. */
  void connected() {
    lastLoggedFailure = null;
    overdueSince = null;
  }

  /** Connected and polled: up since now, as {@code identity}. */
  void up(JvmIdentity identity) {
    status =
        new TargetStatus(
            name,
            connector.describe(),
            true,
            clock.instant(),
            null,
            (long) attempts.count(),
            identity,
            null);
  }

  /**
   * A connect failed or the connection was lost, counted by {@code reason}: down since now if it
   * was up, else since it went down; the last identity stays. True when {@code message} differs
   * from the last failure logged (the caller logs it once until it changes).
   */
  boolean down(ConnectFailure reason, String message) {
    return down(reason, message, message);
  }

  /** As above, but {@code sameness} tells whether it is the failure logged last. */
  boolean down(ConnectFailure reason, String message, String sameness) {
    failures.get(reason).increment();
    TargetStatus previous = status;
    Instant now = clock.instant();
    status =
        new TargetStatus(
            name,
            connector.describe(),
            false,
            previous.up() ? now : previous.since(),
            message,
            (long) attempts.count(),
            previous.identity(),
            now);
    if (sameness.equals(lastLoggedFailure)) {
      return false;
    }
    lastLoggedFailure = sameness;
    return true;
  }

  /**
   * A connect failed or the connection was lost ({@link #down}); logged as a warning once until
   * {@code sameness} changes, else at debug, with the backoff delay {@code retryIn}.
   */
  void failed(ConnectFailure reason, String message, String sameness, Duration retryIn) {
    if (down(reason, message, sameness)) {
      log.warn(
          "target {}: {}; retrying in {} ms (backoff, logged once until it changes)",
          name,
          message,
          retryIn.toMillis());
    } else {
      log.debug("target {}: {}; retrying in {} ms", name, message, retryIn.toMillis());
    }
  }

  /**
   * The connection is being dropped: a target down since its poll overran stays down since then
   * (read before the overdue mark is cleared).
   */
  void lost() {
    status = current();
    overdueSince = null;
  }

  /** Called by the watchdog while the session thread is still stuck in a poll; logged. */
  void overran() {
    overdueSince = clock.instant();
    log.warn(
        "target {}: poll did not finish within the call timeout ({} ms): target hung or"
            + " overloaded",
        name,
        callTimeout.toMillis());
  }

  /** A poll returned: true when it had been overdue (slow, not dead; the mark is cleared). */
  boolean answeredAfterOverrun() {
    if (overdueSince == null) {
      return false;
    }
    overdueSince = null;
    return true;
  }

  /** The connection was dropped: no poll is overdue. */
  void clearOverdue() {
    overdueSince = null;
  }

  /** Who the connected JVM is, for the connect log line. */
  String identityText() {
    JvmIdentity identity = status.identity();
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
}
