package io.jvmsentinel.daemon.export.datadog;

import com.timgroup.statsd.NonBlockingStatsDClient;
import com.timgroup.statsd.NonBlockingStatsDClientBuilder;
import com.timgroup.statsd.StatsDClientErrorHandler;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.jvmsentinel.daemon.config.DogStatsdAddress;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.nio.channels.AsynchronousCloseException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the one DogStatsD client the daemon uses for metrics, events and service checks.
 *
 * <p>The client reads {@code DD_ENV}, {@code DD_SERVICE}, {@code DD_VERSION} (and {@code
 * DD_ENTITY_ID}) itself and adds them to everything it sends, so they are not added here again.
 * What it fails to deliver is counted as {@code jvm.sentinel.dogstatsd.errors}: send failures
 * through its error handler ({@code reason=send}), messages dropped on its full queue through its
 * telemetry ({@code reason=queue_full}), which it flushes every 10 s.
 */
public final class DogStatsdClients {
  private static final Logger log = LoggerFactory.getLogger(DogStatsdClients.class);
  private static final Duration LOG_INTERVAL = Duration.ofMinutes(1);
  // The client's telemetry metric for messages it dropped because its queue was full.
  private static final String QUEUE_DROPS = "datadog.dogstatsd.client.packets_dropped_queue";

  private DogStatsdClients() {}

  /**
   * @param tags constant tags on everything sent
   * @throws com.timgroup.statsd.StatsDClientException when the client cannot start, e.g. the
   *     agent's host name does not resolve
   */
  public static NonBlockingStatsDClient create(
      DogStatsdAddress address, Map<String, String> tags, MeterRegistry registry) {
    Counter sendErrors = errors(registry, "send");
    Counter queueFull = errors(registry, "queue_full");
    return new CountingBuilder(queueFull)
        .address(address.url())
        .constantTags(DogStatsdNames.tags(tags))
        // One value per meter per step already: aggregating would only delay them by 2 s.
        .enableAggregation(false)
        // Never wait for the agent: a full queue drops (and counts) instead.
        .blocking(false)
        .errorHandler(new CountingErrorHandler(address, sendErrors))
        .build();
  }

  private static Counter errors(MeterRegistry registry, String reason) {
    return SentinelMetric.SENTINEL_DOGSTATSD_ERRORS.counter(registry, Tags.of("reason", reason));
  }

  /**
   * Counts every failure to deliver; logs the first, then at most one a minute with the count
   * between. A write cut short by the client's own {@code stop()} (it interrupts its sender when
   * not blocking) is the daemon shutting down, not the agent failing, so it is not counted.
   */
  static final class CountingErrorHandler implements StatsDClientErrorHandler {
    private final DogStatsdAddress address;
    private final Counter errors;
    private final AtomicLong lastLogged =
        new AtomicLong(System.nanoTime() - LOG_INTERVAL.toNanos());
    private final AtomicLong unlogged = new AtomicLong();

    CountingErrorHandler(DogStatsdAddress address, Counter errors) {
      this.address = address;
      this.errors = errors;
    }

    @Override
    public void handle(Exception e) {
      if (e instanceof AsynchronousCloseException) { // ClosedByInterruptException included
        log.debug("DogStatsD: a send was cut short by the client stopping: {}", e.toString());
        return;
      }
      errors.increment();
      long now = System.nanoTime();
      long last = lastLogged.get();
      if (now - last < LOG_INTERVAL.toNanos() || !lastLogged.compareAndSet(last, now)) {
        unlogged.incrementAndGet();
        return;
      }
      long more = unlogged.getAndSet(0);
      log.warn(
          "DogStatsD: cannot send to the Datadog agent at {}: {}{}",
          address,
          e.toString(),
          more == 0 ? "" : " (and " + more + " more failures since the last message)");
    }
  }

  private static final class CountingBuilder extends NonBlockingStatsDClientBuilder {
    private final Counter queueFull;

    CountingBuilder(Counter queueFull) {
      this.queueFull = queueFull;
    }

    @Override
    public NonBlockingStatsDClient build() {
      return new TelemetryCountingClient(resolve(), queueFull);
    }
  }

  /** Reads the client's own drop telemetry on its way to the agent. */
  private static final class TelemetryCountingClient extends NonBlockingStatsDClient {
    private final Counter queueFull;

    TelemetryCountingClient(NonBlockingStatsDClientBuilder resolved, Counter queueFull) {
      super(resolved);
      this.queueFull = queueFull;
    }

    @Override
    public void sendTelemetryMetric(String metric, Integer value) {
      // Null only if the telemetry timer fired before this constructor finished (it waits 10 s).
      if (queueFull != null && QUEUE_DROPS.equals(metric) && value != null && value > 0) {
        queueFull.increment(value);
      }
      super.sendTelemetryMetric(metric, value);
    }
  }
}
