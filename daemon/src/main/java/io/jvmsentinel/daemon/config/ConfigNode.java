package io.jvmsentinel.daemon.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
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
 * that reads YAML. Each typed read returns the value, or null when it is absent, or null after
 * reporting, at the value's {@code file:line:column}, why it cannot be read; the path is then
 * unreadable and the rules skip it.
 *
 * <p>A map read with {@link #child} remembers the keys asked for, in order: at the end of the load
 * {@link Reading#reportUnknownKeys} names every other key with those allowed keys. So a setting is
 * added in one place, the line that reads it.
 *
 * <p>Like YAML 1.1, plain {@code ~}, {@code null} and nothing are null, and {@code yes}, {@code
 * no}, {@code on}, {@code off} are booleans. An empty text ({@code ''}) is absent for a section, a
 * list, a map, a boolean or a number, and the empty text for text values.
 */
final class ConfigNode {
  private static final Pattern NULL = Pattern.compile("~|null|Null|NULL|");
  private static final Pattern BOOL =
      Pattern.compile("yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
  private static final Pattern TRUE = Pattern.compile("yes|Yes|YES|true|True|TRUE|on|On|ON");
  private static final Pattern INT =
      Pattern.compile("[-+]?(0b[0-1_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(:[0-5]?[0-9])*)");
  private static final Pattern FLOAT =
      Pattern.compile(
          "[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9_]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");

  /** What a whole load shares: the file's name, the problems, and where secrets come from. */
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

    /** Every key of a map read that its reader did not ask for. */
    void reportUnknownKeys() {
      for (ConfigNode map : maps) {
        for (String key : map.unknownKeys()) {
          String path = join(map.path, key);
          ConfigYaml.at(
              file,
              map.tuple(key).getKeyNode().getStartMark(),
              problems,
              path,
              "unknown key '" + path + "'; allowed keys: " + String.join(", ", map.asked));
        }
      }
    }

    /** Whether a map at or under {@code path} has a key its reader does not know. */
    boolean unknownKeysUnder(String path) {
      for (ConfigNode map : maps) {
        if ((map.path.equals(path)
                || map.path.startsWith(path + ".")
                || map.path.startsWith(path + "["))
            && !map.unknownKeys().isEmpty()) {
          return true;
        }
      }
      return false;
    }
  }

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

  final Reading reading;
  final String path;
  private final Node node;
  private final Set<String> asked = new LinkedHashSet<>();
  private Map<String, Node> entries;

  ConfigNode(Reading reading, String path, Node node) {
    this.reading = reading;
    this.path = path;
    this.node = node;
  }

  static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** Absent: not written, null, or (for a section) an empty text. */
  boolean present() {
    return kind() != Kind.ABSENT && kind() != Kind.NULL && !emptyText();
  }

  /**
   * Whether this value, or anything inside it, could not be read or has an unknown key: the rules
   * skip it rather than add a misleading second problem.
   */
  boolean unreadable() {
    return reading.problems.unreadable(path) || reading.unknownKeysUnder(path);
  }

  /** Whether the value of {@code key}, or anything inside it, could not be read. */
  boolean unreadable(String key) {
    return new ConfigNode(reading, join(path, key), null).unreadable();
  }

  /** The keys of this map its reader did not ask for, in file order. */
  private List<String> unknownKeys() {
    List<String> unknown = new ArrayList<>();
    for (String key : entries().keySet()) {
      if (!asked.contains(key)) {
        unknown.add(key);
      }
    }
    return unknown;
  }

  /** The first entry of {@code key}, where it is reported. */
  private NodeTuple tuple(String key) {
    for (NodeTuple entry : ((MappingNode) node).getValue()) {
      if (entry.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
        return entry;
      }
    }
    throw new IllegalStateException(key);
  }

  // ---- maps with known keys ----

  /** The value of {@code key} of this map, which must be one of its allowed keys. */
  ConfigNode child(String key) {
    asked.add(key);
    Node value = entries().get(key);
    return new ConfigNode(reading, join(path, key), value);
  }

  /** This value as a map of known keys; absent (after a report if it is not a map) otherwise. */
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

  private Map<String, Node> entries() {
    if (entries == null) {
      entries = new LinkedHashMap<>();
      if (node instanceof MappingNode map) {
        for (NodeTuple entry : map.getValue()) {
          if (entry.getKeyNode() instanceof ScalarNode key) {
            // A repeated key is a problem (reported); like any YAML reader, the last one counts.
            entries.put(key.getValue(), entry.getValueNode());
          }
        }
      }
    }
    return entries;
  }

  // ---- scalars ----

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
      case INTEGER -> {
        try {
          yield Long.parseLong(scalar());
        } catch (NumberFormatException e) {
          yield report("integer " + scalar() + " is out of range");
        }
      }
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
      case INTEGER, DECIMAL -> decimalValue(scalar().replace("_", ""));
      default -> emptyText() ? null : expected("a Double");
    };
  }

  private Double decimalValue(String text) {
    String lower = text.toLowerCase(java.util.Locale.ROOT);
    if (lower.endsWith(".inf")) {
      return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (lower.equals(".nan")) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      return report("Malformed numeric value '" + scalar() + "'");
    }
  }

  /**
   * A scalar parsed by {@code parse}, whose {@link IllegalArgumentException} message says what is
   * wrong; {@code expected} names the forms for a value that is not a scalar at all.
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
          "not a regular expression: "
              + e.getDescription()
              + " at index "
              + e.getIndex()
              + " of \""
              + text
              + "\"",
          e);
    }
  }

  // ---- key shorthands ----

  String text(String key) {
    return child(key).text();
  }

  Pattern pattern(String key) {
    return child(key).pattern();
  }

  Long integer(String key) {
    return child(key).integer();
  }

  long integer(String key, long absent) {
    Long value = integer(key);
    return value != null ? value : absent;
  }

  double decimal(String key, double absent) {
    Double value = decimal(key);
    return value != null ? value : absent;
  }

  Boolean bool(String key) {
    return child(key).bool();
  }

  boolean bool(String key, boolean absent) {
    Boolean value = bool(key);
    return value != null ? value : absent;
  }

  Double decimal(String key) {
    return child(key).decimal();
  }

  Duration duration(String key) {
    return child(key).duration();
  }

  Duration duration(String key, Duration absent) {
    Duration value = duration(key);
    return value != null ? value : absent;
  }

  // ---- lists and free maps ----

  /** Each element read by {@code read} (which may return null); null when the list is absent. */
  <T> List<T> listOf(String key, Function<ConfigNode, T> read) {
    ConfigNode list = child(key);
    return switch (list.kind()) {
      case LIST -> {
        List<T> values = new ArrayList<>();
        List<Node> items = ((SequenceNode) list.node).getValue();
        for (int i = 0; i < items.size(); i++) {
          values.add(read.apply(new ConfigNode(reading, list.path + "[" + i + "]", items.get(i))));
        }
        yield values;
      }
      case ABSENT, NULL -> null;
      default -> list.emptyText() ? null : list.expected("a list");
    };
  }

  /**
   * Each value read by {@code read} (which may return null), keys in file order; null if absent.
   */
  <T> Map<String, T> mapOf(String key, Function<ConfigNode, T> read) {
    return child(key).mapOf(read);
  }

  <T> Map<String, T> mapOf(Function<ConfigNode, T> read) {
    return switch (kind()) {
      case MAP -> {
        Map<String, T> values = new LinkedHashMap<>();
        entries()
            .forEach(
                (k, v) -> values.put(k, read.apply(new ConfigNode(reading, join(path, k), v))));
        yield values;
      }
      case ABSENT, NULL -> null;
      default -> emptyText() ? null : expected("a map");
    };
  }

  /** A map of texts, such as tags; a key without a value maps to null. */
  Map<String, String> texts(String key) {
    return mapOf(key, ConfigNode::text);
  }

  /** An absolute http or https URL with a host; empty otherwise (the text may be a secret). */
  static Optional<java.net.URI> httpUrl(String text) {
    try {
      java.net.URI uri = new java.net.URI(text);
      String scheme =
          uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return Optional.of(uri);
      }
    } catch (java.net.URISyntaxException e) {
      // reported by the caller, without the text: it may be a secret
    }
    return Optional.empty();
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

  // ---- secrets ----

  /** The secret of {@code <name>Env} or {@code <name>File}, read now; see {@link SecretRef}. */
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
      String path = owner.path;
      Problems problems = owner.reading.problems;
      if (owner.unreadable(envKey) || owner.unreadable(fileKey)) {
        return Optional.empty();
      }
      if (envVar != null && file != null) {
        problems.add("'" + path + "': set either '" + envKey + "' or '" + fileKey + "', not both");
        return Optional.empty();
      }
      if (envVar == null && file == null) {
        problems.add(
            "'"
                + path
                + "' needs '"
                + envKey
                + "' or '"
                + fileKey
                + "'; the "
                + name
                + " is a secret and is never written in the configuration file");
        return Optional.empty();
      }
      Consumer<String> report = m -> problems.add("'" + path + "': " + m);
      PasswordReader passwords = owner.reading.passwords;
      return envVar != null
          ? passwords.fromEnv(envVar, envKey, report)
          : owner
              .resolve(file, m -> report.accept("'" + fileKey + "' " + m))
              .flatMap(resolved -> passwords.fromFile(resolved, fileKey, report));
    }
  }

  /** A file path written in the configuration, relative to the configuration file. */
  Optional<Path> resolve(String file, Consumer<String> report) {
    return ConfigPaths.resolve(reading.baseDir, file, report);
  }

  // ---- rules shared by many keys; each reports under this map's path and returns whether ok ----

  /** {@code 'p' must be greater than 0s}. */
  boolean positive(String key, Duration value) {
    return check(!value.isZero(), "'" + join(path, key) + "' must be greater than 0s");
  }

  /** {@code 'p' (v) must be at least min[ why]}. */
  boolean atLeast(String key, Duration value, Duration min, String why) {
    return check(
        value.compareTo(min) >= 0,
        "'"
            + join(path, key)
            + "' ("
            + Durations.format(value)
            + ") must be at least "
            + Durations.format(min)
            + why);
  }

  /** {@code 'p' must be at least min}. */
  boolean minimum(String key, Duration value, Duration min) {
    return check(
        value.compareTo(min) >= 0,
        "'" + join(path, key) + "' must be at least " + Durations.format(min));
  }

  /** {@code 'p' must be at least min, got v}. */
  boolean atLeastGot(String key, Duration value, Duration min) {
    return check(
        value.compareTo(min) >= 0,
        "'"
            + join(path, key)
            + "' must be at least "
            + Durations.format(min)
            + ", got "
            + Durations.format(value));
  }

  /** {@code 'p' (v) must be between min and max[why]}. */
  boolean between(String key, long value, long min, long max, String why) {
    return check(
        value >= min && value <= max,
        "'" + join(path, key) + "' (" + value + ") must be between " + min + " and " + max + why);
  }

  /** {@code 'p' (v) must not be less than 'q' (w)}, both keys of this map. */
  boolean notLess(String key, Duration value, String otherKey, Duration other) {
    return check(
        value.compareTo(other) >= 0,
        "'"
            + join(path, key)
            + "' ("
            + Durations.format(value)
            + ") must not be less than '"
            + join(path, otherKey)
            + "' ("
            + Durations.format(other)
            + ")");
  }

  /**
   * The value of {@code text} (as read) among {@code values}, by name in any case; {@code message}
   * says what is allowed, given the text.
   */
  <E extends Enum<E>> E oneOf(String text, E[] values, E absent, Function<String, String> message) {
    if (text == null) {
      return absent;
    }
    for (E value : values) {
      if (value.name().equalsIgnoreCase(text)) {
        return value;
      }
    }
    reading.problems.add(message.apply(text));
    return absent;
  }

  boolean check(boolean ok, String problem) {
    if (!ok) {
      reading.problems.add(problem);
    }
    return ok;
  }

  // ---- the node itself ----

  private Kind kind() {
    if (node == null) {
      return Kind.ABSENT;
    }
    if (node instanceof MappingNode) {
      return Kind.MAP;
    }
    if (node instanceof SequenceNode) {
      return Kind.LIST;
    }
    ScalarNode scalar = (ScalarNode) node;
    if (!scalar.isPlain()) {
      return Kind.TEXT;
    }
    String text = scalar.getValue();
    if (NULL.matcher(text).matches()) {
      return Kind.NULL;
    }
    if (BOOL.matcher(text).matches()) {
      return Kind.BOOLEAN;
    }
    if (INT.matcher(text).matches()) {
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

  /** The value in words, for messages: {@code "abc"}, {@code 12}, {@code a list}, ... */
  private String describe() {
    return switch (kind()) {
      case MAP -> "a map";
      case LIST -> "a list";
      case ABSENT, NULL -> "nothing";
      case TEXT -> "\"" + scalar() + "\"";
      default -> scalar();
    };
  }

  /** The value as JSON, for messages about values of free form (quoted, as written). */
  String json() {
    StringBuilder out = new StringBuilder();
    json(node, out);
    return out.length() > 200 ? out.substring(0, 200) + "..." : out.toString();
  }

  private void json(Node n, StringBuilder out) {
    if (out.length() > 200) {
      return;
    }
    ConfigNode value = new ConfigNode(reading, path, n);
    switch (value.kind()) {
      case MAP -> {
        out.append('{');
        String sep = "";
        for (NodeTuple entry : ((MappingNode) n).getValue()) {
          out.append(sep)
              .append(quote(entry.getKeyNode() instanceof ScalarNode k ? k.getValue() : "?"))
              .append(':');
          json(entry.getValueNode(), out);
          sep = ",";
        }
        out.append('}');
      }
      case LIST -> {
        out.append('[');
        String sep = "";
        for (Node item : ((SequenceNode) n).getValue()) {
          out.append(sep);
          json(item, out);
          sep = ",";
        }
        out.append(']');
      }
      case ABSENT, NULL -> out.append("null");
      case TEXT -> out.append(quote(value.scalar()));
      default -> out.append(value.scalar());
    }
  }

  private static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  private <T> T expected(String what) {
    return report("expected " + what + ", got " + describe());
  }

  /** Reports a problem with this value at its place; returns null so reads can go on. */
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
