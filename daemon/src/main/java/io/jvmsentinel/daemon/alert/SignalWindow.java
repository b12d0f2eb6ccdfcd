package io.jvmsentinel.daemon.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The recent signal samples of one target as they were at one evaluation, oldest first, never
 * changing: what a rule reads. Counters are cumulative in the samples; {@link #rate} turns them
 * into per-second rates and treats a drop (a restarted target, a new stream) as a reset.
 */
public final class SignalWindow {
  private final List<SignalSample> samples;

  public SignalWindow(List<SignalSample> samples) {
    this.samples = List.copyOf(samples);
  }

  public Optional<SignalSample> latest() {
    return samples.isEmpty() ? Optional.empty() : Optional.of(samples.get(samples.size() - 1));
  }

  /** Every sample, oldest first. */
  public List<SignalSample> all() {
    return samples;
  }

  /** The samples of the last {@code window}, oldest first. */
  public List<SignalSample> window(Duration window) {
    if (samples.isEmpty()) {
      return List.of();
    }
    Instant from = samples.get(samples.size() - 1).at().minus(window);
    int first = samples.size();
    while (first > 0 && !samples.get(first - 1).at().isBefore(from)) {
      first--;
    }
    return samples.subList(first, samples.size());
  }

  /**
   * The per-second rate of a cumulative value over the last {@code window}, using only samples for
   * which {@code usable} holds (e.g. "came from the same source"); NaN without two usable samples
   * spanning at least half the window. A decrease counts as a reset: the increase after it counts.
   */
  public double rate(
      Duration window, ToDoubleFunction<SignalSample> value, Predicate<SignalSample> usable) {
    List<SignalSample> recent = window(window).stream().filter(usable).toList();
    if (recent.size() < 2) {
      return Double.NaN;
    }
    double increase = increase(recent, value);
    Duration span = Duration.between(recent.get(0).at(), recent.get(recent.size() - 1).at());
    if (span.compareTo(window.dividedBy(2)) < 0 || span.isZero()) {
      return Double.NaN;
    }
    return increase / (span.toMillis() / 1000.0);
  }

  /** {@link #rate(Duration, ToDoubleFunction, Predicate)} over every sample. */
  public double rate(Duration window, ToDoubleFunction<SignalSample> value) {
    return rate(window, value, sample -> true);
  }

  /**
   * How much a cumulative value grew over the last {@code window}, however short the history: for
   * "did anything happen" signals (a code cache fill) that must not wait for a full window.
   */
  public double increase(Duration window, ToDoubleFunction<SignalSample> value) {
    return increase(window(window), value);
  }

  /** How much a cumulative value grew over these samples, a reset counting from zero. */
  public static double increase(List<SignalSample> samples, ToDoubleFunction<SignalSample> value) {
    double increase = 0;
    for (int i = 1; i < samples.size(); i++) {
      double previous = value.applyAsDouble(samples.get(i - 1));
      double current = value.applyAsDouble(samples.get(i));
      if (Double.isNaN(previous) || Double.isNaN(current)) {
        continue;
      }
      increase += current >= previous ? current - previous : current;
    }
    return increase;
  }

  /** The rate over the window that ended {@code ago} before the latest sample. */
  public double rateEndingAgo(
      Duration ago,
      Duration window,
      ToDoubleFunction<SignalSample> value,
      Predicate<SignalSample> usable) {
    return endingAgo(ago).rate(window, value, usable);
  }

  /**
   * The usual per-second rate over {@code slices} consecutive slices of {@code slice} ending {@code
   * ago} before the latest sample: the median of the slices' rates, so that a short spell unlike
   * the rest (a storm that ended minutes ago) does not count as the usual. NaN unless at least half
   * the slices have a rate.
   */
  public double medianRateEndingAgo(
      Duration ago,
      Duration slice,
      int slices,
      ToDoubleFunction<SignalSample> value,
      Predicate<SignalSample> usable) {
    List<Double> rates = new ArrayList<>();
    SignalWindow rest = endingAgo(ago);
    for (int i = 0; i < slices && rest.samples.size() >= 2; i++) {
      double rate = rest.rate(slice, value, usable);
      if (!Double.isNaN(rate)) {
        rates.add(rate);
      }
      rest = rest.endingAgo(slice);
    }
    if (rates.isEmpty() || rates.size() * 2 < slices) {
      return Double.NaN;
    }
    Collections.sort(rates);
    int middle = rates.size() / 2;
    return rates.size() % 2 == 1
        ? rates.get(middle)
        : (rates.get(middle - 1) + rates.get(middle)) / 2;
  }

  /** The samples up to {@code ago} before the latest one. */
  public SignalWindow endingAgo(Duration ago) {
    if (samples.isEmpty()) {
      return this;
    }
    Instant end = samples.get(samples.size() - 1).at().minus(ago);
    int last = samples.size();
    while (last > 0 && samples.get(last - 1).at().isAfter(end)) {
      last--;
    }
    return new SignalWindow(samples.subList(0, last));
  }

  /** How long the window reaches back from the latest sample. */
  public Duration span() {
    if (samples.size() < 2) {
      return Duration.ZERO;
    }
    return Duration.between(samples.get(0).at(), samples.get(samples.size() - 1).at());
  }
}
