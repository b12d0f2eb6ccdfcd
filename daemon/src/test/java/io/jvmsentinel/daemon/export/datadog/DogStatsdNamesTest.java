package io.jvmsentinel.daemon.export.datadog;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A target lacking a tag key others have (an empty value) sends no "key:" tag to Datadog. */
class DogStatsdNamesTest {
  @Test
  void emptyTagValuesAreLeftOut() {
    Meter.Id id =
        new Meter.Id(
            "jvm.threads.started",
            Tags.of("target", "orders", "pid", "", "namespace", "shop"),
            null,
            null,
            Meter.Type.COUNTER);
    assertThat(DogStatsdNames.tags(id)).containsExactly("namespace:shop", "target:orders");

    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("pod", "");
    tags.put("team", "jvm");
    assertThat(DogStatsdNames.tags(tags)).containsExactly("team:jvm");
  }
}
