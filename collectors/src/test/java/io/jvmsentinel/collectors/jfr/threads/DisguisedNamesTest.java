package io.jvmsentinel.collectors.jfr.threads;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import org.junit.jupiter.api.Test;

/** Names the target chooses cannot disguise themselves in labels, reports and collapsed stacks. */
class DisguisedNamesTest {
  @Test
  void threadNamePatternsLoseBidiControls() {
    assertThat(CreatorSites.pattern("worker-\u202E7cod\u202C-12")).isEqualTo("worker-_#cod_-#");
  }

  @Test
  void siteLabelsAndFramesLoseBidiControls() {
    StackFrame frame = new StackFrame("com.acme.\u202EtxT", "run\u2067", 42);
    assertThat(frame.site()).isEqualTo("com.acme._txT.run_");
    assertThat(frame.text()).isEqualTo("com.acme._txT.run_:42");
  }
}
