package io.jvmsentinel.collectors.jfr.tls;

import static io.jvmsentinel.collectors.jfr.tls.TlsFixtures.FULL_HANDSHAKES_17;
import static io.jvmsentinel.collectors.jfr.tls.TlsFixtures.FULL_HANDSHAKES_25;
import static io.jvmsentinel.collectors.jfr.tls.TlsFixtures.LISTENER_STORM_17;
import static io.jvmsentinel.collectors.jfr.tls.TlsFixtures.RESUMED_17;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The certificate handler fed with recorded lab scenarios, together with the two handlers that tell
 * it which certificates the target used. The lab's chain: {@code CN=localhost} signed by {@code
 * CN=jvm-sentinel lab CA} (the CA the lab used when the fixtures were recorded; see lab/README.md);
 * every other parsed certificate is a {@code cacerts} root that no handshake used.
 */
class X509CertificateHandlerTest {

  private static final String LEAF = "CN=localhost";
  private static final String LEAF_SERIAL = "24:7d:6f:92:8e:11:6c:8c";
  private static final Instant LEAF_EXPIRY = Instant.parse("2036-11-19T04:49:05Z");
  private static final String CA = "CN=jvm-sentinel lab CA";
  private static final String CA_SERIAL = "7e:9b:61:d0:ea:77:c8:9b";
  private static final Instant CA_EXPIRY = Instant.parse("2036-11-19T04:49:02Z");
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final Tags TARGET = Tags.of("target", "lab");

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RecentValidations validations = new RecentValidations();
  private X509CertificateHandler handler = new X509CertificateHandler(TARGET, CLOCK);

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {FULL_HANDSHAKES_17, FULL_HANDSHAKES_25, RESUMED_17, LISTENER_STORM_17})
  void exportsTheCertificatesUsedInHandshakesWithSecondsFromTheClockAtScrapeTime(String fixture) {
    List<RecordedEvent> events = TlsFixtures.events(fixture);
    handler.bindTo(registry);
    replay(events);

    assertThat(gauge(LEAF, LEAF_SERIAL).value())
        .isEqualTo(LEAF_EXPIRY.getEpochSecond() - NOW.getEpochSecond());
    assertThat(gauge(LEAF, LEAF_SERIAL).getId().getBaseUnit()).isEqualTo("seconds");
    assertThat(gauge(CA, CA_SERIAL).value())
        .isEqualTo(CA_EXPIRY.getEpochSecond() - NOW.getEpochSecond());
    // The ~150 cacerts roots the JVM parsed were never used: no series for any of them.
    assertThat(registry.find("jvm.tls.certificate.expiry").gauges()).hasSize(2);
    assertThat(handler.snapshot())
        .containsExactly(
            new CertificateExpiry(CA, CA_SERIAL, CA, CA_EXPIRY),
            new CertificateExpiry(LEAF, LEAF_SERIAL, CA, LEAF_EXPIRY));
    assertThat(handler.unusedCertificates()).isEqualTo(distinctCertificates(events).size() - 2);
  }

  @Test
  void theUnusedRootsWouldHaveCrowdedOutTheLabChain() {
    // Why only used certificates count: 50 parsed roots expire before the lab's chain.
    List<RecordedEvent> events = TlsFixtures.events(FULL_HANDSHAKES_25);
    long sooner =
        distinctCertificates(events).values().stream()
            .filter(expiry -> expiry.isBefore(CA_EXPIRY))
            .count();
    assertThat(sooner).isGreaterThanOrEqualTo(X509CertificateHandler.DEFAULT_MAX_CERTIFICATES);
  }

  @Test
  void withMoreUsedCertificatesThanTheCapTheSoonestExpiringAreKept() {
    List<RecordedEvent> events =
        TlsFixtures.events(LISTENER_STORM_17, X509CertificateHandler.EVENT);
    Map<List<String>, Instant> distinct = distinctCertificates(events);
    assertThat(distinct).hasSizeGreaterThan(X509CertificateHandler.DEFAULT_MAX_CERTIFICATES);
    handler.bindTo(registry);
    events.forEach(handler::accept);
    assertThat(registry.find("jvm.tls.certificate.expiry").gauges()).isEmpty();

    // Use every parsed certificate, in an order that makes later ones displace earlier ones.
    List<Long> ids = new ArrayList<>(events.stream().map(CertificateIds::of).distinct().toList());
    Collections.shuffle(ids, new Random(42));
    ids.forEach(handler::markUsed);

    List<Instant> soonest =
        distinct.values().stream()
            .sorted()
            .limit(X509CertificateHandler.DEFAULT_MAX_CERTIFICATES)
            .toList();
    assertThat(handler.snapshot())
        .extracting(CertificateExpiry::validUntil)
        .containsExactlyElementsOf(soonest);
    // Displaced certificates lost their gauges: exactly one per kept certificate is left.
    assertThat(
            registry.find("jvm.tls.certificate.expiry").gauges().stream()
                .map(g -> List.of(g.getId().getTag("subject"), g.getId().getTag("serial")))
                .collect(Collectors.toSet()))
        .isEqualTo(
            handler.snapshot().stream()
                .map(c -> List.of(c.subject(), c.serial()))
                .collect(Collectors.toSet()));
    assertThat(handler.unusedCertificates())
        .isEqualTo(distinct.size() - X509CertificateHandler.DEFAULT_MAX_CERTIFICATES);
  }

  @Test
  void aCertificateUsedBeforeItWasParsedIsExportedWhenParsed() {
    List<RecordedEvent> certificates =
        TlsFixtures.events(FULL_HANDSHAKES_25, X509CertificateHandler.EVENT);
    handler.bindTo(registry);
    handler.markUsed(idOf(certificates, LEAF));
    assertThat(handler.snapshot()).isEmpty();

    certificates.forEach(handler::accept);

    assertThat(handler.snapshot()).extracting(CertificateExpiry::subject).containsExactly(LEAF);
    assertThat(gauge(LEAF, LEAF_SERIAL).value())
        .isEqualTo(LEAF_EXPIRY.getEpochSecond() - NOW.getEpochSecond());
  }

  @Test
  void theParsedCertificatesAreBoundedOldestForgottenFirst() {
    List<RecordedEvent> certificates =
        TlsFixtures.events(FULL_HANDSHAKES_17, X509CertificateHandler.EVENT);
    handler = new X509CertificateHandler(TARGET, CLOCK, 50, 10);
    certificates.forEach(handler::accept);
    assertThat(handler.unusedCertificates()).isEqualTo(10);

    // The last ten parses are remembered; the earlier ones are forgotten and can't be exported.
    List<Long> byLatestParse = new ArrayList<>();
    for (RecordedEvent event : certificates) {
      long id = CertificateIds.of(event);
      byLatestParse.remove(Long.valueOf(id));
      byLatestParse.add(id);
    }
    int n = byLatestParse.size();
    handler.markUsed(byLatestParse.get(n - 11));
    assertThat(handler.snapshot()).isEmpty();
    handler.markUsed(byLatestParse.get(n - 1));
    assertThat(handler.snapshot()).hasSize(1);
  }

  @Test
  void certificatesUsedBeforeBindingGetTheirGaugesWhenBound() {
    replay(TlsFixtures.events(RESUMED_17));
    assertThat(handler.snapshot()).hasSize(2);
    handler.bindTo(registry);
    assertThat(gauge(LEAF, LEAF_SERIAL)).isNotNull();
    assertThat(gauge(CA, CA_SERIAL)).isNotNull();
  }

  @Test
  void idsAreTheSameAcrossEventTypesAndJdks() {
    // JDK 17 writes the id as a signed int, JDK 25 as an unsigned long: both read the same.
    long leaf17 = idOf(TlsFixtures.events(FULL_HANDSHAKES_17, X509CertificateHandler.EVENT), LEAF);
    long leaf25 = idOf(TlsFixtures.events(FULL_HANDSHAKES_25, X509CertificateHandler.EVENT), LEAF);
    assertThat(leaf17).isEqualTo(leaf25).isPositive();
    Set<Long> handshakeIds =
        TlsFixtures.events(FULL_HANDSHAKES_17, TlsHandshakeHandler.EVENT).stream()
            .map(CertificateIds::of)
            .collect(Collectors.toSet());
    assertThat(handshakeIds).containsExactlyInAnyOrder(0L, leaf17);
  }

  @Test
  void eventsWithoutCertificateFieldsAndUnknownIdsAreSkipped() {
    handler.bindTo(registry);
    List<RecordedEvent> handshakes = TlsFixtures.events(RESUMED_17, TlsHandshakeHandler.EVENT);
    assertThatCode(() -> handshakes.forEach(handler::accept)).doesNotThrowAnyException();
    assertThatCode(
            () -> {
              handler.markUsed(0);
              handler.markUsed(-1);
              handler.markUsed(Long.MAX_VALUE);
              for (long id = 1; id <= 2 * X509CertificateHandler.MAX_PENDING; id++) {
                handler.markUsed(id);
              }
            })
        .doesNotThrowAnyException();
    assertThat(registry.find("jvm.tls.certificate.expiry").gauges()).isEmpty();
    assertThat(handler.snapshot()).isEmpty();
    assertThat(handler.unusedCertificates()).isZero();
  }

  /** All TLS events in end-time order to the three handlers, wired as in JfrHandlers. */
  private void replay(List<RecordedEvent> events) {
    X509ValidationHandler validation =
        new X509ValidationHandler(TARGET, validations, handler::markUsed);
    TlsHandshakeHandler handshakes =
        new TlsHandshakeHandler(TARGET, validations, handler::markUsed);
    for (RecordedEvent event : events) {
      switch (event.getEventType().getName()) {
        case X509CertificateHandler.EVENT -> handler.accept(event);
        case X509ValidationHandler.EVENT -> validation.accept(event);
        case TlsHandshakeHandler.EVENT -> handshakes.accept(event);
        default -> {}
      }
    }
  }

  private Gauge gauge(String subject, String serial) {
    return registry
        .get("jvm.tls.certificate.expiry")
        .tags("subject", subject, "serial", serial, "target", "lab")
        .gauge();
  }

  /** Each parsed certificate (subject, serial) with its expiry, counted from the raw events. */
  private static Map<List<String>, Instant> distinctCertificates(List<RecordedEvent> events) {
    Map<List<String>, Instant> distinct = new LinkedHashMap<>();
    events.stream()
        .filter(e -> e.getEventType().getName().equals(X509CertificateHandler.EVENT))
        .sorted(Comparator.comparing(RecordedEvent::getEndTime))
        .forEach(
            e ->
                distinct.putIfAbsent(
                    List.of(e.getString("subject"), e.getString("serialNumber")),
                    Instant.ofEpochMilli(e.getLong("validUntil"))));
    return distinct;
  }

  private static long idOf(List<RecordedEvent> certificates, String subject) {
    return certificates.stream()
        .filter(e -> subject.equals(e.getString("subject")))
        .map(CertificateIds::of)
        .findFirst()
        .orElseThrow();
  }
}
