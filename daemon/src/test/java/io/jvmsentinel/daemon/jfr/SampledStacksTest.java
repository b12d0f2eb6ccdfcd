package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.JfrHandlers;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.micrometer.core.instrument.Tags;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The production handler list: which events' stacks follow the sampling plan together. */
class SampledStacksTest {
  private final List<JfrEventHandler> handlers = JfrHandlers.create(Tags.empty()).all();
  private final SampledStacks stacks = new SampledStacks(handlers);

  private Map<String, String> liveSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    handlers.forEach(h -> settings.putAll(h.settings().toJfrSettings(h.eventName())));
    return settings;
  }

  @Test
  void threadStartsMonitorEntersAndParksGoStacklessInTheSamePause() {
    Map<String, String> live = liveSettings();

    Map<String, String> paused = stacks.with(live, false);

    assertThat(stacks.eventNames())
        .containsExactlyInAnyOrder("jdk.ThreadStart", "jdk.JavaMonitorEnter", "jdk.ThreadPark");
    assertThat(paused)
        .containsEntry("jdk.ThreadStart#stackTrace", "false")
        .containsEntry("jdk.JavaMonitorEnter#stackTrace", "false")
        .containsEntry("jdk.ThreadPark#stackTrace", "false");
    assertThat(stacks.with(paused, true))
        .as("a sampling window turns them all back on")
        .isEqualTo(live);
  }

  @Test
  void everyOtherSettingIsKeptBecauseSetSettingsReplacesThemAll() {
    Map<String, String> live = liveSettings();

    Map<String, String> paused = stacks.with(live, false);

    assertThat(paused.keySet()).isEqualTo(live.keySet());
    paused.forEach(
        (key, value) -> {
          if (!key.endsWith("#stackTrace")
              || !stacks.eventNames().contains(key.substring(0, key.indexOf('#')))) {
            assertThat(value).as(key).isEqualTo(live.get(key));
          }
        });
    assertThat(paused)
        .as("waits never record stacks")
        .containsEntry("jdk.JavaMonitorWait#stackTrace", "false");
  }

  @Test
  void eventsTheTargetLacksAreNotAdded() {
    Map<String, String> onlyParks = new LinkedHashMap<>();
    onlyParks.put("jdk.ThreadPark#enabled", "true");
    onlyParks.put("jdk.ThreadPark#stackTrace", "true");

    assertThat(stacks.anyIn(onlyParks)).isTrue();
    assertThat(stacks.with(onlyParks, false))
        .containsOnlyKeys("jdk.ThreadPark#enabled", "jdk.ThreadPark#stackTrace")
        .containsEntry("jdk.ThreadPark#stackTrace", "false");
    assertThat(stacks.anyIn(Map.of("jdk.CPULoad#enabled", "true"))).isFalse();
  }
}
