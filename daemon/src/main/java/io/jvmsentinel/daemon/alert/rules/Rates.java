package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleCoverage;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SignalWindow;
import io.jvmsentinel.daemon.alert.SubWindows;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Small helpers the rules share: formatting and gauge averages over a window. */
final class Rates {
  private Rates() {}

  static String format(double value) {
    if (Double.isNaN(value)) {
      return "unknown";
    }
    return value >= 100
        ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  static String percent(double fraction) {
    return Double.isNaN(fraction)
        ? "unknown"
        : String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
  }

  /** The mean of a gauge over the window, NaN unless samples cover at least half of it. */
  static double mean(RuleContext context, Duration window, ToDoubleFunction<SignalSample> value) {
    List<SignalSample> samples = context.history().window(window);
    double sum = 0;
    int count = 0;
    for (SignalSample sample : samples) {
      double v = value.applyAsDouble(sample);
      if (!Double.isNaN(v)) {
        sum += v;
        count++;
      }
    }
    if (count < 2 || context.history().span().compareTo(window.dividedBy(2)) < 0) {
      return Double.NaN;
    }
    return sum / count;
  }

  /** {@code value} to three decimals for evidence; null (shown as absent) when unknown. */
  static Double rounded(double value) {
    return Double.isNaN(value) ? null : Math.round(value * 1000) / 1000.0;
  }

  /** Whether the latest sample knows {@code value}: NaN means the target does not give it. */
  static boolean known(SignalWindow history, ToDoubleFunction<SignalSample> value) {
    return history.latest().map(sample -> !Double.isNaN(value.applyAsDouble(sample))).orElse(false);
  }

  /** Whether the latest sample says the target is connected (rules about its data need that). */
  static boolean up(RuleContext context) {
    return context.history().latest().map(SignalSample::up).orElse(false);
  }

  /** An input read in every sub-window of the rule's {@code window} seconds. */
  static RuleInput everySubWindow(RuleInput.Signal signal, double window) {
    return RuleInput.every(
        signal,
        seconds(window / SubWindows.PARTS),
        window(window) + " in " + SubWindows.PARTS + " sub-windows");
  }

  /** An input read at least once within the rule's {@code window} seconds. */
  static RuleInput everyWindow(RuleInput.Signal signal, double window) {
    return RuleInput.every(signal, seconds(window), window(window));
  }

  /** "the rule's 5 s window": what needs a cadence, for {@link AlertRule#inputs}. */
  static String window(double seconds) {
    return "the rule's " + RuleCoverage.seconds(seconds(seconds)) + " window";
  }

  static Duration seconds(double seconds) {
    return Duration.ofMillis((long) (seconds * 1000));
  }
}
