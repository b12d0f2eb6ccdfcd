package io.jvmsentinel.daemon.export.datadog;

import com.timgroup.statsd.StatsDClient;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends every meter of the registry to DogStatsD once per step: the same meters the Prometheus
 * endpoint serves, so each metric is defined once and has two outputs; and the JVM metrics again
 * under the names Datadog's Java agent uses ({@link DatadogAgentNames}).
 *
 * <p>The client is non-blocking: a step only puts messages on its bounded queue, and a dead agent
 * costs dropped packets (counted as {@code jvm.sentinel.dogstatsd.errors}), never a stalled step.
 */
public final class DogStatsdPublisher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DogStatsdPublisher.class);

  private final MeterRegistry registry;
  private final StatsDClient client;
  private final Duration step;
  private final StepDeltas deltas = new StepDeltas();
  private final Datapoints datapoints = new Datapoints(deltas);
  private final Optional<DatadogAgentNames> agentNames;
  private ScheduledExecutorService scheduler;

  /**
   * @param client where the datapoints go; its owner closes it
   */
  public DogStatsdPublisher(MeterRegistry registry, StatsDClient client, Duration step) {
    this(registry, client, step, false);
  }

  /**
   * @param agentNames also send the JVM metrics under the Datadog Java agent's names (opt-in: a
   *     dd-java-agent or JMXFetch on the same JVM sends them too, and two sources of one series
   *     overwrite each other)
   */
  public DogStatsdPublisher(
      MeterRegistry registry, StatsDClient client, Duration step, boolean agentNames) {
    this.registry = registry;
    this.client = client;
    this.step = step;
    this.agentNames = agentNames ? Optional.of(new DatadogAgentNames(deltas)) : Optional.empty();
  }

  /** Publishes every {@code step} on a daemon thread, starting one step from now. */
  public synchronized void start() {
    if (scheduler != null) {
      return;
    }
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "dogstatsd-publish");
              t.setDaemon(true);
              return t;
            });
    long ms = step.toMillis();
    scheduler.scheduleAtFixedRate(this::publishSafely, ms, ms, TimeUnit.MILLISECONDS);
  }

  private void publishSafely() {
    try {
      publishOnce();
    } catch (RuntimeException e) {
      // A scheduled task that throws is never run again.
      log.warn("DogStatsD step failed; trying again next step", e);
    }
  }

  /** Sends one step: every meter's datapoints, counts as the change since the previous call. */
  public synchronized void publishOnce() {
    for (Meter meter : registry.getMeters()) {
      String[] tags = DogStatsdNames.tags(meter.getId());
      for (Datapoint point : datapointsOf(meter)) {
        send(point, tags);
      }
    }
    if (agentNames.isPresent()) {
      for (DatadogAgentNames.Aliased aliased : agentNames.get().of(registry.getMeters())) {
        send(aliased.point(), aliased.tags());
      }
    }
    deltas.endStep();
  }

  private void send(Datapoint point, String[] tags) {
    if (point.kind() == Datapoint.Kind.GAUGE) {
      client.gauge(point.name(), point.value(), tags);
    } else {
      client.count(point.name(), point.value(), tags);
    }
  }

  private Iterable<Datapoint> datapointsOf(Meter meter) {
    try {
      return datapoints.of(meter);
    } catch (RuntimeException e) {
      // One broken gauge function must not cost every other meter its step.
      log.debug("DogStatsD: skipping {} this step: {}", meter.getId(), e.toString());
      return java.util.List.of();
    }
  }

  /** Stops the steps; the client stays open for its owner to close. */
  @Override
  public synchronized void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }
}
