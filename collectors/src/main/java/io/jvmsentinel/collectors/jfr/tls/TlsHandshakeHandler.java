package io.jvmsentinel.collectors.jfr.tls;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.CardinalityCap;
import io.jvmsentinel.collectors.support.EventFields;
import io.jvmsentinel.collectors.support.TopK;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Counts TLS handshakes ({@code jdk.TLSHandshake}) by peer, protocol and cipher suite, and full
 * handshakes (a certificate chain validated on the same thread just before, see {@link
 * RecentValidations}) by peer. Keeps per-peer aggregates for {@link #snapshot}.
 *
 * <p>Implementation notes. Both ends of a connection emit the event, so a JVM that calls itself
 * counts two handshakes per connection. A client-side event names the server ({@code
 * peerHost:peerPort}) and its leaf certificate ({@code certificateId}); a server-side event names
 * the client's ephemeral port and has {@code certificateId=0} unless the client sent a certificate.
 * A server validates no chain without client authentication, so server-side handshakes are never
 * counted full. JSSE reports a resumed session's peer as it was when the session was created, so
 * resumed inbound handshakes repeat the first connection's port. A non-zero {@code certificateId}
 * is reported as used, so {@link X509CertificateHandler} exports the peer certificate's expiry.
 *
 * <p>Peers are untrusted and unbounded (every inbound full handshake brings a new port), hence the
 * two bounds: {@link TopK} tracks the busiest {@value #TRACKED_PEERS} peers for the snapshot, and a
 * peer gets its own series only once it is tracked with at least two handshakes (a one-off
 * ephemeral port never does), for at most {@code maxPeerSeries} peers ever. Everything else,
 * including each peer's first handshake, is counted as {@code peer="other"}. Protocols and cipher
 * suites are capped at {@value #MAX_TAG_VALUES} values each, and the combinations of the three tags
 * at {@value #MAX_HANDSHAKE_SERIES} series (without it 51 x 33 x 33 were possible); a handshake
 * beyond that is counted with all three tags {@code other}. All caps are {@link CardinalityCap}s,
 * counted in {@code jvm_sentinel_tag_values_capped_total}.
 */
public final class TlsHandshakeHandler implements JfrEventHandler {

  public static final String EVENT = "jdk.TLSHandshake";
  public static final String OTHER = CardinalityCap.OTHER;
  public static final String UNKNOWN = CardinalityCap.UNKNOWN;
  public static final int DEFAULT_MAX_PEER_SERIES = 50;
  static final int TRACKED_PEERS = 200;
  private static final int ADMIT_AFTER = 2;
  // Protocol and cipher values come from the JDK's small vocabulary; anything beyond is junk.
  private static final int MAX_TAG_VALUES = 32;
  // Series of jvm.tls.handshakes: peers each talk one or two protocols and a few suites.
  static final int MAX_HANDSHAKE_SERIES = 200;
  private static final List<String> ALL_OTHER = List.of(OTHER, OTHER, OTHER);

  private final Tags tags;
  private final RecentValidations validations;
  private final LongConsumer certificateUsed;
  private volatile MeterRegistry registry;

  // Meters: touched on the dispatch thread only.
  private final CardinalityCap seriesPeers;
  private final CardinalityCap protocols = new CardinalityCap(MAX_TAG_VALUES);
  private final CardinalityCap ciphers = new CardinalityCap(MAX_TAG_VALUES);
  private final CardinalityCap handshakeSeries = new CardinalityCap(MAX_HANDSHAKE_SERIES);
  private final Map<List<String>, Counter> handshakeCounters = new HashMap<>();
  private final Map<String, Counter> fullCounters = new HashMap<>();

  // Aggregates: guarded by this, read by snapshot() from any thread.
  private final TopK<String, Boolean> peers = new TopK<>(TRACKED_PEERS);
  private final Map<String, PeerStats> stats = new HashMap<>();
  private long fullHandshakes;

  /**
   * @param certificateUsed told the {@code certificateId} of each handshake's peer certificate,
   *     typically {@link X509CertificateHandler#markUsed}
   */
  public TlsHandshakeHandler(
      Tags tags, RecentValidations validations, LongConsumer certificateUsed) {
    this(tags, validations, certificateUsed, DEFAULT_MAX_PEER_SERIES);
  }

  TlsHandshakeHandler(
      Tags tags, RecentValidations validations, LongConsumer certificateUsed, int maxPeerSeries) {
    this.tags = tags;
    this.validations = validations;
    this.certificateUsed = certificateUsed;
    this.seriesPeers = new CardinalityCap(maxPeerSeries);
  }

  @Override
  public String eventName() {
    return EVENT;
  }

  /** Off in JFR's default settings: the daemon enables it explicitly. */
  @Override
  public EventSettings settings() {
    return EventSettings.instant(false);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    seriesPeers.bindTo(registry, tags, Metric.JVM_TLS_HANDSHAKES, "peer");
    protocols.bindTo(registry, tags, Metric.JVM_TLS_HANDSHAKES, "protocol");
    ciphers.bindTo(registry, tags, Metric.JVM_TLS_HANDSHAKES, "cipher");
    handshakeSeries.bindTo(registry, tags, Metric.JVM_TLS_HANDSHAKES, "peer,protocol,cipher");
    this.registry = registry;
  }

  @Override
  public void accept(RecordedEvent event) {
    String peer = peer(event);
    String protocol = orUnknown(EventFields.string(event, "protocolVersion"));
    String cipher = orUnknown(EventFields.string(event, "cipherSuite"));
    Instant at = EventFields.time(event);
    long threadId = EventFields.threadId(event);
    boolean full = threadId >= 0 && validations.consume(threadId, at);
    long peerHandshakes = aggregate(peer, protocol, cipher, full, at);
    count(peer, peerHandshakes, protocol, cipher, full);
    long certificateId = CertificateIds.of(event);
    if (certificateId != 0) {
      certificateUsed.accept(certificateId);
    }
  }

  @Override
  public void streamStopped() {
    validations.clear();
  }

  /** The totals and the {@code topN} busiest peers, most handshakes first. */
  public synchronized TlsReport snapshot(int topN) {
    List<TlsReport.Peer> top = new ArrayList<>();
    for (TopK.Entry<String, Boolean> entry : peers.top(topN)) {
      PeerStats peer = stats.get(entry.key());
      if (peer != null) {
        top.add(peer.report(entry.key()));
      }
    }
    return new TlsReport(peers.total(), fullHandshakes, top);
  }

  /** Updates the aggregates; returns the peer's handshakes seen while tracked. */
  private synchronized long aggregate(
      String peer, String protocol, String cipher, boolean full, Instant at) {
    if (full) {
      fullHandshakes++;
    }
    peers.add(peer, Boolean.TRUE);
    PeerStats peerStats = stats.get(peer);
    if (peerStats == null) {
      peerStats = new PeerStats();
      stats.put(peer, peerStats);
      if (stats.size() > TRACKED_PEERS) {
        // TopK evicted one peer to make room: drop its aggregates too.
        stats.keySet().removeIf(key -> peers.count(key) == 0);
      }
    }
    peerStats.add(protocol, cipher, full, at);
    return peerStats.handshakes();
  }

  /** Counts one handshake in its series, every tag and their combination capped. */
  void count(String peer, long peerHandshakes, String protocol, String cipher, boolean full) {
    MeterRegistry meters = registry;
    if (meters == null) {
      return;
    }
    String peerTag = peerTag(peer, peerHandshakes);
    List<String> series = List.of(peerTag, protocols.value(protocol), ciphers.value(cipher));
    if (!series.equals(ALL_OTHER) && !handshakeSeries.admit(series)) {
      series = ALL_OTHER;
    }
    handshakeCounters
        .computeIfAbsent(
            series,
            key ->
                Metric.JVM_TLS_HANDSHAKES.counter(
                    meters,
                    tags.and("peer", key.get(0), "protocol", key.get(1), "cipher", key.get(2))))
        .increment();
    if (full) {
      fullCounters
          .computeIfAbsent(
              peerTag,
              key -> Metric.JVM_TLS_HANDSHAKES_FULL.counter(meters, tags.and("peer", peerTag)))
          .increment();
    }
  }

  /** A peer's first handshake is counted as other by design, not as capped. */
  private String peerTag(String peer, long peerHandshakes) {
    if (seriesPeers.admitted(peer) || peerHandshakes >= ADMIT_AFTER) {
      return seriesPeers.value(peer);
    }
    return OTHER;
  }

  /** {@code peerHost:peerPort}; {@code unknown} for a missing host, no port when it is missing. */
  public static String peer(RecordedEvent event) {
    String host = orUnknown(EventFields.string(event, "peerHost"));
    long port = EventFields.count(event, "peerPort", 0);
    return port > 0 ? host + ":" + port : host;
  }

  private static String orUnknown(String value) {
    return value == null || value.isBlank() ? UNKNOWN : value;
  }
}
