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
 * @param name {@code --name}: the name of the one target given by {@code --target} or {@code
 *     --pid}, instead of the generated {@code host-port} or {@code pid-N}
 * @param discovery {@code --discover local} with its filters: replaces {@code discovery.local}
 * @param kubernetes {@code --discover kubernetes}: the file's {@code discovery.kubernetes}, or its
 *     defaults when the file has none
 */
public record CliOverrides(
    List<String> targets,
    List<Long> pids,
    Optional<String> listen,
    Optional<String> name,
    Optional<LocalDiscoveryConfig> discovery,
    boolean kubernetes) {
  public static final CliOverrides NONE = new CliOverrides(List.of(), List.of(), Optional.empty());

  public CliOverrides {
    targets = List.copyOf(targets);
    pids = List.copyOf(pids);
    Objects.requireNonNull(listen, "listen");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(discovery, "discovery");
  }

  public CliOverrides(
      List<String> targets,
      List<Long> pids,
      Optional<String> listen,
      Optional<String> name,
      Optional<LocalDiscoveryConfig> discovery) {
    this(targets, pids, listen, name, discovery, false);
  }

  public CliOverrides(List<String> targets, List<Long> pids, Optional<String> listen) {
    this(targets, pids, listen, Optional.empty());
  }

  public CliOverrides(
      List<String> targets, List<Long> pids, Optional<String> listen, Optional<String> name) {
    this(targets, pids, listen, name, Optional.empty());
  }
}
