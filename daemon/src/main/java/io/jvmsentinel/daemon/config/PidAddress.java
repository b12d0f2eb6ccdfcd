package io.jvmsentinel.daemon.config;

/**
 * A JVM on this machine, attached to by process id (the Attach API starts its local JMX agent).
 *
 * @param pid a positive process id
 */
public record PidAddress(long pid) implements TargetAddress {
  public PidAddress {
    if (pid <= 0) {
      throw new IllegalArgumentException("a process id must be positive, got " + pid);
    }
  }
}
