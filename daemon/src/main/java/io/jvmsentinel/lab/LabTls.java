package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The lab's TLS material: a server key for {@code localhost}/127.0.0.1 signed by a lab CA, and a
 * truststore holding only that CA (see the README beside the keystores). A real chain matters: the
 * JDK skips path validation, and so {@code jdk.X509Validation}, for a directly trusted self-signed
 * certificate. Clients trust the CA through their own {@link SSLContext}, never JVM-wide
 * properties.
 */
final class LabTls {

  static final String PROTOCOL = "TLS";
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final String SERVER_KEYSTORE = "lab-server.p12";
  private static final String TRUSTSTORE = "lab-truststore.p12";

  private final KeyStore truststore;

  private LabTls(KeyStore truststore) {
    this.truststore = truststore;
  }

  /** Loads the truststore once; every client context made from it trusts the lab CA. */
  static LabTls load() {
    return new LabTls(keyStore(TRUSTSTORE));
  }

  /** The server side: the leaf key with its chain (leaf, CA). */
  static SSLContext serverContext() {
    try {
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(keyStore(SERVER_KEYSTORE), PASSWORD);
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
      trust.init(truststore);
      SSLContext context = SSLContext.getInstance(PROTOCOL);
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up a lab TLS client", e);
    }
  }

  private static KeyStore keyStore(String resource) {
    try (InputStream in = LabTls.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing lab resource " + resource);
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, PASSWORD);
      return store;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot read lab resource " + resource, e);
    }
  }
}
