package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.text.ThreadNames;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The threads a JMX read sees alive for the first time, counted by name pattern ({@link
 * ThreadNames#pattern}: {@code pool-3-thread-17} is {@code pool-#-thread-#}, {@code
 * req-3f2a9c1e-4b7d-11ee} is {@code req-#-#-#}): on a target without JFR, the only trace of which
 * code starts threads. A thread that starts and ends between two reads is never seen, so the
 * started count minus these is what ended unseen.
 *
 * <p>Thread ids are never reused within a JVM, so a new id is a new thread. The first read after a
 * connect only learns the ids: the threads already running were not started now.
 */
public final class NewThreadNames {
  /** Patterns kept per drain; the rest count under {@link #OTHER} (names are the target's). */
  static final int MAX_PATTERNS = 20;

  public static final String OTHER = "other";

  private long[] known;
  private final Map<String, Long> pending = new LinkedHashMap<>();

  /** One read's live threads: {@code ids[i]} is named {@code names[i]} (null when it ended). */
  synchronized void seen(long[] ids, String[] names) {
    long[] sorted = ids.clone();
    Arrays.sort(sorted);
    if (known != null) {
      for (int i = 0; i < ids.length; i++) {
        if (names[i] != null && Arrays.binarySearch(known, ids[i]) < 0) {
          String pattern = ThreadNames.pattern(names[i]);
          String key =
              pending.containsKey(pattern) || pending.size() < MAX_PATTERNS ? pattern : OTHER;
          pending.merge(key, 1L, Long::sum);
        }
      }
    }
    known = sorted;
  }

  /** The name patterns of the threads first seen since the last drain, with their counts. */
  public synchronized Map<String, Long> drain() {
    Map<String, Long> drained = Map.copyOf(pending);
    pending.clear();
    return drained;
  }

  /** Disconnected: the next read after a connect learns the ids again. */
  synchronized void clear() {
    known = null;
    pending.clear();
  }
}
