package io.jvmsentinel.daemon.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the command line adds to (or changes in) the configuration file.
 *
 * @param targets {@code --target} values: {@code host:port} or {@code service:jmx:} URLs, appended
 *     to the file's targets
 * @param pids {@code --pid} values: local JVMs to attach to, appended after {@code targets}
 * @param listen {@code --listen}: replaces {@code http.listen}
 */
public record CliOverrides(List<String> targets, List<Long> pids, Optional<String> listen) {
  public static final CliOverrides NONE = new CliOverrides(List.of(), List.of(), Optional.empty());

  public CliOverrides {
    targets = List.copyOf(targets);
    pids = List.copyOf(pids);
    Objects.requireNonNull(listen, "listen");
  }
}
