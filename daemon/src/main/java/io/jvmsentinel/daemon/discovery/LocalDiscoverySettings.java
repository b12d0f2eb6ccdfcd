package io.jvmsentinel.daemon.discovery;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What {@code --discover local} watches: the JVMs on this host whose command line (main class or
 * jar, then arguments, as the Attach API reports it) matches one include pattern, if any are given,
 * and no exclude pattern.
 *
 * @param interval how often the host's JVMs are listed again
 * @param include patterns searched for in the command line; empty means every JVM
 * @param exclude patterns of JVMs never to watch
 * @param pollInterval the JMX poll interval of each discovered target
 */
public record LocalDiscoverySettings(
    Duration interval, List<Pattern> include, List<Pattern> exclude, Duration pollInterval) {
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

  public LocalDiscoverySettings {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(pollInterval, "pollInterval");
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
  }

  /** Whether a JVM with this command line is to be watched. */
  public boolean matches(String commandLine) {
    boolean included =
        include.isEmpty() || include.stream().anyMatch(p -> p.matcher(commandLine).find());
    return included && exclude.stream().noneMatch(p -> p.matcher(commandLine).find());
  }
}
