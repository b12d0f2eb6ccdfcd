package io.jvmsentinel.daemon.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The recent signal samples of one target, oldest first, bounded by age: the sliding windows the
 * rules evaluate. Counters are cumulative in the samples; {@link #rate} turns them into per-second
 * rates and treats a drop (a restarted target, a new stream) as a reset.
 */
public final class SignalHistory {
  private final Duration retention;
  private final Deque<SignalSample> samples = new ArrayDeque<>();

  public SignalHistory(Duration retention) {
    this.retention = retention;
  }

  public synchronized void add(SignalSample sample) {
    samples.addLast(sample);
    Instant oldest = sample.at().minus(retention);
    while (!samples.isEmpty() && samples.peekFirst().at().isBefore(oldest)) {
      samples.removeFirst();
    }
  }

  public synchronized Optional<SignalSample> latest() {
    return Optional.ofNullable(samples.peekLast());
  }

  /** Every sample kept, oldest first. */
  public synchronized List<SignalSample> all() {
    return new ArrayList<>(samples);
  }

  /** The samples of the last {@code window}, oldest first. */
  public synchronized List<SignalSample> window(Duration window) {
    List<SignalSample> result = new ArrayList<>();
    if (samples.isEmpty()) {
      return result;
    }
    Instant from = samples.peekLast().at().minus(window);
    for (SignalSample sample : samples) {
      if (!sample.at().isBefore(from)) {
        result.add(sample);
      }
    }
    return result;
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

  /**
   * How much a cumulative value grew over the last {@code window}, however short the history: for
   * "did anything happen" signals (a code cache fill) that must not wait for a full window.
   */
  public double increase(Duration window, ToDoubleFunction<SignalSample> value) {
    return increase(window(window), value);
  }

  static double increase(List<SignalSample> samples, ToDoubleFunction<SignalSample> value) {
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

  /** {@link #rate(Duration, ToDoubleFunction, Predicate)} over every sample. */
  public double rate(Duration window, ToDoubleFunction<SignalSample> value) {
    return rate(window, value, sample -> true);
  }

  /** The rate over the window that ended {@code ago} before the latest sample. */
  public double rateEndingAgo(
      Duration ago,
      Duration window,
      ToDoubleFunction<SignalSample> value,
      Predicate<SignalSample> usable) {
    List<SignalSample> all = all();
    if (all.isEmpty()) {
      return Double.NaN;
    }
    Instant end = all.get(all.size() - 1).at().minus(ago);
    SignalHistory slice = new SignalHistory(retention);
    for (SignalSample sample : all) {
      if (!sample.at().isAfter(end)) {
        slice.add(sample);
      }
    }
    return slice.rate(window, value, usable);
  }

  /** How long the history reaches back from the latest sample. */
  public synchronized Duration span() {
    if (samples.size() < 2) {
      return Duration.ZERO;
    }
    return Duration.between(samples.peekFirst().at(), samples.peekLast().at());
  }
}
