package io.jvmsentinel.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class NoCommandTest {
  @Test
  void noCommandIsAUsageErrorWithTheUsageOnStandardError() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exit =
        Main.commandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute();

    assertThat(exit).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString())
        .startsWith("jvm-sentinel: which command? (run, check-config or demo)")
        .contains("Usage: jvm-sentinel", "check-config", "demo");
  }

  @Test
  void helpStillSucceedsOnStandardOutput() {
    StringWriter out = new StringWriter();

    int exit = Main.commandLine().setOut(new PrintWriter(out, true)).execute("--help");

    assertThat(exit).isZero();
    assertThat(out.toString()).startsWith("Usage: jvm-sentinel");
  }
}
