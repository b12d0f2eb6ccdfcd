package io.jvmsentinel.daemon.target;

import java.io.IOException;

/**
 * Where the remote JMX agent the daemon starts in a JVM listens: loopback when the JVM shares the
 * daemon's network, else the JVM's own address (a pod's IP). A JVM in the host's network (a
 * hostNetwork pod, seen by a node agent that is not) has the node's addresses: an agent there is
 * reachable from anywhere that reaches the node, and no NetworkPolicy covers host-network pods. So
 * it is refused, with what to set, unless {@code discovery.local.allowHostNetwork} is on.
 */
final class AgentBindAddress {
  static final String OPT_IN = "discovery.local.allowHostNetwork";

  private AgentBindAddress() {}

  /**
   * @throws IOException saying why no agent is started (host network not allowed, no address)
   */
  static String of(TargetProcess process, boolean allowHostNetwork) throws IOException {
    if (process.sharesNetwork()) {
      return "127.0.0.1";
    }
    if (!allowHostNetwork && process.inHostNetwork()) {
      throw new HostNetworkRefused(
          "pid "
              + process.pid()
              + " runs in the host's network (a hostNetwork pod): a JMX agent there would listen"
              + " on a node address that no NetworkPolicy covers, so it is not watched; set "
              + OPT_IN
              + ": true to watch such JVMs anyway (docs/security.md)");
    }
    return process
        .ownAddress()
        .orElseThrow(
            () ->
                new IOException(
                    "pid "
                        + process.pid()
                        + " is in another network but has no non-loopback IPv4 address in its"
                        + " /proc/"
                        + process.pid()
                        + "/net/fib_trie: cannot start a JMX agent the daemon can reach"));
  }

  /** A JVM in the host's network, and the daemon not allowed to open an agent there. */
  static final class HostNetworkRefused extends IOException {
    private static final long serialVersionUID = 1L;

    HostNetworkRefused(String message) {
      super(message);
    }
  }
}
