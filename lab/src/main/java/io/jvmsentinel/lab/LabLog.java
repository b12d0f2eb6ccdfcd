package io.jvmsentinel.lab;

import java.io.PrintStream;

/**
 * Machine-readable progress lines on stdout, one event per line: {@code LAB <event> key=value ...}.
 * Launchers wait for {@code ready}; benchmarks take {@code at} (epoch ms) of an {@code onset} as
 * the moment a pathology begins, to measure detection latency.
 */
public final class LabLog {

  private final PrintStream out;
  private final String scenario;

  public LabLog(PrintStream out, String scenario) {
    this.out = out;
    this.scenario = scenario;
  }

  /** The JVM is up (and so is its JMX agent, which starts before main): monitors may connect. */
  public void ready() {
    line(
        "ready",
        "pid",
        ProcessHandle.current().pid(),
        "java",
        System.getProperty("java.version"),
        "at",
        System.currentTimeMillis());
  }

  /**
   * A phase of the scenario begins now.
   *
   * @param attributes alternating keys and values, e.g. {@code "rate", 200}
   */
  public void onset(String phase, Object... attributes) {
    Object[] all = new Object[attributes.length + 4];
    all[0] = "phase";
    all[1] = phase;
    System.arraycopy(attributes, 0, all, 2, attributes.length);
    all[all.length - 2] = "at";
    all[all.length - 1] = System.currentTimeMillis();
    line("onset", all);
  }

  /**
   * A periodic measurement, e.g. {@code LAB throughput ops=812 interval_ms=1000 at=...}.
   *
   * @param attributes alternating keys and values
   */
  public void sample(String event, Object... attributes) {
    Object[] all = new Object[attributes.length + 2];
    System.arraycopy(attributes, 0, all, 0, attributes.length);
    all[all.length - 2] = "at";
    all[all.length - 1] = System.currentTimeMillis();
    line(event, all);
  }

  /** The scenario ended (its {@code --duration} elapsed); the JVM exits next. */
  public void done() {
    line("done", "at", System.currentTimeMillis());
  }

  private void line(String event, Object... attributes) {
    if (attributes.length % 2 != 0) {
      throw new IllegalArgumentException("attributes must be key/value pairs");
    }
    StringBuilder text = new StringBuilder("LAB ").append(event);
    text.append(" scenario=").append(scenario);
    for (int i = 0; i < attributes.length; i += 2) {
      text.append(' ').append(attributes[i]).append('=').append(attributes[i + 1]);
    }
    synchronized (out) {
      out.println(text);
      out.flush();
    }
  }
}
