package io.jvmsentinel.daemon.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.daemon.Main;
import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigException;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.testing.Jdks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every key the configuration reader accepts is documented in docs/configuration.md. The keys are
 * found the way a user finds them: by writing an unknown key into each section and reading the
 * loader's "allowed keys" answer, section by section, so the test follows the reader without
 * knowing how it is built.
 */
class ConfigurationDocTest {
  private static final String PROBE = "zzProbe";
  private static final Pattern ALLOWED =
      Pattern.compile("unknown key '(.*)\\." + PROBE + "'; allowed keys: (.*)$");
  private static final Pattern ROOT_ALLOWED =
      Pattern.compile("unknown key '" + PROBE + "'; allowed keys: (.*)$");
  private static final Pattern HEADING = Pattern.compile("(?m)^(#{2,3}) `([a-zA-Z.]+)`");

  @TempDir Path dir;
  private final ConfigLoader loader = new ConfigLoader(name -> null);
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void everyKeyTheReaderAcceptsIsInTheReference() throws IOException {
    List<String> keys = new ArrayList<>();
    crawl(List.of(), allowedKeys(Map.of(PROBE, 1), "").orElseThrow(), keys);
    // A reader that stopped answering would make this test pass on nothing.
    assertThat(keys)
        .as("the keys found by probing the reader")
        .contains(
            "http.listen",
            "jfr.maxSizeMb",
            "targets.pollInterval",
            "discovery.kubernetes.credentials.namespaces");

    String doc = Files.readString(Jdks.repoRoot().resolve("docs/configuration.md"));
    List<String> missing = keys.stream().filter(key -> !documented(doc, key)).toList();
    assertThat(missing)
        .as(
            "keys the reader accepts that docs/configuration.md does not name (in backticks, in the"
                + " table of their section, relative to it or in full)")
        .isEmpty();
  }

  @Test
  void everyRunOptionAndItsEnvironmentVariableIsInTheCommandLineTable() throws IOException {
    String doc = Files.readString(Jdks.repoRoot().resolve("docs/configuration.md"));
    String table =
        doc.substring(doc.indexOf("## Command line"), doc.indexOf("### Logging and the daemon"));
    List<String> missing = new ArrayList<>();
    for (OptionSpec option :
        Main.commandLine().getSubcommands().get("run").getCommandSpec().options()) {
      String name = option.longestName();
      if (option.usageHelp() || option.versionHelp()) {
        continue;
      }
      if (!table.contains("`" + name + " ")) {
        missing.add(name);
      }
      String defaultValue = option.defaultValue();
      if (defaultValue != null && defaultValue.startsWith("${env:")) {
        String variable = defaultValue.substring(6, defaultValue.length() - 1);
        if (!table.contains("`" + variable + "`")) {
          missing.add(name + " (" + variable + ")");
        }
      }
    }
    // The providers --discover takes, as its description names them.
    for (String provider : List.of("local", "kubernetes")) {
      if (!table.contains("`--discover " + provider + "`")) {
        missing.add("--discover " + provider);
      }
    }
    assertThat(missing)
        .as("run options (and environment variables) missing from the Command line table")
        .isEmpty();
  }

  /** Adds the leaf keys under {@code path}, whose map allows {@code allowed}. */
  private void crawl(List<Object> path, List<String> allowed, List<String> keys)
      throws IOException {
    for (String key : allowed) {
      List<Object> child = new ArrayList<>(path);
      child.add(key);
      Optional<List<String>> asMap = allowedKeys(nest(child, Map.of(PROBE, 1)), name(child));
      if (asMap.isPresent()) {
        crawl(child, asMap.get(), keys);
        continue;
      }
      List<Object> entry = new ArrayList<>(child);
      entry.add(0);
      Optional<List<String>> asList =
          allowedKeys(nest(child, List.of(Map.of(PROBE, 1))), name(entry));
      if (asList.isPresent()) {
        crawl(entry, asList.get(), keys);
      } else {
        keys.add(name(child).replaceAll("\\[\\d+]", ""));
      }
    }
  }

  /** The key path as the reader writes it: {@code targets[0].tls}. */
  private static String name(List<Object> path) {
    StringBuilder out = new StringBuilder();
    for (Object step : path) {
      if (step instanceof Integer index) {
        out.append('[').append(index).append(']');
      } else {
        out.append(out.length() == 0 ? "" : ".").append(step);
      }
    }
    return out.toString();
  }

  /** A document holding {@code value} at {@code path}. */
  private static Object nest(List<Object> path, Object value) {
    Object inner = value;
    for (int i = path.size() - 1; i >= 0; i--) {
      Object step = path.get(i);
      inner = step instanceof Integer ? List.of(inner) : singleton((String) step, inner);
    }
    return inner;
  }

  private static Map<String, Object> singleton(String key, Object value) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put(key, value);
    return map;
  }

  /** The allowed keys the loader names for the probe key under {@code at}, if it names them. */
  private Optional<List<String>> allowedKeys(Object document, String at) throws IOException {
    Path file = dir.resolve("config.yaml");
    Files.writeString(file, json.writeValueAsString(document)); // JSON is YAML
    try {
      loader.load(Optional.of(file), CliOverrides.NONE);
      return Optional.empty();
    } catch (ConfigException e) {
      for (String problem : e.problems()) {
        Matcher nested = ALLOWED.matcher(problem);
        if (nested.find() && nested.group(1).equals(at)) {
          return Optional.of(List.of(nested.group(2).split(", ")));
        }
        Matcher root = ROOT_ALLOWED.matcher(problem);
        if (at.isEmpty() && root.find()) {
          return Optional.of(List.of(root.group(1).split(", ")));
        }
      }
      return Optional.empty();
    }
  }

  /**
   * Whether the doc names {@code key} in full, or in backticks within the deepest section whose
   * heading it lies under: relative to that section, or by its last segments (a list entry's or a
   * sink's keys are described in the section's text). A {@code []} of a list in the doc is ignored.
   */
  static boolean documented(String doc, String key) {
    String text = doc.replace("[]", "");
    if (text.contains("`" + key + "`")) {
      return true;
    }
    Matcher heading = HEADING.matcher(text);
    List<Integer> starts = new ArrayList<>();
    List<Integer> levels = new ArrayList<>();
    List<String> names = new ArrayList<>();
    while (heading.find()) {
      starts.add(heading.start());
      levels.add(heading.group(1).length());
      names.add(heading.group(2));
    }
    int deepest = -1;
    for (int i = 0; i < names.size(); i++) {
      if (key.startsWith(names.get(i) + ".")
          && (deepest < 0 || names.get(i).length() > names.get(deepest).length())) {
        deepest = i;
      }
    }
    if (deepest < 0) {
      return false;
    }
    int end = text.length();
    for (int j = deepest + 1; j < names.size(); j++) {
      if (levels.get(j) <= levels.get(deepest)) {
        end = starts.get(j);
        break;
      }
    }
    String section = text.substring(starts.get(deepest), end);
    String relative = key.substring(names.get(deepest).length() + 1);
    for (int dot = -1; dot < relative.length(); dot = relative.indexOf('.', dot + 1)) {
      if (section.contains("`" + relative.substring(dot + 1) + "`")) {
        return true;
      }
      if (relative.indexOf('.', dot + 1) < 0) {
        break;
      }
    }
    return false;
  }

  @Test
  void aKeyIsFoundInFullOrWithinItsSection() {
    String doc =
        "## `http`\n| `tls.keyStore` |\n## `jfr`\n| `maxAge` |\n`targets[].name`\n"
            + "### `jfr.sinks`\nentries of `url`\n";
    assertThat(documented(doc, "http.tls.keyStore")).isTrue();
    assertThat(documented(doc, "jfr.maxAge")).isTrue();
    assertThat(documented(doc, "targets.name")).isTrue();
    assertThat(documented(doc, "jfr.sinks.hook.url")).as("by its last segment").isTrue();
    assertThat(documented(doc, "http.maxAge")).as("named only in another section").isFalse();
    assertThat(documented(doc, "jfr.tls.keyStore")).isFalse();
    assertThat(documented(doc, "jfr.sinks.maxAge")).as("not in the deepest section").isFalse();
  }
}
