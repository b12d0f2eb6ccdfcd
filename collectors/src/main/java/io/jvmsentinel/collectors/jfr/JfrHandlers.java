package io.jvmsentinel.collectors.jfr;

import io.jvmsentinel.collectors.jfr.threads.ThreadEndHandler;
import io.jvmsentinel.collectors.jfr.threads.ThreadLifetimes;
import io.jvmsentinel.collectors.jfr.threads.ThreadStartHandler;
import io.jvmsentinel.collectors.jfr.tls.RecentValidations;
import io.jvmsentinel.collectors.jfr.tls.TlsHandshakeHandler;
import io.jvmsentinel.collectors.jfr.tls.X509CertificateHandler;
import io.jvmsentinel.collectors.jfr.tls.X509ValidationHandler;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.util.List;

/**
 * The one explicit list of JFR event handlers for a target. The stream wires only those whose event
 * the target's JVM offers, so one list serves every JDK. Handlers with state that the API and
 * detection read are exposed as typed accessors.
 */
public final class JfrHandlers {
  private final ThreadStartHandler threadStarts;
  private final ThreadEndHandler threadEnds;
  private final TlsHandshakeHandler tlsHandshakes;
  private final X509ValidationHandler certificateValidations;
  private final X509CertificateHandler certificates;

  private JfrHandlers(Tags tags) {
    ThreadLifetimes lifetimes = new ThreadLifetimes();
    this.threadStarts = new ThreadStartHandler(tags, lifetimes);
    this.threadEnds = new ThreadEndHandler(tags, lifetimes);
    RecentValidations validations = new RecentValidations();
    // Certificates named by validations and handshakes are the ones whose expiry is exported.
    this.certificates = new X509CertificateHandler(tags, Clock.systemUTC());
    this.tlsHandshakes = new TlsHandshakeHandler(tags, validations, certificates::markUsed);
    this.certificateValidations =
        new X509ValidationHandler(tags, validations, certificates::markUsed);
  }

  /** Every handler, for a target whose series carry {@code tags}. */
  public static JfrHandlers create(Tags tags) {
    return new JfrHandlers(tags);
  }

  public List<JfrEventHandler> all() {
    return List.of(threadStarts, threadEnds, certificateValidations, tlsHandshakes, certificates);
  }

  public ThreadStartHandler threadStarts() {
    return threadStarts;
  }

  public TlsHandshakeHandler tlsHandshakes() {
    return tlsHandshakes;
  }

  public X509CertificateHandler certificates() {
    return certificates;
  }
}
