package io.jvmsentinel.lab;

import java.time.Duration;
import java.util.Optional;

/**
 * The lab target JVM: runs one {@link Scenario} so the daemon has something real to watch.
 *
 * <p>Compiled with {@code --release 11} and using JDK classes only, so it also runs on JDK 11
 * targets.
 */
public final class LabMain {

  private LabMain() {}

  public static void main(String[] args) {
    LabOptions options;
    try {
      options = LabOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("LAB error " + e.getMessage());
      System.err.print(Scenarios.usage());
      System.exit(2);
      return;
    }
    Optional<Scenario> scenario = Scenarios.create(options);
    if (!scenario.isPresent()) {
      System.err.println("LAB error unknown scenario " + options.scenario());
      System.err.print(Scenarios.usage());
      System.exit(2);
      return;
    }
    LabLog log = new LabLog(System.out, options.scenario());
    try {
      LabJmxServer.startIfConfigured(log);
    } catch (java.io.IOException e) {
      System.err.println("LAB error cannot open the lab's JMX connector: " + e);
      System.exit(2);
      return;
    }
    log.ready();
    options.duration().ifPresent(duration -> interruptAfter(Thread.currentThread(), duration));
    try {
      Thread.sleep(options.delay().toMillis());
      scenario.get().run(log);
    } catch (InterruptedException e) {
      // The --duration timer: the normal end of a bounded run.
    } catch (UnsupportedOperationException e) {
      // A scenario this JVM cannot run (virtual-threads before JDK 21).
      System.err.println("LAB error " + e.getMessage());
      System.exit(2);
    }
    linger(log, options.linger());
    log.done();
    // Scenario threads may still be running: end the JVM explicitly.
    System.exit(0);
  }

  /** Stays alive and idle, so observers can read the final counts of a bounded run. */
  private static void linger(LabLog log, Duration linger) {
    if (linger.isZero()) {
      return;
    }
    log.onset("linger", "duration_ms", linger.toMillis());
    try {
      Thread.sleep(linger.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void interruptAfter(Thread target, Duration duration) {
    Thread timer =
        LabThreads.daemon(
            "lab-duration-timer",
            () -> {
              try {
                Thread.sleep(duration.toMillis());
                target.interrupt();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    timer.start();
  }
}
