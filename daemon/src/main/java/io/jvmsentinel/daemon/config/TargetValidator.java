package io.jvmsentinel.daemon.config;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/** Checks one target on its own and builds its {@link TargetConfig}. */
final class TargetValidator {
  static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_.-]+");

  private final Problems problems;
  private final PasswordReader passwords;
  private final Map<String, String> commonTags;
  private final PodIdentity pod;

  /**
   * @param pod the pod the fixed targets run in (a sidecar's app), from the downward-API variables;
   *     its parts become tags of every fixed target that does not set them itself
   */
  TargetValidator(
      Problems problems,
      PasswordReader passwords,
      Map<String, String> commonTags,
      PodIdentity pod) {
    this.problems = problems;
    this.passwords = passwords;
    this.commonTags = commonTags;
    this.pod = pod;
  }

  /** How messages name a target: {@code targets[1] (name 'orders')}. */
  static String label(TargetSource source) {
    String name = source.raw().name();
    return name == null ? source.where() : source.where() + " (name '" + name + "')";
  }

  /** The target, or empty if it has a problem (already recorded). */
  Optional<TargetConfig> validate(TargetSource source) {
    ConfigDocument.Target raw = source.raw();
    List<String> found = new ArrayList<>();
    Consumer<String> report = found::add;
    try {
      return validate(source, raw, report).filter(target -> found.isEmpty());
    } finally {
      found.forEach(message -> problems.add(label(source) + ": " + message));
    }
  }

  private Optional<TargetConfig> validate(
      TargetSource source, ConfigDocument.Target raw, Consumer<String> report) {

    if (raw.equals(ConfigDocument.EMPTY_TARGET)) {
      report.accept("empty entry; a target needs 'name' and 'jmx' or 'pid'");
      return Optional.empty();
    }
    if (raw.name() == null) {
      if (!unreadable(source, "name")) {
        report.accept(
            "'name' is required (in a pod, set "
                + PodIdentity.POD_ENV
                + " from the downward API to name it after the pod)");
      }
    } else if (!NAME.matcher(raw.name()).matches()) {
      report.accept("'name' must match [a-zA-Z0-9_.-]+");
    }
    Optional<TargetAddress> address = address(source, report);
    Duration poll =
        Optional.ofNullable(raw.pollInterval()).orElse(TargetConfig.DEFAULT_POLL_INTERVAL);
    if (poll.compareTo(TargetConfig.MIN_POLL_INTERVAL) < 0) {
      report.accept("'pollInterval' must be at least 1s, got " + Durations.format(poll));
    }
    Optional<Secret> password = password(source, report);
    Map<String, String> tags = Optional.ofNullable(raw.tags()).orElse(Map.of());
    TagRules.check(tags, "'tags'", unreadableTags(source, tags), report);
    tags.keySet().stream()
        .filter(commonTags::containsKey)
        .forEach(
            key ->
                report.accept(
                    "tag key '" + key + "' is also a common tag (top-level 'tags'); set it once"));

    Optional<TargetTlsConfig> tls = tls(source, address, report);

    if (address.isEmpty() || raw.name() == null) {
      return Optional.empty();
    }
    return Optional.of(
        new TargetConfig(
            raw.name(),
            address.get(),
            Optional.ofNullable(raw.username()),
            password,
            poll,
            withPod(tags),
            tls));
  }

  /**
   * The pod's tags first, then the target's own, which win; a common tag is left to the registry.
   */
  private Map<String, String> withPod(Map<String, String> tags) {
    Map<String, String> all = new LinkedHashMap<>();
    pod.tags()
        .forEach(
            (key, value) -> {
              if (!commonTags.containsKey(key)) {
                all.put(key, value);
              }
            });
    all.putAll(tags);
    return all;
  }

  private Optional<TargetAddress> address(TargetSource source, Consumer<String> report) {
    ConfigDocument.Target raw = source.raw();
    if (unreadable(source, "jmx") || unreadable(source, "pid")) {
      return Optional.empty();
    }
    if ((raw.jmx() == null) == (raw.pid() == null)) {
      report.accept(
          "exactly one of 'jmx' or 'pid' is required"
              + (raw.jmx() == null ? "" : "; both are set"));
      return Optional.empty();
    }
    if (raw.jmx() != null) {
      return Optional.of(raw.jmx());
    }
    if (raw.pid() <= 0) {
      report.accept("'pid' must be a positive process id, got " + raw.pid());
      return Optional.empty();
    }
    return Optional.of(new PidAddress(raw.pid()));
  }

  private Optional<Secret> password(TargetSource source, Consumer<String> report) {
    ConfigDocument.Target raw = source.raw();
    return new JmxPasswords(passwords)
        .read(
            raw.username(),
            raw.passwordEnv(),
            raw.passwordFile(),
            unreadable(source, "username"),
            source.baseDir(),
            report);
  }

  /** Each target's own stores; opened now so a wrong password fails check-config. */
  private Optional<TargetTlsConfig> tls(
      TargetSource source, Optional<TargetAddress> address, Consumer<String> report) {
    ConfigDocument.TargetTls raw = source.raw().tls();
    if (raw == null || source.path().isEmpty()) {
      return Optional.empty();
    }
    String path = source.path().get() + ".tls";
    if (address.isPresent()) {
      if (address.get() instanceof PidAddress) {
        report.accept("'tls' applies to 'jmx' targets only; attach by pid needs no network");
      } else if (RegistryAddress.of(((JmxAddress) address.get()).toJmxServiceUrl()).isEmpty()) {
        report.accept(
            "'tls' needs 'jmx' as HOST:PORT or service:jmx:rmi:///jndi/rmi://HOST:PORT/NAME");
      }
    }
    StoreFiles stores =
        new StoreFiles(problems, new SecretKeys(problems, passwords, source.baseDir()));
    Optional<StoreFile> trust =
        stores.read(
            path,
            "trustStore",
            raw.trustStore(),
            raw.trustStorePasswordEnv(),
            raw.trustStorePasswordFile(),
            StoreFiles.Kind.TRUST_STORE);
    Optional<StoreFile> keys = Optional.empty();
    boolean keysWanted =
        raw.keyStore() != null
            || raw.keyStorePasswordEnv() != null
            || raw.keyStorePasswordFile() != null;
    if (keysWanted) {
      keys =
          stores.read(
              path,
              "keyStore",
              raw.keyStore(),
              raw.keyStorePasswordEnv(),
              raw.keyStorePasswordFile(),
              StoreFiles.Kind.KEY_STORE);
      if (keys.isEmpty()) {
        return Optional.empty();
      }
    }
    boolean registry = raw.registry() == null || raw.registry();
    Optional<StoreFile> clientKeys = keys;
    return trust.map(t -> new TargetTlsConfig(t, clientKeys, registry));
  }

  private boolean unreadable(TargetSource source, String key) {
    return source.path().map(p -> problems.unreadable(p + "." + key)).orElse(false);
  }

  private List<String> unreadableTags(TargetSource source, Map<String, String> tags) {
    return tags.keySet().stream().filter(k -> unreadable(source, "tags." + k)).toList();
  }
}
