package io.jvmsentinel.collectors.jfr.threads;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.LoadCountingHandler;
import io.jvmsentinel.collectors.support.EventFields;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/**
 * Names the code that starts the target's threads: counts {@code jdk.ThreadStart} by creator site
 * (see {@link CreatorSite}), exports the busiest sites as {@code jvm.threads.started.by.site}, and
 * keeps a snapshot with sample stacks and thread names for the API and for detection.
 *
 * <p>This is how a thread-per-request storm such as JDK-8246039 ({@code
 * sun.security.ssl.TransportContext.finishHandshake} starting a {@code
 * HandshakeCompletedNotify-Thread} per TLS handshake) gets its culprit named. Stack traces on
 * thread starts cost the target (throughput 0.75 to 0.80 of baseline in a thread storm, against
 * 0.88 without), which is the price of naming the creator. So at high start rates the stream
 * records stacks only in short sampling windows ({@link #stacksSampled}): every start is still
 * counted, exactly, but only starts with a stack are attributed, and site shares are shares of
 * those sampled starts. The thread starts the monitoring itself causes (the JDK serving its JMX
 * connection and JFR stream) are told by their stacks ({@link OwnFootprint}) and marked as its own.
 */
public final class ThreadStartHandler implements LoadCountingHandler {
  public static final String EVENT = "jdk.ThreadStart";

  /** Creator sites tracked at once (a bounded top-K; rarer sites are estimates). */
  public static final int SITE_CAPACITY = 256;

  /** A site gets its own series once it is among this many busiest sites. */
  public static final int TOP_SERIES = 10;

  /** At most this many sites ever get their own series; series are never removed. */
  public static final int MAX_SERIES = 50;

  private final Tags tags;
  private final ThreadLifetimes lifetimes;
  private final CreatorSites sites;
  private final Map<String, Counter> seriesBySite = new ConcurrentHashMap<>();
  // Starts counted but not attributed: shed by the stream, or without a stack between windows.
  private final AtomicLong unattributed = new AtomicLong();
  private volatile boolean stacksSampled;
  private volatile MeterRegistry registry;

  public ThreadStartHandler(Tags tags, ThreadLifetimes lifetimes) {
    this(tags, lifetimes, new CreatorSites(SITE_CAPACITY, TOP_SERIES, MAX_SERIES));
  }

  ThreadStartHandler(Tags tags, ThreadLifetimes lifetimes, CreatorSites sites) {
    this.tags = tags;
    this.lifetimes = lifetimes;
    this.sites = sites;
  }

  @Override
  public String eventName() {
    return EVENT;
  }

  @Override
  public EventSettings settings() {
    return EventSettings.instant(true);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    sites.bindTo(registry, tags);
    // "other" exists from the start, so the series of a quiet target is 0 rather than absent.
    series(CreatorSites.OTHER);
  }

  @Override
  public void accept(RecordedEvent event) {
    if (stacksSampled && event.getStackTrace() == null) {
      // Between sampling windows: count it and pair it with its end, but name no site (the
      // JVM's own stackless starts are then counted here too, which is rare and harmless).
      RecordedThread thread = EventFields.thread(event, "thread");
      lifetimes.started(thread == null ? -1 : thread.getJavaThreadId(), event.getStartTime());
      unattributed.incrementAndGet();
      return;
    }
    record(StartedThread.of(event));
  }

  @Override
  public boolean sheddable() {
    return true;
  }

  /** Too late to attribute: counted only, so the start rate stays exact while the stream sheds. */
  @Override
  public void shed(RecordedEvent event) {
    unattributed.incrementAndGet();
  }

  @Override
  public void stacksSampled(boolean sampled) {
    stacksSampled = sampled;
  }

  @Override
  public long totalEvents() {
    return totalStarts();
  }

  /** Counts one start; package-private so tests can feed synthetic starts. */
  void record(StartedThread start) {
    lifetimes.started(start.javaThreadId(), start.startTime());
    String site = CreatorSite.of(start.frames(), start.truncated());
    boolean own = OwnFootprint.includes(start.frames());
    Counter counter = series(sites.add(site, own, start));
    if (counter != null) {
      counter.increment();
    }
  }

  private Counter series(String site) {
    MeterRegistry bound = registry;
    if (bound == null) {
      return null;
    }
    return seriesBySite.computeIfAbsent(
        site, s -> Metric.JVM_THREADS_STARTED_BY_SITE.counter(bound, tags.and("site", s)));
  }

  /** The site counts survive: only the pairing of starts with ends is per stream. */
  @Override
  public void streamStopped() {
    lifetimes.clear();
  }

  /** The {@code topN} busiest creator sites with samples and names; thread-safe. */
  public ThreadStartReport snapshot(int topN) {
    return sites.report(topN, unattributed.get(), lifetimes.shortLivedCount());
  }

  /**
   * Collapsed stacks of the tracked sites' samples, one line {@code root;...;top count} each,
   * weighted by the site counts, for flamegraph.pl and speedscope; thread-safe.
   */
  public String collapsedStacks() {
    return sites.collapsed();
  }

  /**
   * Thread starts seen since the daemon started, attributed or not; thread-safe, for rate
   * detection.
   */
  public long totalStarts() {
    return sites.total() + unattributed.get();
  }

  /**
   * The starts that are the monitoring's own (the JDK serving the daemon's connection and stream),
   * since the daemon started; only starts with a stack can be told. Thread-safe.
   */
  public long ownStarts() {
    return sites.ownStarts();
  }

  /**
   * The {@code n} busiest creator sites since the last call, for the detection tick (which keeps
   * them per tick, so alerts and windowed reports name the creators of their own window).
   */
  public SiteStarts.Interval drainInterval(int n) {
    return sites.drainInterval(n);
  }

  /** The {@code n} busiest creator sites, highest count first; thread-safe. */
  public List<SiteCount> topSites(int n) {
    return sites.top(n);
  }
}
