package io.jvmsentinel.collectors.jfr.tls;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A certificate the target parsed ({@code jdk.X509Certificate}), with its expiry.
 *
 * @param subject the subject's distinguished name, e.g. {@code CN=localhost}
 * @param serial the serial number as JFR prints it, e.g. {@code 24:7d:6f:92:8e:11:6c:8c}
 * @param issuer the issuer's distinguished name, or null when the event had none
 * @param validUntil the end of the validity period
 */
public record CertificateExpiry(String subject, String serial, String issuer, Instant validUntil) {

  /** Time left until expiry on {@code clock}, negative once expired. */
  public Duration remaining(Clock clock) {
    return Duration.between(clock.instant(), validUntil);
  }
}
