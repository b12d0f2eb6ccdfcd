package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.AlertNotification.Status;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WarmUp;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * LockContention on a target without JFR, replayed: the recorded lock fixtures as the daemon sees
 * them before (or without) a JFR stream, judged on the BLOCKED count of the JMX thread states. The
 * incident still pages; a cache rebuilt under its lock (every request thread blocked for seconds,
 * every 30 s) does not while each stall holds less than half the window.
 */
class LockContentionWithoutJfrReplayTest {

  private static List<SignalSample> withoutJfr(String fixture) throws IOException {
    return AlertLifeReplayTest.fixture(fixture).stream()
        .map(AlertLifeReplayTest::beforeTheStream)
        .toList();
  }

  @Test
  void theIncidentPagesFromTheBlockedThreadCount() throws IOException {
    String name = "lock-contention-jdk17";
    List<SignalSample> samples = withoutJfr(name);
    Instant start = samples.get(0).at();

    List<Replay.Page> pages = Replay.run(samples, WarmUp.DEFAULT);

    assertThat(pages)
        .as("pages: %s", pages)
        .filteredOn(page -> page.status() == Status.FIRING)
        .singleElement()
        .satisfies(
            page -> {
              assertThat(page.rule()).isEqualTo("LockContention");
              assertThat(
                      page.atSecond()
                          - AlertLifeReplayTest.seconds(
                              start, AlertLifeReplayTest.onset(name, "phase=contention")))
                  .isBetween(0.0, 15.0);
              assertThat(page.summary()).contains("io.jvmsentinel.lab.SlowCloseConnectionCache");
            });
  }

  @Test
  void aStallShorterThanHalfTheWindowDoesNotPage() throws IOException {
    // lock-refresh-burst on a loaded host (load average about 20): the refreshes stalled every
    // request thread for 2 to 4 readings of 16 BLOCKED (2-5 s), the fourth for 6 readings (6 s).
    // The first three do not page (they did, through sub-windows they touched at one edge); the
    // fourth holds half of the 12 s window, which is what the rule calls sustained, and may page,
    // naming the cache and its refresh as the holder.
    String name = "lock-refresh-burst-jdk17";
    List<SignalSample> samples = withoutJfr(name);
    Instant start = samples.get(0).at();
    double fourth = AlertLifeReplayTest.seconds(start, nthOnset(name, "phase=refresh", 4));

    List<Replay.Page> pages = Replay.run(samples, WarmUp.DEFAULT);

    assertThat(pages)
        .as("pages: %s", pages)
        .allSatisfy(
            page -> {
              assertThat(page.atSecond()).isGreaterThan(fourth);
              assertThat(page.summary())
                  .contains("held by main in io.jvmsentinel.lab.RefreshedCache.refresh");
            });
  }

  private static Instant nthOnset(String fixture, String marker, int n) throws IOException {
    Pattern at = Pattern.compile("at=(\\d+)");
    int seen = 0;
    for (String line : Files.readAllLines(Replay.FIXTURES.resolve(fixture + ".onsets"))) {
      Matcher m = at.matcher(line);
      if (line.contains(marker) && m.find() && ++seen == n) {
        return Instant.ofEpochMilli(Long.parseLong(m.group(1)));
      }
    }
    throw new AssertionError("no onset " + n + " " + marker + " in " + fixture);
  }
}
