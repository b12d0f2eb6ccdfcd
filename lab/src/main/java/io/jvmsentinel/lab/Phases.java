package io.jvmsentinel.lab;

import java.time.Duration;

/** Runs scenarios as phases of a longer scenario: in the background, or for a bounded time. */
final class Phases {

  private Phases() {}

  /** Starts {@code scenario} on a daemon thread; interrupt the thread to end it. */
  static Thread startInBackground(Scenario scenario, LabLog log) {
    Thread thread =
        LabThreads.daemon(
            "lab-" + scenario.name(),
            () -> {
              try {
                scenario.run(log);
              } catch (InterruptedException e) {
                // The phase is over.
              }
            });
    thread.start();
    return thread;
  }

  /** Runs {@code scenario} for {@code length}, then ends it and waits until it has stopped. */
  static void runFor(Scenario scenario, Duration length, LabLog log) throws InterruptedException {
    Thread thread = startInBackground(scenario, log);
    try {
      Thread.sleep(length.toMillis());
    } finally {
      thread.interrupt();
      thread.join();
    }
  }

  /** What a phase does until it is interrupted. */
  interface Body {
    void run(LabLog log) throws InterruptedException;
  }

  /** A phase of a longer scenario as a scenario of its own, to run with {@link #runFor}. */
  static Scenario named(String name, String description, Body body) {
    return new Scenario() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public void run(LabLog log) throws InterruptedException {
        body.run(log);
      }
    };
  }

  /** Stays quiet until the lab ends this scenario (its {@code --duration}, or never). */
  static void idleUntilInterrupted() throws InterruptedException {
    Thread.sleep(Long.MAX_VALUE);
  }
}
