package io.jvmsentinel.daemon.web.charts;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport;
import java.util.List;
import org.junit.jupiter.api.Test;

class CreatorFlameGraphTest {
  private static final String FINISH = "sun.security.ssl.TransportContext.finishHandshake:664";

  private static ThreadStartReport.Site site(
      String site, long count, List<String> stack, String threadName) {
    return site(site, false, count, stack, threadName);
  }

  private static ThreadStartReport.Site site(
      String site, boolean own, long count, List<String> stack, String threadName) {
    return new ThreadStartReport.Site(
        site,
        own,
        count,
        0,
        0,
        stack,
        false,
        List.of(new ThreadStartReport.NameCount(threadName, count)),
        List.of());
  }

  @Test
  void mergesTheSitesStacksUnderThreadStartWidestFirstAndLabelsTheKnownCause() {
    ThreadStartReport report =
        new ThreadStartReport(
            120,
            100,
            0,
            100,
            List.of(
                site(
                    "sun.security.ssl.TransportContext.finishHandshake",
                    90,
                    List.of(FINISH, "sun.security.ssl.Finished.produce:672", "App.call:10"),
                    "HandshakeCompletedNotify-Thread"),
                site("com.example.Pool.grow", 8, List.of("com.example.Pool.grow:5"), "pool-#"),
                site("unknown", 2, List.of(), "x")));

    CreatorFlameGraph flame = CreatorFlameGraph.of(report);

    CreatorFlameGraph.Node root = flame.root();
    assertThat(root.name()).isEqualTo("java.lang.Thread.start");
    assertThat(root.value()).isEqualTo(100);
    assertThat(root.children())
        .extracting(CreatorFlameGraph.Node::name)
        .containsExactly(FINISH, "com.example.Pool.grow:5", "unknown");
    CreatorFlameGraph.Node finish = root.children().get(0);
    assertThat(finish.value()).isEqualTo(90);
    assertThat(finish.cause().id()).isEqualTo("JDK-8246039");
    assertThat(finish.children().get(0).cause()).isNull();
    assertThat(finish.children().get(0).children().get(0).name()).isEqualTo("App.call:10");
    assertThat(root.children().get(1).cause()).isNull();
    assertThat(flame.totalStarts()).isEqualTo(120);
  }

  @Test
  void aSiteWithoutItsKnownThreadNamesIsNotLabelled() {
    ThreadStartReport report =
        new ThreadStartReport(
            5,
            5,
            0,
            0,
            List.of(
                site(
                    "sun.security.ssl.TransportContext.finishHandshake",
                    5,
                    List.of(FINISH),
                    "something-else")));

    assertThat(CreatorFlameGraph.of(report).root().children().get(0).cause()).isNull();
  }

  @Test
  void theMonitoringsOwnStartsAreNeverLabelledWithACause() {
    // The JDK-8246039 signature on the daemon's own (TLS) JMX connection: its frames, not the bug.
    ThreadStartReport report =
        new ThreadStartReport(
            5,
            5,
            5,
            0,
            List.of(
                site(
                    "sun.security.ssl.TransportContext.finishHandshake",
                    true,
                    5,
                    List.of(FINISH),
                    "HandshakeCompletedNotify-Thread")));

    assertThat(CreatorFlameGraph.of(report).root().children().get(0).cause()).isNull();
  }
}
