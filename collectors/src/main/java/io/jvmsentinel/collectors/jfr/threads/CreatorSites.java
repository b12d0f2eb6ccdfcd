package io.jvmsentinel.collectors.jfr.threads;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import io.jvmsentinel.collectors.support.CardinalityCap;
import io.jvmsentinel.collectors.support.TopK;
import io.jvmsentinel.collectors.text.ThreadNames;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Thread starts counted by creator site, with one sample stack and the common thread and parent
 * names per site, and the choice of which sites get their own meter series. The monitoring's own
 * starts ({@link OwnFootprint}) are kept apart from the application's at the same site name, so a
 * class named like the JDK's cannot hide among them, and counted ({@code ownStarts}).
 *
 * <p>Implementation notes. Every structure is bounded whatever the target does: sites in a
 * Space-Saving {@link TopK} (evicted sites lose their details too), names per site in small TopKs,
 * stacks cut at {@link StartedThread#MAX_FRAMES} frames of at most {@link StackFrame#MAX_TEXT}
 * characters, and at most {@code maxSeries} sites ever get a series. A site gets a series when
 * fewer than {@code topSeries} other tracked sites have at least its count (incumbents win ties, so
 * a flood of one-off sites stays in "other"). The count of the {@code topSeries}-th site never
 * decreases (Space-Saving only raises counts, and an evicted minimum is replaced by a larger
 * count), so a cached value of it rules out most candidates without sorting. Candidates are judged
 * by their guaranteed count (without the count inherited on eviction).
 *
 * <p>Thread-safe: one stream thread adds, snapshots come from any thread; all under this lock.
 */
final class CreatorSites {
  static final String OTHER = CardinalityCap.OTHER;

  private static final int NAMES_TRACKED = 16;
  private static final int NAMES_REPORTED = 5;
  private static final int INTERVAL_SITES = 64;
  private static final int INTERVAL_NAMES = 8;

  private final TopK<Creator, Sample> sites;
  private final Map<Creator, Sample> samples = new HashMap<>();
  private final int siteCapacity;
  private final int topSeries;
  private final CardinalityCap series;
  private long promotionFloor;
  private long ownStarts;
  // The starts since the last detection tick (drainInterval), and the monitoring's own of them.
  private TopK<Creator, IntervalSample> interval = new TopK<>(INTERVAL_SITES);
  private long intervalOwnStarts;

  /** A creator site, and whether its starts are the monitoring's own. */
  private record Creator(String site, boolean own) {}

  /** The sample of one site: the first start seen, plus its name statistics. */
  private static final class Sample {
    final List<String> stack;
    final boolean truncated;
    final TopK<String, Void> names = new TopK<>(NAMES_TRACKED);
    final TopK<String, Void> parents = new TopK<>(NAMES_TRACKED);

    /** The count the site inherited when it took an evicted site's place (its error bound). */
    long inherited;

    Sample(StartedThread start) {
      List<String> frames = new ArrayList<>();
      if (start.frames() != null) {
        start.frames().forEach(frame -> frames.add(frame.text()));
      }
      this.stack = List.copyOf(frames);
      this.truncated = start.truncated();
    }
  }

  /** A site's names within one interval; its stack is the site's sample. */
  private static final class IntervalSample {
    final Sample sample;
    final TopK<String, Void> names = new TopK<>(INTERVAL_NAMES);
    final TopK<String, Void> parents = new TopK<>(INTERVAL_NAMES);

    IntervalSample(Sample sample) {
      this.sample = sample;
    }
  }

  /**
   * @param siteCapacity creator sites tracked at once
   * @param topSeries a site gets its own series once among this many busiest
   * @param maxSeries most sites that ever get their own series
   */
  CreatorSites(int siteCapacity, int topSeries, int maxSeries) {
    this.sites = new TopK<>(siteCapacity);
    this.siteCapacity = siteCapacity;
    this.topSeries = topSeries;
    this.series = new CardinalityCap(maxSeries);
  }

  /** Counts the busy sites that found no series left, under the site tag's meter. */
  void bindTo(MeterRegistry registry, Tags tags) {
    series.bindTo(registry, tags, Metric.JVM_THREADS_STARTED_BY_SITE, "site");
  }

  /**
   * Counts one start at {@code site}, the monitoring's own or not; returns the series to count it
   * in: the site or "other".
   */
  synchronized String add(String site, boolean own, StartedThread start) {
    Creator creator = new Creator(site, own);
    Sample sample = samples.get(creator);
    boolean isNew = sample == null;
    if (isNew) {
      sample = new Sample(start);
      samples.put(creator, sample);
    }
    sites.add(creator, sample);
    if (isNew) {
      sample.inherited = sites.count(creator) - 1;
    }
    if (own) {
      ownStarts++;
      intervalOwnStarts++;
    }
    if (samples.size() > siteCapacity) {
      // The TopK evicted its smallest site to make room: drop that site's sample too.
      samples.keySet().removeIf(key -> sites.count(key) == 0);
    }
    String name = pattern(start.threadName());
    String parent = pattern(start.parentName());
    sample.names.add(name, null);
    sample.parents.add(parent, null);
    Sample siteSample = sample;
    IntervalSample recent = interval.addAndGetSample(creator, () -> new IntervalSample(siteSample));
    recent.names.add(name, null);
    recent.parents.add(parent, null);
    return seriesFor(creator, sample);
  }

  private String seriesFor(Creator creator, Sample sample) {
    String site = creator.site();
    if (series.admitted(site)) {
      return site;
    }
    // Judge a candidate by its guaranteed count: a site that just took an evicted site's place
    // inherits that count, and must not win a series on it (a churn of one-off sites would).
    long count = sites.count(creator) - sample.inherited;
    if (count < promotionFloor) {
      return OTHER;
    }
    if (series.full()) {
      return series.value(site); // other, counted: a busy site found no room
    }
    List<TopK.Entry<Creator, Sample>> top = sites.top(topSeries + 1);
    promotionFloor = top.size() >= topSeries ? top.get(topSeries - 1).count() : 0;
    int atLeastAsBusy = 0;
    for (TopK.Entry<Creator, Sample> entry : top) {
      if (!entry.key().equals(creator) && entry.count() >= count) {
        atLeastAsBusy++;
      }
    }
    if (atLeastAsBusy >= topSeries) {
      return OTHER;
    }
    return series.value(site);
  }

  /** The {@code n} busiest sites since the last call, and the starts attributed; resets. */
  synchronized SiteStarts.Interval drainInterval(int n) {
    List<SiteStarts> top = new ArrayList<>();
    for (TopK.Entry<Creator, IntervalSample> entry : interval.top(n)) {
      IntervalSample recent = entry.sample();
      top.add(
          new SiteStarts(
              entry.key().site(),
              entry.key().own(),
              entry.count(),
              names(recent.names),
              names(recent.parents),
              recent.sample.stack,
              recent.sample.truncated));
    }
    SiteStarts.Interval drained = new SiteStarts.Interval(interval.total(), intervalOwnStarts, top);
    interval = new TopK<>(INTERVAL_SITES);
    intervalOwnStarts = 0;
    return drained;
  }

  synchronized long total() {
    return sites.total();
  }

  /** Starts at the monitoring's own sites, exact (evictions from the top-K lose none). */
  synchronized long ownStarts() {
    return ownStarts;
  }

  synchronized List<SiteCount> top(int n) {
    List<SiteCount> top = new ArrayList<>();
    for (TopK.Entry<Creator, Sample> entry : sites.top(n)) {
      top.add(new SiteCount(entry.key().site(), entry.count()));
    }
    return List.copyOf(top);
  }

  synchronized ThreadStartReport report(int topN, long unattributed, long shortLived) {
    long total = sites.total();
    List<ThreadStartReport.Site> report = new ArrayList<>();
    for (TopK.Entry<Creator, Sample> entry : sites.top(topN)) {
      Sample sample = entry.sample();
      report.add(
          new ThreadStartReport.Site(
              entry.key().site(),
              entry.key().own(),
              entry.count(),
              entry.error(),
              total == 0 ? 0 : (double) entry.count() / total,
              sample.stack,
              sample.truncated,
              names(sample.names),
              names(sample.parents)));
    }
    return new ThreadStartReport(total + unattributed, total, ownStarts, shortLived, report);
  }

  /** Collapsed stacks of every tracked site, weighted by count (see {@link ThreadStartReport}). */
  synchronized String collapsed() {
    return report(siteCapacity, 0, 0).collapsed();
  }

  /** Sites tracked now (bounded by the capacity), for tests of the memory bound. */
  synchronized int trackedSites() {
    return samples.size();
  }

  synchronized Set<String> seriesSites() {
    return series.admittedValues(String.class);
  }

  private static List<ThreadStartReport.NameCount> names(TopK<String, Void> names) {
    List<ThreadStartReport.NameCount> top = new ArrayList<>();
    for (TopK.Entry<String, Void> entry : names.top(NAMES_REPORTED)) {
      top.add(new ThreadStartReport.NameCount(entry.key(), entry.count()));
    }
    return top;
  }

  static String pattern(String name) {
    return ThreadNames.pattern(name);
  }
}
