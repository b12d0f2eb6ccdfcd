package io.jvmsentinel.lab;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Command line of the lab: {@code SCENARIO [--rate N] [--threads N] [--duration D] [--delay D]
 * [--linger D] [--warmup D] [--phase D] [--pause D] [--classes N] [--label L]}. Each scenario picks
 * its own defaults for the options it reads. {@code --label} is read by none: it marks a lab JVM in
 * the host's process list, so a discovery test finds its own labs among other JVMs.
 */
public final class LabOptions {

  private final String scenario;
  private OptionalInt rate = OptionalInt.empty();
  private OptionalInt threads = OptionalInt.empty();
  private OptionalInt classes = OptionalInt.empty();
  private Optional<Duration> duration = Optional.empty();
  private Duration delay = Duration.ZERO;
  private Duration linger = Duration.ZERO;
  private Optional<Duration> warmup = Optional.empty();
  private Optional<Duration> phase = Optional.empty();
  private Optional<Duration> pause = Optional.empty();

  private LabOptions(String scenario) {
    this.scenario = scenario;
  }

  /** Options with nothing set, for the named scenario. */
  public static LabOptions defaults(String scenario) {
    return new LabOptions(scenario);
  }

  /**
   * Parses the command line.
   *
   * @throws IllegalArgumentException on a missing scenario, an unknown option or a bad value
   */
  public static LabOptions parse(String... args) {
    if (args.length == 0 || args[0].startsWith("-")) {
      throw new IllegalArgumentException("missing scenario");
    }
    LabOptions options = new LabOptions(args[0]);
    for (int i = 1; i < args.length; i += 2) {
      String option = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value for " + option);
      }
      String value = args[i + 1];
      switch (option) {
        case "--rate":
          options.rate = OptionalInt.of(positiveInt(option, value));
          break;
        case "--threads":
          options.threads = OptionalInt.of(positiveInt(option, value));
          break;
        case "--duration":
          options.duration = Optional.of(parseDuration(value));
          break;
        case "--delay":
          options.delay = parseDuration(value);
          break;
        case "--linger":
          options.linger = parseDuration(value);
          break;
        case "--warmup":
          options.warmup = Optional.of(parseDuration(value));
          break;
        case "--phase":
          options.phase = Optional.of(parseDuration(value));
          break;
        case "--pause":
          options.pause = Optional.of(parseDuration(value));
          break;
        case "--classes":
          options.classes = OptionalInt.of(positiveInt(option, value));
          break;
        case "--label":
          break; // only seen in the process list
        default:
          throw new IllegalArgumentException("unknown option " + option);
      }
    }
    return options;
  }

  /**
   * Parses {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}, a plain number of seconds, or
   * ISO-8601 ({@code PT5S}).
   */
  public static Duration parseDuration(String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (value.startsWith("p")) {
        return nonNegative(text, Duration.parse(text.trim()));
      } else if (value.endsWith("ms")) {
        return nonNegative(text, Duration.ofMillis(number(value, 2)));
      } else if (value.endsWith("s")) {
        return nonNegative(text, Duration.ofSeconds(number(value, 1)));
      } else if (value.endsWith("m")) {
        return nonNegative(text, Duration.ofMinutes(number(value, 1)));
      } else if (value.endsWith("h")) {
        return nonNegative(text, Duration.ofHours(number(value, 1)));
      }
      return nonNegative(text, Duration.ofSeconds(Long.parseLong(value)));
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException("bad duration: " + text, e);
    }
  }

  private static long number(String value, int suffixLength) {
    return Long.parseLong(value.substring(0, value.length() - suffixLength));
  }

  private static Duration nonNegative(String text, Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("negative duration: " + text);
    }
    return duration;
  }

  private static int positiveInt(String option, String value) {
    try {
      int number = Integer.parseInt(value);
      if (number > 0) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(option + " needs a positive integer, got " + value);
  }

  public String scenario() {
    return scenario;
  }

  /** Events per second for rate-driven scenarios. */
  public int rate(int defaultRate) {
    return rate.orElse(defaultRate);
  }

  /** Class count for scenarios that load a code base of their own. */
  public int classes(int defaultClasses) {
    return classes.orElse(defaultClasses);
  }

  /** Thread count for scenarios that start a fixed number of threads. */
  public int threads(int defaultThreads) {
    return threads.orElse(defaultThreads);
  }

  /** How long the scenario runs before the lab exits; empty means until killed. */
  public Optional<Duration> duration() {
    return duration;
  }

  /** Quiet time between {@code ready} and the scenario's first phase, so a monitor can connect. */
  public Duration delay() {
    return delay;
  }

  /** How long to stay alive, idle, after {@code --duration} ended the scenario. */
  public Duration linger() {
    return linger;
  }

  /** Length of a JIT warm-up phase, for scenarios that have one. */
  public Duration warmup(Duration defaultWarmup) {
    return warmup.orElse(defaultWarmup);
  }

  /** Length of each incident phase, for scenarios that run several in turn ({@code mixed}). */
  public Duration phase(Duration defaultPhase) {
    return phase.orElse(defaultPhase);
  }

  /**
   * Quiet time between incident phases, for scenarios that run several in turn; before the late
   * change of {@code feature-after-warmup} and {@code pool-start}.
   */
  public Duration pause(Duration defaultPause) {
    return pause.orElse(defaultPause);
  }
}
