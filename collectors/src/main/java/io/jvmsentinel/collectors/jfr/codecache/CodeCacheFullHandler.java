package io.jvmsentinel.collectors.jfr.codecache;

import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.EventFields;
import io.jvmsentinel.collectors.support.RecentEvents;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Remembers when and where the code cache filled, for detection. No meter of its own: the count
 * comes from {@code fullCount} in {@link CodeCacheStatisticsHandler} (one source per metric, and it
 * includes fills from before the stream connected). A fill also fires one event per blocked
 * allocation attempt (measured: 3 events, {@code fullCount} 1, 2, 3, on JDK 21 and 25 within 2 s).
 */
public final class CodeCacheFullHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.CodeCacheFull";
  static final int CAPACITY = 32;

  /**
   * HotSpot names the code blob type of the allocation that failed, and a type without a heap of
   * its own (the cache is not segmented) as "Unused" (measured on JDK 21). The allocation failed in
   * the one heap there is, which jdk.CodeCacheStatistics and the JMX memory pool call "CodeCache".
   */
  private static final String TYPE_WITHOUT_HEAP = "Unused";

  static final String UNSEGMENTED_CACHE = "CodeCache";

  /**
   * One {@code jdk.CodeCacheFull} event; counts and sizes are {@code -1} where the event lacked the
   * field.
   *
   * @param segment {@code codeBlobType}, e.g. {@code CodeHeap 'non-profiled nmethods'}
   * @param thread the thread that could not allocate (a compiler thread, or e.g. {@code main} for
   *     an adapter)
   */
  public record CodeCacheFull(
      Instant time,
      String segment,
      long entryCount,
      long methodCount,
      long adaptorCount,
      long unallocatedCapacity,
      long fullCount,
      long codeCacheMaxCapacity,
      String thread) {}

  private final RecentEvents<CodeCacheFull> recent = new RecentEvents<>(CAPACITY);

  @Override
  public String eventName() {
    return EVENT;
  }

  @Override
  public EventSettings settings() {
    return EventSettings.instant(false);
  }

  @Override
  public void bindTo(MeterRegistry registry) {}

  @Override
  public void accept(RecordedEvent event) {
    recent.add(
        new CodeCacheFull(
            EventFields.time(event),
            heap(EventFields.string(event, "codeBlobType")),
            EventFields.count(event, "entryCount"),
            EventFields.count(event, "methodCount"),
            EventFields.count(event, "adaptorCount"),
            EventFields.count(event, "unallocatedCapacity"),
            EventFields.count(event, "fullCount"),
            EventFields.count(event, "codeCacheMaxCapacity"),
            EventFields.threadName(event)));
  }

  private static String heap(String codeBlobType) {
    return TYPE_WITHOUT_HEAP.equals(codeBlobType) ? UNSEGMENTED_CACHE : codeBlobType;
  }

  /** The most recent events, oldest first (at most 32). */
  public List<CodeCacheFull> recent() {
    return recent.snapshot();
  }

  /** Events seen on the current stream, including those no longer retained. */
  public long seen() {
    return recent.total();
  }

  @Override
  public void streamStopped() {
    recent.clear();
  }
}
