package io.jvmsentinel.daemon.alert.notify;

import io.jvmsentinel.daemon.alert.AlertListener;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.config.AlertsConfig;
import io.jvmsentinel.daemon.support.DaemonThreads;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the detection engine talks to: hands each notification to every sink's {@link Delivery},
 * without ever blocking, and re-sends still-firing alerts to the sinks that forget them otherwise
 * (Alertmanager, see {@link AlertmanagerNotifier}), so the engine need not know about that.
 */
public final class Notifications implements AlertListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Notifications.class);

  private final List<Delivery> deliveries;
  // Still-firing alerts by dedup key, in the order they fired. Guarded by "this", together with
  // the fan-out: a resend must never overtake the resolve of the same alert.
  private final Map<String, AlertNotification> firing = new LinkedHashMap<>();
  private final ScheduledExecutorService resender;
  private final RunbookLinks runbooks;

  /** Starts one delivery per sink of {@code config}; the JSON log is always one of them. */
  public static Notifications start(AlertsConfig config, MeterRegistry registry) {
    return start(config, List.of(), registry);
  }

  /**
   * Starts one delivery per sink of {@code config} and one per extra sink.
   *
   * @param extraSinks sinks configured outside the {@code alerts} section (Datadog)
   */
  public static Notifications start(
      AlertsConfig config, List<Notifier> extraSinks, MeterRegistry registry) {
    List<Notifier> sinks = new ArrayList<>(Sinks.from(config, Clock.systemUTC()));
    sinks.addAll(extraSinks);
    List<Delivery> deliveries = new ArrayList<>();
    for (Notifier sink : sinks) {
      log.info("alert sink: {}", sink.name());
      deliveries.add(
          Delivery.start(
              sink,
              config.queueSize(),
              config.retryInitialDelay(),
              config.retryMaxDelay(),
              registry));
    }
    return new Notifications(
        deliveries, AlertmanagerNotifier.RESEND_INTERVAL, config.runbookBaseUrl());
  }

  /**
   * @param resendInterval how often still-firing alerts go again to the sinks that need it
   */
  Notifications(List<Delivery> deliveries, Duration resendInterval) {
    this(deliveries, resendInterval, AlertsConfig.DEFAULT_RUNBOOK_BASE_URL);
  }

  /**
   * @param runbookBaseUrl what a rule's repository-relative runbook path is resolved against
   */
  Notifications(List<Delivery> deliveries, Duration resendInterval, URI runbookBaseUrl) {
    this.deliveries = List.copyOf(deliveries);
    this.runbooks = new RunbookLinks(runbookBaseUrl);
    if (deliveries.stream().anyMatch(Delivery::resendsWhileFiring)) {
      resender = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("alert-resend"));
      long ms = resendInterval.toMillis();
      resender.scheduleWithFixedDelay(this::resendFiring, ms, ms, TimeUnit.MILLISECONDS);
    } else {
      resender = null;
    }
  }

  /** The sink names, in delivery order. */
  public List<String> sinks() {
    return deliveries.stream().map(Delivery::sink).toList();
  }

  /** Queues the notification for every sink. Never blocks; a full sink drops it (counted). */
  public synchronized void submit(AlertNotification raw) {
    AlertNotification notification = runbooks.linked(raw);
    // An update replaces what is resent while firing: the sinks must not fall back to the old text.
    if (notification.status() != AlertNotification.Status.RESOLVED) {
      firing.put(notification.dedupKey(), notification);
    } else {
      firing.remove(notification.dedupKey());
    }
    for (Delivery delivery : deliveries) {
      delivery.submit(notification);
    }
  }

  @Override
  public void notify(AlertNotification notification) {
    submit(notification);
  }

  /**
   * A firing alert a restarted daemon took back: no sink pages again, but the ones that resend
   * firing alerts (Alertmanager) get it now and keep getting it, or they would let it expire.
   */
  @Override
  public synchronized void continued(AlertNotification raw) {
    AlertNotification notification = runbooks.linked(raw);
    firing.put(notification.dedupKey(), notification);
    for (Delivery delivery : deliveries) {
      if (delivery.resendsWhileFiring()) {
        delivery.submit(notification);
      }
    }
  }

  /**
   * Sends every still-firing alert again to each sink that needs it and has nothing pending: a sink
   * that is behind gets a fresh copy (with a fresh endsAt) soon anyway, and piling resends into its
   * queue would only crowd out real notifications.
   */
  synchronized void resendFiring() {
    if (firing.isEmpty()) {
      return;
    }
    for (Delivery delivery : deliveries) {
      if (delivery.resendsWhileFiring() && delivery.pending() == 0) {
        firing.values().forEach(delivery::submit);
      }
    }
  }

  /** Stops taking notifications, gives every sink up to {@code drain} to deliver, then stops. */
  public void close(Duration drain) {
    if (resender != null) {
      resender.shutdownNow();
    }
    long deadline = System.nanoTime() + drain.toNanos();
    for (Delivery delivery : deliveries) {
      // One deadline for all: sinks drain in parallel, each on its own thread.
      delivery.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }
  }

  @Override
  public void close() {
    close(Delivery.DRAIN_TIMEOUT);
  }
}
