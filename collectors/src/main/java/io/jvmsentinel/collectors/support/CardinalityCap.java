package io.jvmsentinel.collectors.support;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.text.SafeText;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * The one cap on how many distinct values (or combinations of values) of a tag get their own
 * series. Tag values come from the target (GC causes, deoptimisation reasons, peers, cipher
 * suites), which decides how many there are; the meter registry, and every backend behind it, must
 * not grow with them. The first {@code limit} values seen keep their name for good; later ones
 * become {@value #OTHER}, and each such value is counted (once {@linkplain #bindTo bound}, in
 * {@code jvm_sentinel_tag_values_capped_total}). A missing value is {@value #UNKNOWN}, which is not
 * counted against the cap.
 *
 * <p>Thread-safe: a lock-free lookup for values already admitted (the hot path), a lock to admit.
 */
public final class CardinalityCap {
  public static final String OTHER = "other";
  public static final String UNKNOWN = "unknown";

  private final int limit;
  private final Set<Object> admitted = ConcurrentHashMap.newKeySet();
  private final LongAdder capped = new LongAdder();
  // Registers the capped counter on the first refusal: a cap that never bites adds no series.
  private volatile Runnable registerCounter = () -> {};

  /**
   * @param limit distinct values (or combinations) that get their own series
   */
  public CardinalityCap(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a cap admits at least one value, got " + limit);
    }
    this.limit = limit;
  }

  /**
   * Counts the values this cap turned into {@value #OTHER}, as {@code
   * jvm_sentinel_tag_values_capped_total{meter, tag}}, a series that appears on the first one.
   *
   * @param tagKeys the capped tag, or the capped combination such as {@code peer,protocol,cipher}
   */
  public void bindTo(MeterRegistry registry, Tags tags, Metric meter, String tagKeys) {
    registerCounter =
        () ->
            Metric.SENTINEL_TAG_VALUES_CAPPED.functionCounter(
                registry,
                tags.and("meter", meter.meterName(), "tag", tagKeys),
                this,
                CardinalityCap::capped);
    if (capped() > 0) {
      registerCounter.run();
    }
  }

  /**
   * The tag value to use for {@code value}: itself ({@linkplain SafeText#name cut and made safe},
   * for a value that reached here raw), {@value #OTHER} or {@value #UNKNOWN}.
   */
  public String value(String value) {
    if (value == null || value.isBlank()) {
      return UNKNOWN;
    }
    String safe = SafeText.name(value);
    return admit(safe) ? safe : OTHER;
  }

  /**
   * Whether {@code key} (a value, or a combination such as a {@code List} of tag values) has, or
   * now gets, its own series; a refused key is counted.
   */
  public boolean admit(Object key) {
    if (admitted.contains(key)) {
      return true;
    }
    synchronized (this) {
      if (admitted.contains(key) || admitted.size() < limit) {
        admitted.add(key);
        return true;
      }
    }
    refuse();
    return false;
  }

  /** Counts a value turned away before it was even read (there were too many to look at). */
  public void refuse() {
    if (capped.sum() == 0) {
      registerCounter.run(); // idempotent: the registry returns the existing counter
    }
    capped.increment();
  }

  /** Whether {@code key} already has its own series (admits nothing, counts nothing). */
  public boolean admitted(Object key) {
    return admitted.contains(key);
  }

  /** Whether no new value can get a series any more. */
  public boolean full() {
    return admitted.size() >= limit;
  }

  /** The values admitted so far, all of type {@code type}. */
  public <T> Set<T> admittedValues(Class<T> type) {
    return admitted.stream().map(type::cast).collect(Collectors.toUnmodifiableSet());
  }

  /** Values turned into {@value #OTHER} so far. */
  public long capped() {
    return capped.sum();
  }
}
