package io.jvmsentinel.daemon.it.matrix;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One expectation judged: whether it held, why not, the firings it looked at, and the onset they
 * are timed from.
 */
public record Cell(
    Expectation expectation,
    boolean passed,
    String problem,
    List<Raised> firings,
    Optional<Instant> onsetAt) {

  static Cell pass(Expectation expectation, List<Raised> firings, Optional<Instant> onsetAt) {
    return new Cell(expectation, true, "", List.copyOf(firings), onsetAt);
  }

  static Cell fail(
      Expectation expectation, String problem, List<Raised> firings, Optional<Instant> onsetAt) {
    return new Cell(expectation, false, problem, List.copyOf(firings), onsetAt);
  }

  /** Seconds from the onset to a firing, when there is an onset. */
  public Optional<Double> latencySeconds(Raised firing) {
    return onsetAt.map(
        at -> java.time.Duration.between(at, firing.startedAt()).toMillis() / 1000.0);
  }
}
