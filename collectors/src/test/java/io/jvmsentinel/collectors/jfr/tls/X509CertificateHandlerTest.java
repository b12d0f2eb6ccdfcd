package io.jvmsentinel.collectors.jfr.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

class X509CertificateHandlerTest {

  // The lab's leaf certificate (see daemon/src/main/resources/io/jvmsentinel/lab/README.md).
  private static final String LEAF_SERIAL = "24:7d:6f:92:8e:11:6c:8c";
  private static final Instant LEAF_EXPIRY = Instant.parse("2036-11-19T04:49:05Z");
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final X509CertificateHandler handler =
      new X509CertificateHandler(Tags.of("target", "lab"), Clock.fixed(NOW, ZoneOffset.UTC));

  // The lab leaf expires later than 50 of the cacerts roots: a larger cap keeps it.
  private final X509CertificateHandler keepsAll =
      new X509CertificateHandler(Tags.of("target", "lab"), Clock.fixed(NOW, ZoneOffset.UTC), 1_000);

  @Test
  void secondsUntilExpiryComeFromTheClockAtScrapeTime() {
    X509CertificateHandler handler = keepsAll;
    handler.bindTo(registry);
    TlsFixtures.events(TlsFixtures.RESUMED_17, X509CertificateHandler.EVENT)
        .forEach(handler::accept);

    Gauge leaf =
        registry
            .get("jvm.tls.certificate.expiry")
            .tags("subject", "CN=localhost", "serial", LEAF_SERIAL, "target", "lab")
            .gauge();
    assertThat(leaf.value()).isEqualTo(LEAF_EXPIRY.getEpochSecond() - NOW.getEpochSecond());
    assertThat(leaf.getId().getBaseUnit()).isEqualTo("seconds");
  }

  @Test
  void keepsOnlyTheSoonestExpiringCertificates() {
    List<RecordedEvent> events =
        TlsFixtures.events(TlsFixtures.LISTENER_STORM_17, X509CertificateHandler.EVENT);
    // The JVM parsed its whole cacerts truststore as well: far more than the cap.
    List<Instant> distinctExpiries =
        events.stream()
            .map(e -> e.getString("subject") + "|" + e.getString("serialNumber"))
            .distinct()
            .map(key -> expiryOf(events, key))
            .sorted()
            .toList();
    assertThat(distinctExpiries)
        .hasSizeGreaterThan(X509CertificateHandler.DEFAULT_MAX_CERTIFICATES);

    handler.bindTo(registry);
    events.forEach(handler::accept);

    Collection<Gauge> gauges = registry.find("jvm.tls.certificate.expiry").gauges();
    assertThat(gauges).hasSize(X509CertificateHandler.DEFAULT_MAX_CERTIFICATES);
    assertThat(handler.snapshot())
        .extracting(CertificateExpiry::validUntil)
        .containsExactlyElementsOf(
            distinctExpiries.subList(0, X509CertificateHandler.DEFAULT_MAX_CERTIFICATES));
  }

  @Test
  void certificatesSeenBeforeBindingGetTheirGaugesWhenBound() {
    X509CertificateHandler handler = keepsAll;
    TlsFixtures.events(TlsFixtures.RESUMED_17, X509CertificateHandler.EVENT)
        .forEach(handler::accept);
    handler.bindTo(registry);
    assertThat(registry.find("jvm.tls.certificate.expiry").tag("subject", "CN=localhost").gauge())
        .isNotNull();
  }

  @Test
  void eventsWithoutCertificateFieldsAreSkipped() {
    handler.bindTo(registry);
    List<RecordedEvent> handshakes =
        TlsFixtures.events(TlsFixtures.RESUMED_17, TlsHandshakeHandler.EVENT);
    assertThatCode(() -> handshakes.forEach(handler::accept)).doesNotThrowAnyException();
    assertThat(registry.find("jvm.tls.certificate.expiry").gauges()).isEmpty();
    assertThat(handler.snapshot()).isEmpty();
  }

  private static Instant expiryOf(List<RecordedEvent> events, String key) {
    return events.stream()
        .filter(e -> key.equals(e.getString("subject") + "|" + e.getString("serialNumber")))
        .findFirst()
        .map(e -> Instant.ofEpochMilli(e.getLong("validUntil")))
        .orElseThrow();
  }
}
