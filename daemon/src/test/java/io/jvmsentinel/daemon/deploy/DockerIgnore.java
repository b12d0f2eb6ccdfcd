package io.jvmsentinel.daemon.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Docker's .dockerignore matching (moby/patternmatcher), for the build-context test: lines are
 * patterns, "#" lines are comments, a leading "!" re-includes, the last matching pattern wins, a
 * pattern matches a path or any of its parent directories, "**" spans directories, "*" and "?" stay
 * within one path element. Patterns are cleaned as Go's filepath.Clean does (a trailing or leading
 * "/" is dropped).
 */
final class DockerIgnore {
  private record Rule(Pattern pattern, boolean exclusion, String text) {}

  private final List<Rule> rules = new ArrayList<>();

  DockerIgnore(String fileText) {
    for (String raw : fileText.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      boolean exclusion = line.startsWith("!");
      String text = clean(exclusion ? line.substring(1).strip() : line);
      rules.add(new Rule(Pattern.compile(regex(text)), exclusion, text));
    }
  }

  /** Whether the file or directory at this context-relative path ("a/b/c") is left out. */
  boolean excludes(String path) {
    boolean excluded = false;
    for (Rule rule : rules) {
      if (matchesOrParentMatches(rule.pattern(), path)) {
        excluded = !rule.exclusion();
      }
    }
    return excluded;
  }

  /** Whether some "!" pattern could re-include a path under this excluded directory. */
  boolean mayReincludeUnder(String directory) {
    return rules.stream()
        .filter(Rule::exclusion)
        .anyMatch(r -> r.text().startsWith(directory + "/") || r.text().contains("*"));
  }

  private static boolean matchesOrParentMatches(Pattern pattern, String path) {
    if (pattern.matcher(path).matches()) {
      return true;
    }
    String[] parts = path.split("/");
    StringBuilder parent = new StringBuilder();
    for (int i = 0; i < parts.length - 1; i++) {
      parent.append(i == 0 ? "" : "/").append(parts[i]);
      if (pattern.matcher(parent).matches()) {
        return true;
      }
    }
    return false;
  }

  private static String clean(String pattern) {
    String p = pattern.replaceAll("/+", "/");
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/") && p.length() > 1) {
      p = p.substring(0, p.length() - 1);
    }
    return p.startsWith("./") ? p.substring(2) : p;
  }

  /** patternmatcher's translation of one pattern into a regular expression. */
  private static String regex(String pattern) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '*') {
        if (i + 1 < pattern.length() && pattern.charAt(i + 1) == '*') {
          i++;
          if (i + 1 < pattern.length() && pattern.charAt(i + 1) == '/') {
            i++;
            out.append("(.*/)?"); // "**/" is zero or more directories
          } else {
            out.append(".*");
          }
        } else {
          out.append("[^/]*");
        }
      } else if (c == '?') {
        out.append("[^/]");
      } else if (c == '\\' && i + 1 < pattern.length()) {
        out.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else {
        out.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return out.toString();
  }
}
