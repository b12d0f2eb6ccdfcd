package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.support.LatestReading;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.openmbean.CompositeData;

/**
 * Live, daemon and peak thread counts and the cumulative started count, in one read; and the number
 * of threads per state ({@code jvm.threads.states}, as Micrometer's JvmThreadMetrics), from one
 * {@code getThreadInfo} of all thread ids without stack traces. The same read gives how often and
 * (where the target already has thread contention monitoring on; the daemon never turns it on) how
 * long the live threads have blocked on monitors: the contention signal of targets without JFR.
 */
public final class ThreadPoller implements JmxPoller {
  private static final String LIVE = "ThreadCount";
  private static final String DAEMON = "DaemonThreadCount";
  private static final String PEAK = "PeakThreadCount";
  private static final String STARTED = "TotalStartedThreadCount";
  private static final String ALL_IDS = "AllThreadIds";
  private static final String[] GET_THREAD_INFO_SIGNATURE = {long[].class.getName()};

  private final Tags tags;
  private final LatestReading<Attributes> reading = new LatestReading<>();
  private final LatestReading<ThreadStates> states = new LatestReading<>();
  private final NewThreadNames newThreads = new NewThreadNames();

  /**
   * One {@code getThreadInfo} read.
   *
   * @param counts threads per state
   * @param blockedCount monitor blocks of the live threads, summed
   * @param blockedMillis time blocked on monitors of the live threads, summed; -1 when the target
   *     has thread contention monitoring off
   */
  public record ThreadStates(
      Map<Thread.State, Integer> counts, long blockedCount, long blockedMillis) {
    public ThreadStates {
      counts = Map.copyOf(counts);
    }

    public int count(Thread.State state) {
      return counts.getOrDefault(state, 0);
    }
  }

  public ThreadPoller(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String name() {
    return "threads";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Metric.JVM_THREADS_LIVE.gauge(registry, tags, reading, r -> r.gauge(a -> a.number(LIVE)));
    Metric.JVM_THREADS_DAEMON.gauge(registry, tags, reading, r -> r.gauge(a -> a.number(DAEMON)));
    Metric.JVM_THREADS_PEAK.gauge(registry, tags, reading, r -> r.gauge(a -> a.number(PEAK)));
    Metric.JVM_THREADS_STARTED.functionCounter(
        registry, tags, reading, r -> r.counter(a -> a.number(STARTED)));
    for (Thread.State state : Thread.State.values()) {
      Metric.JVM_THREADS_STATES.gauge(
          registry,
          tags.and("state", stateTag(state)),
          states,
          r -> r.gauge(read -> read.count(state)));
    }
    Metric.JVM_THREADS_BLOCKED_COUNT.gauge(
        registry, tags, states, r -> r.gauge(ThreadStates::blockedCount));
    Metric.JVM_THREADS_BLOCKED_TIME.gauge(
        registry,
        tags,
        states,
        r -> r.gauge(read -> read.blockedMillis() < 0 ? Double.NaN : read.blockedMillis() / 1e3));
  }

  /** Micrometer's tag value: {@code TIMED_WAITING} becomes {@code timed-waiting}. */
  static String stateTag(Thread.State state) {
    return state.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    readCountsAndStates(mbeans);
  }

  /**
   * The counts and the thread states, as {@link #poll}: ThreadStorm judges the started count and
   * LockContention the BLOCKED threads (JMX-only targets) over windows of seconds.
   */
  @Override
  public void pollDetectionSignals(MBeanServerConnection mbeans) throws IOException, JMException {
    readCountsAndStates(mbeans);
  }

  private void readCountsAndStates(MBeanServerConnection mbeans) throws IOException, JMException {
    Attributes a =
        Attributes.read(mbeans, ObjectNames.THREADING, LIVE, DAEMON, PEAK, STARTED, ALL_IDS);
    reading.update(a);
    if (a.get(ALL_IDS) instanceof long[] ids) {
      Object infos =
          mbeans.invoke(
              ObjectNames.THREADING,
              "getThreadInfo",
              new Object[] {ids},
              GET_THREAD_INFO_SIGNATURE);
      states.update(countStates(infos));
      seenAlive(ids, infos);
    }
  }

  private void seenAlive(long[] ids, Object threadInfos) {
    if (threadInfos instanceof CompositeData[] infos && infos.length == ids.length) {
      String[] names = new String[ids.length];
      for (int i = 0; i < infos.length; i++) {
        if (infos[i] != null && infos[i].get("threadName") instanceof String name) {
          names[i] = name;
        }
      }
      newThreads.seen(ids, names);
    }
  }

  /**
   * Threads per state and blocked totals; a thread that ended between the two calls has a null
   * entry. {@code blockedTime} is -1 per thread while contention monitoring is off.
   */
  static ThreadStates countStates(Object threadInfos) {
    Map<Thread.State, Integer> counts = new EnumMap<>(Thread.State.class);
    long blockedCount = 0;
    long blockedMillis = 0;
    boolean timed = true;
    if (threadInfos instanceof CompositeData[] infos) {
      for (CompositeData info : infos) {
        if (info != null && info.get("threadState") instanceof String state) {
          counts.merge(Thread.State.valueOf(state), 1, Integer::sum);
          if (info.get("blockedCount") instanceof Long count) {
            blockedCount += count;
          }
          if (info.get("blockedTime") instanceof Long millis && millis >= 0) {
            blockedMillis += millis;
          } else {
            timed = false;
          }
        }
      }
    }
    return new ThreadStates(counts, blockedCount, timed && !counts.isEmpty() ? blockedMillis : -1);
  }

  /** The latest states read, or null while disconnected; detection reads blocked threads here. */
  public ThreadStates states() {
    return states.current();
  }

  /**
   * The threads first seen alive since detection last drained them (ThreadStorm on targets without
   * JFR: which kinds of threads a burst started, and how many ended unseen).
   */
  public NewThreadNames newThreads() {
    return newThreads;
  }

  /** The latest reading, or null while disconnected; detection reads the started count here. */
  public Attributes current() {
    return reading.current();
  }

  @Override
  public void disconnected() {
    reading.clear();
    states.clear();
    newThreads.clear();
  }
}
