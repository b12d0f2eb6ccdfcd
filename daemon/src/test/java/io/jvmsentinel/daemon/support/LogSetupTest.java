package io.jvmsentinel.daemon.support;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The log set-up logback finds as a service, with the levels the XML file used to give. */
class LogSetupTest {
  private final LoggerContext context = newContext();

  @AfterEach
  void restore() {
    System.clearProperty(LogSetup.LEVEL_VARIABLE);
    context.stop();
  }

  @Test
  void logbackFindsTheSetUpAsAService() throws Exception {
    new ContextInitializer(context).autoConfig();

    ConsoleAppender<?> stderr =
        (ConsoleAppender<?>) context.getLogger("ROOT").getAppender("STDERR");
    assertThat(stderr).isNotNull();
    assertThat(stderr.getTarget()).isEqualTo("System.err");
    assertThat(context.getLogger("ROOT").getLevel()).isEqualTo(Level.WARN);
    assertThat(context.getLogger("io.jvmsentinel").getLevel()).isEqualTo(Level.INFO);
    assertThat(context.getLogger("io.fabric8.kubernetes.client.informers").getLevel())
        .isEqualTo(Level.ERROR);
    assertThat(context.getLogger("io.fabric8.kubernetes.client.jdkhttp").getLevel())
        .isEqualTo(Level.ERROR);
    // Nothing logback itself warns about (a bad pattern, an unknown converter).
    assertThat(context.getStatusManager().getCopyOfStatusList())
        .allMatch(status -> status.getLevel() == 0);
  }

  @Test
  void theDaemonLevelComesFromTheVariable() {
    System.setProperty(LogSetup.LEVEL_VARIABLE, "debug");
    LogSetup.apply(context);
    assertThat(context.getLogger("io.jvmsentinel").getLevel()).isEqualTo(Level.DEBUG);
  }

  @Test
  void anUnknownLevelMeansDebugAndBlankLeavesTheRootLevel() {
    System.setProperty(LogSetup.LEVEL_VARIABLE, "chatty");
    LogSetup.apply(context);
    assertThat(context.getLogger("io.jvmsentinel").getLevel()).isEqualTo(Level.DEBUG);

    LoggerContext blank = newContext();
    System.setProperty(LogSetup.LEVEL_VARIABLE, " ");
    LogSetup.apply(blank);
    assertThat(blank.getLogger("io.jvmsentinel").getLevel()).isNull();
    assertThat(blank.getLogger("io.jvmsentinel").getEffectiveLevel()).isEqualTo(Level.WARN);
    blank.stop();
  }

  @Test
  void aUsersOwnConfigurationFileIsLeftToLogback() {
    System.setProperty("logback.configurationFile", "/nonexistent/logback.xml");
    try {
      LogSetup setup = new LogSetup();
      setup.setContext(context);
      assertThat(setup.configure(context))
          .isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
      assertThat(context.getLogger("ROOT").getAppender("STDERR")).isNull();
    } finally {
      System.clearProperty("logback.configurationFile");
    }
  }

  private static LoggerContext newContext() {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    return context;
  }
}
