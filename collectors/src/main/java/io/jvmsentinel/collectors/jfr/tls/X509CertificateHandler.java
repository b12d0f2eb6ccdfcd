package io.jvmsentinel.collectors.jfr.tls;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.EventSettings;
import io.jvmsentinel.collectors.jfr.JfrEventHandler;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Seconds until each certificate the target parsed ({@code jdk.X509Certificate}) expires, computed
 * at scrape time from an injected clock. A JVM parses its whole truststore too (about 150 CA
 * certificates from {@code cacerts} as soon as a default trust manager loads), so only the {@value
 * #DEFAULT_MAX_CERTIFICATES} soonest-expiring certificates are kept: those are the ones to worry
 * about. Events without subject, serial or {@code validUntil} are skipped.
 */
public final class X509CertificateHandler implements JfrEventHandler {

  public static final String EVENT = "jdk.X509Certificate";
  public static final int DEFAULT_MAX_CERTIFICATES = 50;

  private final Tags tags;
  private final Clock clock;
  private final int maxCertificates;
  private MeterRegistry registry;
  // Guarded by this: key subject + serial, at most maxCertificates entries.
  private final Map<List<String>, Tracked> certificates = new LinkedHashMap<>();

  private static final class Tracked {
    final CertificateExpiry certificate;
    Gauge gauge;

    Tracked(CertificateExpiry certificate) {
      this.certificate = certificate;
    }
  }

  public X509CertificateHandler(Tags tags, Clock clock) {
    this(tags, clock, DEFAULT_MAX_CERTIFICATES);
  }

  X509CertificateHandler(Tags tags, Clock clock, int maxCertificates) {
    this.tags = tags;
    this.clock = clock;
    this.maxCertificates = maxCertificates;
  }

  @Override
  public String eventName() {
    return EVENT;
  }

  @Override
  public EventSettings settings() {
    return EventSettings.instant(false);
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    this.registry = registry;
    certificates.values().forEach(this::register);
  }

  @Override
  public synchronized void accept(RecordedEvent event) {
    String subject = EventFields.string(event, "subject");
    String serial = EventFields.string(event, "serialNumber");
    long validUntil = EventFields.number(event, "validUntil", Long.MIN_VALUE);
    if (subject == null || serial == null || validUntil == Long.MIN_VALUE) {
      return;
    }
    List<String> key = List.of(subject, serial);
    if (certificates.containsKey(key)) {
      return;
    }
    CertificateExpiry certificate =
        new CertificateExpiry(
            subject, serial, EventFields.string(event, "issuer"), Instant.ofEpochMilli(validUntil));
    if (certificates.size() >= maxCertificates) {
      Map.Entry<List<String>, Tracked> latest =
          certificates.entrySet().stream()
              .max(Comparator.comparing(entry -> entry.getValue().certificate.validUntil()))
              .orElseThrow();
      if (!certificate.validUntil().isBefore(latest.getValue().certificate.validUntil())) {
        return;
      }
      certificates.remove(latest.getKey());
      Gauge gauge = latest.getValue().gauge;
      if (gauge != null && registry != null) {
        registry.remove(gauge);
      }
    }
    Tracked tracked = new Tracked(certificate);
    certificates.put(key, tracked);
    register(tracked);
  }

  /** The kept certificates, soonest-expiring first. */
  public synchronized List<CertificateExpiry> snapshot() {
    List<CertificateExpiry> list = new ArrayList<>();
    certificates.values().forEach(tracked -> list.add(tracked.certificate));
    list.sort(Comparator.comparing(CertificateExpiry::validUntil));
    return List.copyOf(list);
  }

  private void register(Tracked tracked) {
    if (registry == null || tracked.gauge != null) {
      return;
    }
    CertificateExpiry certificate = tracked.certificate;
    tracked.gauge =
        Metric.JVM_TLS_CERTIFICATE_EXPIRY.gauge(
            registry,
            tags.and("subject", certificate.subject(), "serial", certificate.serial()),
            certificate,
            c -> c.remaining(clock).toMillis() / 1000.0);
  }
}
