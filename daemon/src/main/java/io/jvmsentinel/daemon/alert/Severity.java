package io.jvmsentinel.daemon.alert;

/** How urgent an alert is: WARNING asks for attention, CRITICAL pages. */
public enum Severity {
  WARNING,
  CRITICAL;

  public String tag() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
