package io.jvmsentinel.daemon.web.charts;

import io.jvmsentinel.daemon.alert.SignalSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The status page's time series of one target over the detection history (15 minutes): code cache
 * occupancy per segment, compilations, deoptimisations and compiler CPU share, thread start rate
 * and GC pause share, on one time axis, with code cache events marked on it. Rates are per second
 * between consecutive points; a point whose counter source changed (JFR stream came or went) or
 * that follows a gap is null, never a spike. Bounded: at most {@link #MAX_POINTS} points (every
 * n-th sample beyond that) and {@link #MAX_MARKERS} markers, the latest.
 *
 * @param t seconds since the epoch of each point
 * @param codeCache occupancy (0..1) per code heap segment, null where unknown
 * @param compilationsPerSecond JIT compilations per second
 * @param deoptimizationsPerSecond deoptimisations per second
 * @param compilerCpuShare share of the process CPU used by the JIT compiler threads (0..1)
 * @param threadStartsPerSecond thread starts per second
 * @param gcPauseShare share of wall time spent in GC pauses (0..1)
 * @param stormThreshold the thread start rate ThreadStorm always calls a storm, per second
 * @param markers code cache full, compilation disabled or enabled, flushing; oldest first
 */
public record TargetSeries(
    List<Long> t,
    Map<String, List<Double>> codeCache,
    List<Double> compilationsPerSecond,
    List<Double> deoptimizationsPerSecond,
    List<Double> compilerCpuShare,
    List<Double> threadStartsPerSecond,
    List<Double> gcPauseShare,
    double stormThreshold,
    List<Marker> markers) {
  public static final int MAX_POINTS = 450;
  public static final int MAX_MARKERS = 100;

  /** What a marker on the time axis means. */
  public enum MarkerKind {
    FULL,
    COMPILATION_DISABLED,
    COMPILATION_ENABLED,
    FLUSHING
  }

  /**
   * A code cache event at a time (seconds since the epoch), with the segment when known (null
   * otherwise).
   */
  public record Marker(long t, MarkerKind kind, String segment) {}

  public static TargetSeries of(List<SignalSample> history, double stormThreshold) {
    List<SignalSample> points = thin(history);
    List<Long> times = new ArrayList<>();
    Map<String, List<Double>> codeCache = new LinkedHashMap<>();
    for (SignalSample sample : points) {
      sample.codeHeaps().forEach(heap -> codeCache.putIfAbsent(heap.id(), new ArrayList<>()));
    }
    for (int i = 0; i < points.size(); i++) {
      SignalSample sample = points.get(i);
      times.add(sample.at().getEpochSecond());
      for (Map.Entry<String, List<Double>> segment : codeCache.entrySet()) {
        segment
            .getValue()
            .add(
                sample.codeHeaps().stream()
                    .filter(heap -> heap.id().equals(segment.getKey()))
                    .map(heap -> finite(heap.occupancy()))
                    .findFirst()
                    .orElse(null));
      }
    }
    return new TargetSeries(
        times,
        codeCache,
        rates(points, SignalSample::compilations),
        rates(points, SignalSample::deoptimizations),
        points.stream().map(s -> finite(s.compilerCpuShare())).toList(),
        rates(points, SignalSample::threadStarts),
        gcPauseShare(points),
        stormThreshold,
        markers(history));
  }

  /** Every n-th sample so that at most MAX_POINTS remain, always keeping the latest. */
  private static List<SignalSample> thin(List<SignalSample> history) {
    if (history.size() <= MAX_POINTS) {
      return history;
    }
    int step = (history.size() + MAX_POINTS - 1) / MAX_POINTS;
    List<SignalSample> kept = new ArrayList<>();
    for (int i = (history.size() - 1) % step; i < history.size(); i += step) {
      kept.add(history.get(i));
    }
    return kept;
  }

  private static List<Double> rates(
      List<SignalSample> points, ToDoubleFunction<SignalSample> counter) {
    List<Double> rates = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      if (i == 0 || points.get(i).jfr() != points.get(i - 1).jfr()) {
        rates.add(null);
        continue;
      }
      double seconds =
          (points.get(i).at().toEpochMilli() - points.get(i - 1).at().toEpochMilli()) / 1000.0;
      double previous = counter.applyAsDouble(points.get(i - 1));
      double current = counter.applyAsDouble(points.get(i));
      // A drop is a reset (restarted target, new stream): what came after it counts.
      double increase = current >= previous ? current - previous : current;
      rates.add(seconds > 0 ? finite(increase / seconds) : null);
    }
    return rates;
  }

  /**
   * The share of time in GC pauses between points of an answering target. Pauses of a freeze that
   * kept the target from answering are read after it (from the collectors' totals) and belong to
   * the outage: the share is drawn over it, not as one tick of many times the wall-clock time.
   */
  private static List<Double> gcPauseShare(List<SignalSample> points) {
    List<Double> share = new ArrayList<>(java.util.Collections.nCopies(points.size(), null));
    int answered = -1;
    for (int i = 0; i < points.size(); i++) {
      if (!points.get(i).up()) {
        continue;
      }
      if (answered >= 0) {
        Double rate =
            rates(List.of(points.get(answered), points.get(i)), SignalSample::gcPauseSeconds)
                .get(1);
        for (int k = answered + 1; k <= i; k++) {
          share.set(k, rate);
        }
      }
      answered = i;
    }
    return share;
  }

  /**
   * Code cache events from every sample (not only the points drawn), the latest kept. Full markers
   * come at the JFR events' own times when the stream saw them (a fill often precedes the first
   * sample), else where the JVM's fill count grew; a cache already full or disabled at the first
   * sample is marked there.
   */
  private static List<Marker> markers(List<SignalSample> history) {
    java.util.TreeSet<Marker> markers =
        new java.util.TreeSet<>(
            java.util.Comparator.comparingLong(Marker::t)
                .thenComparing(Marker::kind)
                .thenComparing(m -> m.segment() == null ? "" : m.segment()));
    if (history.isEmpty()) {
      return List.of();
    }
    long first = history.get(0).at().getEpochSecond();
    if (history.get(0).compilationEnabled() == 0) {
      markers.add(new Marker(first, MarkerKind.COMPILATION_DISABLED, null));
    }
    boolean fullEventsSeen = false;
    for (SignalSample sample : history) {
      for (var full : sample.details().codeCacheFulls()) {
        fullEventsSeen = true;
        markers.add(
            new Marker(
                Math.max(first, full.time().getEpochSecond()), MarkerKind.FULL, full.segment()));
      }
    }
    if (!fullEventsSeen && history.get(0).codeCacheFullEvents() > 0) {
      // Filled before the first sample (before the daemon watched, or before its stream started).
      markers.add(new Marker(first, MarkerKind.FULL, null));
    }
    for (int i = 1; i < history.size(); i++) {
      SignalSample before = history.get(i - 1);
      SignalSample now = history.get(i);
      long t = now.at().getEpochSecond();
      if (!fullEventsSeen && grew(before.codeCacheFullEvents(), now.codeCacheFullEvents())) {
        markers.add(new Marker(t, MarkerKind.FULL, null));
      }
      if (before.compilationEnabled() != 0 && now.compilationEnabled() == 0) {
        markers.add(new Marker(t, MarkerKind.COMPILATION_DISABLED, null));
      }
      if (before.compilationEnabled() == 0 && now.compilationEnabled() == 1) {
        markers.add(new Marker(t, MarkerKind.COMPILATION_ENABLED, null));
      }
      if (grew(before.sweeperReclaimed(), now.sweeperReclaimed())
          || grew(before.codeCacheGcs(), now.codeCacheGcs())) {
        markers.add(new Marker(t, MarkerKind.FLUSHING, null));
      }
    }
    List<Marker> all = new ArrayList<>(markers);
    return all.size() <= MAX_MARKERS
        ? all
        : List.copyOf(all.subList(all.size() - MAX_MARKERS, all.size()));
  }

  private static boolean grew(double before, double now) {
    return !Double.isNaN(before) && !Double.isNaN(now) && now > before;
  }

  /** JSON has no NaN: unknown is null, which the charts draw as a gap. */
  private static Double finite(double value) {
    return Double.isFinite(value) ? value : null;
  }
}
