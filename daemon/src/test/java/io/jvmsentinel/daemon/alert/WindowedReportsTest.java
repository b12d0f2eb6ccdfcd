package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport;
import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport.Site;
import io.jvmsentinel.daemon.http.HttpEndpoint;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.jvmsentinel.daemon.web.TargetReportRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ?window=} on the thread-start reports: the creators of a recent window only, the
 * monitoring's own marked.
 */
class WindowedReportsTest {
  @TempDir Path tmp;
  private WatchedTarget target;
  private TargetReportRoutes routes;

  @BeforeEach
  void routes() {
    target = UnstartedTarget.create("orders", new SimpleMeterRegistry(), tmp);
    // Ten minutes ago a logger started threads; in the last minute the TLS listener did.
    SignalHistory history =
        Samples.history(
            600,
            (s, t) -> {
              if (t < 60) {
                s.creators(Samples.site("com.example.AsyncLogger.log", 100, "log-#"));
              } else if (t > 560) {
                s.creators(
                    Samples.site(
                        "sun.security.ssl.TransportContext.finishHandshake",
                        20,
                        "HandshakeCompletedNotify-Thread"));
              }
            });
    routes =
        new TargetReportRoutes(
            () -> List.of(target),
            name -> name.equals("orders") ? Optional.of(history) : Optional.empty());
  }

  @AfterEach
  void close() {
    target.close();
  }

  @Test
  void aWindowNamesOnlyItsOwnCreators() throws IOException {
    String json = body(get("thread-starts", "window=1m"));
    String collapsed = body(get("thread-starts.collapsed", "window=1m"));

    assertThat(json)
        .contains("sun.security.ssl.TransportContext.finishHandshake")
        .doesNotContain("AsyncLogger");
    assertThat(collapsed)
        .startsWith("Main.main:2;sun.security.ssl.TransportContext.finishHandshake:1 ")
        .doesNotContain("AsyncLogger");
    assertThat(body(get("thread-starts", "window=15m"))).contains("AsyncLogger");
  }

  @Test
  void theMonitoringsOwnSitesAreMarkedAndAnImitationOfOneIsNot() {
    String acceptLoop = "sun.rmi.transport.tcp.TCPTransport$AcceptLoop.executeAcceptLoop";
    SignalHistory history =
        Samples.history(
            10,
            (s, t) ->
                s.creators(
                    Samples.site(acceptLoop, true, 1, "RMI TCP Connection(idle)"),
                    Samples.site(acceptLoop, false, 3, "RMI TCP Connection(idle)")));

    ThreadStartReport report = WindowedEvidence.creatorSites(history.all(), 10);
    ThreadStartReport application = WindowedEvidence.creatorSites(history.all(), 10, false);

    // Six ticks of one own and three imitating starts each.
    assertThat(report.sites())
        .extracting(Site::site, Site::own, Site::count)
        .containsExactly(tuple(acceptLoop, false, 18L), tuple(acceptLoop, true, 6L));
    assertThat(report.ownStarts()).isEqualTo(6);
    assertThat(report.applicationStarts()).isEqualTo(18);
    assertThat(application.sites()).extracting(Site::own).containsExactly(false);
    assertThat(application.ownStarts()).isEqualTo(6);
  }

  @Test
  void aBadWindowIsA400ThatSaysWhatIsAllowed() throws IOException {
    HttpEndpoint.Response tooLong = get("thread-starts", "window=2h");
    HttpEndpoint.Response garbage = get("thread-starts", "window=soon");

    assertThat(tooLong.status()).isEqualTo(400);
    assertThat(body(tooLong)).contains("at most 15m");
    assertThat(garbage.status()).isEqualTo(400);
    assertThat(body(garbage)).contains("30s, 5m or 15m");
  }

  private HttpEndpoint.Response get(String report, String query) throws IOException {
    String path = TargetReportRoutes.PREFIX + "orders/" + report;
    return routes.get(new HttpEndpoint.Request("GET", path, path, query, Map.of()));
  }

  private static String body(HttpEndpoint.Response response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
