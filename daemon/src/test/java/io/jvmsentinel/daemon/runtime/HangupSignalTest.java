package io.jvmsentinel.daemon.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A real SIGHUP to this JVM runs the action (and, handled, no longer stops the JVM). Run the suite
 * in a process that does not ignore SIGHUP (not under {@code nohup}): there the JVM installs no
 * handler and {@link HangupSignal#onHangup} says so.
 */
class HangupSignalTest {
  @Test
  void aHangupRunsTheActionEachTime() throws Exception {
    AtomicInteger hangups = new AtomicInteger();
    assertThat(HangupSignal.onHangup(hangups::incrementAndGet)).isTrue();

    hangup();
    await().atMost(Duration.ofSeconds(10)).until(() -> hangups.get() == 1);
    hangup();
    await().atMost(Duration.ofSeconds(10)).until(() -> hangups.get() == 2);
  }

  private static void hangup() throws Exception {
    long self = ProcessHandle.current().pid();
    Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(self)).inheritIO().start();
    assertThat(kill.waitFor()).isZero();
  }
}
