package io.jvmsentinel.daemon.it.matrix;

import io.jvmsentinel.daemon.lab.LabEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One target of the matrix: a lab scenario (its daemon target name, JDK and arguments), how long it
 * must be watched ({@code watchFor} after the onset {@code watchFrom}), and what every rule must do
 * on it. Rules it does not mention must stay silent.
 */
public record Row(
    String name,
    String scenario,
    int jdk,
    List<String> args,
    Onset watchFrom,
    Duration watchFor,
    List<Expectation> expectations) {

  public Row {
    args = List.copyOf(args);
    expectations = List.copyOf(expectations);
  }

  /** This row's expectations, with {@code silent} for every rule of {@code rules} left out. */
  public List<Expectation> complete(List<String> rules) {
    List<Expectation> all = new ArrayList<>(expectations);
    for (String rule : rules) {
      if (expectations.stream().noneMatch(e -> e.rules().contains(rule))) {
        all.add(Expectation.silent(rule));
      }
    }
    return all;
  }

  /**
   * Judges every expectation in order; firings no expectation claimed (a rule expected to fire once
   * that fired twice) fail the row as an extra cell.
   */
  public List<Cell> judge(List<String> rules, List<LabEvent> events, List<Raised> raised) {
    List<Raised> unclaimed = new ArrayList<>(raised);
    List<Cell> cells = new ArrayList<>();
    for (Expectation expectation : complete(rules)) {
      cells.add(expectation.judge(events, unclaimed));
    }
    for (Raised extra : unclaimed) {
      Expectation none = Expectation.silent(extra.rule());
      cells.add(
          Cell.fail(
              none,
              "an extra firing no expectation accounts for",
              List.of(extra),
              java.util.Optional.empty()));
    }
    return cells;
  }

  @Override
  public String toString() {
    return name + " (" + scenario + " " + String.join(" ", args) + ", JDK " + jdk + ")";
  }
}
