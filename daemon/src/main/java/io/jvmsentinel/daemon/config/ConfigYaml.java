package io.jvmsentinel.daemon.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * Reads the file into a YAML node tree (snakeyaml-engine's composer: nodes and their positions,
 * never Java objects, so no tag can construct anything). Reports, with their place, what makes the
 * file unusable (not found, malformed, more than one document) and every duplicate key.
 */
final class ConfigYaml {
  /** Deeper nesting is no configuration; the composer recurses, so it must not see it. */
  static final int MAX_DEPTH = 50;

  private static final LoadSettings SETTINGS =
      LoadSettings.builder()
          .setLabel("config")
          .setMaxAliasesForCollections(50) // an alias bomb is refused, not expanded
          .setCodePointLimit(3 * 1024 * 1024)
          .setAllowRecursiveKeys(false)
          .setAllowNonScalarKeys(true) // to report them with their place, below
          .build();

  /**
   * The tags of plain data; any other tag (written in the file) is refused, never applied. The
   * parser gives {@code ${VARIABLE}} its own tag: such text is read as written (no substitution).
   */
  private static final Set<Tag> PLAIN_DATA =
      Set.of(Tag.STR, Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.NULL, Tag.MAP, Tag.SEQ, Tag.ENV_TAG);

  private ConfigYaml() {}

  /** The document's root node: empty when nothing usable was read (problems say why). */
  static Optional<Node> read(Path file, Problems problems) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      problems.add("config file not found: " + file);
      return Optional.empty();
    } catch (AccessDeniedException e) {
      problems.add("cannot read config file " + file + ": permission denied");
      return Optional.empty();
    } catch (CharacterCodingException e) {
      problems.add("cannot read config file " + file + ": it is not UTF-8 text");
      return Optional.empty();
    } catch (IOException e) {
      problems.add("cannot read config file " + file + ": " + e);
      return Optional.empty();
    }
    String name = file.toString();
    try {
      if (!depthWithinLimit(name, text, problems)) {
        return Optional.empty();
      }
      ParserImpl parser = new ParserImpl(SETTINGS, new StreamReader(SETTINGS, text));
      Composer composer = new Composer(SETTINGS, parser);
      if (!composer.hasNext()) {
        problems.add(name + ": the file is empty; it needs at least a 'targets:' list");
        return Optional.empty();
      }
      Node root = composer.next();
      secondDocument(parser, composer)
          .ifPresent(
              next ->
                  at(name, next, problems, null, "only one YAML document is allowed in the file"));
      checkTagsAndKeys(
          name, root, "", problems, Collections.newSetFromMap(new IdentityHashMap<>()));
      return Optional.of(root);
    } catch (MarkedYamlEngineException e) {
      Optional<Mark> mark = e.getProblemMark().or(e::getContextMark);
      String context =
          e.getContext() == null || e.getContext().isEmpty() ? "" : " (" + e.getContext() + ")";
      problems.add(where(name, mark) + "malformed YAML: " + e.getProblem() + context);
    } catch (ReaderException e) {
      problems.add(place(name, text, e.getPosition()) + "malformed YAML: " + e.getMessage());
    } catch (YamlEngineException e) {
      problems.add(name + ": malformed YAML: " + e.getMessage());
    }
    return Optional.empty();
  }

  /** Where a second document starts, if there is one (it may be broken: it is refused anyway). */
  private static Optional<Optional<Mark>> secondDocument(ParserImpl parser, Composer composer) {
    if (!composer.hasNext()) {
      return Optional.empty();
    }
    Optional<Mark> start = parser.peekEvent().getStartMark();
    try {
      return Optional.of(composer.next().getStartMark());
    } catch (YamlEngineException e) {
      return Optional.of(start);
    }
  }

  /**
   * Whether no collection nests deeper than {@link #MAX_DEPTH}, checked on the parser's events
   * before the recursive composer sees them. A syntax error in a second document is left to {@link
   * #secondDocument}: the first document is read all the same.
   */
  private static boolean depthWithinLimit(String name, String text, Problems problems) {
    ParserImpl parser = new ParserImpl(SETTINGS, new StreamReader(SETTINGS, text));
    int depth = 0;
    boolean secondDocumentStarted = false;
    int documents = 0;
    try {
      while (parser.hasNext()) {
        Event event = parser.next();
        switch (event.getEventId()) {
          case MappingStart, SequenceStart -> depth++;
          case MappingEnd, SequenceEnd -> depth--;
          case DocumentStart -> secondDocumentStarted = ++documents > 1;
          default -> {}
        }
        if (depth > MAX_DEPTH) {
          problems.add(
              where(name, event.getStartMark())
                  + "malformed YAML: nested deeper than "
                  + MAX_DEPTH
                  + " levels");
          return false;
        }
      }
    } catch (MarkedYamlEngineException e) {
      if (!secondDocumentStarted) {
        throw e;
      }
    }
    return true;
  }

  /**
   * Every tag that is not one of plain data, every key that is not text, and every key written
   * twice in one map, with its path. The composer would keep one value silently; an operator means
   * one of them, and we cannot tell which. Each node is walked once, so aliases cost nothing and
   * cannot loop.
   */
  private static void checkTagsAndKeys(
      String name, Node node, String path, Problems problems, Set<Node> seen) {
    if (!seen.add(node)) {
      return;
    }
    if (!PLAIN_DATA.contains(node.getTag())) {
      at(
          name,
          node.getStartMark(),
          problems,
          path,
          (path.isEmpty() ? "" : "'" + path + "': ")
              + "the YAML tag "
              + node.getTag().getValue().replace(Tag.PREFIX, "!!")
              + " is not allowed; write the value without a tag");
    }
    if (node instanceof MappingNode map) {
      Set<String> keys = new HashSet<>();
      for (NodeTuple entry : map.getValue()) {
        if (!(entry.getKeyNode() instanceof ScalarNode scalar)) {
          at(
              name,
              entry.getKeyNode().getStartMark(),
              problems,
              path,
              (path.isEmpty() ? "" : "'" + path + "': ")
                  + "a key must be text, not a list or a map");
          continue;
        }
        String key = scalar.getValue();
        String keyPath = ConfigNode.join(path, key);
        if (!keys.add(key)) {
          at(
              name,
              entry.getKeyNode().getStartMark(),
              problems,
              keyPath,
              "duplicate key '" + keyPath + "'");
        }
        checkTagsAndKeys(name, entry.getValueNode(), keyPath, problems, seen);
      }
    } else if (node instanceof SequenceNode list) {
      for (int i = 0; i < list.getValue().size(); i++) {
        checkTagsAndKeys(name, list.getValue().get(i), path + "[" + i + "]", problems, seen);
      }
    }
  }

  static void at(String file, Optional<Mark> mark, Problems problems, String path, String message) {
    problems.addAt(
        mark.map(m -> m.getLine() + 1).orElse(0),
        mark.map(m -> m.getColumn() + 1).orElse(0),
        path,
        where(file, mark) + message);
  }

  /** {@code file:line:column: } of a code point index into {@code text}. */
  private static String place(String file, String text, int codePoints) {
    int line = 1;
    int column = 1;
    int end =
        text.offsetByCodePoints(0, Math.min(codePoints, text.codePointCount(0, text.length())));
    for (int i = 0; i < end; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        column = 1;
      } else if (!Character.isLowSurrogate(text.charAt(i))) {
        column++;
      }
    }
    return file + ":" + line + ":" + column + ": ";
  }

  private static String where(String file, Optional<Mark> mark) {
    return mark.map(m -> file + ":" + (m.getLine() + 1) + ":" + (m.getColumn() + 1) + ": ")
        .orElse(file + ": ");
  }
}
