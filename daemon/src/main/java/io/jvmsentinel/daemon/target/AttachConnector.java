package io.jvmsentinel.daemon.target;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.time.Duration;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Connects to a local JVM by pid: attaches with the Attach API, starts the target's local
 * management agent (loopback only, no {@code -Dcom.sun.management.jmxremote} flags needed) and
 * connects to the address it returns. Works on the same host, or in a pod with a shared process
 * namespace, when the daemon runs as the target's user.
 */
public final class AttachConnector implements Connector {
  private final TimeLimitedConnect connects;
  private final long pid;
  private final Duration connectTimeout;
  private final Duration callTimeout;

  public AttachConnector(long pid, Duration connectTimeout, Duration callTimeout) {
    this.pid = pid;
    this.connectTimeout = connectTimeout;
    this.callTimeout = callTimeout;
    this.connects = new TimeLimitedConnect("jmx-connect-pid-" + pid);
  }

  @Override
  public javax.management.remote.JMXConnector connect() throws IOException {
    return connects.connect(
        () ->
            JMXConnectorFactory.connect(
                new JMXServiceURL(localAgentAddress()),
                RemoteJmxConnector.ClientEnvironment.of(callTimeout)),
        connectTimeout,
        describe());
  }

  private String localAgentAddress() throws IOException {
    VirtualMachine vm = attach(pid);
    try {
      return vm.startLocalManagementAgent();
    } finally {
      vm.detach();
    }
  }

  /** Attaches to a JVM by pid, or says why not and what to check. */
  static VirtualMachine attach(long pid) throws IOException {
    try {
      return VirtualMachine.attach(Long.toString(pid));
    } catch (AttachNotSupportedException e) {
      throw new IOException(
          "cannot attach to pid "
              + pid
              + ": "
              + e.getMessage()
              + " (is it a running JVM of the same user, without -XX:+DisableAttachMechanism?)",
          new java.net.ConnectException(e.getMessage()));
    }
  }

  @Override
  public String describe() {
    return "pid " + pid;
  }
}
