package io.jvmsentinel.daemon.config;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Builds the {@link SentinelConfig} from the YAML file and the command line, or explains in one
 * {@link ConfigException} everything that is wrong with them.
 *
 * <p>Passwords are read here, at load time, from the environment variables or files the
 * configuration names. The environment is a function so tests do not need real variables.
 */
public final class ConfigLoader {
  private final Function<String, String> env;

  /** Reads passwords from the real process environment. */
  public ConfigLoader() {
    this(System::getenv);
  }

  /**
   * @param env looks up an environment variable; returns null when it is not set
   */
  public ConfigLoader(Function<String, String> env) {
    this.env = env;
  }

  /** Loads a configuration file on its own. */
  public SentinelConfig load(Path file) throws ConfigException {
    return load(Optional.of(file), CliOverrides.NONE);
  }

  /**
   * Loads the file, if any, then applies the command line: its targets are appended to the file's
   * (named {@code host-port} or {@code pid-N}, or after the pod) and its listen address replaces
   * {@code http.listen}. In a pod (the {@link PodIdentity} variables set), a target without a name
   * is named after the pod.
   */
  public SentinelConfig load(Optional<Path> file, CliOverrides cli) throws ConfigException {
    Problems problems = new Problems();
    ConfigDocument doc = ConfigDocument.EMPTY;
    Path baseDir = Path.of("");
    if (file.isPresent()) {
      Optional<ConfigDocument> read = YamlConfigReader.read(file.get(), problems);
      if (read.isEmpty()) {
        problems.throwIfAny(); // nothing usable was read; always at least one problem here
      }
      doc = read.orElse(ConfigDocument.EMPTY);
      // Relative secret file paths start at the config file, not at the daemon's working dir.
      Path parent = file.get().toAbsolutePath().getParent();
      baseDir = parent != null ? parent : baseDir;
    }
    boolean targetsGiven =
        (doc.targets() != null && !doc.targets().isEmpty())
            || !cli.targets().isEmpty()
            || !cli.pids().isEmpty();
    PodIdentity pod = PodIdentity.fromEnvironment(env);
    List<TargetSource> sources = fileTargets(doc, baseDir, problems);
    sources.addAll(CliTargets.from(cli, baseDir, problems, pod));
    sources = PodNames.named(sources, pod);
    Optional<HostPort> listen = CliTargets.listen(cli, problems);
    SentinelConfig config =
        new ConfigValidator(problems, env)
            .validate(
                doc, sources, listen, targetsGiven, cli.discovery(), cli.kubernetes(), baseDir);
    problems.throwIfAny();
    return config;
  }

  private static List<TargetSource> fileTargets(
      ConfigDocument doc, Path baseDir, Problems problems) {
    List<TargetSource> sources = new ArrayList<>();
    List<ConfigDocument.Target> targets = doc.targets() == null ? List.of() : doc.targets();
    for (int i = 0; i < targets.size(); i++) {
      String path = "targets[" + i + "]";
      ConfigDocument.Target raw = targets.get(i);
      if (raw != null) {
        sources.add(new TargetSource(path, Optional.of(path), raw, baseDir));
      } else if (!problems.unreadableAt(path)) { // not "- 42", which was reported already
        sources.add(
            new TargetSource(path, Optional.of(path), ConfigDocument.EMPTY_TARGET, baseDir));
      }
    }
    return sources;
  }
}
