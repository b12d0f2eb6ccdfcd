package io.jvmsentinel.daemon.target;

import java.io.IOException;
import javax.management.remote.rmi.RMIConnection;
import javax.management.remote.rmi.RMIServer;

/**
 * The target's connector server, whose connections use the target's own TLS factory: {@code
 * newClient} returns a new remote stub, which gets the same treatment as the server stub.
 */
final class TlsRmiServer implements RMIServer {
  private final RMIServer server;
  private final TlsStubs stubs;

  TlsRmiServer(RMIServer server, TlsStubs stubs) {
    this.server = server;
    this.stubs = stubs;
  }

  @Override
  public String getVersion() throws java.rmi.RemoteException {
    return server.getVersion();
  }

  @Override
  public RMIConnection newClient(Object credentials) throws IOException {
    return stubs.rebind(server.newClient(credentials), RMIConnection.class);
  }
}
