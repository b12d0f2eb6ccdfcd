package io.jvmsentinel.daemon.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * "Sustained" as the rules mean it: a condition that holds in most sub-windows of a window, not a
 * window average that crosses a line once. A burst (first-time compilation of a new feature, a pool
 * started once) fills one or two sub-windows and averages high; churn and storms fill most of them.
 */
public final class SubWindows {
  /** Sub-windows a window is judged in. */
  public static final int PARTS = 6;

  private SubWindows() {}

  /** How many of the last {@code window}'s {@link #PARTS} sub-windows satisfy the condition. */
  public static int holding(
      SignalWindow history, Duration window, Predicate<List<SignalSample>> condition) {
    return holding(of(history, window, PARTS), condition);
  }

  /** Whether {@code held} sub-windows are at least {@code share} of them: sustained. */
  public static boolean sustained(int held, double share) {
    return held >= Math.ceil(share * PARTS);
  }

  /**
   * The last {@code window} cut into {@code parts} equal slices, oldest first. Each slice starts
   * with the last sample before it, so an increase across the boundary counts in the slice it
   * happened in. A slice the history does not reach is empty.
   */
  public static List<List<SignalSample>> of(SignalWindow history, Duration window, int parts) {
    List<SignalSample> samples = history.window(window.plus(window.dividedBy(parts)));
    List<List<SignalSample>> slices = new ArrayList<>();
    if (samples.isEmpty()) {
      return slices;
    }
    Instant end = samples.get(samples.size() - 1).at();
    Duration part = window.dividedBy(parts);
    for (int i = parts; i > 0; i--) {
      Instant from = end.minus(part.multipliedBy(i));
      Instant to = end.minus(part.multipliedBy(i - 1L));
      List<SignalSample> slice = new ArrayList<>();
      SignalSample before = null;
      for (SignalSample sample : samples) {
        if (!sample.at().isAfter(from)) {
          before = sample;
        } else if (!sample.at().isAfter(to)) {
          slice.add(sample);
        }
      }
      if (before != null && !slice.isEmpty()) {
        slice.add(0, before);
      }
      slices.add(slice.size() < 2 ? List.of() : List.copyOf(slice));
    }
    return slices;
  }

  /**
   * The slices after the last that satisfies {@code end} (all of them if none does): the run a
   * condition must be sustained in to be a new episode rather than the tail of one that ended.
   */
  public static List<List<SignalSample>> since(
      List<List<SignalSample>> slices, Predicate<List<SignalSample>> end) {
    for (int i = slices.size() - 1; i >= 0; i--) {
      if (end.test(slices.get(i))) {
        return slices.subList(i + 1, slices.size());
      }
    }
    return slices;
  }

  /**
   * Whether {@code condition} holds in {@code share} of the slices after the last that satisfies
   * {@code end}: a new episode, sustained, not one that ended and resolved counted again on its
   * slices still in the window with a short tail after it.
   */
  public static boolean sustainedSince(
      List<List<SignalSample>> slices,
      Predicate<List<SignalSample>> end,
      Predicate<List<SignalSample>> condition,
      double share) {
    return sustained(holding(since(slices, end), condition), share);
  }

  /** How many of the slices satisfy {@code condition} (empty slices never do). */
  public static int holding(
      List<List<SignalSample>> slices, Predicate<List<SignalSample>> condition) {
    int held = 0;
    for (List<SignalSample> slice : slices) {
      if (!slice.isEmpty() && condition.test(slice)) {
        held++;
      }
    }
    return held;
  }

  /** Per-second rate of a cumulative value over one slice; NaN when unknown. */
  public static double rate(
      List<SignalSample> slice,
      ToDoubleFunction<SignalSample> value,
      Predicate<SignalSample> usable) {
    // Only samples that know the value: a rate needs two known readings.
    List<SignalSample> used =
        slice.stream()
            .filter(usable)
            .filter(sample -> !Double.isNaN(value.applyAsDouble(sample)))
            .toList();
    if (used.size() < 2) {
      return Double.NaN;
    }
    double seconds =
        Duration.between(used.get(0).at(), used.get(used.size() - 1).at()).toMillis() / 1000.0;
    return seconds <= 0 ? Double.NaN : SignalWindow.increase(used, value) / seconds;
  }

  /** Mean of a gauge over one slice, NaN when it has no value there. */
  public static double mean(List<SignalSample> slice, ToDoubleFunction<SignalSample> value) {
    return slice.stream()
        .mapToDouble(value)
        .filter(v -> !Double.isNaN(v))
        .average()
        .orElse(Double.NaN);
  }

  /** The largest fall of any code heap's occupancy from an earlier peak within the samples. */
  public static double occupancyFall(List<SignalSample> samples) {
    java.util.Map<String, Double> peaks = new java.util.HashMap<>();
    double fall = 0;
    for (SignalSample sample : samples) {
      for (SignalSample.CodeHeap heap : sample.codeHeaps()) {
        double occupancy = heap.occupancy();
        if (Double.isNaN(occupancy)) {
          continue;
        }
        double peak = Math.max(peaks.getOrDefault(heap.id(), occupancy), occupancy);
        peaks.put(heap.id(), peak);
        fall = Math.max(fall, peak - occupancy);
      }
    }
    return fall;
  }

  /** The highest occupancy of any code heap within the samples; NaN when none was read. */
  public static double maxOccupancy(List<SignalSample> samples) {
    double max = Double.NaN;
    for (SignalSample sample : samples) {
      for (SignalSample.CodeHeap heap : sample.codeHeaps()) {
        if (!Double.isNaN(heap.occupancy())) {
          max = Double.isNaN(max) ? heap.occupancy() : Math.max(max, heap.occupancy());
        }
      }
    }
    return max;
  }
}
