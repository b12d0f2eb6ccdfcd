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

/**
 * A target as written, in the file or on the command line, with where it came from so problems can
 * point back at it. Targets keep this form until the command line's are added and every one is
 * named ({@code --name}, the pod's name); {@link #toConfig} then checks it.
 *
 * @param where how problems name it: {@code targets[1]} or {@code --target localhost:9010}
 * @param node its map in the file, to skip values already reported as unreadable; absent (and never
 *     unreadable) for targets from the command line
 * @param tls its {@code tls} map as written; absent when not written
 */
record TargetSource(
    String where,
    ConfigNode node,
    String name,
    JmxAddress jmx,
    Long pid,
    String username,
    String passwordEnv,
    String passwordFile,
    Duration pollInterval,
    Map<String, String> tags,
    Tls tls) {
  static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_.-]+");

  /** A target's {@code tls} map as written. */
  record Tls(ConfigNode node, StoreKeys trustStore, StoreKeys keyStore, Boolean registry) {
    static Tls read(ConfigNode tls) {
      return new Tls(
          tls,
          StoreKeys.read(tls, "trustStore"),
          StoreKeys.read(tls, "keyStore"),
          tls.bool("registry"));
    }
  }

  /** An entry of {@code targets}; empty when it is not a map at all (reported already). */
  static Optional<TargetSource> read(ConfigNode entry) {
    ConfigNode s = entry.section();
    TargetSource source =
        new TargetSource(
            entry.path,
            s,
            s.text("name"),
            s.child("jmx").parsed("host:port or a service:jmx: URL", JmxAddress::parse),
            s.integer("pid"),
            s.text("username"),
            s.text("passwordEnv"),
            s.text("passwordFile"),
            s.duration("pollInterval"),
            s.texts("tags"),
            Tls.read(s.section("tls")));
    return s.present() || !s.reading.problems.unreadableAt(entry.path)
        ? Optional.of(source)
        : Optional.empty();
  }

  /** A target of the command line: a {@code --target} address or a {@code --pid}. */
  static TargetSource fromCommandLine(
      ConfigNode none, String where, String name, JmxAddress jmx, Long pid) {
    return new TargetSource(
        where, none, name, jmx, pid, null, null, null, null, null, Tls.read(none));
  }

  TargetSource withName(String newName) {
    return new TargetSource(
        where,
        node,
        newName,
        jmx,
        pid,
        username,
        passwordEnv,
        passwordFile,
        pollInterval,
        tags,
        tls);
  }

  /** An entry with nothing in it ({@code - } or {@code - {}}). */
  boolean empty() {
    return name == null
        && jmx == null
        && pid == null
        && username == null
        && passwordEnv == null
        && passwordFile == null
        && pollInterval == null
        && tags == null
        && !tls.node().present();
  }

  /** How messages name a target: {@code targets[1] (name 'orders')}. */
  String label() {
    return name == null ? where : where + " (name '" + name + "')";
  }

  /**
   * The target, or empty if it has a problem (recorded, each prefixed with {@link #label}).
   *
   * @param commonTags the top-level tags, which a target's own tags must not repeat
   * @param pod the pod the fixed targets run in (a sidecar's app), from the downward-API variables;
   *     its parts become tags of every fixed target that does not set them itself
   */
  Optional<TargetConfig> toConfig(Map<String, String> commonTags, PodIdentity pod) {
    List<String> found = new ArrayList<>();
    try {
      return toConfig(found::add, commonTags, pod).filter(target -> found.isEmpty());
    } finally {
      found.forEach(message -> node.check(false, label() + ": " + message));
    }
  }

  private Optional<TargetConfig> toConfig(
      Consumer<String> report, Map<String, String> commonTags, PodIdentity pod) {
    if (empty()) {
      report.accept("empty entry; a target needs 'name' and 'jmx' or 'pid'");
      return Optional.empty();
    }
    if (name == null) {
      if (!node.unreadable("name")) {
        report.accept(
            "'name' is required (in a pod, set "
                + PodIdentity.POD_ENV
                + " from the downward API to name it after the pod)");
      }
    } else if (!NAME.matcher(name).matches()) {
      report.accept("'name' must match [a-zA-Z0-9_.-]+");
    }
    Optional<TargetAddress> address = address(report);
    Duration poll = pollInterval != null ? pollInterval : TargetConfig.DEFAULT_POLL_INTERVAL;
    if (poll.compareTo(TargetConfig.MIN_POLL_INTERVAL) < 0) {
      report.accept("'pollInterval' must be at least 1s, got " + Durations.format(poll));
    }
    Optional<Secret> password =
        JmxPasswords.read(node, username, passwordEnv, passwordFile, report);
    Map<String, String> own = tags != null ? tags : Map.of();
    List<String> unreadableTags =
        own.keySet().stream().filter(k -> node.unreadable("tags." + k)).toList();
    TagRules.check(own, "'tags'", unreadableTags, report);
    own.keySet().stream()
        .filter(commonTags::containsKey)
        .forEach(
            key ->
                report.accept(
                    "tag key '" + key + "' is also a common tag (top-level 'tags'); set it once"));
    Optional<TargetTlsConfig> tlsConfig = tls(address, report);
    if (address.isEmpty() || name == null) {
      return Optional.empty();
    }
    return Optional.of(
        new TargetConfig(
            name,
            address.get(),
            Optional.ofNullable(username),
            password,
            poll,
            withPod(own, commonTags, pod),
            tlsConfig));
  }

  /**
   * The pod's tags first, then the target's own, which win; a common tag is left to the registry.
   */
  private static Map<String, String> withPod(
      Map<String, String> tags, Map<String, String> commonTags, PodIdentity pod) {
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

  private Optional<TargetAddress> address(Consumer<String> report) {
    if (node.unreadable("jmx") || node.unreadable("pid")) {
      return Optional.empty();
    }
    if ((jmx == null) == (pid == null)) {
      report.accept(
          "exactly one of 'jmx' or 'pid' is required" + (jmx == null ? "" : "; both are set"));
      return Optional.empty();
    }
    if (jmx != null) {
      return Optional.of(jmx);
    }
    if (pid <= 0) {
      report.accept("'pid' must be a positive process id, got " + pid);
      return Optional.empty();
    }
    return Optional.of(new PidAddress(pid));
  }

  /** Each target's own stores; opened now so a wrong password fails check-config. */
  private Optional<TargetTlsConfig> tls(Optional<TargetAddress> address, Consumer<String> report) {
    if (!tls.node().present()) {
      return Optional.empty();
    }
    if (address.isPresent()) {
      if (address.get() instanceof PidAddress) {
        report.accept("'tls' applies to 'jmx' targets only; attach by pid needs no network");
      } else if (RegistryAddress.of(((JmxAddress) address.get()).toJmxServiceUrl()).isEmpty()) {
        report.accept(
            "'tls' needs 'jmx' as HOST:PORT or service:jmx:rmi:///jndi/rmi://HOST:PORT/NAME");
      }
    }
    Optional<StoreFile> trust = tls.trustStore().open(StoreKeys.Kind.TRUST_STORE);
    Optional<StoreFile> keys = Optional.empty();
    if (tls.keyStore().written()) {
      keys = tls.keyStore().open(StoreKeys.Kind.KEY_STORE);
      if (keys.isEmpty()) {
        return Optional.empty();
      }
    }
    boolean registry = tls.registry() == null || tls.registry();
    Optional<ClientKey> clientKeys = keys.map(ClientKey.Store::new);
    return trust.map(t -> new TargetTlsConfig(new TlsTrust.Store(t), clientKeys, registry));
  }
}
