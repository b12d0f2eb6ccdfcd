package io.jvmsentinel.daemon.catalog;

import io.jvmsentinel.daemon.alert.Severity;

/**
 * Test sources only: a class in the bottom layer (catalog) that uses the alert model, which the
 * layers forbid; ArchitectureTest checks that its rules report it.
 */
public final class PlantedViolation {
  private PlantedViolation() {}

  static Severity severity() {
    return Severity.CRITICAL;
  }
}
