package io.jvmsentinel.daemon.alert;

import java.time.Duration;
import java.util.List;

/**
 * One input a rule judges, and how often it needs a fresh reading of it to judge at all: a rule
 * whose 5 s window must see thread starts in both halves cannot judge a count that moves once per
 * 10 s poll. {@link RuleCoverage} compares this with what a target really delivers.
 *
 * @param signal what the rule reads
 * @param every the longest gap between fresh readings the rule can judge with; null when any
 *     cadence will do (the rule reads the latest value, or the signal is pushed as it happens)
 * @param because what needs that cadence, in the rule's words ("the rule's 5 s window"); empty when
 *     {@code every} is null
 */
public record RuleInput(Signal signal, Duration every, String because) {

  /**
   * The signals the rules read, as the daemon gets them from a target: from JFR events while the
   * target delivers them, else from JMX (null where there is no such source).
   */
  public enum Signal {
    THREAD_STARTS(
        "thread counts",
        "JFR jdk.ThreadStart events",
        "JMX TotalStartedThreadCount",
        JmxRead.DETECTION_POLL,
        "jdk.ThreadStart"),
    BLOCKED_THREADS(
        "thread states",
        "JFR jdk.JavaMonitorEnter and jdk.ThreadPark events",
        "JMX thread states (BLOCKED)",
        JmxRead.DETECTION_POLL,
        "jdk.JavaMonitorEnter",
        "jdk.ThreadPark"),
    CODE_HEAPS("code cache readings", null, "JMX code cache memory pools", JmxRead.DETECTION_POLL),
    CODE_CACHE_STATE(
        "JIT compilation states",
        null,
        "JMX DiagnosticCommand compilerCodecache",
        JmxRead.DETECTION_POLL),
    COMPILER_CPU(
        "compiler CPU readings",
        "JFR jdk.ThreadCPULoad events",
        "JMX DiagnosticCommand threadPrint",
        JmxRead.FULL_POLL,
        "jdk.ThreadCPULoad"),
    CLASS_LOADING(
        "class loading counts",
        null,
        "JMX ClassLoading LoadedClassCount and UnloadedClassCount",
        JmxRead.FULL_POLL),
    GC_PAUSES("GC pauses", null, "JMX GC notifications", JmxRead.PUSHED),
    CONNECTION("connection states", null, "the JMX connection", JmxRead.PUSHED),
    RECOMPILATIONS(
        "compilation events", "JFR jdk.Compilation events", null, null, "jdk.Compilation"),
    // Without deoptimisation events (before JDK 14; invalidation through dependencies on any JDK),
    // inferred from the compilations of code compiled before (DeoptimizationStorm).
    DEOPTIMIZATIONS(
        "deoptimization events",
        "JFR jdk.Deoptimization and jdk.Compilation events",
        null,
        null,
        "jdk.Deoptimization",
        "jdk.Compilation"),
    TLS_HANDSHAKES(
        "TLS handshake events", "JFR jdk.TLSHandshake events", null, null, "jdk.TLSHandshake");

    /** How the daemon reads a signal's JMX source. */
    enum JmxRead {
      /** Every full poll, and every fast detection poll while the target has no JFR events. */
      DETECTION_POLL,
      /** Every full poll ({@code pollInterval}) only. */
      FULL_POLL,
      /** Pushed by the target as it happens (notifications, connection events). */
      PUSHED
    }

    private final String readings;
    private final String jfr;
    private final String jmx;
    private final JmxRead jmxRead;
    private final List<String> events;

    Signal(String readings, String jfr, String jmx, JmxRead jmxRead, String... events) {
      this.readings = readings;
      this.jfr = jfr;
      this.jmx = jmx;
      this.jmxRead = jmxRead;
      this.events = List.of(events);
    }

    /** The JFR event types that carry it (empty when only JMX does). */
    List<String> events() {
      return events;
    }

    /** What arrives, in the plural: "thread counts arrive every 10 s". */
    String readings() {
      return readings;
    }

    /** The JFR events that carry it while the target delivers them; null: read from JMX always. */
    String jfr() {
      return jfr;
    }

    /** Its JMX source; null for a JFR-only signal. */
    String jmx() {
      return jmx;
    }

    JmxRead jmxRead() {
      return jmxRead;
    }

    /** Only JFR events carry it. */
    public boolean jfrOnly() {
      return jmx == null;
    }
  }

  /** An input whose latest value, or pushed events, the rule can judge at any cadence. */
  public static RuleInput anyCadence(Signal signal) {
    return new RuleInput(signal, null, "");
  }

  /** An input that needs a fresh reading at least every {@code every}, because of {@code why}. */
  public static RuleInput every(Signal signal, Duration every, String because) {
    return new RuleInput(signal, every, because);
  }
}
