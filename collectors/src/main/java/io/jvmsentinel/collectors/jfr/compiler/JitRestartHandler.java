package io.jvmsentinel.collectors.jfr.compiler;

import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.EventFields;
import io.jvmsentinel.collectors.support.RecentEvents;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Remembers when the JIT restarted after a full code cache, for detection. No meter: the restart
 * count comes from {@code restarted_count} of the DiagnosticCommand (it includes restarts from
 * before the stream connected). A restart event alone does not prove compilation is on again: on
 * JDK 25 with {@code -XX:-UseCodeCacheFlushing} it fired while compilation stayed disabled, and on
 * JDK 17 with that flag it fired once with 6 kB freed; confirm with {@code
 * jvm.jit.compilation.enabled}.
 */
public final class JitRestartHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.JITRestart";
  static final int CAPACITY = 32;

  /** One restart; sizes in bytes, {@code -1} where the event lacked the field. */
  public record JitRestart(Instant time, long freedMemory, long codeCacheMaxCapacity) {}

  private final RecentEvents<JitRestart> recent = new RecentEvents<>(CAPACITY);

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
        new JitRestart(
            EventFields.time(event),
            EventFields.count(event, "freedMemory"),
            EventFields.count(event, "codeCacheMaxCapacity")));
  }

  /** The most recent restarts, oldest first (at most 32). */
  public List<JitRestart> recent() {
    return recent.snapshot();
  }

  @Override
  public void streamStopped() {
    recent.clear();
  }
}
