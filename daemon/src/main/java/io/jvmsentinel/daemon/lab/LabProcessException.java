package io.jvmsentinel.daemon.lab;

/** A lab JVM failed to start or become ready; the message carries its command and output. */
public final class LabProcessException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final boolean portInUse;

  LabProcessException(String message, boolean portInUse) {
    super(message);
    this.portInUse = portInUse;
  }

  /** Whether the JMX agent could not bind its port (another process still holds it). */
  public boolean portInUse() {
    return portInUse;
  }
}
