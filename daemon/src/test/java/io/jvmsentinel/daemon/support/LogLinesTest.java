package io.jvmsentinel.daemon.support;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The daemon's own log set-up ({@link LogSetup}), as it writes lines on stderr. */
class LogLinesTest {
  @Test
  void controlAndBidiCharactersInMessagesAreNeutralised() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      LogSetup.apply(context);
      context
          .getLogger("io.jvmsentinel.test")
          .warn("thread {} started", "worker-\u202Eexe.txt\u2066x\u2069\u200Bz\uFEFF");
      context
          .getLogger("io.jvmsentinel.test")
          .warn(
              "pod {} annotation: {}",
              "orders-1",
              "9010\r\n2026-11-25T00:00:00.000Z ERROR [main] Forged: \u001b[31mowned\u2028x\u0085y");
      context
          .getLogger("io.jvmsentinel.test")
          .warn(
              "reading failed",
              new java.io.IOException(
                  "refused\n2026-11-25T00:00:00.000Z ERROR [main] Forged: from an exception",
                  new IllegalStateException("cause\r\nForged too")));
    } finally {
      context
          .getStatusManager()
          .getCopyOfStatusList()
          .forEach(st -> stderr.println("STATUS " + st));
      context.stop();
      System.setErr(stderr);
    }
    String line = captured.toString(StandardCharsets.UTF_8);
    assertThat(line).contains("thread worker-_exe.txt_x__z_ started");
    assertThat(line).doesNotContain("\u202E", "\u2066", "\u2069", "\u200B", "\uFEFF");
    // CR/LF and other controls from target text cannot start a line of their own.
    List<String> lines = line.lines().toList();
    assertThat(lines.subList(0, 3)).allMatch(l -> l.matches("^\\d{4}-\\d{2}-\\d{2}T.*"));
    // The stack trace keeps one line per frame; its messages cannot start a line of their own.
    assertThat(lines.subList(3, lines.size()))
        .isNotEmpty()
        .allMatch(
            l -> l.matches("^(java\\.io\\.IOException: |\\s+at |Caused by: |\\s+\\.\\.\\. ).*"));
    assertThat(line)
        .contains("java.io.IOException: refused_2026-11-25T00:00:00.000Z ERROR [main] Forged")
        .contains("Caused by: java.lang.IllegalStateException: cause__Forged too");
    assertThat(line)
        .contains("annotation: 9010__2026-11-25T00:00:00.000Z ERROR [main] Forged: _[31mowned_x_y")
        .doesNotContain("\u001b", "\u2028", "\u0085", "\r");
  }
}
