package io.jvmsentinel.collectors.jfr.tls;

import static io.jvmsentinel.collectors.jfr.tls.TlsFixtures.FULL_HANDSHAKES_17;
import static io.jvmsentinel.collectors.jfr.tls.TlsFixtures.FULL_HANDSHAKES_25;
import static io.jvmsentinel.collectors.jfr.tls.TlsFixtures.LISTENER_STORM_17;
import static io.jvmsentinel.collectors.jfr.tls.TlsFixtures.RESUMED_17;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The TLS handlers fed with recorded lab scenarios. Expectations are counted from the raw events
 * here, independently of the handlers (the counts match {@code jfr print}, see the README).
 */
class TlsHandshakeHandlerTest {

  private static final Tags TARGET = Tags.of("target", "lab");

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RecentValidations validations = new RecentValidations();
  private final Set<Long> validated = new HashSet<>();
  private final Set<Long> peerCertificates = new HashSet<>();
  private final X509ValidationHandler validationHandler =
      new X509ValidationHandler(TARGET, validations, validated::add);
  private TlsHandshakeHandler handshakes =
      new TlsHandshakeHandler(TARGET, validations, peerCertificates::add);

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {LISTENER_STORM_17, FULL_HANDSHAKES_17, FULL_HANDSHAKES_25, RESUMED_17})
  void countsEveryHandshakeByPeerProtocolAndCipher(String fixture) {
    List<RecordedEvent> events = TlsFixtures.events(fixture);
    List<RecordedEvent> handshakeEvents = only(events, TlsHandshakeHandler.EVENT);

    replay(events);

    // Each (peer, protocol, cipher) series holds exactly that peer's handshakes from its second on;
    // the first handshake of every peer is counted as peer="other".
    Map<List<String>, Long> expected = new HashMap<>();
    Map<String, Integer> seen = new HashMap<>();
    for (RecordedEvent event : handshakeEvents) {
      String peer = event.getString("peerHost") + ":" + event.getInt("peerPort");
      String tag = seen.merge(peer, 1, Integer::sum) > 1 ? peer : "other";
      expected.merge(
          List.of(tag, event.getString("protocolVersion"), event.getString("cipherSuite")),
          1L,
          Long::sum);
    }
    assertThat(handshakeSeries()).isEqualTo(expected);
    assertThat(sum("jvm.tls.handshakes")).isEqualTo(handshakeEvents.size());

    TlsReport report = handshakes.snapshot(100);
    assertThat(report.handshakes()).isEqualTo(handshakeEvents.size());
    assertThat(report.peers()).hasSize(seen.size());
    for (TlsReport.Peer peer : report.peers()) {
      List<RecordedEvent> ofPeer =
          handshakeEvents.stream()
              .filter(e -> peer.peer().equals(e.getString("peerHost") + ":" + e.getInt("peerPort")))
              .toList();
      assertThat(peer.handshakes()).as(peer.peer()).isEqualTo(ofPeer.size());
      assertThat(peer.protocols()).isEqualTo(countBy(ofPeer, "protocolVersion"));
      assertThat(peer.ciphers()).isEqualTo(countBy(ofPeer, "cipherSuite"));
      assertThat(peer.lastSeen()).isEqualTo(ofPeer.get(ofPeer.size() - 1).getEndTime());
    }
    assertThat(report.peers())
        .extracting(TlsReport.Peer::handshakes)
        .isSortedAccordingTo((a, b) -> Long.compare(b, a));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {FULL_HANDSHAKES_17, FULL_HANDSHAKES_25})
  void freshContextPerConnectionMakesEveryClientHandshakeFull(String fixture) {
    List<RecordedEvent> events = TlsFixtures.events(fixture);
    replay(events);

    // One chain (CA + leaf) validated per connection: chains are counted once.
    List<RecordedEvent> validationEvents = only(events, X509ValidationHandler.EVENT);
    long chains =
        validationEvents.stream().map(e -> e.getLong("validationCounter")).distinct().count();
    assertThat(validationEvents).hasSize((int) chains * 2);
    assertThat(sum("jvm.tls.certificate.validations")).isEqualTo(validationEvents.size());

    TlsReport.Peer server = clientSidePeer(events);
    assertThat(server.handshakes()).isEqualTo(chains);
    assertThat(server.fullHandshakes()).isEqualTo(chains);
    assertThat(server.fullShare()).isEqualTo(1.0);
    TlsReport report = handshakes.snapshot(100);
    assertThat(report.fullHandshakes()).isEqualTo(chains);
    // The in-JVM server side of each connection is counted too, and is never full.
    assertThat(report.handshakes()).isEqualTo(2 * chains);
    assertThat(report.fullShare()).isEqualTo(0.5);
    report.peers().stream()
        .filter(peer -> !peer.equals(server))
        .forEach(peer -> assertThat(peer.fullHandshakes()).isZero());

    // The first full handshake with the server went to "other", like its first handshake.
    assertThat(fullSeries()).isEqualTo(Map.of(server.peer(), chains - 1, "other", 1L));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {LISTENER_STORM_17, FULL_HANDSHAKES_17, FULL_HANDSHAKES_25, RESUMED_17})
  void reportsTheCertificatesOfValidatedChainsAndPeersAsUsed(String fixture) {
    List<RecordedEvent> events = TlsFixtures.events(fixture);
    replay(events);

    // The lab chain only (CA + leaf, ids as JDK 25 writes them); server-side id 0 is not reported.
    assertThat(validated).isEqualTo(unsignedIds(only(events, X509ValidationHandler.EVENT)));
    assertThat(validated).hasSize(2).doesNotContain(0L);
    assertThat(peerCertificates)
        .isEqualTo(unsignedIds(only(events, TlsHandshakeHandler.EVENT)))
        .hasSize(1)
        .isSubsetOf(validated);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {RESUMED_17, LISTENER_STORM_17})
  void resumedSessionsValidateOnlyTheFirstConnection(String fixture) {
    List<RecordedEvent> events = TlsFixtures.events(fixture);
    replay(events);

    TlsReport.Peer server = clientSidePeer(events);
    assertThat(server.handshakes()).isGreaterThan(10);
    assertThat(server.fullHandshakes()).isEqualTo(1);
    assertThat(server.fullShare()).isLessThan(0.1);
    assertThat(handshakes.snapshot(100).fullHandshakes()).isEqualTo(1);
    assertThat(fullSeries()).isEqualTo(Map.of("other", 1L));
  }

  @Test
  void peersBeyondTheSeriesCapAreCountedAsOther() {
    handshakes = new TlsHandshakeHandler(TARGET, validations, peerCertificates::add, 1);
    List<RecordedEvent> events = TlsFixtures.events(LISTENER_STORM_17);
    replay(events);

    Set<String> peerTags =
        handshakeSeries().keySet().stream().map(key -> key.get(0)).collect(Collectors.toSet());
    assertThat(peerTags).hasSize(2).contains("other");
    assertThat(sum("jvm.tls.handshakes")).isEqualTo(only(events, TlsHandshakeHandler.EVENT).size());
    // The aggregates still track both peers exactly.
    assertThat(handshakes.snapshot(10).peers()).hasSize(2);
  }

  @Test
  void oneOffPeersNeverGetTheirOwnSeries() {
    replay(TlsFixtures.events(FULL_HANDSHAKES_17));

    // Each inbound full handshake comes from a new ephemeral port: all of them stay "other".
    assertThat(handshakeSeries().keySet().stream().map(key -> key.get(0)).distinct())
        .containsExactlyInAnyOrder(
            "other", clientSidePeer(TlsFixtures.events(FULL_HANDSHAKES_17)).peer());
  }

  @Test
  void aStoppedStreamForgetsValidationsButKeepsMetersAndAggregates() {
    List<RecordedEvent> events = TlsFixtures.events(FULL_HANDSHAKES_17);
    List<RecordedEvent> validation = only(events, X509ValidationHandler.EVENT);
    List<RecordedEvent> handshakeEvents = only(events, TlsHandshakeHandler.EVENT);
    replay(events);
    double before = sum("jvm.tls.handshakes");
    long fullBefore = handshakes.snapshot(100).fullHandshakes();

    validationHandler.accept(validation.get(validation.size() - 1));
    assertThat(validations.size()).isEqualTo(1);
    handshakes.streamStopped();
    assertThat(validations.size()).isZero();
    RecordedEvent clientHandshake =
        handshakeEvents.stream().filter(e -> e.getLong("certificateId") != 0).findFirst().get();
    handshakes.accept(clientHandshake);

    assertThat(sum("jvm.tls.handshakes")).isEqualTo(before + 1);
    assertThat(handshakes.snapshot(100).fullHandshakes()).isEqualTo(fullBefore);
  }

  @Test
  void eventsMissingEveryFieldAreCountedAsUnknownWithoutThrowing() {
    // A RecordedEvent cannot be built by hand: other event types stand in for broken ones.
    List<RecordedEvent> certificates =
        TlsFixtures.events(LISTENER_STORM_17, X509CertificateHandler.EVENT).subList(0, 3);

    assertThatCode(() -> certificates.forEach(handshakes::accept)).doesNotThrowAnyException();
    assertThatCode(() -> certificates.forEach(validationHandler::accept))
        .doesNotThrowAnyException();

    assertThat(handshakes.snapshot(10).peers())
        .singleElement()
        .satisfies(
            peer -> {
              assertThat(peer.peer()).isEqualTo("unknown");
              assertThat(peer.protocols()).isEqualTo(Map.of("unknown", 3L));
            });
  }

  @Test
  void declaresInstantEventsWithoutStackTraces() {
    assertThat(handshakes.eventName()).isEqualTo("jdk.TLSHandshake");
    assertThat(handshakes.settings().toJfrSettings(handshakes.eventName()))
        .containsEntry("jdk.TLSHandshake#enabled", "true")
        .containsEntry("jdk.TLSHandshake#stackTrace", "false");
    assertThat(validationHandler.settings().stackTrace()).isFalse();
    assertThat(validationHandler.eventName()).isEqualTo("jdk.X509Validation");
  }

  private void replay(List<RecordedEvent> events) {
    validationHandler.bindTo(registry);
    handshakes.bindTo(registry);
    for (RecordedEvent event : events) {
      switch (event.getEventType().getName()) {
        case X509ValidationHandler.EVENT -> validationHandler.accept(event);
        case TlsHandshakeHandler.EVENT -> handshakes.accept(event);
        default -> {}
      }
    }
  }

  /** The peer the lab's client called: its handshakes carry the server's certificate id. */
  private TlsReport.Peer clientSidePeer(List<RecordedEvent> events) {
    Set<String> peers =
        only(events, TlsHandshakeHandler.EVENT).stream()
            .filter(e -> e.getLong("certificateId") != 0)
            .map(e -> e.getString("peerHost") + ":" + e.getInt("peerPort"))
            .collect(Collectors.toSet());
    assertThat(peers).hasSize(1);
    return handshakes.snapshot(TlsHandshakeHandler.TRACKED_PEERS).peers().stream()
        .filter(peer -> peers.contains(peer.peer()))
        .findFirst()
        .orElseThrow();
  }

  private Map<List<String>, Long> handshakeSeries() {
    return registry.find("jvm.tls.handshakes").counters().stream()
        .collect(
            Collectors.toMap(
                c -> List.of(tag(c, "peer"), tag(c, "protocol"), tag(c, "cipher")),
                c -> (long) c.count()));
  }

  @Test
  void capsTheProductOfPeerProtocolAndCipherNotOnlyEachTag() {
    handshakes.bindTo(registry);
    // 50 peers x 2 protocols x 5 ciphers: each tag within its own cap, the product (500) not.
    int counted = 0;
    for (int peer = 0; peer < 50; peer++) {
      for (String protocol : List.of("TLSv1.2", "TLSv1.3")) {
        for (int cipher = 0; cipher < 5; cipher++) {
          handshakes.count("10.0.0." + peer + ":443", 2, protocol, "TLS_CIPHER_" + cipher, false);
          counted++;
        }
      }
    }

    List<Counter> series = registry.find("jvm.tls.handshakes").counters().stream().toList();
    assertThat(series).hasSize(TlsHandshakeHandler.MAX_HANDSHAKE_SERIES + 1);
    Counter overflow =
        registry
            .get("jvm.tls.handshakes")
            .tags("peer", "other", "protocol", "other", "cipher", "other")
            .counter();
    assertThat(overflow.count()).isEqualTo(counted - TlsHandshakeHandler.MAX_HANDSHAKE_SERIES);
    assertThat(sum("jvm.tls.handshakes")).as("nothing lost, only merged").isEqualTo(counted);
    assertThat(
            registry
                .get("jvm.sentinel.tag.values.capped")
                .tags("meter", "jvm.tls.handshakes", "tag", "peer,protocol,cipher")
                .functionCounter()
                .count())
        .isEqualTo(counted - TlsHandshakeHandler.MAX_HANDSHAKE_SERIES);
  }

  private Map<String, Long> fullSeries() {
    return registry.find("jvm.tls.handshakes.full").counters().stream()
        .collect(Collectors.toMap(c -> tag(c, "peer"), c -> (long) c.count()));
  }

  private double sum(String name) {
    return registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
  }

  private static String tag(Meter meter, String key) {
    return meter.getId().getTag(key);
  }

  private static List<RecordedEvent> only(List<RecordedEvent> events, String name) {
    return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
  }

  /** The non-zero certificate ids of the events, read as unsigned 32-bit values. */
  private static Set<Long> unsignedIds(List<RecordedEvent> events) {
    return events.stream()
        .map(e -> e.getLong("certificateId") & 0xFFFF_FFFFL)
        .filter(id -> id != 0)
        .collect(Collectors.toSet());
  }

  private static Map<String, Long> countBy(List<RecordedEvent> events, String field) {
    return events.stream()
        .collect(Collectors.groupingBy(e -> e.getString(field), Collectors.counting()));
  }
}
