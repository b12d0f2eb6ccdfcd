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
 * {@code getThreadInfo} of all thread ids without stack traces.
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
  private final LatestReading<Map<Thread.State, Integer>> states = new LatestReading<>();

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
          r -> r.gauge(counts -> counts.getOrDefault(state, 0)));
    }
  }

  /** Micrometer's tag value: {@code TIMED_WAITING} becomes {@code timed-waiting}. */
  static String stateTag(Thread.State state) {
    return state.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
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
    }
  }

  /** Threads per state; a thread that ended between the two calls has a null entry. */
  static Map<Thread.State, Integer> countStates(Object threadInfos) {
    Map<Thread.State, Integer> counts = new EnumMap<>(Thread.State.class);
    if (threadInfos instanceof CompositeData[] infos) {
      for (CompositeData info : infos) {
        if (info != null && info.get("threadState") instanceof String state) {
          counts.merge(Thread.State.valueOf(state), 1, Integer::sum);
        }
      }
    }
    return counts;
  }

  /** The latest reading, or null while disconnected; detection reads the started count here. */
  public Attributes current() {
    return reading.current();
  }

  @Override
  public void disconnected() {
    reading.clear();
    states.clear();
  }
}
