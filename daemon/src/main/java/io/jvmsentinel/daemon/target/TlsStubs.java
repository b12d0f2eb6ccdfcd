package io.jvmsentinel.daemon.target;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.rmi.Remote;
import java.rmi.server.RMIClientSocketFactory;
import javax.rmi.ssl.SslRMIClientSocketFactory;

/**
 * Points an RMI stub at one target's own TLS socket factory.
 *
 * <p>The stubs a JMX agent hands out (the connector server from the registry, each connection from
 * {@code newClient}) carry the server's {@link SslRMIClientSocketFactory}, which uses the JVM-wide
 * default {@code SSLContext}. A stub is serializable, and its endpoint is written as host, port and
 * socket factory: copying the stub through serialization and replacing that factory on the way back
 * gives an identical stub whose every socket uses this target's trust and key stores. Public API
 * only; no global state.
 *
 * <p>A stub with no socket factory means the agent does not use TLS on its connector. That is
 * refused rather than followed in plain text: the configuration asked for TLS.
 */
final class TlsStubs {
  private final RMIClientSocketFactory factory;
  private final String target;

  TlsStubs(RMIClientSocketFactory factory, String target) {
    this.factory = factory;
    this.target = target;
  }

  /** A copy of {@code stub} that connects through this target's factory. */
  <T extends Remote> T rebind(T stub, Class<T> type) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(stub);
    }
    try (Replacing in = new Replacing(new ByteArrayInputStream(bytes.toByteArray()), factory)) {
      Object copy = in.readObject();
      if (in.replaced == 0) {
        throw new java.rmi.ConnectIOException(
            target
                + ": the JMX agent's connector does not use TLS (com.sun.management.jmxremote.ssl"
                + " is false?), but tls is configured for this target; refusing plain RMI");
      }
      return type.cast(copy);
    } catch (ClassNotFoundException e) {
      throw new IOException("cannot copy the JMX stub of " + target + ": " + e.getMessage(), e);
    }
  }

  private static final class Replacing extends ObjectInputStream {
    private final RMIClientSocketFactory factory;
    private int replaced;

    Replacing(ByteArrayInputStream in, RMIClientSocketFactory factory) throws IOException {
      super(in);
      this.factory = factory;
      enableResolveObject(true);
      // The daemon's own copy of a stub it already read through the process-wide filter; a stub
      // rebound before carries this daemon's factory, which no target reply may.
      ObjectInputFilter replies = ObjectInputFilter.Config.getSerialFilter();
      setObjectInputFilter(
          info ->
              info.serialClass() == TlsSocketFactory.class
                  ? ObjectInputFilter.Status.ALLOWED
                  : replies == null
                      ? ObjectInputFilter.Status.UNDECIDED
                      : replies.checkInput(info));
    }

    @Override
    protected Object resolveObject(Object object) {
      if (object instanceof RMIClientSocketFactory) {
        // Any factory the server chose (the JDK's SSL factory or a custom one) is replaced.
        replaced++;
        return factory;
      }
      return object;
    }
  }
}
