package io.jvmsentinel.collectors.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.text.SafeText;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fields as a target may send them: any application may commit its own event under a JDK event's
 * name, with fields missing, of other types, or with text of its choosing (the lab's {@code
 * hostile-events} scenario does so against the daemon).
 */
class EventFieldsTest {
  @TempDir Path dir;

  @Name("jdk.ThreadStart")
  static final class ForgedThreadStart extends Event {
    String thread = "\r\nnot a thread";
  }

  @Name("jdk.TLSHandshake")
  static final class ForgedTlsHandshake extends Event {
    String peerHost = "peer\r\n|#forged:tag\u202E" + "h".repeat(10_000);
    String peerPort = "443";
  }

  @Test
  void aForgedThreadFieldReadsAsNoThread() throws Exception {
    RecordedEvent start = recorded(new ForgedThreadStart());

    assertThat(EventFields.thread(start, "thread")).isNull();
    assertThat(EventFields.thread(start, "parentThread")).isNull();
    assertThat(EventFields.count(start, "thread")).isEqualTo(-1);
  }

  @Test
  void textIsCutAndMadeSafeAndAFieldOfAnotherTypeFallsBack() throws Exception {
    RecordedEvent handshake = recorded(new ForgedTlsHandshake());

    assertThat(EventFields.string(handshake, "peerHost"))
        .hasSize(SafeText.MAX_NAME)
        .startsWith("peer__|#forged:tag_hhh");
    assertThat(EventFields.count(handshake, "peerPort", 0)).isZero();
    assertThat(EventFields.string(handshake, "protocolVersion")).isNull();
    assertThat(EventFields.method(handshake, "peerHost")).isNull();
  }

  /** The forged event as recorded (the JDK's own events of that name are recorded beside it). */
  private RecordedEvent recorded(Event forged) throws Exception {
    Path file = dir.resolve("forged.jfr");
    try (Recording recording = new Recording()) {
      recording.enable(forged.getClass());
      recording.start();
      forged.commit();
      recording.stop();
      recording.dump(file);
    }
    long forgedType = EventType.getEventType(forged.getClass()).getId();
    List<RecordedEvent> events = RecordingFile.readAllEvents(file);
    return events.stream()
        .filter(e -> e.getEventType().getId() == forgedType)
        .findFirst()
        .orElseThrow();
  }
}
