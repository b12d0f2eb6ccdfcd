package io.jvmsentinel.collectors.jfr.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Site counting, series choice and memory bounds, fed synthetic starts. */
class CreatorSitesTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final ThreadStartHandler starts =
      new ThreadStartHandler(Tags.empty(), new ThreadLifetimes());

  CreatorSitesTest() {
    starts.bindTo(registry);
  }

  @Test
  void aSiteBeyondTheTopTenCountsAsOtherUntilItOvertakesOne() {
    for (int site = 0; site < 10; site++) {
      times(5, "com.acme.S" + site + ".run");
    }

    times(5, "com.acme.Late.run");
    assertThat(series("other")).isEqualTo(5);
    assertThat(
            registry.find("jvm.threads.started.by.site").tag("site", "com.acme.Late.run").counter())
        .isNull();

    // The sixth start puts it strictly above the others: from now on it has its own series.
    times(2, "com.acme.Late.run");
    assertThat(series("com.acme.Late.run")).isEqualTo(2);
    assertThat(series("other")).isEqualTo(5);
    assertThat(series("com.acme.S0.run")).isEqualTo(5);
    assertThat(sumOfSeries()).isEqualTo(57);
  }

  @Test
  void atMostFiftySitesEverGetASeries() {
    // Each new site outgrows all earlier ones, so each in turn enters the top ten.
    long total = 0;
    for (int site = 0; site < 100; site++) {
      times(site + 1, "com.acme.Wave" + site + ".run");
      total += site + 1;
    }

    Collection<Counter> series = registry.get("jvm.threads.started.by.site").counters();
    assertThat(series).hasSize(ThreadStartHandler.MAX_SERIES + 1);
    assertThat(
            registry
                .find("jvm.threads.started.by.site")
                .tag("site", "com.acme.Wave49.run")
                .counter())
        .isNotNull();
    assertThat(
            registry
                .find("jvm.threads.started.by.site")
                .tag("site", "com.acme.Wave50.run")
                .counter())
        .isNull();
    assertThat(sumOfSeries()).isEqualTo(total);
    assertThat(starts.totalStarts()).isEqualTo(total);
  }

  @Test
  void memoryStaysBoundedUnderManyDistinctSitesAndNames() {
    CreatorSites sites = new CreatorSites(256, 10, 50);
    List<StackFrame> deep = new ArrayList<>();
    for (int i = 0; i < StartedThread.MAX_FRAMES; i++) {
      deep.add(new StackFrame("com.acme.Deep", "f" + i, i));
    }
    for (int i = 0; i < 20_000; i++) {
      // A new top frame each time: every start is a new site, and a new thread name.
      deep.set(0, new StackFrame("com.acme.Gen" + i, "spawn", 1));
      String name = "name-" + (char) ('a' + i % 26) + i;
      StartedThread start = new StartedThread(i, Starts.T0, name, name, deep, false);
      sites.add(CreatorSite.of(start.frames(), false), false, start);
    }

    assertThat(sites.total()).isEqualTo(20_000);
    assertThat(sites.trackedSites()).isEqualTo(256);
    // One-off sites never win a series on a count inherited from an evicted site.
    assertThat(sites.seriesSites()).hasSize(10);
    ThreadStartReport report = sites.report(Integer.MAX_VALUE, 0, 0);
    assertThat(report.sites()).hasSize(256);
    assertThat(report.sites())
        .allSatisfy(site -> assertThat(site.threadNames()).hasSizeLessThanOrEqualTo(5));
    // Space-Saving: tracked counts always add up to the total, so shares add up to 1.
    assertThat(report.sites().stream().mapToDouble(ThreadStartReport.Site::share).sum())
        .isCloseTo(1.0, within(1e-9));
    assertThat(sites.collapsed().lines()).hasSize(256);
  }

  @Test
  void samplesAreCutToTheRecordedDepth() {
    List<StackFrame> frames = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      frames.add(new StackFrame("com.acme.R", "f" + i, i));
    }
    CreatorSites sites = new CreatorSites(4, 10, 50);
    List<StackFrame> cut = frames.subList(0, StartedThread.MAX_FRAMES);
    sites.add("com.acme.R.f0", false, new StartedThread(1, Starts.T0, "t", "p", cut, true));

    ThreadStartReport.Site site = sites.report(1, 0, 0).sites().get(0);
    assertThat(site.sampleStack()).hasSize(64);
    assertThat(site.sampleTruncated()).isTrue();
  }

  @Test
  void collapsedStacksAreRootFirstWeightedBySiteCountBusiestFirst() {
    CreatorSites sites = new CreatorSites(16, 10, 50);
    StartedThread jobs =
        Starts.start(1, "job-1", "a.Jobs.spawn:30", "a.Jobs.loop:20", "a.Main.main:10");
    StartedThread timer = Starts.start(2, "t", "java.util.Timer.<init>:188", "a.Main.main:11");
    StartedThread bare = new StartedThread(3, Starts.T0, "x", null, null, false);
    for (StartedThread start : List.of(jobs, jobs, jobs, timer, bare)) {
      sites.add(CreatorSite.of(start.frames(), start.truncated()), false, start);
    }

    assertThat(sites.collapsed())
        .isEqualTo(
            "a.Main.main:10;a.Jobs.loop:20;a.Jobs.spawn:30 3\n"
                + "a.Main.main:11;java.util.Timer.<init>:188 1\n"
                + "unknown 1\n");
  }

  @Test
  void threadNamesAreGroupedWithDigitsAsHashes() {
    assertThat(CreatorSites.pattern("pool-3-thread-17")).isEqualTo("pool-#-thread-#");
    assertThat(CreatorSites.pattern("HandshakeCompletedNotify-Thread"))
        .isEqualTo("HandshakeCompletedNotify-Thread");
    assertThat(CreatorSites.pattern("C2 CompilerThread0")).isEqualTo("C# CompilerThread#");
    assertThat(CreatorSites.pattern(null)).isEqualTo("unknown");
    assertThat(CreatorSites.pattern("n".repeat(10_000))).hasSize(128);
  }

  @Test
  void snapshotsFromAnotherThreadWhileStartsArriveAreConsistent() throws InterruptedException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread stream =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < 20_000; i++) {
                  starts.record(Starts.at("com.acme.C" + (i % 500) + ".run"));
                }
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    stream.start();
    while (stream.isAlive()) {
      ThreadStartReport report = starts.snapshot(20);
      long listed = report.sites().stream().mapToLong(ThreadStartReport.Site::count).sum();
      assertThat(listed).isLessThanOrEqualTo(report.totalStarts());
      assertThat(starts.collapsedStacks()).doesNotContain(";;");
      starts.topSites(5);
    }
    stream.join();

    assertThat(failure.get()).isNull();
    assertThat(starts.totalStarts()).isEqualTo(20_000);
    assertThat(sumOfSeries()).isEqualTo(20_000);
  }

  private void times(int n, String site) {
    for (int i = 0; i < n; i++) {
      starts.record(Starts.at(site));
    }
  }

  private double series(String site) {
    return registry.get("jvm.threads.started.by.site").tag("site", site).counter().count();
  }

  private double sumOfSeries() {
    return registry.get("jvm.threads.started.by.site").counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }
}
