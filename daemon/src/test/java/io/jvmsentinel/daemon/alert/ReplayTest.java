package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.testing.Jdks;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The production rules over recorded signal timelines of lab scenarios (fixtures in
 * src/test/resources/replay, described in the README there): every rule is judged against every
 * recorded scenario in milliseconds, so a change of detection logic is tested without the live
 * scenario suite.
 */
class ReplayTest {
  private static final Path FIXTURES = Jdks.repoRoot().resolve("daemon/src/test/resources/replay");

  /** The demo's detection settings: a one-minute warm-up. */
  private static final WarmUp DEMO = new WarmUp(Duration.ofMinutes(1), Duration.ofMinutes(2));

  @Test
  void mixedDemoPagesOnlyItsIncidentsEachWithItsOwnCause() throws IOException {
    List<Replay.Page> pages = Replay.run(FIXTURES.resolve("mixed-jdk17.signals.jsonl.gz"), DEMO);

    List<Replay.Page> firing =
        pages.stream().filter(p -> p.status() == AlertNotification.Status.FIRING).toList();
    assertThat(firing)
        .as("pages: %s", pages)
        .extracting(Replay.Page::rule)
        .containsExactly("ThreadStorm", "ThreadStorm", "GcOverhead", "DeoptimizationStorm");
    assertThat(firing.get(0).summary())
        .contains("from io.jvmsentinel.lab.RequestDispatcher.dispatch")
        .doesNotContain("finishHandshake");
    assertThat(firing.get(1).summary())
        .as("the TLS storm names its own creator and cause at firing")
        .contains("from sun.security.ssl.TransportContext.finishHandshake")
        .contains("JDK-8246039")
        .doesNotContain("RequestDispatcher");
    assertThat(pages)
        .filteredOn(p -> p.status() == AlertNotification.Status.RESOLVED)
        .extracting(Replay.Page::rule)
        .containsExactlyInAnyOrder(
            "ThreadStorm", "ThreadStorm", "GcOverhead", "DeoptimizationStorm");
  }

  @Test
  void churnFromBootPagesWithinAMinuteEvenDuringWarmUp() throws IOException {
    // codecache-churn on JDK 17 with a 4 MB cache: classes copied, made hot and unloaded from the
    // first second; the default three-minute warm-up covers the whole recording.
    List<SignalSample> samples =
        SignalRecorder.read(FIXTURES.resolve("codecache-churn-4m-jdk17.signals.jsonl.gz"));
    List<Replay.Page> pages = Replay.run(samples, WarmUp.DEFAULT);

    assertThat(pages)
        .as("pages: %s", pages)
        .filteredOn(p -> p.status() == AlertNotification.Status.FIRING)
        .extracting(Replay.Page::rule)
        .contains("CodeCacheChurn", "CompilerCpuHigh")
        .doesNotContain("ThreadStorm", "GcOverhead", "TlsHandshakeStorm", "DeoptimizationStorm");
    Replay.Page churn =
        pages.stream().filter(p -> p.rule().equals("CodeCacheChurn")).findFirst().orElseThrow();
    double churnStartsAt = firstSecondWith(samples, s -> s.recompilations() > 0);
    assertThat(churn.atSecond() - churnStartsAt).isLessThan(60);
    assertThat(churn.summary()).contains("compiled again").contains("being flushed");
  }

  /** Seconds from the first sample to the first one matching {@code condition}. */
  private static double firstSecondWith(
      List<SignalSample> samples, java.util.function.Predicate<SignalSample> condition) {
    SignalSample match = samples.stream().filter(condition).findFirst().orElseThrow();
    return Duration.between(samples.get(0).at(), match.at()).toMillis() / 1000.0;
  }
}
