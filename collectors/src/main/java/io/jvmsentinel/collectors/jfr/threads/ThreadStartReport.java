package io.jvmsentinel.collectors.jfr.threads;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who starts the target's threads, for {@code GET /api/v1/targets/{t}/thread-starts}: an immutable
 * snapshot, busiest creator sites first.
 *
 * @param totalStarts thread starts seen since the daemon started (exact)
 * @param sampledStarts the starts attributed to a site: all of them while every start carries its
 *     stack; at high start rates stacks are recorded only in sampling windows (and late events are
 *     shed), so the sites are a sample and their counts and shares are of the sampled starts
 * @param ownStarts the sampled starts that are the monitoring's own: the JDK serving the daemon's
 *     JMX connection and JFR stream (RMI connection threads, JMX connection timeouts, JFR stream
 *     timers), told by their stack frames; never an application's cause
 * @param shortLivedThreads threads seen to end within 1 s of their start
 * @param sites the busiest creator sites, highest count first
 */
public record ThreadStartReport(
    long totalStarts,
    long sampledStarts,
    long ownStarts,
    long shortLivedThreads,
    List<Site> sites) {
  public ThreadStartReport {
    sites = List.copyOf(sites);
  }

  /** The sampled starts of the application's own code: all but the monitoring's. */
  public long applicationStarts() {
    return sampledStarts - ownStarts;
  }

  /**
   * One creator site.
   *
   * @param site {@code Class.method} of the code that started the threads, or {@code unknown}
   * @param own whether the site's starts are the monitoring's own (see {@code ownStarts})
   * @param count sampled starts counted for the site (an estimate once more sites were seen than
   *     tracked)
   * @param maxOvercount how much {@code count} may exceed the true count (0 while exact)
   * @param share {@code count} over the sampled starts, 0..1
   * @param sampleStack the stack of one start, {@code Class.method:line}, top first
   * @param sampleTruncated whether that stack was cut (deeper than the recorded depth)
   * @param threadNames the most common names of the started threads, digits as {@code #}
   * @param parentThreads the most common names of the starting threads, digits as {@code #}
   */
  public record Site(
      String site,
      boolean own,
      long count,
      long maxOvercount,
      double share,
      List<String> sampleStack,
      boolean sampleTruncated,
      List<NameCount> threadNames,
      List<NameCount> parentThreads) {
    public Site {
      sampleStack = List.copyOf(sampleStack);
      threadNames = List.copyOf(threadNames);
      parentThreads = List.copyOf(parentThreads);
    }
  }

  /**
   * Collapsed stacks ({@code root;...;top count} per line) of each site's sample, weighted by the
   * site's count: the input of flamegraph.pl and speedscope. A site without a stack is a single
   * frame named after the site. Busiest first; equal stacks merged.
   */
  public String collapsed() {
    Map<String, Long> lines = new LinkedHashMap<>();
    for (Site site : sites) {
      String line;
      if (site.sampleStack().isEmpty()) {
        line = site.site();
      } else {
        List<String> rootFirst = new ArrayList<>(site.sampleStack());
        Collections.reverse(rootFirst);
        line = String.join(";", rootFirst);
      }
      lines.merge(line, site.count(), Long::sum);
    }
    List<Map.Entry<String, Long>> sorted = new ArrayList<>(lines.entrySet());
    sorted.sort(
        Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()));
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, Long> line : sorted) {
      out.append(line.getKey()).append(' ').append(line.getValue()).append('\n');
    }
    return out.toString();
  }

  /** A thread name pattern and how many starts had it. */
  public record NameCount(String name, long count) {}
}
