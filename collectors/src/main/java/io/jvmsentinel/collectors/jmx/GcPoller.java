package io.jvmsentinel.collectors.jmx;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.support.CardinalityCap;
import io.jvmsentinel.collectors.support.KeyedReadings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.NotificationFilterSupport;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * Garbage collection, as Micrometer's JvmGcMetrics does it but over the remote connection: each
 * collector's GC notification becomes a pause (or concurrent phase) timer sample tagged with {@code
 * gc}, {@code action} and {@code cause}; collection counts and times are polled.
 *
 * <p>Notifications are pushed by the target (latency measured at about 7 ms, p90 26 ms), so pause
 * timers need no polling. Gaps are detected with {@code GcInfo.getId()}, which counts per
 * collector; the notification sequence number does not. Collections that ended while the connection
 * was down are never notified, and a connector may drop some on a live one; their time is recovered
 * from the polled totals at the next poll ({@link UnnotifiedCollections}) and counted in {@link
 * #pauseSeconds()}, so a GC freeze that timed out the daemon's polls is not lost to detection.
 *
 * <p>The three tags come from the target: collector names from its MBeans (code can register more),
 * action and cause strings from its notifications. Each is capped ({@link CardinalityCap}: {@value
 * #MAX_COLLECTORS} collectors, {@value #MAX_ACTIONS} actions, {@value #MAX_CAUSES} causes, more
 * than HotSpot has); a collector beyond the cap is neither subscribed nor polled.
 */
public final class GcPoller implements JmxPoller {
  private static final String COUNT = "CollectionCount";
  private static final String TIME = "CollectionTime";

  static final int MAX_COLLECTORS = 8;
  static final int MAX_ACTIONS = 8;
  static final int MAX_CAUSES = 40;

  private final Tags tags;
  private final Supplier<JvmIdentity> identity;
  private final LongSupplier nanoClock;
  private final CardinalityCap collectorNames = new CardinalityCap(MAX_COLLECTORS);
  private final CardinalityCap actions = new CardinalityCap(MAX_ACTIONS);
  private final CardinalityCap causes = new CardinalityCap(MAX_CAUSES);
  private final Map<String, Long> lastGcId = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.LongAdder pauseMillis =
      new java.util.concurrent.atomic.LongAdder();
  private final java.util.concurrent.atomic.LongAdder unnotifiedPauseMillis =
      new java.util.concurrent.atomic.LongAdder();
  private final java.util.concurrent.atomic.LongAdder codeCacheCollections =
      new java.util.concurrent.atomic.LongAdder();
  // Per collector, across connections to the same JVM.
  private final Map<String, UnnotifiedCollections> unnotified = new ConcurrentHashMap<>();
  private JvmIdentity connectedTo;
  private long lastPollNanos;
  // The pause timers recorded into, by their tags (bounded by the caps): detection reads them here,
  // as a registry search walks every meter of every target (quadratic in a fleet).
  private final Map<Tags, Timer> pauseTimers = new ConcurrentHashMap<>();
  private final NotificationListener listener = (notification, handback) -> record(notification);
  private MeterRegistry registry;
  private KeyedReadings<String, Attributes> readings;
  private Counter missedNotifications;
  private GcMemoryFlow memoryFlow;
  private volatile Map<String, ObjectName> collectors = Map.of();

  /** A poller that cannot tell reconnects to the same JVM: it recovers no unnotified time. */
  public GcPoller(Tags tags) {
    this(tags, () -> null, System::nanoTime);
  }

  /**
   * @param identity the connected JVM (read before this poller connects): unnotified collections
   *     are recovered only across a reconnect to the same process
   */
  public GcPoller(Tags tags, Supplier<JvmIdentity> identity) {
    this(tags, identity, System::nanoTime);
  }

  GcPoller(Tags tags, Supplier<JvmIdentity> identity, LongSupplier nanoClock) {
    this.tags = tags;
    this.identity = identity;
    this.nanoClock = nanoClock;
  }

  @Override
  public String name() {
    return "gc";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    collectorNames.bindTo(registry, tags, Metric.JVM_GC_PAUSE, "gc");
    actions.bindTo(registry, tags, Metric.JVM_GC_PAUSE, "action");
    causes.bindTo(registry, tags, Metric.JVM_GC_PAUSE, "cause");
    readings =
        new KeyedReadings<>(
            (gc, reading) -> {
              Tags gcTags = tags.and("gc", gc);
              Metric.JVM_GC_COLLECTIONS.functionCounter(
                  registry, gcTags, reading, r -> r.counter(a -> a.number(COUNT)));
              // CollectionTime is in milliseconds; the counter's base unit is seconds.
              Metric.JVM_GC_COLLECTION_TIME.functionCounter(
                  registry, gcTags, reading, r -> r.counter(a -> a.number(TIME) / 1000.0));
            });
    missedNotifications = Metric.SENTINEL_GC_NOTIFICATIONS_MISSED.counter(registry, tags);
    memoryFlow = new GcMemoryFlow(registry, tags);
  }

  @Override
  public void connected(MBeanServerConnection mbeans) throws IOException, JMException {
    lastGcId.clear();
    memoryFlow.reset();
    JvmIdentity now = identity.get();
    if (sameProcess(connectedTo, now)) {
      unnotified.values().forEach(UnnotifiedCollections::mayHaveMissed);
    } else {
      unnotified.clear();
    }
    connectedTo = now;
    Map<String, ObjectName> found = new ConcurrentHashMap<>();
    for (ObjectName name : mbeans.queryNames(ObjectNames.GARBAGE_COLLECTORS, null)) {
      String gc = name.getKeyProperty("name");
      if (gc == null || !collectorNames.admit(gc)) {
        continue;
      }
      found.put(gc, name);
      // The filter is evaluated on the target, so it must be a JDK class the target can load.
      NotificationFilterSupport filter = new NotificationFilterSupport();
      filter.enableType(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION);
      mbeans.addNotificationListener(name, listener, filter, null);
    }
    collectors = Map.copyOf(found);
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    long missedMillis = 0;
    for (Map.Entry<String, ObjectName> collector : collectors.entrySet()) {
      Attributes totals = Attributes.read(mbeans, collector.getValue(), COUNT, TIME);
      readings.get(collector.getKey()).update(totals);
      double count = totals.number(COUNT);
      double millis = totals.number(TIME);
      if (!Double.isNaN(count) && !Double.isNaN(millis) && totalsArePauses(collector.getKey())) {
        UnnotifiedCollections.Missed missed =
            unnotified
                .computeIfAbsent(collector.getKey(), gc -> new UnnotifiedCollections())
                .polled((long) count, (long) millis);
        missedNotifications.increment(missed.count());
        missedMillis += missed.millis();
      }
    }
    long now = nanoClock.getAsLong();
    // Pauses cannot outlast the wall-clock time between the polls, whatever a target reports.
    long elapsedMillis = lastPollNanos == 0 ? 0 : (now - lastPollNanos) / 1_000_000;
    lastPollNanos = now;
    long recovered = Math.min(missedMillis, elapsedMillis);
    pauseMillis.add(recovered);
    unnotifiedPauseMillis.add(recovered);
  }

  /**
   * Whether a collector's CollectionTime is pause time. Not for the concurrent cycle beans (ZGC,
   * Shenandoah), nor for CMS, whose bean counts its background cycles (concurrent) with its
   * stop-the-world collections.
   */
  static boolean totalsArePauses(String gc) {
    return !isConcurrentPhase("", gc) && !"ConcurrentMarkSweep".equals(gc);
  }

  private static boolean sameProcess(JvmIdentity before, JvmIdentity now) {
    return before != null
        && now != null
        && now.startTimeMillis() != 0
        && now.pid() == before.pid()
        && now.startTimeMillis() == before.startTimeMillis();
  }

  /**
   * Seconds spent in GC pauses (not concurrent phases) seen since the daemon started: notified, and
   * recovered for collections that ended while the connection was down.
   */
  public double pauseSeconds() {
    return pauseMillis.sum() / 1000.0;
  }

  /**
   * Of {@link #pauseSeconds()}, the time of collections that were never notified (they ended while
   * the connection was down), recovered from the collectors' CollectionTime at the next poll.
   */
  public double unnotifiedPauseSeconds() {
    return unnotifiedPauseMillis.sum() / 1000.0;
  }

  /**
   * Collections the code cache triggered ("CodeCache GC Threshold"): how JDK 20+ flushes compiled
   * code, now that the sweeper is gone.
   */
  public long codeCacheCollections() {
    return codeCacheCollections.sum();
  }

  /**
   * The pause timers (not concurrent phases) this poller recorded into, one per gc/action/cause.
   */
  public Collection<Timer> pauseTimers() {
    return List.copyOf(pauseTimers.values());
  }

  /** The collector names of the current connection. */
  public List<String> collectorNames() {
    return List.copyOf(collectors.keySet());
  }

  void record(Notification notification) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    String gc = info.getGcName();
    String gcTag = collectorNames.value(gc);
    long id = info.getGcInfo().getId();
    if (!CardinalityCap.OTHER.equals(gcTag)) {
      countGap(gc, id);
    }
    Tags gcTags =
        tags.and(
            "gc",
            gcTag,
            "action",
            actions.value(info.getGcAction()),
            "cause",
            causes.value(info.getGcCause()));
    Metric metric =
        isConcurrentPhase(info.getGcCause(), gc)
            ? Metric.JVM_GC_CONCURRENT_PHASE_TIME
            : Metric.JVM_GC_PAUSE;
    long millis = info.getGcInfo().getDuration();
    Timer timer = metric.timer(registry, gcTags);
    timer.record(millis, TimeUnit.MILLISECONDS);
    if (metric == Metric.JVM_GC_PAUSE) {
      pauseTimers.putIfAbsent(gcTags, timer);
      UnnotifiedCollections ledger = unnotified.get(gc);
      // A late notification of a collection whose time was recovered already.
      if (ledger == null || ledger.notified(id, millis)) {
        pauseMillis.add(millis);
      }
    }
    boolean major =
        metric == Metric.JVM_GC_CONCURRENT_PHASE_TIME
            || info.getGcAction().contains("major")
            || gc.contains("Old")
            || gc.contains("MarkSweep");
    memoryFlow.collected(
        info.getGcInfo().getMemoryUsageBeforeGc(), info.getGcInfo().getMemoryUsageAfterGc(), major);
    if (info.getGcCause() != null && info.getGcCause().startsWith("CodeCache")) {
      codeCacheCollections.increment();
    }
  }

  private void countGap(String gc, long id) {
    Long previous = lastGcId.put(gc, id);
    if (previous != null && id > previous + 1) {
      UnnotifiedCollections ledger = unnotified.get(gc);
      if (ledger != null) {
        // Counted, with their time, at the next poll.
        ledger.mayHaveMissed();
      } else {
        missedNotifications.increment(id - previous - 1);
      }
    }
  }

  /** Same rule as Micrometer's JvmGcMetrics: these report concurrent cycles, not pauses. */
  static boolean isConcurrentPhase(String cause, String name) {
    return "No GC".equals(cause)
        || "Shenandoah Cycles".equals(name)
        || "ZGC Cycles".equals(name)
        || (name.startsWith("GenZGC") && name.endsWith("Cycles"))
        || (name.startsWith("ZGC") && name.endsWith("Cycles"));
  }

  @Override
  public void disconnected() {
    collectors = Map.of();
    readings.clearAll();
  }
}
