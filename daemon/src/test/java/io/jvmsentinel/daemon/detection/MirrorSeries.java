package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.locks.LockContention;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.observability.CatalogNames;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A recorded signal timeline as the series Prometheus would have scraped from the daemon: the JIT,
 * class loading, code cache, thread, GC, TLS and lock contention metrics the mirror rules of {@code
 * jvm-sentinel-metrics.rules.yml} read, one sample a scrape (the latest signal sample at or before
 * it), absent while the target was down or the JFR stream was not running (as the daemon's counters
 * then do not advance).
 */
final class MirrorSeries {
  private static final String TARGET = "target=\"replay\"";

  private final Map<String, double[]> series = new LinkedHashMap<>();
  // Blocked seconds so far per lock (its kind and class labels), from every tick.
  private final Map<String, Double> blocked = new TreeMap<>();
  private final Duration scrape;
  private final int scrapes;
  private final boolean streamed;

  private MirrorSeries(Duration scrape, int scrapes, boolean streamed) {
    this.scrape = scrape;
    this.scrapes = scrapes;
    this.streamed = streamed;
  }

  static MirrorSeries of(List<SignalSample> samples, Duration scrape) {
    Instant start = samples.get(0).at();
    Duration length = Duration.between(start, samples.get(samples.size() - 1).at());
    int scrapes = (int) (length.toMillis() / scrape.toMillis()) + 1;
    MirrorSeries out =
        new MirrorSeries(scrape, scrapes, samples.stream().anyMatch(SignalSample::jfr));
    int latest = 0;
    out.count(samples.get(0));
    for (int i = 0; i < scrapes; i++) {
      Instant at = start.plus(scrape.multipliedBy(i));
      while (latest + 1 < samples.size() && !samples.get(latest + 1).at().isAfter(at)) {
        latest++;
        out.count(samples.get(latest));
      }
      out.scrape(i, samples.get(latest));
    }
    return out;
  }

  /**
   * Adds a tick's blocked time per lock to the running totals: the recordings hold it per tick (the
   * busiest locks), the exporter as one counter per kind and class.
   */
  private void count(SignalSample s) {
    for (LockContention.Lock lock : s.details().contention().locks().locks()) {
      blocked.merge(
          ",kind=\"" + lock.kind() + "\",class=\"" + lock.className() + "\"",
          lock.blockedNanos() / 1e9,
          Double::sum);
    }
  }

  private void scrape(int i, SignalSample s) {
    // The daemon itself answered every scrape: it made the recording.
    values("up{job=\"jvm-sentinel\",instance=\"sentinel:9404\"}")[i] = 1;
    if (!s.up()) {
      return;
    }
    put(Metric.PROCESS_UPTIME, "", i, s.uptimeSeconds());
    if (s.jfr()) {
      put(Metric.JVM_JIT_RECOMPILATIONS, "", i, s.recompilations());
      put(Metric.JVM_JIT_RECOMPILATIONS_DISCARDED, "", i, known(s.discardedRecompilations()));
      put(
          Metric.JVM_JIT_COMPILATIONS,
          ",compiler=\"c2\",tier=\"4\",osr=\"false\",outcome=\"success\"",
          i,
          s.compilations());
      put(
          Metric.JVM_JIT_DEOPTIMIZATIONS,
          ",reason=\"unstable_if\",action=\"reinterpret\"",
          i,
          s.deoptimizations());
      put(Metric.JVM_CODECACHE_SWEEPER_RECLAIMED, "", i, s.sweeperReclaimed());
      put(Metric.JVM_CODECACHE_FULL, "", i, s.codeCacheFullEvents());
      s.tlsPeers().forEach((peer, handshakes) -> tls(i, peer, handshakes));
      String contention = CatalogNames.prometheusName(Metric.JVM_THREADS_CONTENTION) + "_sum";
      blocked.forEach((labels, seconds) -> put(contention, labels, i, seconds));
    }
    if (s.jfr() || !streamed) {
      put(Metric.JVM_THREADS_STARTED, "", i, s.threadStarts());
    }
    put(Metric.JVM_THREADS_LIVE, "", i, s.details().contention().liveThreads());
    String gcPause = CatalogNames.prometheusName(Metric.JVM_GC_PAUSE);
    String youngGc = ",gc=\"G1 Young Generation\",action=\"end of minor GC\"";
    put(gcPause + "_sum", youngGc + ",cause=\"G1 Evacuation Pause\"", i, s.gcPauseSeconds());
    put(gcPause + "_count", youngGc + ",cause=\"CodeCache GC Threshold\"", i, s.codeCacheGcs());
    put(Metric.JVM_CLASSES_LOADS, "", i, known(s.classesLoaded()));
    put(Metric.JVM_CLASSES_UNLOADED, "", i, known(s.classesUnloaded()));
    for (SignalSample.CodeHeap heap : s.codeHeaps()) {
      String id = ",area=\"nonheap\",id=\"" + heap.id() + "\"";
      put(Metric.JVM_MEMORY_USED, id, i, heap.used());
      put(Metric.JVM_MEMORY_MAX, id, i, heap.max());
    }
  }

  /**
   * A peer's handshakes as the exporter counts them: a peer gets its own series from its second
   * handshake on (TlsHandshakeHandler; its first, and every one-off peer, go to {@code
   * peer="other"}, which the recordings do not hold and the storm rule never reads as one peer).
   * The rule sums over protocol and cipher, so one pair stands for them.
   */
  private void tls(int i, String peer, SignalSample.TlsPeer handshakes) {
    if (handshakes.handshakes() < 2) {
      return;
    }
    String labels = ",peer=\"" + peer + "\"";
    put(
        Metric.JVM_TLS_HANDSHAKES,
        labels + ",protocol=\"TLSv1.3\",cipher=\"TLS_AES_256_GCM_SHA384\"",
        i,
        handshakes.handshakes() - 1);
    put(Metric.JVM_TLS_HANDSHAKES_FULL, labels, i, Math.max(0, handshakes.full() - 1));
  }

  /** A value recordings made before it existed hold as null: unknown. */
  private static double known(Double value) {
    return value == null ? Double.NaN : value;
  }

  private void put(Metric metric, String labels, int i, double value) {
    put(CatalogNames.prometheusName(metric), labels, i, value);
  }

  private void put(String name, String labels, int i, double value) {
    if (Double.isNaN(value)) {
      return;
    }
    values(name + "{" + TARGET + labels + "}")[i] = value;
  }

  private double[] values(String series) {
    return this.series.computeIfAbsent(
        series,
        k -> {
          double[] empty = new double[scrapes];
          Arrays.fill(empty, Double.NaN);
          return empty;
        });
  }

  /** The scrape interval. */
  Duration scrape() {
    return scrape;
  }

  /** How long the scrapes span. */
  Duration length() {
    return scrape.multipliedBy(scrapes - 1L);
  }

  /** The promtool {@code input_series} entries, values in its notation ({@code _}: no sample). */
  List<String> inputSeries() {
    List<String> lines = new ArrayList<>();
    series.forEach(
        (name, values) -> {
          lines.add("      - series: '" + name.replace("'", "''") + "'");
          StringBuilder written = new StringBuilder();
          for (double value : values) {
            written.append(written.length() == 0 ? "" : " ");
            written.append(Double.isNaN(value) ? "_" : BigDecimal.valueOf(value).toPlainString());
          }
          lines.add("        values: '" + written + "'");
        });
    return lines;
  }
}
