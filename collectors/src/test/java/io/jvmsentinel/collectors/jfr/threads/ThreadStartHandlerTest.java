package io.jvmsentinel.collectors.jfr.threads;

import static io.jvmsentinel.collectors.jfr.threads.JfrFixtures.DIRECT_SITE;
import static io.jvmsentinel.collectors.jfr.threads.JfrFixtures.POOL_SITE;
import static io.jvmsentinel.collectors.jfr.threads.JfrFixtures.SHUTDOWN_HOOK_SITE;
import static io.jvmsentinel.collectors.jfr.threads.JfrFixtures.TLS_NOTIFY_SITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport.NameCount;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Thread starts of real recordings (see src/test/resources/jfr/threads/README.md). */
class ThreadStartHandlerTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final ThreadLifetimes lifetimes = new ThreadLifetimes();
  private final ThreadStartHandler starts =
      new ThreadStartHandler(Tags.of("target", "t1"), lifetimes);
  private final ThreadEndHandler ends = new ThreadEndHandler(Tags.of("target", "t1"), lifetimes);

  ThreadStartHandlerTest() {
    starts.bindTo(registry);
    ends.bindTo(registry);
  }

  @Test
  void declaresThreadStartWithStackTraces() {
    assertThat(starts.eventName()).isEqualTo("jdk.ThreadStart");
    assertThat(starts.settings().toJfrSettings("jdk.ThreadStart"))
        .containsEntry("jdk.ThreadStart#stackTrace", "true")
        .doesNotContainKeys("jdk.ThreadStart#period", "jdk.ThreadStart#threshold");
  }

  @ParameterizedTest
  @ValueSource(strings = {JfrFixtures.THREAD_STARTS_17, JfrFixtures.THREAD_STARTS_25})
  void namesTheCreatorOfDirectAndPooledStarts(String fixture) {
    JfrFixtures.replay(fixture, starts, ends);

    // 25 direct, 4 pool workers, the JFR shutdown hook, and 3 JVM starts without a stack
    // (main, Notification Thread, DestroyJavaVM).
    assertThat(starts.totalStarts()).isEqualTo(33);
    assertThat(starts.topSites(10))
        .containsExactly(
            new SiteCount(DIRECT_SITE, 25),
            new SiteCount(POOL_SITE, 4),
            new SiteCount("unknown", 3),
            new SiteCount(SHUTDOWN_HOOK_SITE, 1));
  }

  @ParameterizedTest
  @ValueSource(strings = {JfrFixtures.THREAD_STARTS_17, JfrFixtures.THREAD_STARTS_25})
  void reportsThreadNamePatternsParentsAndASampleStackPerSite(String fixture) {
    JfrFixtures.replay(fixture, starts, ends);

    Map<String, ThreadStartReport.Site> sites = sites(starts.snapshot(10));
    ThreadStartReport.Site direct = sites.get(DIRECT_SITE);
    assertThat(direct.threadNames()).containsExactly(new NameCount("worker-#", 25));
    assertThat(direct.parentThreads()).containsExactly(new NameCount("main", 25));
    assertThat(direct.sampleStack())
        .hasSize(2)
        .first(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith(DIRECT_SITE + ":");
    assertThat(direct.sampleTruncated()).isFalse();
    assertThat(direct.maxOvercount()).isZero();

    ThreadStartReport.Site pool = sites.get(POOL_SITE);
    assertThat(pool.threadNames()).containsExactly(new NameCount("pool-#-thread-#", 4));
    // The plumbing stays in the sample: it shows how the pool started the thread.
    assertThat(pool.sampleStack())
        .anySatisfy(
            f -> assertThat(f).startsWith("java.util.concurrent.ThreadPoolExecutor.addWorker:"))
        .last(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith(JfrFixtures.FIXTURE + ".main:");
  }

  @ParameterizedTest
  @ValueSource(strings = {JfrFixtures.TLS_NOTIFY_17, JfrFixtures.TLS_NOTIFY_25})
  void theTlsHandshakeNotifyThreadsOfJdk8246039AreNamedAfterFinishHandshake(String fixture) {
    JfrFixtures.replay(fixture, starts, ends);

    ThreadStartReport report = starts.snapshot(3);
    ThreadStartReport.Site top = report.sites().get(0);
    assertThat(top.site()).isEqualTo(TLS_NOTIFY_SITE);
    assertThat(top.count()).isEqualTo(12);
    assertThat(top.threadNames())
        .containsExactly(new NameCount("HandshakeCompletedNotify-Thread", 12));
    assertThat(top.parentThreads()).containsExactly(new NameCount("main", 12));
    assertThat(top.sampleStack()).first().asString().startsWith(TLS_NOTIFY_SITE + ":");
    // The Timer the HTTPS server creates is named after the server, not java.util.Timer.
    assertThat(starts.topSites(10))
        .contains(
            new SiteCount("sun.net.httpserver.ServerImpl.<init>", 1),
            new SiteCount("sun.net.httpserver.ServerImpl.start", 1));
    assertThat(seriesCount(TLS_NOTIFY_SITE)).isEqualTo(12);
  }

  @Test
  void startsWithoutStackTracesCountAsUnknownInsteadOfFailing() {
    JfrFixtures.replay(JfrFixtures.THREAD_STARTS_NO_STACK_17, starts, ends);

    assertThat(starts.topSites(10)).containsExactly(new SiteCount("unknown", 33));
    assertThat(seriesCount("unknown")).isEqualTo(33);
    assertThat(starts.snapshot(1).sites().get(0).sampleStack()).isEmpty();
  }

  @Test
  void betweenSamplingWindowsStackLessStartsAreCountedButNotAttributed() {
    starts.stacksSampled(true);
    JfrFixtures.replay(JfrFixtures.THREAD_STARTS_NO_STACK_17, starts, ends);

    assertThat(starts.totalStarts()).isEqualTo(33);
    assertThat(starts.topSites(10)).isEmpty();
    assertThat(lifetimes.shortLivedCount()).isEqualTo(25);

    // A sampling window: these starts carry stacks, and shares are of the sampled starts.
    JfrFixtures.replay(JfrFixtures.THREAD_STARTS_17, starts, ends);

    ThreadStartReport report = starts.snapshot(1);
    assertThat(report.totalStarts()).isEqualTo(66);
    // The recording's two stackless JVM starts (its "unknown" site) count as unsampled here.
    assertThat(report.sampledStarts()).isEqualTo(31);
    assertThat(report.sites().get(0).site()).isEqualTo(DIRECT_SITE);
    assertThat(report.sites().get(0).share()).isCloseTo(25 / 31.0, within(1e-9));
    assertThat(seriesCount(DIRECT_SITE)).isEqualTo(25);
  }

  @Test
  void shedStartsKeepTheTotalExactAndAreNotAttributed() {
    assertThat(starts.sheddable()).isTrue();
    for (RecordedEvent event : JfrFixtures.events(JfrFixtures.THREAD_STARTS_17)) {
      if (event.getEventType().getName().equals(starts.eventName())) {
        starts.shed(event);
      }
    }

    assertThat(starts.totalStarts()).isEqualTo(33);
    assertThat(starts.totalEvents()).isEqualTo(33);
    assertThat(starts.topSites(10)).isEmpty();
    assertThat(starts.snapshot(5).sampledStarts()).isZero();
  }

  @Test
  void syntheticStartsWithNothingKnownCountAsUnknown() {
    starts.record(new StartedThread(-1, null, null, null, null, false));

    assertThat(starts.topSites(1)).containsExactly(new SiteCount("unknown", 1));
    assertThat(starts.snapshot(1).sites().get(0).threadNames())
        .containsExactly(new NameCount("unknown", 1));
  }

  @Test
  void eachSiteWithinTheTopTenHasItsOwnSeriesAndTheSeriesAddUpToAllStarts() {
    JfrFixtures.replay(JfrFixtures.THREAD_STARTS_17, starts, ends);

    assertThat(seriesCount(DIRECT_SITE)).isEqualTo(25);
    assertThat(seriesCount(POOL_SITE)).isEqualTo(4);
    assertThat(seriesCount(SHUTDOWN_HOOK_SITE)).isEqualTo(1);
    assertThat(seriesCount("unknown")).isEqualTo(3);
    assertThat(seriesCount("other")).isZero();
    assertThat(registry.get("jvm.threads.started.by.site").counters())
        .extracting(c -> c.getId().getTag("target"))
        .containsOnly("t1");
  }

  @Test
  void sharesOfAllTrackedSitesAddUpToOne() {
    JfrFixtures.replay(JfrFixtures.TLS_NOTIFY_25, starts, ends);

    ThreadStartReport report = starts.snapshot(Integer.MAX_VALUE);
    assertThat(report.totalStarts()).isEqualTo(18);
    assertThat(report.sites().stream().mapToDouble(ThreadStartReport.Site::share).sum())
        .isCloseTo(1.0, within(1e-9));
    assertThat(report.sites().get(0).share()).isCloseTo(12.0 / 18, within(1e-9));
  }

  @Test
  void collapsedStacksWeightEachSampleByItsSiteRootFirst() {
    JfrFixtures.replay(JfrFixtures.TLS_NOTIFY_17, starts, ends);

    String[] lines = starts.collapsedStacks().split("\n");
    assertThat(lines[0])
        .startsWith("io.jvmsentinel.collectors.jfr.threads.fixtures.TlsHandshakeFixture.main:")
        .contains(";sun.net.www.protocol.https.HttpsClient.afterConnect:")
        .matches(".*;sun\\.security\\.ssl\\.TransportContext\\.finishHandshake:\\d+ 12");
    assertThat(lines).contains("unknown 3");
    assertThat(lines)
        .extracting(line -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)))
        .containsExactly(12L, 3L, 1L, 1L, 1L);
  }

  @Test
  void aStoppedStreamKeepsSiteCountsAndSeries() {
    JfrFixtures.replay(JfrFixtures.THREAD_STARTS_17, starts, ends);

    starts.streamStopped();
    starts.streamStopped();

    assertThat(starts.totalStarts()).isEqualTo(33);
    assertThat(seriesCount(DIRECT_SITE)).isEqualTo(25);
    assertThat(lifetimes.inFlight()).isZero();
  }

  private double seriesCount(String site) {
    Counter counter =
        registry.get("jvm.threads.started.by.site").tag("target", "t1").tag("site", site).counter();
    return counter.count();
  }

  private static Map<String, ThreadStartReport.Site> sites(ThreadStartReport report) {
    return report.sites().stream().collect(Collectors.toMap(ThreadStartReport.Site::site, s -> s));
  }
}
