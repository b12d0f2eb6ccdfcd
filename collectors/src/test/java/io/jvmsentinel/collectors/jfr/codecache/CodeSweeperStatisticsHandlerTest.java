package io.jvmsentinel.collectors.jfr.codecache;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.compiler.Recordings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

class CodeSweeperStatisticsHandlerTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final CodeSweeperStatisticsHandler handler =
      new CodeSweeperStatisticsHandler(Tags.of("target", "t1"));

  @Test
  void exportsTheSweepersCumulativeCountsOfTheLastEvent() {
    handler.bindTo(registry);
    List<RecordedEvent> events =
        Recordings.events(
            "codecache/codecache-sweeper-jdk17.jfr", CodeSweeperStatisticsHandler.EVENT);
    events.forEach(handler::accept);
    RecordedEvent last = events.get(events.size() - 1);

    assertThat(counter("jvm.codecache.sweeper.sweeps")).isEqualTo(last.getInt("sweepCount"));
    assertThat(counter("jvm.codecache.sweeper.methods.reclaimed"))
        .isEqualTo(last.getInt("methodReclaimedCount"))
        .isPositive();
    assertThat(counter("jvm.codecache.sweeper.time"))
        .isEqualTo(last.getDuration("totalSweepTime").toNanos() / 1e9);
  }

  @Test
  void noSweeperSeriesForTargetsWithoutASweeper() {
    handler.bindTo(registry);
    Recordings.events("codecache/codecache-churn-jdk25.jfr", CodeSweeperStatisticsHandler.EVENT)
        .forEach(handler::accept);

    assertThat(registry.find("jvm.codecache.sweeper.sweeps").functionCounter()).isNull();
    assertThat(handler.latest()).isNull();
  }

  private double counter(String name) {
    return registry.get(name).tag("target", "t1").functionCounter().count();
  }
}
