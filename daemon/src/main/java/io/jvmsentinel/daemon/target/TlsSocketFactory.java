package io.jvmsentinel.daemon.target;

import java.io.IOException;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.rmi.server.RMIClientSocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * TLS sockets of one target, from that target's own {@link SSLContext}. It replaces the JDK's
 * {@code SslRMIClientSocketFactory}, which always uses the JVM-wide {@code
 * SSLSocketFactory.getDefault()}.
 *
 * <p>Like the JDK's factory it checks the certificate chain against the trust store, not the host
 * name: JMX certificates rarely name the address a sidecar uses. Give each target its own CA or its
 * own self-signed certificate in its trust store.
 */
final class TlsSocketFactory implements RMIClientSocketFactory, Serializable {
  private static final long serialVersionUID = 1L;

  // Transient: an RMI stub holding this factory is never sent anywhere; if it were, it must not
  // carry the keys with it.
  private final transient SSLContext context;
  private final int connectTimeoutMillis;
  private final int handshakeTimeoutMillis;

  TlsSocketFactory(SSLContext context, int connectTimeoutMillis, int handshakeTimeoutMillis) {
    this.context = context;
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.handshakeTimeoutMillis = handshakeTimeoutMillis;
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    if (context == null) {
      throw new IOException("TLS socket factory was serialized; it has no keys");
    }
    Socket plain = new Socket();
    try {
      plain.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
      SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
      // Handshake now, with a deadline: an untrusted certificate then fails here, with the
      // handshake's own message, not later as an obscure RMI stream error.
      tls.setSoTimeout(handshakeTimeoutMillis);
      tls.startHandshake();
      tls.setSoTimeout(0);
      return tls;
    } catch (IOException | RuntimeException e) {
      plain.close();
      throw e;
    }
  }
}
