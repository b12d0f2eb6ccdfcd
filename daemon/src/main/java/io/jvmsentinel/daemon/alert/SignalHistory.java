package io.jvmsentinel.daemon.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The recent signal samples of one target, oldest first, bounded by age: where the engine keeps
 * them. Rules never see it: they read a {@link #snapshot()}, which cannot change under them. The
 * read methods are the snapshot's, for windowed reports and tests.
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

  /** The samples as they are now, never changing. */
  public synchronized SignalWindow snapshot() {
    return new SignalWindow(List.copyOf(samples));
  }

  public synchronized Optional<SignalSample> latest() {
    return Optional.ofNullable(samples.peekLast());
  }

  /** Every sample kept, oldest first. */
  public List<SignalSample> all() {
    return snapshot().all();
  }

  /** The samples of the last {@code window}, oldest first. */
  public List<SignalSample> window(Duration window) {
    return snapshot().window(window);
  }

  /** See {@link SignalWindow#rate(Duration, ToDoubleFunction, Predicate)}. */
  public double rate(
      Duration window, ToDoubleFunction<SignalSample> value, Predicate<SignalSample> usable) {
    return snapshot().rate(window, value, usable);
  }

  /** See {@link SignalWindow#rate(Duration, ToDoubleFunction)}. */
  public double rate(Duration window, ToDoubleFunction<SignalSample> value) {
    return snapshot().rate(window, value);
  }

  /** See {@link SignalWindow#increase(Duration, ToDoubleFunction)}. */
  public double increase(Duration window, ToDoubleFunction<SignalSample> value) {
    return snapshot().increase(window, value);
  }

  /** See {@link SignalWindow#rateEndingAgo}. */
  public double rateEndingAgo(
      Duration ago,
      Duration window,
      ToDoubleFunction<SignalSample> value,
      Predicate<SignalSample> usable) {
    return snapshot().rateEndingAgo(ago, window, value, usable);
  }

  /** How long the history reaches back from the latest sample. */
  public Duration span() {
    return snapshot().span();
  }
}
