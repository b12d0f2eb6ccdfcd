package io.jvmsentinel.daemon.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One filter entry of local discovery: a JVM matches when every pattern given is found in its field
 * (searched, not anchored; at least one is given).
 *
 * @param mainClass the main class, or the jar's file name for {@code java -jar}
 * @param commandLine the main class or jar path, a space, then the program arguments
 * @param user the operating-system user the JVM runs as; a JVM whose user cannot be read does not
 *     match
 */
public record JvmMatch(
    Optional<Pattern> mainClass, Optional<Pattern> commandLine, Optional<Pattern> user) {
  /** A match on the command line alone (what {@code --discover-include} gives). */
  public static JvmMatch commandLine(Pattern pattern) {
    return new JvmMatch(Optional.empty(), Optional.of(pattern), Optional.empty());
  }

  /** One entry of {@code include} or {@code exclude} as read, with its place. */
  record Written(ConfigNode node, JvmMatch match) {}

  static Written read(ConfigNode entry) {
    ConfigNode s = entry.section();
    return new Written(
        s,
        new JvmMatch(
            Optional.ofNullable(s.pattern("mainClass")),
            Optional.ofNullable(s.pattern("commandLine")),
            Optional.ofNullable(s.pattern("user"))));
  }

  /** The entries read; one without any pattern is a problem. */
  static List<JvmMatch> all(List<Written> entries) {
    List<JvmMatch> matches = new ArrayList<>();
    for (Written entry : entries == null ? List.<Written>of() : entries) {
      JvmMatch m = entry.match();
      if (m.mainClass().isEmpty() && m.commandLine().isEmpty() && m.user().isEmpty()) {
        if (!entry.node().unreadable()) { // a bad pattern was reported already
          entry
              .node()
              .check(
                  false,
                  "'" + entry.node().path + "' needs at least one of mainClass, commandLine, user");
        }
      } else {
        matches.add(m);
      }
    }
    return matches;
  }

  public boolean matches(String main, String command, Optional<String> owner) {
    return found(mainClass, Optional.of(main))
        && found(commandLine, Optional.of(command))
        && found(user, owner);
  }

  // Pattern has no equals of its own; the same text is the same filter (see PatternText).
  @Override
  public boolean equals(Object other) {
    return other instanceof JvmMatch that
        && PatternText.of(mainClass).equals(PatternText.of(that.mainClass))
        && PatternText.of(commandLine).equals(PatternText.of(that.commandLine))
        && PatternText.of(user).equals(PatternText.of(that.user));
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        PatternText.of(mainClass), PatternText.of(commandLine), PatternText.of(user));
  }

  private static boolean found(Optional<Pattern> pattern, Optional<String> value) {
    return pattern.isEmpty() || value.map(v -> pattern.get().matcher(v).find()).orElse(false);
  }
}
