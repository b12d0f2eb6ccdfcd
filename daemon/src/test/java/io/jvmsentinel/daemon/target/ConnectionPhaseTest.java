package io.jvmsentinel.daemon.target;

import static io.jvmsentinel.daemon.target.ConnectionPhase.BACKING_OFF;
import static io.jvmsentinel.daemon.target.ConnectionPhase.CONNECTED;
import static io.jvmsentinel.daemon.target.ConnectionPhase.CONNECTING;
import static io.jvmsentinel.daemon.target.ConnectionPhase.NEW;
import static io.jvmsentinel.daemon.target.ConnectionPhase.POLLING;
import static io.jvmsentinel.daemon.target.ConnectionPhase.STOPPED;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The session's state machine as a table: exactly these moves, and a close from anywhere. */
class ConnectionPhaseTest {
  private static final Map<ConnectionPhase, Set<ConnectionPhase>> MOVES =
      Map.of(
          NEW, EnumSet.of(CONNECTING, STOPPED),
          CONNECTING, EnumSet.of(CONNECTED, BACKING_OFF, STOPPED),
          CONNECTED, EnumSet.of(POLLING, BACKING_OFF, STOPPED),
          POLLING, EnumSet.of(BACKING_OFF, STOPPED),
          BACKING_OFF, EnumSet.of(CONNECTING, STOPPED),
          STOPPED, EnumSet.noneOf(ConnectionPhase.class));

  @Test
  void eachPhaseMayMakeExactlyTheMovesOfTheDrawing() {
    for (ConnectionPhase from : ConnectionPhase.values()) {
      for (ConnectionPhase to : ConnectionPhase.values()) {
        assertThat(from.canBecome(to))
            .as("%s -> %s", from, to)
            .isEqualTo(MOVES.get(from).contains(to));
      }
    }
  }

  @Test
  void onlyConnectedAndPollingHaveAnOpenConnection() {
    assertThat(EnumSet.allOf(ConnectionPhase.class))
        .filteredOn(ConnectionPhase::connected)
        .containsExactly(CONNECTED, POLLING);
  }
}
