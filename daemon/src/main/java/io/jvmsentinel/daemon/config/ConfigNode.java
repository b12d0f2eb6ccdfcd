package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * One value of the configuration with its key path ({@code targets[0].pollInterval}): the one place
 * that reads YAML. A typed read returns the value; null when it is absent; or null after reporting,
 * at the value's {@code file:line:column}, why it cannot be read (the path is then unreadable, and
 * the rules skip it instead of adding a misleading second problem).
 *
 * <p>A map remembers the keys its reader asks for with {@link #child}, in order: every other key is
 * reported as unknown, with those as the allowed keys. So a setting is added in one place, the line
 * that reads it; a reader asks for all its keys before it applies any rule.
 *
 * <p>As in YAML 1.1, plain {@code ~}, {@code null} and nothing are null, and {@code yes}, {@code
 * no}, {@code on}, {@code off} are booleans. An empty text ({@code ''}) is absent for a section, a
 * list, a map, a boolean or a number, and the empty text for text values.
 */
final class ConfigNode {
  private static final Pattern NULL = Pattern.compile("~|null|Null|NULL|");
  private static final Pattern TRUE = Pattern.compile("yes|Yes|YES|true|True|TRUE|on|On|ON");
  private static final Pattern FALSE = Pattern.compile("no|No|NO|false|False|FALSE|off|Off|OFF");
  private static final Pattern INT =
      Pattern.compile("[-+]?(0b[0-1_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(:[0-5]?[0-9])*)");
  private static final Pattern FLOAT =
      Pattern.compile(
          "[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9_]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)"
              + "|\\.(nan|NaN|NAN)");

  private enum Kind {
    ABSENT,
    NULL,
    TEXT,
    INTEGER,
    DECIMAL,
    BOOLEAN,
    LIST,
    MAP
  }

  /** What one load shares: the file's name, the problems, the maps read, where secrets are. */
  static final class Reading {
    final String file;
    final Problems problems;
    final Function<String, String> env;
    final PasswordReader passwords;
    final Path baseDir;
    private final List<ConfigNode> maps = new ArrayList<>();

    Reading(String file, Problems problems, Function<String, String> env, Path baseDir) {
      this.file = file;
      this.problems = problems;
      this.env = env;
      this.passwords = new PasswordReader(env);
      this.baseDir = baseDir;
    }

    /** Every key of a map that its reader did not ask for, with the keys it did. */
    void reportUnknownKeys() {
      for (ConfigNode map : maps) {
        for (NodeTuple entry : map.unknownEntries()) {
          String path = join(map.path, ((ScalarNode) entry.getKeyNode()).getValue());
          ConfigYaml.at(
              file,
              entry.getKeyNode().getStartMark(),
              problems,
              path,
              "unknown key '" + path + "'; allowed keys: " + String.join(", ", map.asked));
        }
      }
    }

    private boolean unknownKeysUnder(String path) {
      return maps.stream()
          .anyMatch(map -> within(map.path, path) && !map.unknownEntries().isEmpty());
    }
  }

  final Reading reading;
  final String path;
  private final Node node;
  private final Set<String> asked = new LinkedHashSet<>();

  ConfigNode(Reading reading, String path, Node node) {
    this.reading = reading;
    this.path = path;
    this.node = node;
  }

  static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** Whether {@code path} is {@code outer} or inside it. */
  static boolean within(String path, String outer) {
    return path.equals(outer) || path.startsWith(outer + ".") || path.startsWith(outer + "[");
  }

  /** Written, and not null or (for a section) an empty text. */
  boolean present() {
    return kind() != Kind.ABSENT && kind() != Kind.NULL && !emptyText();
  }

  /** Whether this value, or anything inside it, could not be read or has an unknown key. */
  boolean unreadable() {
    return reading.problems.unreadable(path) || reading.unknownKeysUnder(path);
  }

  boolean unreadable(String key) {
    return new ConfigNode(reading, join(path, key), null).unreadable();
  }

  // ---- maps of known keys ----

  /** The value of {@code key}, one of the keys this map allows. */
  ConfigNode child(String key) {
    asked.add(key);
    return new ConfigNode(reading, join(path, key), entries().get(key));
  }

  /** This value as a map of known keys; absent, after a report if it is something else. */
  ConfigNode section() {
    if (kind() == Kind.MAP) {
      reading.maps.add(this);
      return this;
    }
    if (present()) {
      expected("a map");
    }
    return new ConfigNode(reading, path, null);
  }

  ConfigNode section(String key) {
    return child(key).section();
  }

  /** Text keys to values; a repeated key is reported (ConfigYaml), and the last one counts. */
  private Map<String, Node> entries() {
    Map<String, Node> entries = new LinkedHashMap<>();
    if (node instanceof MappingNode map) {
      for (NodeTuple entry : map.getValue()) {
        if (entry.getKeyNode() instanceof ScalarNode key) {
          entries.put(key.getValue(), entry.getValueNode());
        }
      }
    }
    return entries;
  }

  /** The entries of keys not asked for; a repeated key only once (its duplicate is reported). */
  private List<NodeTuple> unknownEntries() {
    Set<String> seen = new HashSet<>(asked);
    return ((MappingNode) node)
        .getValue().stream()
            .filter(e -> e.getKeyNode() instanceof ScalarNode key && seen.add(key.getValue()))
            .toList();
  }

  // ---- values ----

  /** Any scalar as written: {@code username: 1234} is the text "1234". */
  String text() {
    return switch (kind()) {
      case ABSENT, NULL -> null;
      case LIST, MAP -> expected("text");
      default -> scalar();
    };
  }

  Long integer() {
    return switch (kind()) {
      case ABSENT, NULL -> null;
      case INTEGER -> parse(Long::parseLong, "integer " + scalar() + " is out of range");
      default -> expected("an integer");
    };
  }

  Boolean bool() {
    return switch (kind()) {
      case ABSENT, NULL -> null;
      case BOOLEAN -> TRUE.matcher(scalar()).matches();
      default -> emptyText() ? null : expected("a Boolean");
    };
  }

  Double decimal() {
    return switch (kind()) {
      case ABSENT, NULL -> null;
      case INTEGER, DECIMAL ->
          parse(ConfigNode::toDouble, "Malformed numeric value '" + scalar() + "'");
      default -> emptyText() ? null : expected("a Double");
    };
  }

  private static Double toDouble(String text) {
    String number = text.replace("_", "").toLowerCase(Locale.ROOT).replace(".inf", "Infinity");
    return number.equals(".nan") ? Double.NaN : Double.parseDouble(number);
  }

  private <T> T parse(Function<String, T> parse, String problem) {
    try {
      return parse.apply(scalar());
    } catch (NumberFormatException e) {
      return report(problem);
    }
  }

  /**
   * A scalar parsed by {@code parse}, whose {@link IllegalArgumentException} says what is wrong;
   * {@code expected} names the forms for a value that is no scalar at all.
   */
  <T> T parsed(String expected, Function<String, T> parse) {
    return switch (kind()) {
      case ABSENT, NULL -> null;
      case LIST, MAP -> expected(expected);
      default -> {
        try {
          yield parse.apply(scalar());
        } catch (IllegalArgumentException e) {
          yield report(e.getMessage());
        }
      }
    };
  }

  Duration duration() {
    return parsed("a duration such as 10s", Durations::parse);
  }

  HostPort hostPort() {
    return parsed("host:port", HostPort::parse);
  }

  Pattern pattern() {
    return parsed("a regular expression", ConfigNode::compile);
  }

  private static Pattern compile(String text) {
    try {
      return Pattern.compile(text);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "not a regular expression: %s at index %d of \"%s\""
              .formatted(e.getDescription(), e.getIndex(), text),
          e);
    }
  }

  String text(String key) {
    return child(key).text();
  }

  Long integer(String key) {
    return child(key).integer();
  }

  long integer(String key, long absent) {
    Long value = integer(key);
    return value != null ? value : absent;
  }

  double decimal(String key, double absent) {
    Double value = child(key).decimal();
    return value != null ? value : absent;
  }

  Boolean bool(String key) {
    return child(key).bool();
  }

  boolean bool(String key, boolean absent) {
    Boolean value = bool(key);
    return value != null ? value : absent;
  }

  Duration duration(String key) {
    return child(key).duration();
  }

  Duration duration(String key, Duration absent) {
    Duration value = duration(key);
    return value != null ? value : absent;
  }

  Pattern pattern(String key) {
    return child(key).pattern();
  }

  /** Each element read by {@code read} (which may return null); null when the list is absent. */
  <T> List<T> listOf(String key, Function<ConfigNode, T> read) {
    ConfigNode list = child(key);
    if (list.kind() != Kind.LIST) {
      return list.present() ? list.expected("a list") : null;
    }
    List<T> values = new ArrayList<>();
    for (ConfigNode item : list.items()) {
      values.add(read.apply(item));
    }
    return values;
  }

  /** Each value read by {@code read} (which may return null), in file order; null if absent. */
  <T> Map<String, T> mapOf(String key, Function<ConfigNode, T> read) {
    return child(key).mapOf(read);
  }

  <T> Map<String, T> mapOf(Function<ConfigNode, T> read) {
    if (kind() != Kind.MAP) {
      return present() ? expected("a map") : null;
    }
    Map<String, T> values = new LinkedHashMap<>();
    fields().forEach((key, value) -> values.put(key, read.apply(value)));
    return values;
  }

  /** A map of texts, such as tags; a key without a value maps to null. */
  Map<String, String> texts(String key) {
    return mapOf(key, ConfigNode::text);
  }

  // ---- values of free form, checked by their reader ----

  boolean isText() {
    return kind() == Kind.TEXT;
  }

  boolean isList() {
    return kind() == Kind.LIST;
  }

  boolean isMap() {
    return kind() == Kind.MAP;
  }

  /** The elements of a list; none for any other value. */
  List<ConfigNode> items() {
    List<ConfigNode> items = new ArrayList<>();
    if (node instanceof SequenceNode list) {
      for (Node item : list.getValue()) {
        items.add(new ConfigNode(reading, path + "[" + items.size() + "]", item));
      }
    }
    return items;
  }

  /** The entries of a map, in file order; none for any other value. */
  Map<String, ConfigNode> fields() {
    Map<String, ConfigNode> fields = new LinkedHashMap<>();
    entries().forEach((k, v) -> fields.put(k, new ConfigNode(reading, join(path, k), v)));
    return fields;
  }

  /**
   * The value as JSON, for messages about values of free form; cut after 200 characters (also while
   * it is written: aliases can make a small file a huge tree).
   */
  String json() {
    StringBuilder out = new StringBuilder();
    json(out);
    return out.length() > 200 ? out.substring(0, 200) + "..." : out.toString();
  }

  private void json(StringBuilder out) {
    if (out.length() > 200) {
      return;
    }
    switch (kind()) {
      case MAP -> {
        String separator = "{";
        for (Map.Entry<String, ConfigNode> field : fields().entrySet()) {
          field.getValue().json(out.append(separator).append(quote(field.getKey())).append(':'));
          separator = ",";
        }
        out.append(separator.equals("{") ? "{}" : "}");
      }
      case LIST -> {
        String separator = "[";
        for (ConfigNode item : items()) {
          item.json(out.append(separator));
          separator = ",";
        }
        out.append(separator.equals("[") ? "[]" : "]");
      }
      case ABSENT, NULL -> out.append("null");
      case TEXT -> out.append(quote(scalar()));
      default -> out.append(scalar());
    }
  }

  private static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  /** An absolute http or https URL with a host; empty otherwise (the text may be a secret). */
  static Optional<URI> httpUrl(String text) {
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return Optional.of(uri);
      }
    } catch (URISyntaxException e) {
      // reported by the caller, without the text: it may be a secret
    }
    return Optional.empty();
  }

  /** A file path written in the configuration, relative to the configuration file. */
  Optional<Path> resolve(String file, Consumer<String> report) {
    return ConfigPaths.resolve(reading.baseDir, file, report);
  }

  // ---- secrets ----

  Optional<Secret> secret(String name) {
    return secretRef(name).read();
  }

  /** The keys {@code <name>Env} and {@code <name>File} as written, to read the secret later. */
  SecretRef secretRef(String name) {
    return new SecretRef(this, name, text(name + "Env"), text(name + "File"));
  }

  /**
   * A secret configured as {@code <name>Env} or {@code <name>File} (exactly one), read from the
   * environment or the file, never from the configuration. Messages name the key, never the secret.
   */
  record SecretRef(ConfigNode owner, String name, String envVar, String file) {
    boolean written() {
      return envVar != null || file != null;
    }

    Optional<Secret> read() {
      String envKey = name + "Env";
      String fileKey = name + "File";
      if (owner.unreadable(envKey)
          || owner.unreadable(fileKey)
          || !owner.check(
              envVar == null || file == null,
              "'%s': set either '%s' or '%s', not both",
              owner.path,
              envKey,
              fileKey)
          || !owner.check(
              written(),
              "'%s' needs '%s' or '%s'; the %s is a secret and is never written in the"
                  + " configuration file",
              owner.path,
              envKey,
              fileKey,
              name)) {
        return Optional.empty();
      }
      Consumer<String> report = m -> owner.check(false, "'%s': %s", owner.path, m);
      PasswordReader passwords = owner.reading.passwords;
      return envVar != null
          ? passwords.fromEnv(envVar, envKey, report)
          : owner
              .resolve(file, m -> report.accept("'" + fileKey + "' " + m))
              .flatMap(resolved -> passwords.fromFile(resolved, fileKey, report));
    }
  }

  // ---- rules; each reports under this map's path and says whether the value passed ----

  /**
   * Records {@code problem} (a format; {@link Duration} arguments are written as {@code 10s})
   * unless {@code ok}; returns {@code ok}.
   */
  boolean check(boolean ok, String problem, Object... args) {
    if (!ok) {
      Object[] written = new Object[args.length];
      for (int i = 0; i < args.length; i++) {
        written[i] = args[i] instanceof Duration d ? Durations.format(d) : args[i];
      }
      reading.problems.add(args.length == 0 ? problem : problem.formatted(written));
    }
    return ok;
  }

  boolean positive(String key, Duration value) {
    return check(!value.isZero(), "'%s' must be greater than 0s", join(path, key));
  }

  /** {@code 'p' (v) must be at least min}, then {@code why}. */
  boolean atLeast(String key, Duration value, Duration min, String why) {
    return check(
        value.compareTo(min) >= 0,
        "'%s' (%s) must be at least %s%s",
        join(path, key),
        value,
        min,
        why);
  }

  /** {@code 'p' must be at least min, got v}. */
  boolean atLeastGot(String key, Duration value, Duration min) {
    return check(
        value.compareTo(min) >= 0, "'%s' must be at least %s, got %s", join(path, key), min, value);
  }

  /** {@code 'p' must be at least min}. */
  boolean minimum(String key, Duration value, Duration min) {
    return check(value.compareTo(min) >= 0, "'%s' must be at least %s", join(path, key), min);
  }

  /** {@code 'p' (v) must be between min and max}, then {@code why}. */
  boolean between(String key, long value, long min, long max, String why) {
    return check(
        value >= min && value <= max,
        "'%s' (%d) must be between %d and %d%s",
        join(path, key),
        value,
        min,
        max,
        why);
  }

  /** {@code 'p' (v) must not be less than 'q' (w)}, both keys of this map. */
  boolean notLess(String key, Duration value, String otherKey, Duration other) {
    return check(
        value.compareTo(other) >= 0,
        "'%s' (%s) must not be less than '%s' (%s)",
        join(path, key),
        value,
        join(path, otherKey),
        other);
  }

  /** The value named by {@code text} (in any case), or {@code absent} after the problem. */
  <E extends Enum<E>> E oneOf(String text, E[] values, E absent, Function<String, String> problem) {
    for (E value : values) {
      if (value.name().equalsIgnoreCase(text)) {
        return value;
      }
    }
    if (text != null) {
      check(false, problem.apply(text));
    }
    return absent;
  }

  // ---- the node ----

  private Kind kind() {
    if (node == null) {
      return Kind.ABSENT;
    } else if (node instanceof MappingNode) {
      return Kind.MAP;
    } else if (node instanceof SequenceNode) {
      return Kind.LIST;
    }
    String text = scalar();
    if (!((ScalarNode) node).isPlain()) {
      return Kind.TEXT;
    } else if (NULL.matcher(text).matches()) {
      return Kind.NULL;
    } else if (TRUE.matcher(text).matches() || FALSE.matcher(text).matches()) {
      return Kind.BOOLEAN;
    } else if (INT.matcher(text).matches()) {
      return Kind.INTEGER;
    }
    return FLOAT.matcher(text).matches() ? Kind.DECIMAL : Kind.TEXT;
  }

  private String scalar() {
    return ((ScalarNode) node).getValue();
  }

  private boolean emptyText() {
    return kind() == Kind.TEXT && scalar().isEmpty();
  }

  private <T> T expected(String what) {
    String found =
        switch (kind()) {
          case MAP -> "a map";
          case LIST -> "a list";
          case ABSENT, NULL -> "nothing";
          case TEXT -> "\"" + scalar() + "\"";
          default -> scalar();
        };
    return report("expected " + what + ", got " + found);
  }

  /** Reports a problem with this value at its place; returns null, so reading goes on. */
  <T> T report(String reason) {
    ConfigYaml.at(
        reading.file,
        node == null ? Optional.empty() : node.getStartMark(),
        reading.problems,
        path,
        path.isEmpty() ? reason : "'" + path + "': " + reason);
    return null;
  }
}
