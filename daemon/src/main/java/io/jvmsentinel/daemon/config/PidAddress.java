package io.jvmsentinel.daemon.config;

import java.util.Objects;

/**
 * A JVM on this machine, attached to by process id.
 *
 * @param pid a positive process id
 * @param agent which JMX agent of the JVM the daemon starts and connects to
 * @param allowHostNetwork whether a remote agent may listen on a node address when the JVM runs in
 *     the host's network (a hostNetwork pod): {@code discovery.local.allowHostNetwork}
 */
public record PidAddress(long pid, Agent agent, boolean allowHostNetwork) implements TargetAddress {

  /** The JMX agent the daemon starts in the JVM through the Attach API. */
  public enum Agent {
    /** The local agent: loopback only, no password; the JVM must share the daemon's network. */
    LOCAL,
    /**
     * A remote agent with a generated password, bound to the JVM's own address: for a JVM in
     * another network namespace (another pod), or on loopback for one in the daemon's network.
     */
    REMOTE
  }

  public PidAddress {
    if (pid <= 0) {
      throw new IllegalArgumentException("a process id must be positive, got " + pid);
    }
    Objects.requireNonNull(agent, "agent");
  }

  /** A JVM reached through its local agent, as {@code run --pid} does. */
  public PidAddress(long pid) {
    this(pid, Agent.LOCAL);
  }

  /** A JVM reached through {@code agent}, refused when that would open a node address. */
  public PidAddress(long pid, Agent agent) {
    this(pid, agent, false);
  }
}
