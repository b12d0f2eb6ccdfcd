package io.jvmsentinel.collectors.jfr.compiler;

import io.jvmsentinel.collectors.support.EventFields;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/** Reads the fixture recordings under src/test/resources/jfr (see the README.md beside them). */
public final class Recordings {
  private Recordings() {}

  /** The events of the given types in {@code resource}, in end-time order as a stream delivers. */
  public static List<RecordedEvent> events(String resource, String... eventNames) {
    Set<String> wanted = Set.of(eventNames);
    try {
      URL url = Recordings.class.getResource("/jfr/" + resource);
      if (url == null) {
        throw new IllegalArgumentException("no fixture " + resource);
      }
      return RecordingFile.readAllEvents(Path.of(url.toURI())).stream()
          .filter(e -> wanted.contains(e.getEventType().getName()))
          .sorted(Comparator.comparing(RecordedEvent::getEndTime))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The name of the event's thread, "" when it has none. */
  public static String thread(RecordedEvent event) {
    String name = EventFields.threadName(event);
    return name == null ? "" : name;
  }
}
