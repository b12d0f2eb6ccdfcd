package io.jvmsentinel.daemon.it.matrix;

import io.jvmsentinel.daemon.lab.LabEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What one rule (or one of a few rules, for "any CodeCache alert") must do on one scenario, judged
 * against the alerts the daemon raised on it. Rules a scenario does not mention must stay silent.
 *
 * <ul>
 *   <li>{@code fires}: a firing that starts within {@code bound} of the onset and whose summary
 *       names every {@code cause} text; with {@link #resolvedWithin}, also resolved within its
 *       bound of the onset that ends the incident. Each {@code fires} claims one firing, so a rule
 *       expected to fire twice is listed twice, each with its own onset.
 *   <li>{@code silent}: no firing at all while the scenario is watched.
 *   <li>{@code allowedUntil}: firings may start only before the onset and must have resolved within
 *       {@code bound} after it (a real cost that ends, like GC pressure during start-up).
 *   <li>{@code tolerated}: fires or not, either is right; recorded, never failed.
 * </ul>
 */
public record Expectation(
    Kind kind,
    Set<String> rules,
    Optional<Onset> onset,
    Optional<Onset> notBefore,
    Duration bound,
    List<String> causes,
    Optional<Onset> end,
    Duration resolveBound) {

  public enum Kind {
    FIRES,
    SILENT,
    ALLOWED_UNTIL,
    TOLERATED
  }

  public static Expectation fires(String rule, Onset onset, Duration bound, String... causes) {
    return firesAnyOf(Set.of(rule), onset, bound, causes);
  }

  public static Expectation firesAnyOf(
      Set<String> rules, Onset onset, Duration bound, String... causes) {
    return of(Kind.FIRES, rules, Optional.of(onset), bound, List.of(causes));
  }

  public static Expectation silent(String rule) {
    return of(Kind.SILENT, Set.of(rule), Optional.empty(), Duration.ZERO, List.of());
  }

  public static Expectation allowedUntil(String rule, Onset onset, Duration resolvedWithin) {
    return of(Kind.ALLOWED_UNTIL, Set.of(rule), Optional.of(onset), resolvedWithin, List.of());
  }

  public static Expectation tolerated(String rule) {
    return of(Kind.TOLERATED, Set.of(rule), Optional.empty(), Duration.ZERO, List.of());
  }

  private static Expectation of(
      Kind kind, Set<String> rules, Optional<Onset> onset, Duration bound, List<String> causes) {
    return new Expectation(
        kind, rules, onset, Optional.empty(), bound, causes, Optional.empty(), Duration.ZERO);
  }

  /** This firing, also resolved within {@code within} of {@code end} (its cause stopped). */
  public Expectation resolvedWithin(Duration within, Onset end) {
    return new Expectation(kind, rules, onset, notBefore, bound, causes, Optional.of(end), within);
  }

  /**
   * This expectation, also matching a firing that starts after {@code earlier} but before the
   * onset: the lab announces some states late ({@code codecache-full} checks for "compilation
   * disabled" every 10 copies), and the daemon may see them first. Such latencies are negative.
   */
  public Expectation notBefore(Onset earlier) {
    return new Expectation(
        kind, rules, onset, Optional.of(earlier), bound, causes, end, resolveBound);
  }

  /** A short text for the table, e.g. {@code fires <= 10 s of tls-storm naming JDK-8246039}. */
  public String describe() {
    String rule =
        rules.size() == 1
            ? rules.iterator().next()
            : "any of " + String.join("/", rules.stream().sorted().toList());
    return switch (kind) {
      case FIRES ->
          rule
              + " fires <= "
              + bound.toSeconds()
              + " s after "
              + onset.orElseThrow()
              + (causes.isEmpty() ? "" : ", naming " + String.join(" + ", causes))
              + end.map(e -> ", resolved <= " + resolveBound.toSeconds() + " s after " + e)
                  .orElse("");
      case SILENT -> rule + " silent";
      case ALLOWED_UNTIL ->
          rule
              + " may fire before "
              + onset.orElseThrow()
              + ", resolved <= "
              + bound.toSeconds()
              + " s after it";
      case TOLERATED -> rule + " fires or not";
    };
  }

  /**
   * Judges this expectation, claiming the firing it matched from {@code unclaimed} so a second
   * expectation on the same rule has to match another one.
   */
  public Cell judge(List<LabEvent> events, List<Raised> unclaimed) {
    List<Raised> mine =
        new ArrayList<>(unclaimed.stream().filter(r -> rules.contains(r.rule())).toList());
    Optional<Instant> at = onset.flatMap(o -> o.in(events));
    if (onset.isPresent() && at.isEmpty()) {
      return Cell.fail(this, "the lab never printed onset " + onset.get(), mine, Optional.empty());
    }
    switch (kind) {
      case FIRES -> {
        // The first firing that started no earlier than 1 s before the onset (clock rounding), or
        // than the earlier phase that may announce it.
        Instant earliest = notBefore.flatMap(o -> o.in(events)).orElse(at.get()).minusSeconds(1);
        Optional<Raised> match =
            mine.stream().filter(r -> !r.startedAt().isBefore(earliest)).findFirst();
        if (match.isEmpty()) {
          return Cell.fail(this, "did not fire", List.of(), at);
        }
        // One incident may raise the rule for several keys (code heap segments) at once.
        unclaimed.removeIf(
            r ->
                rules.contains(r.rule())
                    && Duration.between(match.get().startedAt(), r.startedAt()).abs().toMillis()
                        <= 2_000);
        Duration latency = Duration.between(at.get(), match.get().startedAt());
        List<String> missing =
            causes.stream().filter(c -> !match.get().summary().contains(c)).toList();
        List<String> problems = new ArrayList<>();
        if (latency.compareTo(bound) > 0) {
          problems.add("fired too late");
        }
        if (!missing.isEmpty()) {
          problems.add("summary does not name " + String.join(" + ", missing));
        }
        end.flatMap(e -> resolveProblem(e, events, match.get())).ifPresent(problems::add);
        return problems.isEmpty()
            ? Cell.pass(this, List.of(match.get()), at)
            : Cell.fail(this, String.join("; ", problems), List.of(match.get()), at);
      }
      case SILENT -> {
        unclaimed.removeAll(mine);
        return mine.isEmpty()
            ? Cell.pass(this, mine, at)
            : Cell.fail(this, "fired " + mine.size() + " time(s)", mine, at);
      }
      case ALLOWED_UNTIL -> {
        unclaimed.removeAll(mine);
        Instant deadline = at.get().plus(bound);
        for (Raised r : mine) {
          if (r.startedAt().isAfter(at.get())) {
            return Cell.fail(this, "fired after " + onset.get(), mine, at);
          }
          if (r.resolvedAt().isEmpty() || r.resolvedAt().get().isAfter(deadline)) {
            return Cell.fail(this, "not resolved in time", mine, at);
          }
        }
        return Cell.pass(this, mine, at);
      }
      default -> {
        unclaimed.removeAll(mine);
        return Cell.pass(this, mine, at);
      }
    }
  }

  /**
   * Why {@code firing} did not resolve within {@code resolveBound} of {@code end}, if it did not.
   */
  private Optional<String> resolveProblem(Onset end, List<LabEvent> events, Raised firing) {
    Optional<Instant> endAt = end.in(events);
    if (endAt.isEmpty()) {
      return Optional.of("the lab never printed onset " + end);
    }
    Instant deadline = endAt.get().plus(resolveBound);
    return firing.resolvedAt().isPresent() && !firing.resolvedAt().get().isAfter(deadline)
        ? Optional.empty()
        : Optional.of("not resolved within " + resolveBound.toSeconds() + " s of " + end);
  }
}
