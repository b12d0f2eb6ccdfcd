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

  @Test
  void aTagValueTheTargetChoseStaysOneTagOfAtMost200Characters() {
    String tag = DogStatsdNames.tag("pool", "a,b|#c:d\r\ne\u001b\u202E" + "x".repeat(1_000));
    assertThat(tag)
        .hasSize(DogStatsdNames.TAG_MAX)
        .startsWith("pool:a_b_#c:d__e__xxx")
        .doesNotContain(",", "|", "\n", "\u001b");
  }
}
