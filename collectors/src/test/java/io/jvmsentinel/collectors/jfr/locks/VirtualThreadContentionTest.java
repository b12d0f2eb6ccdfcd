package io.jvmsentinel.collectors.jfr.locks;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.support.EventFields;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/**
 * Unnamed virtual threads contending for a monitor on JDK 21 (src/test/resources/jfr/locks): JFR
 * names them {@code ""}, and a lock's holder must still read as a thread.
 */
class VirtualThreadContentionTest {

  @Test
  void anUnnamedVirtualThreadIsNamedVirtualWithItsId() throws Exception {
    List<RecordedEvent> enters = recorded();

    assertThat(enters).hasSize(1);
    for (RecordedEvent enter : enters) {
      assertThat(enter.getThread().getJavaName()).isEmpty();
      assertThat(EventFields.threadName(enter))
          .isEqualTo("virtual-" + enter.getThread().getJavaThreadId());
      assertThat(EventFields.threadName(EventFields.thread(enter, "previousOwner")))
          .matches("virtual-\\d+");
    }
  }

  @Test
  void theHoldersOfAContendedLockAreVirtualThreads() throws Exception {
    ContentionTable table = new ContentionTable();
    ContentionHandler handler =
        new ContentionHandler(Tags.empty(), ContentionKind.MONITOR_ENTER, table);
    handler.bindTo(new SimpleMeterRegistry());
    recorded().forEach(handler::accept);

    LockContention.Lock lock = table.drain(5).locks().get(0);
    assertThat(lock.className()).isEqualTo("java.lang.Object");
    assertThat(lock.owners()).extracting(LockContention.Site::site).containsExactly("virtual-#");
  }

  private List<RecordedEvent> recorded() throws Exception {
    Path path = Path.of(getClass().getResource("/jfr/locks/vt-monitor-enter-jdk21.jfr").toURI());
    return RecordingFile.readAllEvents(path).stream()
        .filter(e -> e.getEventType().getName().equals("jdk.JavaMonitorEnter"))
        .toList();
  }
}
