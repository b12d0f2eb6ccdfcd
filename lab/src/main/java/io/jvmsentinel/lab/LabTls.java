package io.jvmsentinel.lab;

import java.security.GeneralSecurityException;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The lab's TLS contexts, from {@link LabTlsMaterial}: the server's key with its chain (leaf, lab
 * CA), and clients that trust only the lab CA through their own {@link SSLContext}, never JVM-wide
 * properties.
 */
final class LabTls {

  static final String PROTOCOL = "TLS";

  private final LabTlsMaterial material;

  private LabTls(LabTlsMaterial material) {
    this.material = material;
  }

  /** Obtains the material once per JVM; every client context made from it trusts the lab CA. */
  static LabTls load() {
    return Holder.INSTANCE;
  }

  /** The server side: the leaf key with its chain (leaf, CA). */
  static SSLContext serverContext() {
    try {
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(load().material.serverKeys(), LabTlsMaterial.PASSWORD);
      SSLContext context = SSLContext.getInstance(PROTOCOL);
      context.init(keys.getKeyManagers(), null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up the lab TLS server", e);
    }
  }

  /** A new client context, with its own (empty) session cache, trusting the lab CA. */
  SSLContext newClientContext() {
    try {
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(material.trustStore());
      SSLContext context = SSLContext.getInstance(PROTOCOL);
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up a lab TLS client", e);
    }
  }

  /** Lazily, once: only TLS scenarios pay for making the material. */
  private static final class Holder {
    static final LabTls INSTANCE = new LabTls(LabTlsMaterial.obtain());
  }
}
