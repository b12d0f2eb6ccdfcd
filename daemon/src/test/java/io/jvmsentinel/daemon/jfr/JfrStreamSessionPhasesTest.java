package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.testing.ManualScheduler;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanException;
import javax.management.MBeanServerConnection;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stream session's state machine ({@link StreamPhase}) with its thread driven by hand: the
 * session thread is a {@link ManualScheduler} on a {@link MutableClock}, so the watchdog's ticks,
 * the retry delay and the stall timeout pass when the test moves the clock, never by sleeping. The
 * target is this JVM's own MBean server (no process is forked); a wrapper refuses the start when
 * told to.
 */
class JfrStreamSessionPhasesTest {
  @TempDir Path tmp;
  private final MutableClock clock = new MutableClock(Instant.now());
  private final ManualScheduler thread = new ManualScheduler(clock);
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final InProcessTarget target = new InProcessTarget();
  private final RefusingConnection connection = new RefusingConnection(target.connection);
  private final RecordingOwner owner = new RecordingOwner("host-a", "0123456789ab");
  private JfrStreamSession session;

  @AfterEach
  void close() throws Exception {
    if (session != null) {
      session.close();
    }
    target.close();
  }

  private JfrStreamSession session(JfrConfig config) {
    session =
        new JfrStreamSession(
            "self",
            List.of(new CountingHandler("jdk.ThreadStart")),
            config,
            () -> null,
            registry,
            Tags.of("target", "self"),
            LocalJfrStorage.unbounded(tmp, config),
            owner,
            Duration.ZERO,
            clock,
            thread);
    return session;
  }

  @Test
  void aRefusedStartIsRetriedTenSecondsLaterWhileConnectedAndThenFlows() {
    session(JfrConfig.DEFAULT);
    connection.refuse = true;
    connect(connection);
    assertThat(session.phase()).isEqualTo(StreamPhase.RETRY_PENDING);
    assertThat(session.state()).startsWith("cannot start the JFR stream: ");
    assertThat(session.streaming()).isFalse();

    connection.refuse = false;
    thread.advance(StreamLifecycle.RETRY_AFTER.minusSeconds(1));
    assertThat(session.phase()).as("not before the delay").isEqualTo(StreamPhase.RETRY_PENDING);
    thread.advance(Duration.ofSeconds(1));
    assertThat(session.phase()).isEqualTo(StreamPhase.FLOWING);
    assertThat(session.streaming()).isTrue();
    assertThat(session.feedKind()).isEqualTo("stream");
    assertThat(starts("connect")).isZero();
    assertThat(starts("retry")).isEqualTo(1);
  }

  @Test
  void aStreamSilentLongerThanTheStallTimeoutIsStoppedAndStartedAgain() {
    session(JfrConfig.DEFAULT);
    connect(connection);
    assertThat(session.phase()).isEqualTo(StreamPhase.FLOWING);
    assertThat(starts("connect")).isEqualTo(1);

    // Each watchdog tick is a second of the test's clock and microseconds of real time: the real
    // stream flushes about once a real second, so it looks silent (a flush in between only delays
    // the restart by one timeout).
    Duration limit = JfrConfig.DEFAULT.stallTimeout().multipliedBy(4);
    for (Duration passed = Duration.ZERO;
        starts("stalled") == 0 && passed.compareTo(limit) < 0;
        passed = passed.plusSeconds(1)) {
      thread.advance(Duration.ofSeconds(1));
    }
    assertThat(starts("stalled")).isEqualTo(1);
    assertThat(session.phase()).isEqualTo(StreamPhase.FLOWING);
    assertThat(target.named(owner.recordingName("self")))
        .as("the silent stream's recording was closed, the new one runs")
        .hasSize(1);
  }

  @Test
  void aTargetWithoutFlightRecorderIsUnavailableAndNotRetriedWhileConnected() {
    session(JfrConfig.DEFAULT);
    connect(MBeanServerFactory.newMBeanServer());
    assertThat(session.phase()).isEqualTo(StreamPhase.UNAVAILABLE);
    assertThat(session.state()).contains("no FlightRecorder MBean");

    thread.advance(Duration.ofMinutes(1));
    assertThat(session.phase()).isEqualTo(StreamPhase.UNAVAILABLE);
    assertThat(starts("retry")).isZero();
  }

  @Test
  void aDisconnectStopsAFlowingStreamAndClosesItsRecordingAndAReconnectStartsIt() {
    session(JfrConfig.DEFAULT);
    connect(connection);
    assertThat(session.phase()).isEqualTo(StreamPhase.FLOWING);

    disconnect();
    assertThat(session.phase()).isEqualTo(StreamPhase.STOPPED);
    assertThat(session.streaming()).isFalse();
    assertThat(target.named(owner.recordingName("self"))).isEmpty();
    thread.advance(Duration.ofMinutes(1));
    assertThat(session.phase())
        .as("nothing starts while disconnected")
        .isEqualTo(StreamPhase.STOPPED);

    connect(connection);
    assertThat(session.phase()).isEqualTo(StreamPhase.FLOWING);
    assertThat(starts("connect")).isEqualTo(2);
  }

  @Test
  void aDisconnectStopsAPendingRetryAndAnUnavailableTarget() {
    session(JfrConfig.DEFAULT);
    connection.refuse = true;
    connect(connection);
    disconnect();
    assertThat(session.phase()).isEqualTo(StreamPhase.STOPPED);
    connection.refuse = false;
    thread.advance(Duration.ofMinutes(1));
    assertThat(starts("retry")).as("no retry while disconnected").isZero();

    connect(MBeanServerFactory.newMBeanServer());
    assertThat(session.phase()).isEqualTo(StreamPhase.UNAVAILABLE);
    disconnect();
    assertThat(session.phase()).isEqualTo(StreamPhase.STOPPED);
  }

  @Test
  void closingAFlowingSessionStopsItAndClosesItsRecording() {
    session(JfrConfig.DEFAULT);
    connect(connection);
    session.close();
    assertThat(session.phase()).isEqualTo(StreamPhase.STOPPED);
    assertThat(target.named(owner.recordingName("self"))).isEmpty();
  }

  @Test
  void aDisabledSessionStaysDisabledThroughConnectsDisconnectsAndClose() {
    session(new JfrConfig(false, Duration.ofMinutes(5), 32, Duration.ofSeconds(20)));
    assertThat(session.phase()).isEqualTo(StreamPhase.DISABLED);
    session.connected(null, connection);
    thread.advance(Duration.ofMinutes(1));
    disconnect();
    session.close();
    assertThat(session.phase()).isEqualTo(StreamPhase.DISABLED);
    assertThat(session.state()).contains("jfr.enabled: false");
    assertThat(target.named(owner.recordingName("self"))).isEmpty();
  }

  /** The target session's connection comes up; what the session thread was given runs. */
  private void connect(MBeanServerConnection mbeans) {
    session.connected(null, mbeans);
    thread.runDue();
  }

  /** The target session's connection goes away; what the session thread was given runs. */
  private void disconnect() {
    session.disconnected();
    thread.runDue();
  }

  private double starts(String cause) {
    return registry.get("jvm.sentinel.jfr.stream.starts").tag("cause", cause).counter().count();
  }

  /** This JVM's MBean server, refusing the start of a recording while {@code refuse} is set. */
  private static final class RefusingConnection extends ForwardingConnection {
    volatile boolean refuse;

    RefusingConnection(MBeanServerConnection delegate) {
      super(delegate);
    }

    @Override
    public Object invoke(ObjectName name, String operationName, Object[] params, String[] signature)
        throws InstanceNotFoundException, MBeanException, ReflectionException, IOException {
      if (refuse && operationName.equals("newRecording")) {
        throw new IOException("refused by the test");
      }
      return super.invoke(name, operationName, params, signature);
    }
  }
}
