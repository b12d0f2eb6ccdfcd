package io.jvmsentinel.daemon.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.alert.UnstartedTarget;
import io.jvmsentinel.daemon.config.PidAddress;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The live target set: sources add and remove targets; removed targets leave no series. */
class LiveTargetsTest {
  @TempDir Path tmp;
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicInteger built = new AtomicInteger();
  private final LiveTargets targets =
      new LiveTargets(
          config ->
              UnstartedTarget.create(
                  config.name(), registry, tmp.resolve(built.incrementAndGet() + "")),
          registry);

  @AfterEach
  void close() {
    targets.close();
  }

  @Test
  void aSourceAddsAndRemovesTargetsAndARemovedTargetsSeriesGo() {
    targets.want("config", List.of(target("orders", 1), target("payments", 2)));
    assertThat(names()).containsExactly("orders", "payments");
    assertThat(series("payments")).isPositive();

    targets.want("config", List.of(target("orders", 1)));
    assertThat(names()).containsExactly("orders");
    await().atMost(Duration.ofSeconds(15)).until(() -> series("payments") == 0);
    assertThat(series("orders")).isPositive();
  }

  @Test
  void sourcesAreIndependentAndTheFirstToWantANameOwnsIt() {
    targets.want("config", List.of(target("orders", 1)));
    targets.want("discovery.local", List.of(target("orders", 9), target("LabMain-7", 7)));
    assertThat(names()).containsExactly("orders", "LabMain-7");

    targets.want("discovery.local", List.of());
    assertThat(names()).containsExactly("orders");
  }

  @Test
  void aChangedTargetIsRestartedAsANewInstanceOnceTheOldOneClosed() {
    targets.want("config", List.of(target("orders", 1)));
    WatchedTarget first = targets.list().get(0);
    targets.want("config", List.of(target("orders", 2)));
    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(
            () ->
                assertThat(targets.list())
                    .singleElement()
                    .isNotSameAs(first)
                    .satisfies(t -> assertThat(t.name()).isEqualTo("orders")));
    assertThat(series("orders")).isPositive();
  }

  @Test
  void aClosedSetStartsNothingMore() {
    targets.close();
    targets.want("config", List.of(target("orders", 1)));
    assertThat(targets.list()).isEmpty();
    assertThat(built).hasValue(0);
  }

  private List<String> names() {
    return targets.list().stream().map(WatchedTarget::name).toList();
  }

  private long series(String target) {
    return registry.getMeters().stream()
        .filter(m -> target.equals(m.getId().getTag("target")))
        .count();
  }

  private static TargetConfig target(String name, long pid) {
    return new TargetConfig(
        name,
        new PidAddress(pid),
        Optional.empty(),
        Optional.empty(),
        Duration.ofSeconds(10),
        Map.of());
  }
}
