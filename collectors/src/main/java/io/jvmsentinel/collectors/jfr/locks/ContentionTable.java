package io.jvmsentinel.collectors.jfr.locks;

import io.jvmsentinel.collectors.support.TopK;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Contended waits of one detection interval, by lock class, with the code that blocked and the
 * threads that held the lock ({@code previousOwner}: the thread that released the monitor to the
 * waiter); drained by each detection tick. JFR does not say what the holder was doing: the JMX
 * {@link io.jvmsentinel.collectors.jmx.LockHolderPoller} reads that from the target's locked
 * monitors.
 *
 * <p>Every structure is bounded: lock classes, sites and owners in Space-Saving {@link TopK}s
 * weighted by nanoseconds blocked, thread ids per lock capped.
 *
 * <p>Thread-safe: the stream thread adds, the detection thread drains; all under this lock.
 */
public final class ContentionTable {
  static final int LOCKS = 32;
  static final int SITES = 8;
  static final int MAX_THREADS = 1024;

  private TopK<String, LockSample> locks = new TopK<>(LOCKS);

  private static final class LockSample {
    final ContentionKind kind;
    final String className;
    long events;
    final Set<Long> threads = new HashSet<>();
    final TopK<String, List<String>> sites = new TopK<>(SITES);
    final TopK<String, Void> owners = new TopK<>(SITES);

    LockSample(ContentionKind kind, String className) {
      this.kind = kind;
      this.className = className;
    }
  }

  /** Counts one contended wait, with its blocked site. */
  public void add(BlockedEvent event) {
    add(event, true);
  }

  /**
   * Counts one contended wait; {@code withSite} false for a wait recorded without its stack in a
   * sampling pause, which counts for its lock but names no site.
   */
  public synchronized void add(BlockedEvent event, boolean withSite) {
    LockSample lock =
        locks.addAndGetSample(
            event.kind().tag() + " " + event.className(),
            event.nanos(),
            () -> new LockSample(event.kind(), event.className()));
    lock.events++;
    if (lock.threads.size() < MAX_THREADS) {
      lock.threads.add(event.threadId());
    }
    if (withSite) {
      lock.sites.addAndGetSample(
          BlockedSite.of(event.stack()), event.nanos(), () -> event.stack().text());
    }
    if (event.ownerName() != null) {
      lock.owners.add(event.ownerName(), event.nanos(), null);
    }
  }

  /** The {@code n} locks blocked on longest since the last call; starts a new interval. */
  public synchronized LockContention drain(int n) {
    List<LockContention.Lock> top = new ArrayList<>();
    for (TopK.Entry<String, LockSample> entry : locks.top(n)) {
      LockSample lock = entry.sample();
      top.add(
          new LockContention.Lock(
              lock.kind.tag(),
              lock.className,
              entry.count(),
              lock.events,
              lock.threads.size(),
              sites(lock.sites),
              owners(lock.owners)));
    }
    LockContention drained = new LockContention(locks.total(), top);
    locks = new TopK<>(LOCKS);
    return drained;
  }

  private static List<LockContention.Site> sites(TopK<String, List<String>> sites) {
    List<LockContention.Site> out = new ArrayList<>();
    for (TopK.Entry<String, List<String>> site : sites.top(SITES)) {
      out.add(new LockContention.Site(site.key(), site.count(), site.sample()));
    }
    return out;
  }

  private static List<LockContention.Site> owners(TopK<String, Void> owners) {
    List<LockContention.Site> out = new ArrayList<>();
    for (TopK.Entry<String, Void> owner : owners.top(SITES)) {
      out.add(new LockContention.Site(owner.key(), owner.count(), List.of()));
    }
    return out;
  }
}
