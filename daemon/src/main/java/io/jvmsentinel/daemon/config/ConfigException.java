package io.jvmsentinel.daemon.config;

import java.util.List;

/**
 * The configuration cannot be used. Carries every problem found, so an operator fixes them all in
 * one round; the message is the problems, one per line.
 */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(String.join("\n", problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ConfigException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  /** Each problem, in the order found: file problems first, then semantic ones. */
  public List<String> problems() {
    return problems;
  }
}
