package io.jvmsentinel.collectors.jfr.threads;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.catalog.Metric;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/**
 * Pinned virtual threads recorded on JDK 21 and 25 (src/test/resources/jfr/threads): on 21 a sleep
 * inside {@code synchronized} pins and a class initializer pins; on 25 (JEP 491) only the class
 * initializer does.
 */
class VirtualThreadPinnedHandlerTest {
  private static final String FIXTURE = "shop.PinningFixture";
  private static final String INVENTORY = FIXTURE + "$Inventory.reserve";
  private static final String PRICING = FIXTURE + "$Pricing.quote";
  private static final String CATALOG = FIXTURE + "$Catalog.<clinit>";

  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final VirtualThreadPinnedHandler handler =
      new VirtualThreadPinnedHandler(Tags.of("target", "t1"));

  @Test
  void eachPinIsTimedUnderTheApplicationFrameWhereItBlocked() {
    handler.bindTo(registry);
    pinned(JfrFixtures.VT_PINNED_21).forEach(handler::accept);

    assertThat(counts())
        .containsOnly(Map.entry(INVENTORY, 4L), Map.entry(PRICING, 4L), Map.entry(CATALOG, 1L));
    // Inventory.reserve sleeps 30 ms holding its monitor, four times.
    assertThat(timer(INVENTORY).totalTime(TimeUnit.MILLISECONDS)).isBetween(100.0, 160.0);
  }

  @Test
  void onJdk25OnlyTheClassInitializerPins() {
    handler.bindTo(registry);
    List<RecordedEvent> events = pinned(JfrFixtures.VT_PINNED_25);
    events.forEach(handler::accept);

    assertThat(counts()).containsOnly(Map.entry(CATALOG, 1L));
    assertThat(events.get(0).getString("pinnedReason")).contains("<clinit>");
  }

  @Test
  void aShedPinStillCountsItsCarrierTime() {
    handler.bindTo(registry);
    pinned(JfrFixtures.VT_PINNED_21).forEach(handler::shed);

    assertThat(counts()).containsOnly(Map.entry("other", 9L));
  }

  @Test
  void anUnboundHandlerRecordsNothingAndDoesNotThrow() {
    pinned(JfrFixtures.VT_PINNED_21).forEach(handler::accept);
    assertThat(registry.getMeters()).isEmpty();
  }

  private static List<RecordedEvent> pinned(String fixture) {
    return JfrFixtures.events(fixture).stream()
        .filter(e -> e.getEventType().getName().equals(VirtualThreadPinnedHandler.EVENT))
        .toList();
  }

  private Map<String, Long> counts() {
    return registry.find(Metric.JVM_THREADS_VIRTUAL_PINNED.meterName()).timers().stream()
        .collect(Collectors.toMap(t -> t.getId().getTag("site"), Timer::count));
  }

  private Timer timer(String site) {
    return registry.get(Metric.JVM_THREADS_VIRTUAL_PINNED.meterName()).tag("site", site).timer();
  }
}
