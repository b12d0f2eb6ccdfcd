package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a target says it lacks of the contention signals, by what it runs. */
class ContentionSignalsTest {
  private static final String JDK11 = "unavailable: Java 11 has no remote JFR streaming";

  @Test
  void aJdk11TargetHasThreadStatesAndTheHolderDumpButNoSitesOwnersOrParks() {
    ContentionSignals signals = new ContentionSignals(false, JDK11, false);

    assertThat(signals.available()).containsExactly("threadStates", "blockedThreads", "lockHolder");
    assertThat(signals.missing())
        .containsOnlyKeys("blockedTimeByLock", "blockedSites", "owners", "parks", "blockedTime");
    assertThat(signals.missing().get("blockedSites")).endsWith("no JFR stream: " + JDK11);
    assertThat(signals.missing().get("blockedTime"))
        .contains("contention monitoring is off")
        .contains("never turns it on");
  }

  @Test
  void contentionMonitoringOnInTheTargetGivesBlockedTimeWithoutJfr() {
    ContentionSignals signals = new ContentionSignals(false, JDK11, true);

    assertThat(signals.available()).contains("blockedTime");
    assertThat(signals.missing()).doesNotContainKey("blockedTime").containsKey("blockedSites");
  }

  @Test
  void aStreamingTargetLacksOnlyTheJmxBlockedTimeWhileMonitoringIsOff() {
    assertThat(new ContentionSignals(true, null, false).missing()).containsOnlyKeys("blockedTime");
    assertThat(new ContentionSignals(true, null, true).missing()).isEmpty();
    assertThat(new ContentionSignals(true, null, true).available())
        .contains("blockedSites", "owners", "parks", "blockedTimeByLock");
  }

  @Test
  void beforeTheFirstThreadPollBlockedTimeIsNotYetKnown() {
    assertThat(new ContentionSignals(true, null, null).missing().get("blockedTime"))
        .contains("not been read yet");
    assertThat(new ContentionSignals(true, null, null).toJson())
        .containsOnlyKeys("available", "missing");
  }
}
