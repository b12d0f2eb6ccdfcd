import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.jfr.JfrHandlers;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.EventStream;

/**
 * The daemon's processing capacity without the network: parses a recording the way a remote stream
 * does (ordered) and hands each event to jvm-sentinel's handlers, in three passes: parse only,
 * handlers' full path, handlers' shed path. Prints events/s for each.
 * Usage: java -cp jvm-sentinel.jar ReplayCapacity.java recording.jfr [passes]
 */
public class ReplayCapacity {
  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    int passes = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    for (int pass = 1; pass <= passes; pass++) {
      for (String mode : new String[] {"parse", "full", "shed"}) {
        JfrHandlers handlers = JfrHandlers.create(Tags.of("target", "replay"));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Map<String, JfrEventHandler> byName = new HashMap<>();
        for (JfrEventHandler handler : handlers.all()) {
          handler.bindTo(registry);
          byName.put(handler.eventName(), handler);
        }
        AtomicLong events = new AtomicLong();
        long start = System.nanoTime();
        try (EventStream stream = EventStream.openFile(file)) {
          stream.setOrdered(true);
          stream.onEvent(
              event -> {
                events.incrementAndGet();
                JfrEventHandler handler = byName.get(event.getEventType().getName());
                if (handler == null || mode.equals("parse")) {
                  return;
                }
                if (mode.equals("shed") && handler.sheddable()) {
                  handler.shed(event);
                } else {
                  handler.accept(event);
                }
              });
          stream.start();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
            "pass=%d mode=%-5s events=%d seconds=%.2f events_per_s=%.0f%n",
            pass, mode, events.get(), seconds, events.get() / seconds);
      }
    }
  }
}
