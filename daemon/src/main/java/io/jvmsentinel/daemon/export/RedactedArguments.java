package io.jvmsentinel.daemon.export;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A target's JVM arguments as the API shows them: values of secret-looking options replaced. A
 * target with JMX over TLS typically runs with {@code -Djavax.net.ssl.keyStorePassword=...}, and
 * {@code RuntimeMXBean.getInputArguments()} hands that to anyone who can read the API.
 */
final class RedactedArguments {
  static final String MASK = "****";
  private static final Pattern SECRET_NAME =
      Pattern.compile("pass(word|wd|phrase)?|secret|token|credential|apikey|api[._-]key");

  private RedactedArguments() {}

  static List<String> of(List<String> arguments) {
    return arguments.stream().map(RedactedArguments::one).toList();
  }

  private static String one(String argument) {
    int equals = argument.indexOf('=');
    if (equals < 0) {
      return argument;
    }
    String name = argument.substring(0, equals).toLowerCase(Locale.ROOT);
    return SECRET_NAME.matcher(name).find() ? argument.substring(0, equals + 1) + MASK : argument;
  }
}
