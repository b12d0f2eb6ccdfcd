package io.jvmsentinel.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Incidents and healthy changes in sequence on one healthy service (issue: sequences), as the
 * detection meets them in production: one after another, one starting while another goes on, one
 * that stops and starts again. Each step logs its own onset first ({@code phase=<step>}, with
 * {@code expect=<alert>} where the step should page, {@code none} where it must not), then the
 * onsets of the scenario it plays. The named sequences are in {@link Sequences}.
 */
final class SequenceScenario implements Scenario {

  /** One step of a sequence, played in order on the scenario's thread. */
  interface Step {
    void play(LabLog log, Map<String, Thread> running) throws InterruptedException;
  }

  private final String name;
  private final String description;
  private final LabOptions options;
  private final List<Step> steps;

  SequenceScenario(String name, String description, LabOptions options, List<Step> steps) {
    this.name = name;
    this.description = description;
    this.options = options;
    this.steps = List.copyOf(steps);
  }

  /** Plays {@code scenario} for {@code length}, announced as {@code phase}. */
  static Step play(String phase, String expect, Scenario scenario, Duration length) {
    return (log, running) -> {
      log.onset(phase, "expect", expect, "duration_ms", length.toMillis());
      Phases.runFor(scenario, length, log);
    };
  }

  /** Starts {@code scenario} in the background, announced as {@code phase}, until {@link #stop}. */
  static Step start(String phase, String expect, Scenario scenario) {
    return (log, running) -> {
      log.onset(phase, "expect", expect);
      running.put(phase, Phases.startInBackground(scenario, log));
    };
  }

  /** Ends what {@link #start} started as {@code started}, announced as {@code phase}. */
  static Step stop(String phase, String started) {
    return (log, running) -> {
      Thread thread = running.remove(started);
      if (thread == null) {
        throw new IllegalStateException(phase + ": nothing started as " + started);
      }
      thread.interrupt();
      thread.join();
      log.onset(phase, "stopped", started);
    };
  }

  /** Nothing but the healthy service for {@code length}, announced as {@code phase}. */
  static Step quiet(String phase, Duration length) {
    return (log, running) -> {
      log.onset(phase, "duration_ms", length.toMillis());
      Thread.sleep(length.toMillis());
    };
  }

  /** Keeps going what runs now for {@code length}: the last onset still says what that is. */
  static Step hold(Duration length) {
    return (log, running) -> Thread.sleep(length.toMillis());
  }

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
    Thread healthy = Phases.startInBackground(new HealthyScenario(options), log);
    Map<String, Thread> running = new HashMap<>();
    try {
      for (Step step : steps) {
        step.play(log, running);
      }
      log.onset("end");
      Phases.idleUntilInterrupted();
    } finally {
      List<Thread> left = new ArrayList<>(running.values());
      left.forEach(Thread::interrupt);
      healthy.interrupt();
    }
  }
}
