package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.text.SafeText;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The threads a JMX read sees alive for the first time, counted by name pattern (digits as {@code
 * #}: {@code pool-3-thread-17} is {@code pool-#-thread-#}): on a target without JFR, the only trace
 * of which code starts threads. A thread that starts and ends between two reads is never seen, so
 * the started count minus these is what ended unseen.
 *
 * <p>Thread ids are never reused within a JVM, so a new id is a new thread. The first read after a
 * connect only learns the ids: the threads already running were not started now.
 */
public final class NewThreadNames {
  /** Patterns kept per drain; the rest count under {@link #OTHER} (names are the target's). */
  static final int MAX_PATTERNS = 20;

  public static final String OTHER = "other";
  private static final Pattern DIGITS = Pattern.compile("[0-9]+");

  private long[] known;
  private final Map<String, Long> pending = new LinkedHashMap<>();

  /** One read's live threads: {@code ids[i]} is named {@code names[i]} (null when it ended). */
  synchronized void seen(long[] ids, String[] names) {
    long[] sorted = ids.clone();
    Arrays.sort(sorted);
    if (known != null) {
      for (int i = 0; i < ids.length; i++) {
        if (names[i] != null && Arrays.binarySearch(known, ids[i]) < 0) {
          String pattern = pattern(names[i]);
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

  static String pattern(String name) {
    return SafeText.bounded(DIGITS.matcher(name).replaceAll("#"), SafeText.MAX_NAME);
  }
}
