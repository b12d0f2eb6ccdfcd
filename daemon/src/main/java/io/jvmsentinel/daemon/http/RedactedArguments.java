package io.jvmsentinel.daemon.http;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A target's JVM arguments as the API shows them, with secrets replaced by {@value #MASK}. {@code
 * RuntimeMXBean.getInputArguments()} hands every {@code -D} and agent option to anyone who can read
 * the API, and the target's owner decides what is in them: a {@code
 * -Dspring.application.json={"db":{"password":"..."}}} names nothing secret in its name. So the
 * value of every {@code -D} property is masked unless the property is on an allow-list of names
 * known to carry no secret ({@link #SHOWN_PROPERTIES}, plus the operator's {@code
 * http.showProperties}); so are the options of agents ({@code -javaagent:a.jar=****}) and the
 * commands of {@code -XX:OnError} and {@code -XX:OnOutOfMemoryError}. What is shown still goes
 * through the value rules: a secret name ({@code -Djavax.net.ssl.keyStorePassword=****}), URL
 * userinfo, {@code name=value} pairs, JSON members and HTTP headers with a secret name, Oracle's
 * {@code scott/tiger@}. Masking errs on the side of hiding: a lost file path costs a question, a
 * leaked key costs a rotation.
 */
public final class RedactedArguments {
  static final String MASK = "****";

  /**
   * Standard properties whose values are settings, paths or host names, never credentials: the
   * JDK's own, JMX and RMI, TLS stores (their passwords are caught by name), proxies, logging.
   */
  static final Set<String> SHOWN_PROPERTIES =
      Set.of(
          "file.encoding",
          "sun.jnu.encoding",
          "sun.stdout.encoding",
          "sun.stderr.encoding",
          "user.timezone",
          "user.language",
          "user.country",
          "user.region",
          "java.awt.headless",
          "java.io.tmpdir",
          "java.library.path",
          "java.net.preferIPv4Stack",
          "java.net.preferIPv6Addresses",
          "java.rmi.server.hostname",
          "java.security.egd",
          "java.util.logging.config.file",
          "javax.net.ssl.keyStore",
          "javax.net.ssl.keyStoreType",
          "javax.net.ssl.trustStore",
          "javax.net.ssl.trustStoreType",
          "javax.net.debug",
          "https.protocols",
          "http.keepAlive",
          "http.maxConnections",
          "http.proxyHost",
          "http.proxyPort",
          "https.proxyHost",
          "https.proxyPort",
          "http.nonProxyHosts",
          "networkaddress.cache.ttl",
          "sun.net.inetaddr.ttl",
          "log4j.configurationFile",
          "log4j2.formatMsgNoLookups",
          "logback.configurationFile",
          "spring.profiles.active");

  /** Families of properties that are settings only (their password files are caught by name). */
  private static final List<String> SHOWN_PREFIXES =
      List.of("com.sun.management.jmxremote", "jdk.tls.", "sun.rmi.", "java.rmi.", "jdk.attach.");

  // A name that says "secret": any case, anywhere in the name. "key" but not "keyStore" (a path):
  // its password is caught by "password" anyway.
  private static final String SECRET_WORD =
      "pass(?:word|wd|phrase)?|pwd|secret|token|credential|auth|key(?!store)";
  private static final Pattern SECRET_NAME = Pattern.compile(SECRET_WORD, Pattern.CASE_INSENSITIVE);
  // scheme://authority: the authority ends at the first '/' or blank; its userinfo at its last '@',
  // since a password may hold '@', ':', '#' or '?' unescaped (p@ss:w#rd).
  private static final Pattern URL_AUTHORITY =
      Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*://)([^/\\s]*@)");
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
  // An HTTP header with a secret name: "Authorization: Bearer abc", "X-Api-Key: abc".
  private static final Pattern SECRET_HEADER =
      Pattern.compile(
          "((?:^|[\\s,;\"'{\\[])[\\w-]*(?:"
              + SECRET_WORD
              + ")[\\w-]*:\\s*)"
              + "((?:bearer|basic|token|digest|negotiate)\\s+)?[^,;&\\s\"']+",
          Pattern.CASE_INSENSITIVE);
  // A JSON member with a secret name: "password":"x", "apiKey": 42 (a string with its escapes).
  private static final Pattern SECRET_JSON_MEMBER =
      Pattern.compile(
          "(\"[^\"]*(?:"
              + SECRET_WORD
              + ")[^\"]*\"\\s*:\\s*)(\"(?:[^\"\\\\]|\\\\.)*\"|[^,}\\]\\s]+)",
          Pattern.CASE_INSENSITIVE);
  // Oracle's thin driver puts the password between '/' and '@': jdbc:oracle:thin:scott/tiger@h.
  private static final Pattern ORACLE_THIN =
      Pattern.compile("(jdbc:oracle:[a-z]+:[^/@:\\s]+/)([^@\\s]+)(@)", Pattern.CASE_INSENSITIVE);
  // Values that only switch something on or off are never secret: keep them readable
  // (-Dcom.sun.management.jmxremote.authenticate=false, -Dfeature.x.enabled=true).
  private static final Pattern FLAG = Pattern.compile("true|false", Pattern.CASE_INSENSITIVE);
  // JVM options whose value is a command line the JVM runs: anything may be in it.
  private static final List<String> COMMAND_OPTIONS =
      List.of("-XX:OnError=", "-XX:OnOutOfMemoryError=");
  private static final List<String> AGENT_OPTIONS =
      List.of("-javaagent:", "-agentpath:", "-agentlib:");
  // The debugger agent's options are transport settings, and an open debug port is what a
  // reviewer most needs to see.
  private static final String JDWP = "-agentlib:jdwp=";

  private final List<Pattern> extra;
  private final List<Pattern> shownProperties;

  /**
   * @param extra the operator's own patterns ({@code http.maskArguments}): every match anywhere in
   *     an argument is masked, after the built-in rules
   * @param shownProperties the operator's own safe properties ({@code http.showProperties}): a
   *     {@code -D} property whose whole name matches one is shown through the value rules, beside
   *     the built-in {@link #SHOWN_PROPERTIES}
   */
  public RedactedArguments(List<Pattern> extra, List<Pattern> shownProperties) {
    this.extra = List.copyOf(extra);
    this.shownProperties = List.copyOf(shownProperties);
  }

  /** The built-in rules only. */
  public static RedactedArguments builtIn() {
    return new RedactedArguments(List.of(), List.of());
  }

  /** The arguments as shown, each masked. */
  public List<String> of(List<String> arguments) {
    return arguments.stream().map(this::one).toList();
  }

  String one(String argument) {
    String masked = builtInRules(argument);
    for (Pattern pattern : extra) {
      masked = pattern.matcher(masked).replaceAll(MASK);
    }
    return masked;
  }

  private String builtInRules(String argument) {
    int equals = argument.indexOf('=');
    if (argument.startsWith("-D") && equals > 2) {
      String name = argument.substring(2, equals);
      String value = argument.substring(equals + 1);
      if (FLAG.matcher(value).matches()) {
        return argument;
      }
      return "-D" + name + "=" + (shown(name) ? namedValue(name, value) : MASK);
    }
    for (String option : COMMAND_OPTIONS) {
      if (argument.startsWith(option)) {
        return option + MASK;
      }
    }
    for (String agent : AGENT_OPTIONS) {
      if (argument.startsWith(agent) && equals > 0 && !argument.startsWith(JDWP)) {
        return argument.substring(0, equals + 1) + MASK;
      }
    }
    if (equals < 0) {
      return inValue(argument);
    }
    String name = argument.substring(0, equals);
    return name + "=" + namedValue(name, argument.substring(equals + 1));
  }

  private boolean shown(String property) {
    return SHOWN_PROPERTIES.contains(property)
        || SHOWN_PREFIXES.stream().anyMatch(property::startsWith)
        || shownProperties.stream().anyMatch(p -> p.matcher(property).matches());
  }

  private static String namedValue(String name, String value) {
    return SECRET_NAME.matcher(name).find() && !FLAG.matcher(value).matches()
        ? MASK
        : inValue(value);
  }

  private static String inValue(String value) {
    String masked =
        URL_AUTHORITY
            .matcher(value)
            .replaceAll(m -> Matcher.quoteReplacement(m.group(1) + userinfoMasked(m.group(2))));
    masked = ORACLE_THIN.matcher(masked).replaceAll("$1" + MASK + "$3");
    masked =
        SECRET_JSON_MEMBER
            .matcher(masked)
            .replaceAll(m -> Matcher.quoteReplacement(m.group(1) + quoted(m.group(2))));
    masked =
        SECRET_HEADER.matcher(masked).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
    return SECRET_PAIR
        .matcher(masked)
        .replaceAll(m -> Matcher.quoteReplacement(m.group(1) + quoted(m.group(2))));
  }

  /**
   * {@code user:password@} keeps the user; a DSN's lone {@code token@} is all secret. The userinfo
   * runs to the authority's last '@'.
   */
  private static String userinfoMasked(String authorityToAt) {
    String userinfo = authorityToAt.substring(0, authorityToAt.length() - 1);
    int colon = userinfo.indexOf(':');
    return (colon < 0 ? MASK : userinfo.substring(0, colon + 1) + MASK) + "@";
  }

  /** The mask in the value's own quotes, so a JAAS line stays parseable to the eye. */
  private static String quoted(String value) {
    if (value.length() >= 2 && (value.startsWith("\"") || value.startsWith("'"))) {
      return value.charAt(0) + MASK + value.charAt(0);
    }
    return MASK;
  }
}
