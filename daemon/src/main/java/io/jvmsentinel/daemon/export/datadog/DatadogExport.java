package io.jvmsentinel.daemon.export.datadog;

import com.timgroup.statsd.NonBlockingStatsDClient;
import io.jvmsentinel.daemon.alert.notify.Notifier;
import io.jvmsentinel.daemon.config.DatadogConfig;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Datadog side of the daemon: one client, the meter publisher and the alert sink. */
public final class DatadogExport implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DatadogExport.class);
  private static final DatadogExport DISABLED = new DatadogExport(null, null, List.of());

  // The client's own packet sizes: it refuses a message larger than one packet.
  private static final int UDP_PACKET_BYTES =
      NonBlockingStatsDClient.DEFAULT_UDP_MAX_PACKET_SIZE_BYTES;
  private static final int UDS_PACKET_BYTES =
      NonBlockingStatsDClient.DEFAULT_UDS_MAX_PACKET_SIZE_BYTES;

  private final NonBlockingStatsDClient client;
  private final DogStatsdPublisher publisher;
  private final List<Notifier> notifiers;

  private DatadogExport(
      NonBlockingStatsDClient client, DogStatsdPublisher publisher, List<Notifier> notifiers) {
    this.client = client;
    this.publisher = publisher;
    this.notifiers = notifiers;
  }

  /**
   * Creates the client and its alert sink when {@code config} is enabled; call {@link #start()} to
   * begin publishing meters. A disabled config gives an export that does nothing.
   *
   * @throws IOException when the client cannot start (the agent's host name does not resolve)
   */
  public static DatadogExport create(DatadogConfig config, MeterRegistry registry)
      throws IOException {
    if (!config.enabled()) {
      return DISABLED;
    }
    NonBlockingStatsDClient client;
    try {
      client = DogStatsdClients.create(config.address(), config.tags(), registry);
    } catch (RuntimeException e) {
      throw new IOException(
          "cannot start the DogStatsD client for "
              + config.address()
              + ": "
              + (e.getCause() != null ? e.getCause() : e),
          e);
    }
    DogStatsdPublisher publisher =
        new DogStatsdPublisher(registry, client, config.step(), config.agentNames());
    int packet = config.address().unixSocket() ? UDS_PACKET_BYTES : UDP_PACKET_BYTES;
    List<Notifier> notifiers =
        config.alerts()
            ? List.of(
                new DatadogNotifier(
                    client, packet - constantTagBytes(config), config.address().toString()))
            : List.of();
    log.info(
        "DogStatsD: meters every {} s{} to the Datadog agent at {}",
        config.step().toSeconds(),
        config.alerts() ? " and alert events" : "",
        config.address());
    return new DatadogExport(client, publisher, notifiers);
  }

  // What the client appends to every message: our tags and the unified service tags it reads.
  private static int constantTagBytes(DatadogConfig config) {
    Stream<String> ours = Stream.of(DogStatsdNames.tags(config.tags()));
    Stream<String> env =
        Stream.of("DD_ENV", "DD_SERVICE", "DD_VERSION", "DD_ENTITY_ID")
            .map(System::getenv)
            .filter(v -> v != null)
            .map(v -> "dd.internal.entity_id:" + v); // the longest prefix of the four
    return Stream.concat(ours, env)
        .mapToInt(t -> t.getBytes(StandardCharsets.UTF_8).length + 1)
        .sum();
  }

  /** The alert sinks to hand to {@code Notifications}: Datadog's, when alerts are enabled. */
  public List<Notifier> notifiers() {
    return notifiers;
  }

  /** Starts publishing the meters every step. */
  public void start() {
    if (publisher != null) {
      publisher.start();
    }
  }

  /** Stops publishing and closes the client; close the notifications that use it first. */
  @Override
  public void close() {
    if (publisher != null) {
      publisher.close();
      client.stop();
    }
  }
}
