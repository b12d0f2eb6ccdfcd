package io.jvmsentinel.daemon.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The daemon's own logback.xml, as it writes lines on stderr. */
class LogLinesTest {
  @Test
  void bidiControlsInMessagesAreNeutralised() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      JoranConfigurator configurator = new JoranConfigurator();
      configurator.setContext(context);
      configurator.doConfigure(getClass().getResource("/logback.xml"));
      context
          .getLogger("io.jvmsentinel.test")
          .warn("thread {} started", "worker-\u202Eexe.txt\u2066x\u2069");
    } finally {
      context
          .getStatusManager()
          .getCopyOfStatusList()
          .forEach(st -> stderr.println("STATUS " + st));
      context.stop();
      System.setErr(stderr);
    }
    String line = captured.toString(StandardCharsets.UTF_8);
    assertThat(line).contains("thread worker-_exe.txt_x_ started");
    assertThat(line).doesNotContain("\u202E", "\u2066", "\u2069");
  }
}
