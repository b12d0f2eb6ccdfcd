package io.jvmsentinel.collectors.jfr.tls;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.EventFields;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Seconds until each certificate the target used in TLS handshakes expires, computed at scrape time
 * from an injected clock.
 *
 * <p>Why "used": a JVM parses its whole truststore too ({@code jdk.X509Certificate} for about 150
 * {@code cacerts} roots as soon as a default trust manager loads, on JDK 25 and often 17). Keeping
 * the soonest-expiring parsed certificates exported only those roots, and crowded out the peer and
 * CA certificates that the target's connections depend on. So parsing only remembers a certificate
 * by {@code certificateId} (a bounded map, {@value #DEFAULT_MAX_PARSED} entries, oldest forgotten
 * first), and a certificate is exported once {@link #markUsed} names it: {@link
 * X509ValidationHandler} for each certificate of a validated chain ({@code jdk.X509Validation}),
 * {@link TlsHandshakeHandler} for the peer's leaf ({@code jdk.TLSHandshake}). Events of one stream
 * arrive in time order and the JDK parses a certificate before it validates or uses it; an id used
 * before it was parsed is still remembered (the latest {@value #MAX_PENDING} such ids) and exported
 * when its certificate shows up.
 *
 * <p>At most {@value #DEFAULT_MAX_CERTIFICATES} used certificates get a series: beyond that the
 * soonest-expiring ones are kept (the ones to worry about), and a displaced certificate's gauge is
 * removed. Events without subject, serial, {@code validUntil} or {@code certificateId} are skipped,
 * as is id 0 (a server-side handshake without a client certificate). Accept and mark run on the
 * stream's thread, snapshots on any thread: all state is guarded by this.
 */
public final class X509CertificateHandler implements JfrEventHandler {

  public static final String EVENT = "jdk.X509Certificate";
  public static final int DEFAULT_MAX_CERTIFICATES = 50;
  public static final int DEFAULT_MAX_PARSED = 2_000;
  static final int MAX_PENDING = 256;

  private final Tags tags;
  private final Clock clock;
  private final int maxCertificates;
  private final int maxParsed;
  private MeterRegistry registry;

  // Parsed certificates by id, in order of their latest parse; at most maxParsed.
  private final Map<Long, CertificateExpiry> parsed = new LinkedHashMap<>();
  // Ids used before they were parsed, oldest first; at most MAX_PENDING.
  private final Set<Long> pending = new LinkedHashSet<>();
  // Used certificates with a series, by subject and serial (the series' tags); at most
  // maxCertificates.
  private final Map<List<String>, Tracked> used = new HashMap<>();

  private static final class Tracked {
    final CertificateExpiry certificate;
    Gauge gauge;

    Tracked(CertificateExpiry certificate) {
      this.certificate = certificate;
    }
  }

  public X509CertificateHandler(Tags tags, Clock clock) {
    this(tags, clock, DEFAULT_MAX_CERTIFICATES, DEFAULT_MAX_PARSED);
  }

  X509CertificateHandler(Tags tags, Clock clock, int maxCertificates, int maxParsed) {
    this.tags = tags;
    this.clock = clock;
    this.maxCertificates = maxCertificates;
    this.maxParsed = maxParsed;
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
    used.values().forEach(this::register);
  }

  @Override
  public synchronized void accept(RecordedEvent event) {
    String subject = EventFields.string(event, "subject");
    String serial = EventFields.string(event, "serialNumber");
    long validUntil = EventFields.count(event, "validUntil", Long.MIN_VALUE);
    long id = CertificateIds.of(event);
    if (subject == null || serial == null || validUntil == Long.MIN_VALUE || id == 0) {
      return;
    }
    CertificateExpiry certificate =
        new CertificateExpiry(
            subject, serial, EventFields.string(event, "issuer"), Instant.ofEpochMilli(validUntil));
    // Re-insert, so the eviction order follows the latest parse.
    parsed.remove(id);
    parsed.put(id, certificate);
    if (parsed.size() > maxParsed) {
      Long eldest = parsed.keySet().iterator().next();
      parsed.remove(eldest);
    }
    if (pending.remove(id)) {
      use(certificate);
    }
  }

  /**
   * The target used certificate {@code certificateId} in a TLS handshake (validated it in a chain,
   * or got it as the peer's leaf): export its expiry. Id 0 means none and is ignored.
   */
  public synchronized void markUsed(long certificateId) {
    if (certificateId == 0) {
      return;
    }
    CertificateExpiry certificate = parsed.get(certificateId);
    if (certificate != null) {
      use(certificate);
      return;
    }
    pending.remove(certificateId);
    pending.add(certificateId);
    if (pending.size() > MAX_PENDING) {
      Long eldest = pending.iterator().next();
      pending.remove(eldest);
    }
  }

  /** The used certificates that have a series, soonest-expiring first. */
  public synchronized List<CertificateExpiry> snapshot() {
    List<CertificateExpiry> list = new ArrayList<>();
    used.values().forEach(tracked -> list.add(tracked.certificate));
    list.sort(Comparator.comparing(CertificateExpiry::validUntil));
    return List.copyOf(list);
  }

  /**
   * How many remembered parsed certificates have no series: never used in a handshake (mostly
   * truststore roots), or displaced by sooner-expiring used ones.
   */
  public synchronized int unusedCertificates() {
    Set<List<String>> unused = new HashSet<>();
    for (CertificateExpiry certificate : parsed.values()) {
      List<String> key = key(certificate);
      if (!used.containsKey(key)) {
        unused.add(key);
      }
    }
    return unused.size();
  }

  private void use(CertificateExpiry certificate) {
    List<String> key = key(certificate);
    if (used.containsKey(key)) {
      return;
    }
    if (used.size() >= maxCertificates) {
      Map.Entry<List<String>, Tracked> latest = null;
      for (Map.Entry<List<String>, Tracked> entry : used.entrySet()) {
        if (latest == null
            || entry
                .getValue()
                .certificate
                .validUntil()
                .isAfter(latest.getValue().certificate.validUntil())) {
          latest = entry;
        }
      }
      if (latest == null
          || !certificate.validUntil().isBefore(latest.getValue().certificate.validUntil())) {
        return;
      }
      used.remove(latest.getKey());
      Gauge gauge = latest.getValue().gauge;
      if (gauge != null && registry != null) {
        registry.remove(gauge);
      }
    }
    Tracked tracked = new Tracked(certificate);
    used.put(key, tracked);
    register(tracked);
  }

  private static List<String> key(CertificateExpiry certificate) {
    return List.of(certificate.subject(), certificate.serial());
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
