package io.jvmsentinel.lab;

import java.util.ArrayList;
import java.util.List;

/**
 * Four incidents in one JVM at once, for tests that need many alerts in little time (issue 28:
 * every alert's snapshot opened, on every JDK): thread-per-request ({@value #THREAD_RATE}/s),
 * lock-contention, tls-full-handshakes ({@value #TLS_RATE}/s) and gc-pressure ({@value #GC_RATE_MB}
 * MB/s), each logging its own onset. gc-pressure sizes its live set from the max heap: run with a
 * bounded heap (see {@code io.jvmsentinel.daemon.lab.LabScenarios}): 256 MB, so the other incidents
 * have room beside it.
 */
final class IncidentsAtOnceScenario implements Scenario {

  static final int THREAD_RATE = 100;
  static final int TLS_RATE = 40;
  static final int GC_RATE_MB = 100;

  IncidentsAtOnceScenario(LabOptions options) {
    // Each incident runs at its own rate: --rate means different units to each.
  }

  @Override
  public String name() {
    return "incidents-at-once";
  }

  @Override
  public String description() {
    return "thread-per-request ("
        + THREAD_RATE
        + "/s), lock-contention, tls-full-handshakes ("
        + TLS_RATE
        + "/s) and gc-pressure ("
        + GC_RATE_MB
        + " MB/s) at once (run with -Xmx256m)";
  }

  List<Scenario> incidents() {
    List<Scenario> incidents = new ArrayList<>();
    incidents.add(
        new ThreadPerRequestScenario(
            LabOptions.parse("thread-per-request", "--rate", Integer.toString(THREAD_RATE))));
    incidents.add(new LockContentionScenario(LabOptions.defaults("lock-contention")));
    incidents.add(
        new TlsFullHandshakesScenario(
            LabOptions.parse("tls-full-handshakes", "--rate", Integer.toString(TLS_RATE))));
    incidents.add(
        new GcPressureScenario(
            LabOptions.parse("gc-pressure", "--rate", Integer.toString(GC_RATE_MB))));
    return incidents;
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    List<Thread> running = new ArrayList<>();
    try {
      for (Scenario incident : incidents()) {
        running.add(Phases.startInBackground(incident, log));
      }
      Phases.idleUntilInterrupted();
    } finally {
      running.forEach(Thread::interrupt);
    }
  }
}
