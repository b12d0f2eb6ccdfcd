package io.jvmsentinel.daemon.alert;

import io.jvmsentinel.collectors.jfr.JfrHandlers;
import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.jvmsentinel.daemon.jfr.LocalJfrStorage;
import io.jvmsentinel.daemon.jfr.RecordingOwner;
import io.jvmsentinel.daemon.support.Backoff;
import io.jvmsentinel.daemon.target.Connector;
import io.jvmsentinel.daemon.target.PollWatchdog;
import io.jvmsentinel.daemon.target.TargetSession;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import javax.management.remote.JMXConnector;

/** A target wired like the daemon wires one, never started: rules read evidence from it. */
public final class UnstartedTarget {
  private UnstartedTarget() {}

  public static WatchedTarget create(String name, MeterRegistry registry, Path tmp) {
    return create(Tags.of("target", name), registry, tmp);
  }

  /** A target with these tags; its name is the {@code target} tag. */
  public static WatchedTarget create(Tags tags, MeterRegistry registry, Path tmp) {
    String name =
        tags.stream().filter(t -> t.getKey().equals("target")).findFirst().orElseThrow().getValue();
    Connector nowhere =
        new Connector() {
          @Override
          public JMXConnector connect() throws IOException {
            throw new IOException("not connected in this test");
          }

          @Override
          public String describe() {
            return "test target " + name;
          }
        };
    TargetSession session =
        new TargetSession(
            name,
            nowhere,
            Duration.ofSeconds(10),
            Duration.ofSeconds(5),
            new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1), () -> 0.5),
            registry,
            tags,
            Clock.systemUTC(),
            new PollWatchdog());
    JfrHandlers handlers = JfrHandlers.create(tags);
    JfrStreamSession stream =
        new JfrStreamSession(
            name,
            handlers.all(),
            new JfrConfig(false, Duration.ofMinutes(5), 32, Duration.ofSeconds(20)),
            () -> null,
            registry,
            tags,
            LocalJfrStorage.unbounded(tmp, JfrConfig.DEFAULT),
            new RecordingOwner("test-host", "test"),
            Duration.ZERO,
            Clock.systemUTC(),
            JfrStreamSession.newThread(name));
    return new WatchedTarget(session, handlers, stream);
  }
}
