package io.jvmsentinel.lab;

import java.util.function.LongFunction;
import java.util.function.LongUnaryOperator;

/**
 * A deoptimisation storm: compiled code keeps being invalidated after warm-up. Each round loads a
 * fresh copy of {@link DeoptTemplate} (and its {@code Shape} classes), trains it until its methods
 * are compiled with optimistic assumptions (one receiver type, a branch never taken, never null,
 * always in bounds), then breaks every assumption: uncommon traps deoptimise the compiled frames
 * and make the methods not entrant, and the JIT recompiles them. {@code --rate} rounds per second
 * (default {@value #DEFAULT_RATE}), a steady number of deoptimisations per second.
 */
final class DeoptStormScenario implements Scenario {

  static final int DEFAULT_RATE = 4;
  private static final int TRAINING_ROUNDS = 3;
  private static final int BREAKING_CALLS = 5_000;

  private final int rate;

  DeoptStormScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "deopt-storm";
  }

  @Override
  public String description() {
    return "trains fresh code copies until compiled, then breaks their assumptions: --rate rounds"
        + " per second (default "
        + DEFAULT_RATE
        + ") of deoptimisation";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    GeneratedCode code = DeoptTemplate.generatedCode();
    run(log, sequence -> code);
  }

  /** The storm, each round on a fresh copy of the code {@code codeOfRound} gives. */
  void run(LabLog log, LongFunction<GeneratedCode> codeOfRound) throws InterruptedException {
    log.onset("deopt", "rate", rate);
    long[] sink = {0};
    RateLoop.run(
        rate,
        sequence -> {
          LongUnaryOperator copy = codeOfRound.apply(sequence).newCopy(LongUnaryOperator.class);
          for (int i = 0; i < TRAINING_ROUNDS; i++) {
            sink[0] += copy.applyAsLong(0);
          }
          for (int i = 0; i < BREAKING_CALLS; i++) {
            sink[0] += copy.applyAsLong(1);
          }
        });
    Blackhole.consume(sink[0]);
  }
}
