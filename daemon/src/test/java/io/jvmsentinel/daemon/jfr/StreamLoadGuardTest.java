package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.LoadCountingHandler;
import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/**
 * What the stream may cost a target, driven once a "second" by a clock the test moves and a start
 * count it sets (defaults: storm pause above 2000 starts/s after a 15 s capture, stack sampling
 * above 200/s): no stream, no sleeping. While paused the count comes from this JVM's own JMX.
 */
class StreamLoadGuardTest {
  private static final Tags TAGS = Tags.of("target", "t1");

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final ThreadStarts starts = new ThreadStarts();
  private final JfrStreamMeters meters =
      new JfrStreamMeters(registry, TAGS, List.of(starts), () -> true);
  private final StreamLoadGuard guard =
      new StreamLoadGuard("t1", List.of(starts), JfrConfig.DEFAULT, clock, meters);

  private double gauge(String name) {
    return registry.get(name).tags(TAGS).gauge().value();
  }

  /** One second of {@code rate} starts on a running stream; what the guard says to do. */
  private StormPause.Action streamingSecond(long rate) {
    clock.advance(Duration.ofSeconds(1));
    starts.total += rate;
    return guard.check(null, true);
  }

  @Test
  void aHeavyStormPausesTheStreamOnceCapturedAndItReopensWhenTheTargetCalmsDown() {
    guard.streamStarted(Map.of());
    List<StormPause.Action> actions = new ArrayList<>();
    for (int second = 0; second < 30 && !guard.holdsClosed(); second++) {
      actions.add(streamingSecond(5000));
    }

    assertThat(actions).containsOnlyOnce(StormPause.Action.PAUSE);
    assertThat(actions.size()).as("seconds into the storm").isBetween(15, 20);
    String reason = guard.pause();
    assertThat(reason).startsWith("paused during a thread storm of 5000 starts/s");
    assertThat(guard.paused()).isTrue();
    assertThat(gauge("jvm.sentinel.jfr.storm.paused")).isEqualTo(1);

    // Paused: the start count is this JVM's TotalStartedThreadCount, which barely moves.
    StormPause.Action action = StormPause.Action.NONE;
    for (int second = 0; second < 30 && action == StormPause.Action.NONE; second++) {
      clock.advance(Duration.ofSeconds(1));
      action = guard.check(ManagementFactory.getPlatformMBeanServer(), false);
      assertThat(guard.startedThreads()).isPositive();
    }

    assertThat(action).isEqualTo(StormPause.Action.RESUME);
    guard.reopen(action);
    assertThat(guard.paused()).isFalse();
    assertThat(guard.startedThreads()).isEqualTo(-1);
    assertThat(gauge("jvm.sentinel.jfr.storm.paused")).isZero();
  }

  @Test
  void aBusyTargetsStackTracesGoToSamplingWindowsOnTheLiveFeedAndComeBackWhenItCalms() {
    guard.streamStarted(
        Map.of("jdk.ThreadStart#enabled", "true", "jdk.ThreadStart#stackTrace", "true"));
    RecordingFeed feed = new RecordingFeed();
    for (int second = 0; second < 10 && feed.settings.isEmpty(); second++) {
      streamingSecond(500);
      guard.sampleStacks(feed);
    }

    assertThat(feed.settings).hasSize(1);
    assertThat(feed.settings.get(0))
        .as("a pause first: the starts that showed the load had their stacks")
        .containsEntry("jdk.ThreadStart#stackTrace", "false")
        .containsEntry("jdk.ThreadStart#enabled", "true");
    assertThat(starts.sampled.get()).isTrue();
    assertThat(gauge("jvm.sentinel.jfr.stack.sampling")).isEqualTo(1);

    for (int second = 0; second < 10 && starts.sampled.get(); second++) {
      streamingSecond(10);
      guard.sampleStacks(feed);
    }

    assertThat(starts.sampled.get()).isFalse();
    assertThat(feed.settings.get(feed.settings.size() - 1))
        .containsEntry("jdk.ThreadStart#stackTrace", "true");
    assertThat(gauge("jvm.sentinel.jfr.stack.sampling")).isZero();
  }

  /** The thread start handler as the guard sees it: a count the test sets. */
  private static final class ThreadStarts implements LoadCountingHandler {
    long total;
    final AtomicBoolean sampled = new AtomicBoolean();

    @Override
    public long totalEvents() {
      return total;
    }

    @Override
    public void stacksSampled(boolean sampled) {
      this.sampled.set(sampled);
    }

    @Override
    public String eventName() {
      return "jdk.ThreadStart";
    }

    @Override
    public EventSettings settings() {
      return EventSettings.instant(true);
    }

    @Override
    public void accept(RecordedEvent event) {}

    @Override
    public void bindTo(MeterRegistry registry) {}
  }

  /** A live feed that only records the settings it is given. */
  private static final class RecordingFeed implements EventFeed {
    final List<Map<String, String>> settings = new ArrayList<>();

    @Override
    public String kind() {
      return "stream";
    }

    @Override
    public void setSettings(Map<String, String> newSettings) {
      settings.add(Map.copyOf(newSettings));
    }

    @Override
    public void onEvent(String eventName, Consumer<RecordedEvent> consumer) {}

    @Override
    public void onFlush(Runnable action) {}

    @Override
    public void start() {}

    @Override
    public Duration inherentDelay() {
      return Duration.ZERO;
    }

    @Override
    public void close() {}
  }
}
