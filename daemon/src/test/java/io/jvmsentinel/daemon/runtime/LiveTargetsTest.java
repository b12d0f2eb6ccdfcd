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
          registry,
          3);

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
  void theSameJvmWantedUnderAnotherNameIsWatchedOnceAsTheFirstSourceNamesIt() {
    targets.want("config", List.of(target("orders", 7)));
    targets.want("discovery.local", List.of(target("LabMain-7", 7), target("LabMain-8", 8)));
    assertThat(names()).containsExactly("orders", "LabMain-8");
    assertThat(gauge("jvm.sentinel.targets.skipped", "reason", "same_jvm")).isEqualTo(1);
    assertThat(gauge("jvm.sentinel.targets", "source", "config")).isEqualTo(1);
    assertThat(gauge("jvm.sentinel.targets", "source", "discovery.local")).isEqualTo(1);

    targets.want("config", List.of()); // the fixed target goes: discovery's name takes over
    assertThat(names()).containsExactlyInAnyOrder("LabMain-7", "LabMain-8");
    assertThat(gauge("jvm.sentinel.targets.skipped", "reason", "same_jvm")).isZero();
  }

  @Test
  void oneSourceMayNameOneAddressTwiceOnPurpose() {
    // E.g. the same JMX port with two sets of credentials: the file says so, so it is meant.
    targets.want("config", List.of(target("orders", 7), target("orders-readonly", 7)));
    assertThat(names()).containsExactly("orders", "orders-readonly");
    assertThat(gauge("jvm.sentinel.targets.skipped", "reason", "same_jvm")).isZero();
  }

  @Test
  void discoveryBeyondTheCapIsSkippedAndCountedAndFixedTargetsComeFirst() {
    targets.want("config", List.of(target("orders", 1)));
    targets.want(
        "discovery.local",
        List.of(target("a-2", 2), target("b-3", 3), target("c-4", 4), target("d-5", 5)));
    assertThat(names()).containsExactly("orders", "a-2", "b-3");
    assertThat(gauge("jvm.sentinel.targets.skipped", "reason", "max_targets")).isEqualTo(2);

    targets.want("discovery.local", List.of(target("c-4", 4), target("d-5", 5)));
    await().atMost(Duration.ofSeconds(15)).until(() -> names().size() == 3);
    assertThat(names()).containsExactly("orders", "c-4", "d-5");
    assertThat(gauge("jvm.sentinel.targets.skipped", "reason", "max_targets")).isZero();
  }

  @Test
  void churningTargetsLeaveOnlyTheSeriesOfThoseRunning() {
    // JVMs come and go (pods rescheduled, batch jobs): each round replaces every target.
    for (int round = 0; round < 10; round++) {
      long pid = 100L * (round + 1);
      targets.want(
          "discovery.local",
          List.of(target("job-" + pid, pid), target("job-" + (pid + 1), pid + 1)));
    }
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () ->
                assertThat(
                        registry.getMeters().stream()
                            .map(m -> m.getId().getTag("target"))
                            .filter(java.util.Objects::nonNull)
                            .distinct())
                    .containsExactlyInAnyOrder("job-1000", "job-1001"));
  }

  @Test
  void aClosedSetStartsNothingMore() {
    targets.close();
    targets.want("config", List.of(target("orders", 1)));
    assertThat(targets.list()).isEmpty();
    assertThat(built).hasValue(0);
  }

  private double gauge(String name, String tag, String value) {
    return registry.get(name).tag(tag, value).gauge().value();
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
