package io.jvmsentinel.daemon.http;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A target's JVM arguments as the API shows them, with secrets replaced by {@value #MASK}. {@code
 * RuntimeMXBean.getInputArguments()} hands every {@code -D} and agent option to anyone who can read
 * the API, and secrets hide in both halves of an option: in its name ({@code
 * -Djavax.net.ssl.keyStorePassword=...}, {@code -Dapp.privateKey=...}) and in values whose name
 * says nothing ({@code -Ddb.url=jdbc:postgresql://h/db?password=...}, a Sentry DSN {@code
 * https://<key>@host/1}, a Kafka JAAS line {@code password="..."}, {@code
 * -javaagent:x.jar=token=...}). Masking errs on the side of hiding: a lost file path costs a
 * question, a leaked key costs a rotation.
 */
public final class RedactedArguments {
  static final String MASK = "****";
  // A name that says "secret": any case, anywhere in the name. "key" but not "keyStore" (a path):
  // its password is caught by "password" anyway.
  private static final String SECRET_WORD =
      "pass(?:word|wd|phrase)?|pwd|secret|token|credential|auth|key(?!store)";
  private static final Pattern SECRET_NAME = Pattern.compile(SECRET_WORD, Pattern.CASE_INSENSITIVE);
  // scheme://user:password@host and scheme://token@host (DSNs: Sentry, Redis, AMQP, Mongo).
  private static final Pattern URL_USERINFO =
      Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*://)([^/?#@\\s:]*)(:[^/?#@\\s]*)?@");
  // name=value pairs inside a value: URL query parameters, JDBC properties (;), agent options (,),
  // JAAS options (space separated, quoted values).
  private static final Pattern SECRET_PAIR =
      Pattern.compile(
          "((?:^|[?&;,\\s])[\\w.-]*(?:"
              + SECRET_WORD
              + ")[\\w.-]*\\s*=\\s*)"
              // A header value "Bearer abc" is one value: the scheme alone is no secret.
              + "(\"[^\"]*\"|'[^']*'|(?:(?:bearer|basic|token)\\s+)?[^&;,\\s\"']*)",
          Pattern.CASE_INSENSITIVE);
  // Oracle's thin driver puts the password between '/' and '@': jdbc:oracle:thin:scott/tiger@h.
  private static final Pattern ORACLE_THIN =
      Pattern.compile("(jdbc:oracle:[a-z]+:[^/@:\\s]+/)([^@\\s]+)(@)", Pattern.CASE_INSENSITIVE);
  // Values that only switch something on or off are never secret: keep them readable
  // (-Dcom.sun.management.jmxremote.authenticate=false).
  private static final Pattern FLAG = Pattern.compile("true|false", Pattern.CASE_INSENSITIVE);

  private final List<Pattern> extra;

  /**
   * @param extra the operator's own patterns ({@code http.maskArguments}): every match anywhere in
   *     an argument is masked, after the built-in rules
   */
  public RedactedArguments(List<Pattern> extra) {
    this.extra = List.copyOf(extra);
  }

  /** The built-in rules only. */
  public static RedactedArguments builtIn() {
    return new RedactedArguments(List.of());
  }

  List<String> of(List<String> arguments) {
    return arguments.stream().map(this::one).toList();
  }

  String one(String argument) {
    int equals = argument.indexOf('=');
    String masked;
    if (equals < 0) {
      masked = inValue(argument);
    } else {
      String name = argument.substring(0, equals);
      String value = argument.substring(equals + 1);
      masked =
          name
              + "="
              + (SECRET_NAME.matcher(name).find() && !FLAG.matcher(value).matches()
                  ? MASK
                  : inValue(value));
    }
    for (Pattern pattern : extra) {
      masked = pattern.matcher(masked).replaceAll(MASK);
    }
    return masked;
  }

  private static String inValue(String value) {
    String masked =
        URL_USERINFO
            .matcher(value)
            .replaceAll(
                m ->
                    Matcher.quoteReplacement(
                        m.group(3) == null
                            ? m.group(1) + MASK + "@"
                            : m.group(1) + m.group(2) + ":" + MASK + "@"));
    masked = ORACLE_THIN.matcher(masked).replaceAll("$1" + MASK + "$3");
    return SECRET_PAIR
        .matcher(masked)
        .replaceAll(m -> Matcher.quoteReplacement(m.group(1) + quoted(m.group(2))));
  }

  /** The mask in the value's own quotes, so a JAAS line stays parseable to the eye. */
  private static String quoted(String value) {
    if (value.length() >= 2 && (value.startsWith("\"") || value.startsWith("'"))) {
      return value.charAt(0) + MASK + value.charAt(0);
    }
    return MASK;
  }
}
