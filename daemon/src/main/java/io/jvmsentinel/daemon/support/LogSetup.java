package io.jvmsentinel.daemon.support;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The daemon's logging, set up in code (found by logback through {@code META-INF/services}): human
 * readable lines on stderr, stdout staying free for command output (check-config, demo). Done in
 * code rather than in a logback.xml because reading XML loads logback's Joran and the JDK's XML
 * parser, about 450 classes the daemon carries for its whole life (docs/performance.md). A user's
 * own file given with {@code -Dlogback.configurationFile} still replaces all of this.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogSetup extends ContextAwareBase implements Configurator {

  /** The environment variable (or system property) that sets the level of the daemon's loggers. */
  public static final String LEVEL_VARIABLE = "JVM_SENTINEL_LOG_LEVEL";

  /**
   * Text from targets and clients reaches messages (exception text, pod annotations, class and
   * thread names, request paths). Line breaks and other control characters would forge log lines or
   * rewrite the terminal; bidirectional controls (U+202E and friends) make a line read other than
   * it is, zero-width characters make two names look the same: all shown as _, so one message stays
   * one line. Stack traces have their messages cleaned the same way ({@link
   * CleanThrowableConverter}).
   */
  public static final String PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{0}:"
          + " %replace(%msg){'[\\p{Cntrl}\\u0080-\\u009F\\u2028\\u2029\\u061C\\u200B-\\u200F\\u2060\\uFEFF"
          + "\\u202A-\\u202E\\u2066-\\u2069]', '_'}%n%cleanEx";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY; // logback reads the user's file
    }
    apply(context);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** Sets up {@code context} as the daemon logs. */
  public static void apply(LoggerContext context) {
    Map<String, Supplier<DynamicConverter<ILoggingEvent>>> rules = new HashMap<>();
    rules.put("cleanEx", CleanThrowableConverter::new);
    context.putObject(CoreConstants.PATTERN_RULE_REGISTRY_FOR_SUPPLIERS, rules);

    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();

    level(context, "io.jvmsentinel", daemonLevel());
    // Kubernetes discovery says itself, in one line, when the API server is away or refuses; the
    // client's own warnings (a stack trace per retry) would repeat that.
    level(context, "io.fabric8.kubernetes.client.informers", "ERROR");
    level(context, "io.fabric8.kubernetes.client.jdkhttp", "ERROR");
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(stderr);
  }

  /** {@value #LEVEL_VARIABLE} as a system property, else from the environment, else INFO. */
  private static String daemonLevel() {
    String value = System.getProperty(LEVEL_VARIABLE);
    if (value == null) {
      value = System.getenv(LEVEL_VARIABLE);
    }
    return value == null ? "INFO" : value;
  }

  /** As logback's XML reads a level: blank leaves it unset, an unknown name means DEBUG. */
  private static void level(LoggerContext context, String logger, String level) {
    String name = level.trim();
    if (name.isEmpty()) {
      return;
    }
    context
        .getLogger(logger)
        .setLevel(
            name.equalsIgnoreCase("INHERITED") || name.equalsIgnoreCase("NULL")
                ? null
                : Level.toLevel(name));
  }
}
