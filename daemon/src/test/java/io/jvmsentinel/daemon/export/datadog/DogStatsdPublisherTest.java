package io.jvmsentinel.daemon.export.datadog;

import static org.assertj.core.api.Assertions.assertThat;

import com.timgroup.statsd.NonBlockingStatsDClient;
import io.jvmsentinel.daemon.export.datadog.DogStatsdLines.Line;
import io.jvmsentinel.daemon.export.datadog.DogStatsdLines.Metric;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The meters of the Prometheus registry, as a Datadog Agent receives them step by step, over UDP
 * and over a Unix-domain socket.
 */
@SuppressWarnings("deprecation") // the simpleclient registry, as the daemon uses it
class DogStatsdPublisherTest {
  @TempDir Path dir;

  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  final AtomicLong queueDepth = new AtomicLong(42);
  final AtomicLong gcCount = new AtomicLong(100);
  final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
  }

  FakeAgent agent(String transport) throws Exception {
    FakeAgent agent = transport.equals("udp") ? FakeAgent.udp() : FakeAgent.unixSocket(dir);
    closing.add(agent);
    return agent;
  }

  NonBlockingStatsDClient client(FakeAgent agent) {
    NonBlockingStatsDClient client =
        DogStatsdClients.create(agent.address(), Map.of("team", "jvm"), registry);
    closing.add(0, client::stop);
    return client;
  }

  /** The tags every message carries: the configured ones and those the client reads itself. */
  static List<String> clientTags(String... ours) {
    List<String> tags = new ArrayList<>(List.of(ours));
    Map.of("env", "DD_ENV", "service", "DD_SERVICE", "version", "DD_VERSION")
        .forEach(
            (tag, variable) -> {
              String value = System.getenv(variable);
              if (value != null && !value.isBlank()) {
                tags.add(tag + ":" + value);
              }
            });
    String entity = System.getenv("DD_ENTITY_ID");
    if (entity != null && !entity.isBlank()) {
      tags.add("dd.internal.entity_id:" + entity);
    }
    return tags;
  }

  static Metric metric(String name, double value, String type, String... meterTags) {
    List<String> tags = clientTags("team:jvm");
    tags.addAll(List.of(meterTags));
    return new Metric(name, value, type, tags);
  }

  static List<Metric> errorCounts(double send, double queueFull) {
    return List.of(
        metric("jvm.sentinel.dogstatsd.errors", send, "c", "reason:send"),
        metric("jvm.sentinel.dogstatsd.errors", queueFull, "c", "reason:queue_full"));
  }

  static List<Line> expected(List<Metric> errors, Metric... metrics) {
    return Stream.concat(Stream.of(metrics), errors.stream()).map(Line.class::cast).toList();
  }

  @ParameterizedTest(name = "over {0}")
  @ValueSource(strings = {"udp", "uds"})
  void gaugesCountersAndTimersStepByStep(String transport) throws Exception {
    FakeAgent agent = agent(transport);
    NonBlockingStatsDClient client = client(agent);
    Gauge.builder("test.queue.depth", queueDepth, AtomicLong::get)
        .tags("target", "orders", "area", "heap")
        .register(registry);
    Gauge.builder("test.down", () -> Double.NaN).tag("target", "orders").register(registry);
    Counter requests = Counter.builder("test.requests").tag("target", "orders").register(registry);
    FunctionCounter.builder("test.gc.count", gcCount, AtomicLong::get)
        .tag("target", "orders")
        .register(registry);
    Timer polls = Timer.builder("test.poll.duration").tag("target", "orders").register(registry);
    DogStatsdPublisher publisher = new DogStatsdPublisher(registry, client, Duration.ofSeconds(10));

    requests.increment(2);
    polls.record(Duration.ofMillis(250));
    polls.record(Duration.ofMillis(750));
    publisher.publishOnce();

    // A counter counted by the daemon starts at zero; a function counter's first value is only
    // the baseline (the target's history since it started); a NaN gauge is not sent.
    assertThat(agent.nextBatch(client))
        .containsExactlyInAnyOrderElementsOf(
            expected(
                errorCounts(0, 0),
                metric("test.queue.depth", 42, "g", "target:orders", "area:heap"),
                metric("test.requests", 2, "c", "target:orders"),
                metric("test.poll.duration.count", 2, "c", "target:orders"),
                metric("test.poll.duration.sum", 1.0, "c", "target:orders"),
                metric("test.poll.duration.max", 0.75, "g", "target:orders")));

    queueDepth.set(7);
    requests.increment(3);
    gcCount.set(130);
    polls.record(Duration.ofMillis(500));
    publisher.publishOnce();

    assertThat(agent.nextBatch(client))
        .containsExactlyInAnyOrderElementsOf(
            expected(
                errorCounts(0, 0),
                metric("test.queue.depth", 7, "g", "target:orders", "area:heap"),
                metric("test.requests", 3, "c", "target:orders"),
                metric("test.gc.count", 30, "c", "target:orders"),
                metric("test.poll.duration.count", 1, "c", "target:orders"),
                metric("test.poll.duration.sum", 0.5, "c", "target:orders"),
                metric("test.poll.duration.max", 0.75, "g", "target:orders")));

    gcCount.set(5); // the target restarted: everything since the restart is new
    publisher.publishOnce();

    assertThat(agent.nextBatch(client))
        .containsExactlyInAnyOrderElementsOf(
            expected(
                errorCounts(0, 0),
                metric("test.queue.depth", 7, "g", "target:orders", "area:heap"),
                metric("test.requests", 0, "c", "target:orders"),
                metric("test.gc.count", 5, "c", "target:orders"),
                metric("test.poll.duration.count", 0, "c", "target:orders"),
                metric("test.poll.duration.sum", 0, "c", "target:orders"),
                metric("test.poll.duration.max", 0.75, "g", "target:orders")));
  }

  @ParameterizedTest(name = "over {0}")
  @ValueSource(strings = {"udp", "uds"})
  void aFunctionCounterThatGoesNaNKeepsItsBaseline(String transport) throws Exception {
    FakeAgent agent = agent(transport);
    NonBlockingStatsDClient client = client(agent);
    AtomicLong value = new AtomicLong(10);
    FunctionCounter.builder("test.starts", value, v -> v.get() < 0 ? Double.NaN : (double) v.get())
        .register(registry);
    DogStatsdPublisher publisher = new DogStatsdPublisher(registry, client, Duration.ofSeconds(10));

    publisher.publishOnce(); // baseline 10
    agent.nextBatch(client);
    value.set(-1); // the target is down
    publisher.publishOnce();
    assertThat(agent.nextBatch(client))
        .containsExactlyInAnyOrderElementsOf(expected(errorCounts(0, 0)));
    value.set(25);
    publisher.publishOnce();

    assertThat(agent.nextBatch(client))
        .containsExactlyInAnyOrderElementsOf(
            expected(errorCounts(0, 0), metric("test.starts", 15, "c")));
  }

  @ParameterizedTest(name = "over {0}")
  @ValueSource(strings = {"udp"})
  void theJavaAgentsNamesGoOutOnlyWhenAskedFor(String transport) throws Exception {
    FakeAgent agent = agent(transport);
    NonBlockingStatsDClient client = client(agent);
    AtomicLong live = new AtomicLong(12);
    Gauge.builder("jvm.threads.live", live, AtomicLong::get)
        .tag("target", "orders")
        .register(registry);

    // Off by default: dd-java-agent or JMXFetch on the same JVM sends jvm.thread_count itself.
    new DogStatsdPublisher(registry, client, Duration.ofSeconds(10)).publishOnce();
    assertThat(agent.nextBatch(client))
        .containsExactlyInAnyOrderElementsOf(
            expected(errorCounts(0, 0), metric("jvm.threads.live", 12, "g", "target:orders")));

    new DogStatsdPublisher(registry, client, Duration.ofSeconds(10), true).publishOnce();
    assertThat(agent.nextBatch(client))
        .containsExactlyInAnyOrderElementsOf(
            expected(
                errorCounts(0, 0),
                metric("jvm.threads.live", 12, "g", "target:orders"),
                metric("jvm.thread_count", 12, "g", "target:orders")));
  }
}
