package io.jvmsentinel.collectors.jfr.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/** The recorded lab TLS scenarios under {@code src/test/resources/jfr/tls} (see the README). */
final class TlsFixtures {

  static final String LISTENER_STORM_17 = "tls-listener-storm-jdk17.jfr";
  static final String FULL_HANDSHAKES_17 = "tls-full-handshakes-jdk17.jfr";
  static final String FULL_HANDSHAKES_25 = "tls-full-handshakes-jdk25.jfr";
  static final String RESUMED_17 = "tls-resumed-jdk17.jfr";

  private TlsFixtures() {}

  /**
   * Every event of the fixture by end time, as an ordered stream delivers them. The file order is
   * not time order, not even per thread: on JDK 17 the first connection's {@code
   * jdk.X509Validation} events come after later handshakes.
   */
  static List<RecordedEvent> events(String fixture) {
    URL url = TlsFixtures.class.getResource("/jfr/tls/" + fixture);
    if (url == null) {
      throw new IllegalArgumentException("no fixture " + fixture);
    }
    try {
      List<RecordedEvent> events =
          new ArrayList<>(RecordingFile.readAllEvents(Path.of(url.toURI())));
      events.sort(Comparator.comparing(RecordedEvent::getEndTime));
      return List.copyOf(events);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<RecordedEvent> events(String fixture, String eventName) {
    return events(fixture).stream()
        .filter(event -> event.getEventType().getName().equals(eventName))
        .toList();
  }
}
