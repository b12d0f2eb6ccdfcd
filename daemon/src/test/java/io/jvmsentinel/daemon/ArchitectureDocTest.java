package io.jvmsentinel.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.testing.Jdks;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The package table of docs/architecture.md ("Daemon, top to bottom") and the layered rule {@link
 * ArchitectureTest#LAYERS} say the same: the same layers in the same order, each allowed exactly
 * the same packages. Read from the rule's own description, so the rule stays the one source.
 */
class ArchitectureDocTest {
  private static final Pattern LAYER = Pattern.compile("layer '([^']+)' \\(");
  private static final Pattern ACCESS =
      Pattern.compile(
          "where layer '([^']+)' may (?:only access layers \\[([^]]*)]|not access any layer)");

  @Test
  void theDocsPackageTableIsTheLayeredRule() throws Exception {
    Map<String, Set<String>> rule = fromRule(ArchitectureTest.LAYERS.getDescription());
    Map<String, Set<String>> doc =
        fromDoc(Files.readString(Jdks.repoRoot().resolve("docs/architecture.md")));

    assertThat(rule).as("read from the rule").hasSizeGreaterThan(10);
    assertThat(doc.keySet()).as("layers, top to bottom").containsExactlyElementsOf(rule.keySet());
    for (Map.Entry<String, Set<String>> layer : rule.entrySet()) {
      assertThat(doc.get(layer.getKey()))
          .as("what %s may use, in docs/architecture.md", layer.getKey())
          .isEqualTo(layer.getValue());
    }
  }

  /** Layer -> the layers it may use, in the rule's order. */
  static Map<String, Set<String>> fromRule(String description) {
    Map<String, Set<String>> layers = new LinkedHashMap<>();
    Matcher layer = LAYER.matcher(description);
    while (layer.find()) {
      layers.put(layer.group(1), new TreeSet<>());
    }
    Matcher access = ACCESS.matcher(description);
    while (access.find()) {
      if (access.group(2) != null) {
        for (String used : access.group(2).split(",")) {
          layers.get(access.group(1)).add(used.trim().replace("'", ""));
        }
      }
    }
    return layers;
  }

  /**
   * Layer -> the layers it may use, from the code block under "Daemon, top to bottom": a row starts
   * at the left edge, continues on indented lines; the "may use" column starts where its heading
   * does; remarks in parentheses and "nothing" name no layer.
   */
  static Map<String, Set<String>> fromDoc(String markdown) {
    int start = markdown.indexOf("```", markdown.indexOf("Daemon, top to bottom"));
    int end = markdown.indexOf("```", start + 3);
    List<String> lines = new ArrayList<>(Arrays.asList(markdown.substring(start, end).split("\n")));
    lines.remove(0); // the fence
    String heading = lines.remove(0);
    int column = heading.indexOf("may use");
    Map<String, StringBuilder> rows = new LinkedHashMap<>();
    StringBuilder current = null;
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      if (!Character.isWhitespace(line.charAt(0))) {
        current = new StringBuilder();
        rows.put(line.split("\\s+")[0], current);
      }
      if (current != null && line.length() > column) {
        current.append(' ').append(line.substring(column));
      }
    }
    Map<String, Set<String>> layers = new LinkedHashMap<>();
    rows.forEach(
        (name, uses) -> {
          Set<String> used = new TreeSet<>();
          for (String word : uses.toString().replaceAll("\\([^)]*\\)", " ").split("[,\\s]+")) {
            if (!word.isBlank() && !word.equals("nothing")) {
              used.add(word);
            }
          }
          layers.put(name, used);
        });
    return layers;
  }
}
