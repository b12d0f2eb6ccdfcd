package io.jvmsentinel.collectors.jfr.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport.NameCount;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The monitoring's own thread starts, told by their stacks: in real recordings of a JVM watched
 * over JMX (OwnFootprintFixture, see src/test/resources/jfr/threads/README.md), and on stacks built
 * for the cases a recording cannot show.
 */
class OwnFootprintTest {
  private static final String ACCEPT_LOOP =
      "sun.rmi.transport.tcp.TCPTransport$AcceptLoop.executeAcceptLoop";

  private final ThreadLifetimes lifetimes = new ThreadLifetimes();
  private final ThreadStartHandler starts = new ThreadStartHandler(Tags.empty(), lifetimes);

  @ParameterizedTest
  @CsvSource({
    JfrFixtures.OWN_FOOTPRINT_11 + ", jdk.management.jfr.StreamManager.scheduleAbort",
    JfrFixtures.OWN_FOOTPRINT_17 + ", jdk.jfr.internal.management.StreamManager.scheduleAbort",
    JfrFixtures.OWN_FOOTPRINT_25 + ", jdk.jfr.internal.management.StreamManager.scheduleAbort"
  })
  void theJdkServingARemoteClientIsTheMonitoringsOwn(String fixture, String streamTimer) {
    JfrFixtures.replay(fixture, starts, new ThreadEndHandler(Tags.empty(), lifetimes));

    ThreadStartReport report = starts.snapshot(50);
    // Two RMI connections (two callers at once), the JMX connection's timeout thread, the RMI
    // scheduler of the client's lease, and the timer of the JFR stream read over JMX.
    assertThat(report.sites())
        .filteredOn(ThreadStartReport.Site::own)
        .extracting(ThreadStartReport.Site::site, ThreadStartReport.Site::count)
        .containsExactlyInAnyOrder(
            tuple(ACCEPT_LOOP, 2L),
            tuple("com.sun.jmx.remote.internal.ServerCommunicatorAdmin.<init>", 1L),
            tuple("sun.rmi.transport.DGCImpl.dirty", 1L),
            tuple(streamTimer, 1L));
    assertThat(report.ownStarts()).isEqualTo(5);
    assertThat(starts.ownStarts()).isEqualTo(5);
    assertThat(report.applicationStarts()).isEqualTo(report.sampledStarts() - 5);
  }

  @ParameterizedTest
  @CsvSource({
    JfrFixtures.OWN_FOOTPRINT_11,
    JfrFixtures.OWN_FOOTPRINT_17,
    JfrFixtures.OWN_FOOTPRINT_25
  })
  void codeOfTheApplicationStaysTheApplicationsWhateverItIsNamed(String fixture) {
    JfrFixtures.replay(fixture, starts, new ThreadEndHandler(Tags.empty(), lifetimes));

    List<ThreadStartReport.Site> application =
        starts.snapshot(50).sites().stream().filter(site -> !site.own()).toList();
    // The imposter: the accept loop's class name, its thread names, its own class loader.
    assertThat(application)
        .filteredOn(site -> site.site().equals(ACCEPT_LOOP))
        .singleElement()
        .satisfies(
            imposter -> {
              assertThat(imposter.count()).isEqualTo(5);
              assertThat(imposter.threadNames())
                  .containsExactly(new NameCount("RMI TCP Connection(idle)", 5));
            });
    // The program's own JMX server and client: JDK code, started from the program's code.
    assertThat(application)
        .extracting(ThreadStartReport.Site::site)
        .contains(
            "sun.rmi.transport.tcp.TCPTransport.listen",
            "com.sun.jmx.remote.internal.ClientCommunicatorAdmin.<init>",
            "sun.rmi.transport.DGCClient$EndpointEntry.<init>");
  }

  @Test
  void eachTicksTableMarksTheOwnSitesAndCountsThemAll() {
    JfrFixtures.replay(
        JfrFixtures.OWN_FOOTPRINT_17, starts, new ThreadEndHandler(Tags.empty(), lifetimes));

    SiteStarts.Interval tick = starts.drainInterval(2);
    assertThat(tick.ownStarts()).isEqualTo(5);
    assertThat(tick.sites())
        .extracting(SiteStarts::site, SiteStarts::own, SiteStarts::count)
        .containsExactly(tuple(ACCEPT_LOOP, false, 5L), tuple("unknown", false, 3L));
  }

  @Test
  void anApplicationFrameAnywhereAboveTheServingFrameMakesItTheApplications() {
    // The application's MBean, invoked by a remote client, starts a thread.
    List<StackFrame> appMBean =
        List.of(
            jdk("java.util.concurrent.ThreadPoolExecutor", "execute"),
            new StackFrame("com.acme.OrdersMBeanImpl", "refresh", 12),
            jdk("javax.management.remote.rmi.RMIConnectionImpl", "invoke"),
            jdk("sun.rmi.transport.Transport", "serviceCall"),
            jdk("java.lang.Thread", "run"));

    assertThat(OwnFootprint.includes(appMBean)).isFalse();
    assertThat(OwnFootprint.includes(withJdk(appMBean))).isTrue();
  }

  @Test
  void withoutTheServingFrameInTheStackItIsTheApplications() {
    List<StackFrame> cut =
        List.of(
            jdk("com.sun.jmx.remote.internal.ServerCommunicatorAdmin", "<init>"),
            jdk("javax.management.remote.rmi.RMIServerImpl", "newClient"));

    assertThat(OwnFootprint.includes(cut)).isFalse();
    assertThat(OwnFootprint.includes(List.of())).isFalse();
    assertThat(OwnFootprint.includes(null)).isFalse();
  }

  @Test
  void theManagementAgentStartedByAnAttachIsTheMonitoringsOwn() {
    List<StackFrame> agent =
        List.of(
            jdk("sun.rmi.transport.tcp.TCPTransport", "listen"),
            jdk("sun.management.jmxremote.ConnectorBootstrap", "startLocalConnectorServer"),
            jdk("jdk.internal.agent.Agent", "startLocalManagementAgent"));

    assertThat(OwnFootprint.includes(agent)).isTrue();
  }

  private static StackFrame jdk(String className, String method) {
    return new StackFrame(className, method, 1, true);
  }

  private static List<StackFrame> withJdk(List<StackFrame> frames) {
    return frames.stream().map(f -> jdk(f.className(), f.methodName())).toList();
  }
}
