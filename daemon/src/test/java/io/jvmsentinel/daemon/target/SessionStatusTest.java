package io.jvmsentinel.daemon.target;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.testing.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A target's connection state, driven by a clock the test moves: no target, no sleeping. */
class SessionStatusTest {
  private static final Instant START = Instant.parse("2026-11-25T10:00:00Z");
  private static final Tags TAGS = Tags.of("target", "t1");

  private final MutableClock clock = new MutableClock(START);
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final SessionStatus status =
      new SessionStatus(
          "t1",
          new InProcessConnector(ManagementFactory.getPlatformMBeanServer()),
          Duration.ofSeconds(2),
          clock,
          registry,
          TAGS);

  private double up() {
    return registry.get("jvm.sentinel.target.up").tags(TAGS).gauge().value();
  }

  private double failures(ConnectFailure reason) {
    return registry
        .get("jvm.sentinel.connection.failures")
        .tags(TAGS.and("reason", reason.tag()))
        .counter()
        .count();
  }

  @Test
  void startsDownSinceItWasCreatedWithNoAttemptsYet() {
    TargetStatus current = status.current();

    assertThat(current.up()).isFalse();
    assertThat(current.since()).isEqualTo(START);
    assertThat(current.address()).isEqualTo("in-process test target");
    assertThat(current.connectAttempts()).isZero();
    assertThat(current.lastError()).isNull();
    assertThat(up()).isZero();
  }

  @Test
  void upSinceConnectedThenDownSinceLostAndStillDownSinceThenOnEachRetry() {
    status.attempt();
    clock.advance(Duration.ofSeconds(5));
    status.connected();
    status.up(null);
    assertThat(status.current().up()).isTrue();
    assertThat(status.current().since()).isEqualTo(START.plusSeconds(5));
    assertThat(status.current().connectAttempts()).isEqualTo(1);
    assertThat(up()).isEqualTo(1);

    clock.advance(Duration.ofMinutes(1));
    assertThat(status.down(ConnectFailure.LOST, "JMX connection jmx.remote.connection.failed"))
        .isTrue();
    Instant lost = START.plusSeconds(65);
    assertThat(status.current().up()).isFalse();
    assertThat(status.current().since()).isEqualTo(lost);
    assertThat(status.current().lastError())
        .isEqualTo("JMX connection jmx.remote.connection.failed");

    status.attempt();
    clock.advance(Duration.ofSeconds(10));
    assertThat(status.down(ConnectFailure.REFUSED, "connect to x failed: refused")).isTrue();
    assertThat(status.down(ConnectFailure.REFUSED, "connect to x failed: refused"))
        .as("the same failure again: not logged again")
        .isFalse();
    assertThat(status.current().since()).as("down since the loss").isEqualTo(lost);
    assertThat(status.current().connectAttempts()).isEqualTo(2);
    assertThat(failures(ConnectFailure.REFUSED)).isEqualTo(2);
    assertThat(failures(ConnectFailure.LOST)).isEqualTo(1);

    status.connected();
    assertThat(status.down(ConnectFailure.REFUSED, "connect to x failed: refused"))
        .as("a connection in between: the failure is news again")
        .isTrue();
  }

  @Test
  void aRefusalWhoseRootAlternatesIsTheSameFailureByItsDiagnosis() {
    String diagnosis = "the target requires a client certificate and refused the one sent";
    assertThat(
            status.down(
                ConnectFailure.TLS, "connect failed: Broken pipe (" + diagnosis + ")", diagnosis))
        .isTrue();
    assertThat(
            status.down(
                ConnectFailure.TLS,
                "connect failed: Received fatal alert: certificate_unknown (" + diagnosis + ")",
                diagnosis))
        .as("the agent's alert this time, the same refusal: not logged again")
        .isFalse();
    assertThat(status.current().lastError()).contains("certificate_unknown");
    assertThat(failures(ConnectFailure.TLS)).isEqualTo(2);
  }

  @Test
  void anOverduePollReadsDownSinceItOverranUntilThePollReturns() {
    status.connected();
    status.up(null);
    clock.advance(Duration.ofSeconds(30));

    status.overran();

    TargetStatus overdue = status.current();
    assertThat(overdue.up()).isFalse();
    assertThat(overdue.since()).isEqualTo(START.plusSeconds(30));
    assertThat(overdue.lastError())
        .isEqualTo(
            "poll did not finish within the call timeout (2000 ms): target hung or overloaded");
    assertThat(up()).isZero();

    clock.advance(Duration.ofSeconds(3));
    assertThat(status.answeredAfterOverrun()).isTrue();
    assertThat(status.answeredAfterOverrun()).isFalse();
    status.up(null);
    assertThat(status.current().up()).isTrue();
    assertThat(status.current().since()).isEqualTo(START.plusSeconds(33));
  }

  @Test
  void aConnectionLostAfterAnOverrunStaysDownSinceTheOverrun() {
    status.connected();
    status.up(null);
    clock.advance(Duration.ofSeconds(30));
    status.overran();
    clock.advance(Duration.ofSeconds(8));

    status.lost();
    status.down(ConnectFailure.LOST, "poll failed: timeout");

    assertThat(status.current().up()).isFalse();
    assertThat(status.current().since()).isEqualTo(START.plusSeconds(30));
    assertThat(status.current().lastError()).isEqualTo("poll failed: timeout");
    assertThat(status.answeredAfterOverrun()).as("the overdue mark went with the drop").isFalse();
  }

  @Test
  void whileDownItWasLastSeenUnreachableAtTheLatestFailureNotNow() {
    status.attempt();
    status.connected();
    status.up(null);
    assertThat(status.current().lastFailure()).as("up").isNull();

    clock.advance(Duration.ofSeconds(10));
    status.down(ConnectFailure.LOST, "JMX connection jmx.remote.connection.failed");
    assertThat(status.current().lastFailure()).isEqualTo(START.plusSeconds(10));
    status.attempt();
    clock.advance(Duration.ofSeconds(16));
    status.down(ConnectFailure.REFUSED, "connect to x failed: refused");
    clock.advance(Duration.ofSeconds(30)); // the backoff: nobody looks meanwhile

    assertThat(status.current().since()).isEqualTo(START.plusSeconds(10));
    assertThat(status.current().lastFailure())
        .as("the last failed attempt, 30 s ago")
        .isEqualTo(START.plusSeconds(26));

    status.connected();
    status.up(null);
    assertThat(status.current().lastFailure()).isNull();
  }

  @Test
  void anOverduePollIsSeenUnreachableNow() {
    status.connected();
    status.up(null);
    clock.advance(Duration.ofSeconds(30));
    status.overran();
    clock.advance(Duration.ofSeconds(4));

    assertThat(status.current().lastFailure()).isEqualTo(START.plusSeconds(34));
  }

  @Test
  void anOverrunWhileDownChangesNothing() {
    status.overran();

    assertThat(status.current().up()).isFalse();
    assertThat(status.current().since()).isEqualTo(START);
    assertThat(status.current().lastError()).isNull();
  }

  @Test
  void theIdentityTextSaysWhenItIsUnknown() {
    status.up(null);
    assertThat(status.identityText()).isEqualTo("identity unknown");
  }
}
