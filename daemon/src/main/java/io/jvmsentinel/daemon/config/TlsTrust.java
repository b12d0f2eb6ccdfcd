package io.jvmsentinel.daemon.config;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/** How the daemon decides that a target's TLS certificate is the one it may talk to. */
public sealed interface TlsTrust {

  /**
   * The certificates (or CA) of a trust store file ({@code targets[].tls.trustStore}).
   *
   * @param file the trust store and its password
   */
  record Store(StoreFile file) implements TlsTrust {
    public Store {
      Objects.requireNonNull(file, "file");
    }
  }

  /**
   * Certificates given in memory (a CA from a Kubernetes Secret's {@code ca.crt}) and/or SHA-256
   * fingerprints of the one server certificate to accept. With both, the chain must lead to one of
   * the authorities and the server certificate must match a fingerprint; with only fingerprints,
   * the server certificate (within its validity) is accepted by its fingerprint alone.
   *
   * @param authorities CA (or server) certificates the chain must lead to; may be empty
   * @param sha256 fingerprints of the server certificate: 64 lower-case hex digits, no colons
   */
  record Pinned(List<X509Certificate> authorities, List<String> sha256) implements TlsTrust {
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");

    public Pinned {
      authorities = List.copyOf(authorities);
      sha256 = List.copyOf(sha256);
      if (authorities.isEmpty() && sha256.isEmpty()) {
        throw new IllegalArgumentException("pinned trust needs a certificate or a fingerprint");
      }
      for (String fingerprint : sha256) {
        if (!FINGERPRINT.matcher(fingerprint).matches()) {
          throw new IllegalArgumentException("not a normalised SHA-256 fingerprint");
        }
      }
    }

    /**
     * A fingerprint as {@code openssl x509 -fingerprint -sha256} prints it ({@code AB:CD:..}), or
     * plain hex, in the normalised form; empty when it is not 32 bytes of hex.
     */
    public static java.util.Optional<String> normalise(String fingerprint) {
      String hex = fingerprint.strip().replace(":", "").toLowerCase(java.util.Locale.ROOT);
      return FINGERPRINT.matcher(hex).matches()
          ? java.util.Optional.of(hex)
          : java.util.Optional.empty();
    }
  }
}
