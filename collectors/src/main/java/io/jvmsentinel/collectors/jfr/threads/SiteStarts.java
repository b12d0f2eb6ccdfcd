package io.jvmsentinel.collectors.jfr.threads;

import java.util.List;

/**
 * Thread starts attributed to one creator site within one detection interval: the unit detection
 * keeps per tick, so an alert names the creators of its own window.
 *
 * @param site {@code Class.method} of the code that started the threads
 * @param own whether these are the monitoring's own starts (the JDK serving the daemon's JMX
 *     connection or JFR stream); the same site name may also appear as the application's
 * @param count starts attributed to the site in the interval
 * @param threadNames the most common names of the started threads, digits as {@code #}
 * @param parentThreads the most common names of the starting threads, digits as {@code #}
 * @param stack the site's sample stack, {@code Class.method:line}, top first
 * @param truncated whether that stack was cut
 */
public record SiteStarts(
    String site,
    boolean own,
    long count,
    List<ThreadStartReport.NameCount> threadNames,
    List<ThreadStartReport.NameCount> parentThreads,
    List<String> stack,
    boolean truncated) {
  public SiteStarts {
    threadNames = List.copyOf(threadNames);
    parentThreads = List.copyOf(parentThreads);
    stack = List.copyOf(stack);
  }

  /**
   * The starts of one interval.
   *
   * @param attributed starts attributed to a site in the interval (the sites' shares are of this)
   * @param ownStarts the monitoring's own of those, all of them (the sites may be cut)
   * @param sites the busiest sites, busiest first
   */
  public record Interval(long attributed, long ownStarts, List<SiteStarts> sites) {
    public static final Interval EMPTY = new Interval(0, 0, List.of());

    public Interval {
      sites = List.copyOf(sites);
    }
  }
}
