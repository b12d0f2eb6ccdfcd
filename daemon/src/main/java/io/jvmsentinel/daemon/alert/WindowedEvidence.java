package io.jvmsentinel.daemon.alert;

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

  /** Thread starts by creator site over {@code samples}, busiest {@code topN} first. */
  public static ThreadStartReport creatorSites(List<SignalSample> samples, int topN) {
    Map<String, SiteTotal> sites = new LinkedHashMap<>();
    long attributed = 0;
    for (SignalSample sample : samples) {
      SiteStarts.Interval interval = sample.details().creatorSites();
      attributed += interval.attributed();
      for (SiteStarts site : interval.sites()) {
        sites.computeIfAbsent(site.site(), s -> new SiteTotal()).add(site);
      }
    }
    List<Map.Entry<String, SiteTotal>> busiest = new ArrayList<>(sites.entrySet());
    busiest.sort(
        Comparator.comparingLong((Map.Entry<String, SiteTotal> e) -> e.getValue().count)
            .reversed());
    List<ThreadStartReport.Site> report = new ArrayList<>();
    for (Map.Entry<String, SiteTotal> entry : busiest.subList(0, Math.min(topN, busiest.size()))) {
      SiteTotal total = entry.getValue();
      report.add(
          new ThreadStartReport.Site(
              entry.getKey(),
              total.count,
              0,
              attributed == 0 ? 0 : (double) total.count / attributed,
              total.latest.stack(),
              total.latest.truncated(),
              names(total.names),
              names(total.parents)));
    }
    long starts = Math.round(SignalHistory.increase(samples, SignalSample::threadStarts));
    long shortLived = Math.round(SignalHistory.increase(samples, SignalSample::shortLivedThreads));
    return new ThreadStartReport(Math.max(starts, attributed), attributed, shortLived, report);
  }

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
}
