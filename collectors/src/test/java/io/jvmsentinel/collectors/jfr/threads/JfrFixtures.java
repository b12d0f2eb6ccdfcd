package io.jvmsentinel.collectors.jfr.threads;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;

/** The recordings under src/test/resources/jfr/threads (see the README there). */
final class JfrFixtures {
  static final String THREAD_STARTS_17 = "thread-starts-jdk17.jfr";
  static final String THREAD_STARTS_25 = "thread-starts-jdk25.jfr";
  static final String THREAD_STARTS_NO_STACK_17 = "thread-starts-nostack-jdk17.jfr";
  static final String TLS_NOTIFY_17 = "tls-handshake-notify-jdk17.jfr";
  static final String TLS_NOTIFY_25 = "tls-handshake-notify-jdk25.jfr";
  static final String OWN_FOOTPRINT_11 = "own-footprint-jdk11.jfr";
  static final String OWN_FOOTPRINT_17 = "own-footprint-jdk17.jfr";
  static final String OWN_FOOTPRINT_25 = "own-footprint-jdk25.jfr";
  static final String VT_PINNED_21 = "vt-pinned-jdk21.jfr";
  static final String VT_PINNED_25 = "vt-pinned-jdk25.jfr";

  /** The fixture program's creator methods. */
  static final String FIXTURE =
      "io.jvmsentinel.collectors.jfr.threads.fixtures.ThreadStartsFixture";

  static final String DIRECT_SITE = FIXTURE + ".startDirect";
  static final String POOL_SITE = FIXTURE + ".submitToPool";
  static final String SHUTDOWN_HOOK_SITE = "java.lang.ApplicationShutdownHooks.runHooks";
  static final String TLS_NOTIFY_SITE = "sun.security.ssl.TransportContext.finishHandshake";

  private JfrFixtures() {}

  /**
   * All events of a recording in time order, as a live stream delivers them (the file itself is not
   * sorted), as objects that stay valid after the stream moved on.
   */
  static List<RecordedEvent> events(String fixture) {
    List<RecordedEvent> events = new ArrayList<>();
    try (EventStream stream = EventStream.openFile(path(fixture))) {
      stream.setReuse(false);
      stream.setOrdered(true);
      stream.onEvent(events::add);
      stream.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return events;
  }

  /** Feeds each event to the handler of its type, in order. */
  static void replay(String fixture, ThreadStartHandler starts, ThreadEndHandler ends) {
    for (RecordedEvent event : events(fixture)) {
      String type = event.getEventType().getName();
      if (type.equals(starts.eventName())) {
        starts.accept(event);
      } else if (type.equals(ends.eventName())) {
        ends.accept(event);
      }
    }
  }

  private static Path path(String fixture) {
    URL url = JfrFixtures.class.getResource("/jfr/threads/" + fixture);
    if (url == null) {
      throw new IllegalArgumentException("no fixture " + fixture);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
