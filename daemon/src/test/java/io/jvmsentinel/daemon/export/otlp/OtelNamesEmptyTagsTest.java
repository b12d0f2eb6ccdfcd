package io.jvmsentinel.daemon.export.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

/** A target lacking a tag key others have (an empty value) exports no such attribute. */
class OtelNamesEmptyTagsTest {
  @Test
  void emptyTagsAreLeftOutRenamedOrNot() {
    Tags tags = Tags.of("target", "orders", "pid", "", "main_class", "com.example.Main");
    for (String name : new String[] {"jvm.memory.used", "jvm.sentinel.some.meter"}) {
      Meter.Id id = new Meter.Id(name, tags, null, null, Meter.Type.GAUGE);
      assertThat(OtelNames.translate(id).getTags())
          .extracting(Tag::getKey)
          .contains("main_class")
          .doesNotContain("pid");
    }
  }
}
