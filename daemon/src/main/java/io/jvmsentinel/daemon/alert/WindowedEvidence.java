package io.jvmsentinel.daemon.alert;

import io.jvmsentinel.collectors.jfr.locks.LockContention;
import io.jvmsentinel.collectors.jfr.threads.SiteStarts;
import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport;
import io.jvmsentinel.collectors.support.IntervalCounts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Sums the per-tick tables of a window of samples (creator sites, deoptimised and recompiled
 * methods) into what happened in that window: an alert names the code of its own window, and the
 * API can show any recent window.
 */
public final class WindowedEvidence {
  private WindowedEvidence() {}

  /**
   * Thread starts by creator site over {@code samples}, busiest {@code topN} first, the
   * monitoring's own sites among them (marked).
   */
  public static ThreadStartReport creatorSites(List<SignalSample> samples, int topN) {
    return creatorSites(samples, topN, true);
  }

  /**
   * Thread starts by creator site over {@code samples}, busiest {@code topN} first; without the
   * monitoring's own sites unless {@code withOwn} (their starts are counted in {@code ownStarts}
   * either way).
   */
  public static ThreadStartReport creatorSites(
      List<SignalSample> samples, int topN, boolean withOwn) {
    Map<SiteKey, SiteTotal> sites = new LinkedHashMap<>();
    long attributed = 0;
    long own = 0;
    for (SignalSample sample : samples) {
      SiteStarts.Interval interval = sample.details().creatorSites();
      attributed += interval.attributed();
      own += interval.ownStarts();
      for (SiteStarts site : interval.sites()) {
        if (withOwn || !site.own()) {
          sites
              .computeIfAbsent(new SiteKey(site.site(), site.own()), s -> new SiteTotal())
              .add(site);
        }
      }
    }
    List<Map.Entry<SiteKey, SiteTotal>> busiest = new ArrayList<>(sites.entrySet());
    busiest.sort(
        Comparator.comparingLong((Map.Entry<SiteKey, SiteTotal> e) -> e.getValue().count)
            .reversed());
    List<ThreadStartReport.Site> report = new ArrayList<>();
    for (Map.Entry<SiteKey, SiteTotal> entry : busiest.subList(0, Math.min(topN, busiest.size()))) {
      SiteTotal total = entry.getValue();
      report.add(
          new ThreadStartReport.Site(
              entry.getKey().site(),
              entry.getKey().own(),
              total.count,
              0,
              attributed == 0 ? 0 : (double) total.count / attributed,
              total.latest.stack(),
              total.latest.truncated(),
              names(total.names),
              names(total.parents)));
    }
    long starts = Math.round(SignalWindow.increase(samples, SignalSample::threadStarts));
    long shortLived = Math.round(SignalWindow.increase(samples, SignalSample::shortLivedThreads));
    return new ThreadStartReport(Math.max(starts, attributed), attributed, own, shortLived, report);
  }

  /** A site, and whether its starts are the monitoring's own (an imitation of one is not). */
  private record SiteKey(String site, boolean own) {}

  /** One of the method tables summed over {@code samples}, busiest {@code n} first. */
  public static List<IntervalCounts.Count> methods(
      List<SignalSample> samples,
      Function<SignalSample.Details, List<IntervalCounts.Count>> table,
      int n) {
    Map<String, Long> counts = new LinkedHashMap<>();
    Map<String, Set<String>> details = new LinkedHashMap<>();
    for (SignalSample sample : samples) {
      for (IntervalCounts.Count count : table.apply(sample.details())) {
        counts.merge(count.key(), count.count(), Long::sum);
        Set<String> seen = details.computeIfAbsent(count.key(), k -> new LinkedHashSet<>());
        for (String detail : count.details()) {
          if (seen.size() < IntervalCounts.MAX_DETAILS) {
            seen.add(detail);
          }
        }
      }
    }
    return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(n)
        .map(
            e ->
                new IntervalCounts.Count(
                    e.getKey(), e.getValue(), List.copyOf(details.get(e.getKey()))))
        .toList();
  }

  /** Evidence-friendly form of a method table: method, count, details. */
  public static List<Map<String, Object>> describe(
      List<IntervalCounts.Count> methods, String detailName) {
    List<Map<String, Object>> described = new ArrayList<>();
    for (IntervalCounts.Count method : methods) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("method", method.key());
      entry.put("count", method.count());
      entry.put(detailName, method.details());
      described.add(entry);
    }
    return described;
  }

  /**
   * Contended waits by lock over {@code samples} (each tick's table once: pass a window's samples
   * without the sample before it), longest blocked first, with blocked sites and owners summed.
   */
  public static List<LockContention.Lock> locks(List<SignalSample> samples, int n) {
    Map<String, LockTotal> locks = new LinkedHashMap<>();
    for (SignalSample sample : samples) {
      for (LockContention.Lock lock : sample.details().contention().locks().locks()) {
        locks.computeIfAbsent(lock.kind() + " " + lock.className(), k -> new LockTotal()).add(lock);
      }
    }
    return locks.values().stream()
        .map(LockTotal::lock)
        .sorted(Comparator.comparingLong(LockContention.Lock::blockedNanos).reversed())
        .limit(n)
        .toList();
  }

  private static List<ThreadStartReport.NameCount> names(Map<String, Long> names) {
    return names.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(5)
        .map(e -> new ThreadStartReport.NameCount(e.getKey(), e.getValue()))
        .toList();
  }

  /** One site's starts over the window; its stack is the latest tick's sample. */
  private static final class SiteTotal {
    long count;
    SiteStarts latest;
    final Map<String, Long> names = new LinkedHashMap<>();
    final Map<String, Long> parents = new LinkedHashMap<>();

    void add(SiteStarts site) {
      count += site.count();
      latest = site;
      site.threadNames().forEach(n -> names.merge(n.name(), n.count(), Long::sum));
      site.parentThreads().forEach(n -> parents.merge(n.name(), n.count(), Long::sum));
    }
  }

  /** One lock's waits over the window; a site's stack is the latest tick's sample. */
  private static final class LockTotal {
    LockContention.Lock first;
    long nanos;
    long events;
    int threads;
    final Map<String, LockContention.Site> sites = new LinkedHashMap<>();
    final Map<String, LockContention.Site> owners = new LinkedHashMap<>();

    void add(LockContention.Lock lock) {
      first = first == null ? lock : first;
      nanos += lock.blockedNanos();
      events += lock.events();
      threads = Math.max(threads, lock.threads());
      lock.blockedSites().forEach(site -> sites.merge(site.site(), site, LockTotal::sum));
      lock.owners().forEach(owner -> owners.merge(owner.site(), owner, LockTotal::sum));
    }

    static LockContention.Site sum(LockContention.Site a, LockContention.Site b) {
      return new LockContention.Site(a.site(), a.nanos() + b.nanos(), b.stack());
    }

    LockContention.Lock lock() {
      return new LockContention.Lock(
          first.kind(), first.className(), nanos, events, threads, top(sites), top(owners));
    }

    private static List<LockContention.Site> top(Map<String, LockContention.Site> sites) {
      return sites.values().stream()
          .sorted(Comparator.comparingLong(LockContention.Site::nanos).reversed())
          .limit(5)
          .toList();
    }
  }
}
