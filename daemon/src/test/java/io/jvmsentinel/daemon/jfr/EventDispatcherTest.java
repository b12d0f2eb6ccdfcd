package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.daemon.support.DropLog;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shedding: events later than the lag bound take the handler's cheap path and are counted as
 * dropped; fresh events are processed in full again as soon as the backlog is drained. Real
 * recorded events (a {@code RecordedEvent} cannot be constructed), recorded in this JVM.
 */
class EventDispatcherTest {
  private static final Duration MAX_LAG = Duration.ofSeconds(5);
  private static final Tags TAGS = Tags.of("target", "t1");
  private static List<RecordedEvent> events;

  @TempDir static Path dir;

  @Name("test.Hot")
  static final class HotEvent extends Event {}

  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final MutableClock clock = new MutableClock(Instant.EPOCH);
  private final DropLog drops = new DropLog(Duration.ofMinutes(1));
  private final EventDispatcher dispatcher =
      new EventDispatcher("t1", registry, TAGS, clock, MAX_LAG, Duration.ZERO, drops);

  @BeforeAll
  static void record() throws IOException {
    Path file = dir.resolve("hot.jfr");
    try (Recording recording = new Recording()) {
      recording.enable(HotEvent.class);
      recording.start();
      for (int i = 0; i < 10; i++) {
        new HotEvent().commit();
      }
      recording.stop();
      recording.dump(file);
    }
    events = RecordingFile.readAllEvents(file);
    assertThat(events).hasSize(10);
  }

  @Test
  void eventsWithinTheBoundAreProcessedInFull() {
    CountingHandler handler = new CountingHandler(true);
    Consumer<RecordedEvent> consumer = dispatcher.consumerFor(handler);

    for (RecordedEvent event : events) {
      clock.set(event.getEndTime().plusSeconds(2));
      consumer.accept(event);
    }

    assertThat(handler.accepted).isEqualTo(10);
    assertThat(handler.shed).isZero();
    assertThat(dropped()).isZero();
    assertThat(count("jvm.sentinel.jfr.events")).isEqualTo(10);
    assertThat(drops.due(clock.instant())).isEmpty();
  }

  @Test
  void lateEventsAreCountedAsDroppedByTypeAndReasonAndTakeTheCheapPath() {
    CountingHandler handler = new CountingHandler(true);
    Consumer<RecordedEvent> consumer = dispatcher.consumerFor(handler);

    for (RecordedEvent event : events) {
      clock.set(event.getEndTime().plusSeconds(30));
      consumer.accept(event);
    }

    assertThat(handler.accepted).isZero();
    assertThat(handler.shed).isEqualTo(10);
    assertThat(dropped()).isEqualTo(10);
    assertThat(count("jvm.sentinel.jfr.events")).isEqualTo(10);
    assertThat(
            registry.get("jvm.sentinel.jfr.lag").timer().max(java.util.concurrent.TimeUnit.SECONDS))
        .isGreaterThanOrEqualTo(30);
    assertThat(drops.due(clock.instant())).contains(Map.of("test.Hot", 10L));
  }

  @Test
  void processingResumesOnceTheBacklogIsDrained() {
    CountingHandler handler = new CountingHandler(true);
    Consumer<RecordedEvent> consumer = dispatcher.consumerFor(handler);

    // The lag shrinks as the cheap path drains the backlog: 20 s behind, then 1 s behind.
    for (int i = 0; i < events.size(); i++) {
      RecordedEvent event = events.get(i);
      clock.set(event.getEndTime().plusSeconds(i < 4 ? 20 : 1));
      consumer.accept(event);
    }

    assertThat(handler.shed).isEqualTo(4);
    assertThat(handler.accepted).isEqualTo(6);
    assertThat(dropped()).isEqualTo(4);
    assertThat(registry.get("jvm.sentinel.jfr.lag.current").gauge().value()).isEqualTo(1.0);
  }

  @Test
  void eventsDetectionNeedsInFullAreNeverShed() {
    CountingHandler handler = new CountingHandler(false);
    Consumer<RecordedEvent> consumer = dispatcher.consumerFor(handler);

    for (RecordedEvent event : events) {
      clock.set(event.getEndTime().plusSeconds(30));
      consumer.accept(event);
    }

    assertThat(handler.accepted).isEqualTo(10);
    assertThat(handler.shed).isZero();
    assertThat(registry.find("jvm.sentinel.jfr.events.dropped").counter()).isNull();
  }

  private double dropped() {
    return registry
        .get("jvm.sentinel.jfr.events.dropped")
        .tags(TAGS.and("event", "test.Hot").and("reason", "lag"))
        .counter()
        .count();
  }

  private double count(String name) {
    return registry.get(name).tags(TAGS.and("event", "test.Hot")).counter().count();
  }

  private static final class CountingHandler implements JfrEventHandler {
    private final boolean sheddable;
    int accepted;
    int shed;

    CountingHandler(boolean sheddable) {
      this.sheddable = sheddable;
    }

    @Override
    public String eventName() {
      return "test.Hot";
    }

    @Override
    public EventSettings settings() {
      return EventSettings.instant(false);
    }

    @Override
    public void accept(RecordedEvent event) {
      accepted++;
    }

    @Override
    public boolean sheddable() {
      return sheddable;
    }

    @Override
    public void shed(RecordedEvent event) {
      shed++;
    }

    @Override
    public void bindTo(MeterRegistry registry) {}
  }
}
