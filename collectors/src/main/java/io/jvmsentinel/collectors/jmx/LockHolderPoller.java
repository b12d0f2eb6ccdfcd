package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.text.SafeText;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.openmbean.CompositeData;

/**
 * Names the code that holds a contended monitor: while threads are BLOCKED (the thread states of
 * {@link ThreadPoller}), at most once per {@link #MIN_INTERVAL_MILLIS}, one {@code
 * dumpAllThreads(lockedMonitors=true, lockedSynchronizers=false)} of the target, from which each
 * blocked thread's monitor, its owner, the frame where the owner locked it and the owner's stack
 * are read. JFR's {@code previousOwner} names the thread that held a monitor, never what it was
 * doing; the dump does, and works on every JDK.
 *
 * <p>Cost: a thread dump with stacks stops the target at a safepoint for a few milliseconds with a
 * few hundred threads, which is why it runs only while threads are blocked, and rarely. It changes
 * no setting of the target.
 */
public final class LockHolderPoller implements JmxPoller {
  /** At most one dump in this many milliseconds. */
  public static final long MIN_INTERVAL_MILLIS = 5_000;

  /** Dumps are taken only while at least this many threads are BLOCKED. */
  public static final int MIN_BLOCKED = 2;

  static final int MAX_MONITORS = 5;
  static final int MAX_STACK = 12;
  private static final String[] SIGNATURE = {"boolean", "boolean"};

  private final Supplier<ThreadPoller.ThreadStates> states;
  private final LongSupplier clock;
  private final AtomicReference<LockHolders> latest = new AtomicReference<>();
  private long lastDump = Long.MIN_VALUE;

  public LockHolderPoller(ThreadPoller threads) {
    this(threads::states, System::currentTimeMillis);
  }

  LockHolderPoller(Supplier<ThreadPoller.ThreadStates> states, LongSupplier clock) {
    this.states = states;
    this.clock = clock;
  }

  @Override
  public String name() {
    return "lock-holders";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    // Evidence only: the counts are jvm.threads.states{state="blocked"}.
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    ThreadPoller.ThreadStates read = states.get();
    long now = clock.getAsLong();
    if (read == null
        || read.count(Thread.State.BLOCKED) < MIN_BLOCKED
        || (lastDump != Long.MIN_VALUE && now - lastDump < MIN_INTERVAL_MILLIS)) {
      return;
    }
    lastDump = now;
    Object infos =
        mbeans.invoke(
            ObjectNames.THREADING, "dumpAllThreads", new Object[] {true, false}, SIGNATURE);
    latest.set(holders(now, infos));
  }

  /** The dump taken since the last call, or null; detection takes each dump once. */
  public LockHolders drain() {
    return latest.getAndSet(null);
  }

  @Override
  public void disconnected() {
    latest.set(null);
  }

  /** The monitors BLOCKED threads wait for, with their holders, from a dump's ThreadInfos. */
  static LockHolders holders(long atMillis, Object threadInfos) {
    if (!(threadInfos instanceof CompositeData[] infos)) {
      return new LockHolders(atMillis, List.of());
    }
    Map<Long, CompositeData> byId = new HashMap<>();
    for (CompositeData info : infos) {
      if (info != null && info.get("threadId") instanceof Long id) {
        byId.put(id, info);
      }
    }
    Map<Integer, List<CompositeData>> blockedByMonitor = new LinkedHashMap<>();
    for (CompositeData info : infos) {
      if (info != null
          && "BLOCKED".equals(info.get("threadState"))
          && info.get("lockInfo") instanceof CompositeData lock
          && lock.get("identityHashCode") instanceof Integer hash) {
        blockedByMonitor.computeIfAbsent(hash, h -> new ArrayList<>()).add(info);
      }
    }
    List<LockHolders.Monitor> monitors = new ArrayList<>();
    blockedByMonitor.forEach((hash, blocked) -> monitors.add(monitor(hash, blocked, byId)));
    monitors.sort(Comparator.comparingInt(LockHolders.Monitor::blockedThreads).reversed());
    return new LockHolders(atMillis, monitors.subList(0, Math.min(MAX_MONITORS, monitors.size())));
  }

  private static LockHolders.Monitor monitor(
      int hash, List<CompositeData> blocked, Map<Long, CompositeData> byId) {
    CompositeData first = blocked.get(0);
    String className = text(((CompositeData) first.get("lockInfo")).get("className"));
    Map<String, Integer> sites = new LinkedHashMap<>();
    for (CompositeData info : blocked) {
      List<String> stack = stack(info, 1, false);
      sites.merge(stack.isEmpty() ? "unknown" : stack.get(0), 1, Integer::sum);
    }
    List<String> blockedSites =
        sites.entrySet().stream()
            .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
            .map(Map.Entry::getKey)
            .limit(MAX_MONITORS)
            .toList();
    CompositeData owner =
        first.get("lockOwnerId") instanceof Long id && id >= 0 ? byId.get(id) : null;
    if (owner == null) {
      return new LockHolders.Monitor(
          className, blocked.size(), blockedSites, null, null, null, List.of());
    }
    return new LockHolders.Monitor(
        className,
        blocked.size(),
        blockedSites,
        text(owner.get("threadName")),
        text(owner.get("threadState")),
        enteredAt(owner, hash),
        stack(owner, MAX_STACK, true));
  }

  /** The frame at which the owner locked the monitor ({@code MonitorInfo.lockedStackFrame}). */
  private static String enteredAt(CompositeData owner, int hash) {
    if (owner.get("lockedMonitors") instanceof CompositeData[] locked) {
      for (CompositeData monitor : locked) {
        if (monitor != null
            && Integer.valueOf(hash).equals(monitor.get("identityHashCode"))
            && monitor.get("lockedStackFrame") instanceof CompositeData frame) {
          return frame(frame, false);
        }
      }
    }
    return null;
  }

  private static List<String> stack(CompositeData info, int max, boolean lines) {
    List<String> frames = new ArrayList<>();
    if (info.get("stackTrace") instanceof CompositeData[] stack) {
      for (int i = 0; i < stack.length && frames.size() < max; i++) {
        frames.add(frame(stack[i], lines));
      }
    }
    return frames;
  }

  private static String frame(CompositeData frame, boolean line) {
    String site = text(frame.get("className")) + "." + text(frame.get("methodName"));
    return line && frame.get("lineNumber") instanceof Integer n && n >= 0 ? site + ":" + n : site;
  }

  private static String text(Object value) {
    return value == null ? "unknown" : SafeText.of(String.valueOf(value));
  }
}
