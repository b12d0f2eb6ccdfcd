package io.jvmsentinel.daemon.config;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code discovery.local} (or {@code --discover local}): watch the JVMs on this host that match one
 * include entry, if any are given, and no exclude entry.
 *
 * @param interval how often the host's JVMs are listed again; at least 1s
 * @param pollInterval the JMX poll interval of each discovered target
 * @param include entries of which a JVM must match one; empty means every JVM
 * @param exclude entries of JVMs never to watch; they win over include
 * @param jmxAgent which JMX agent the daemon starts in each discovered JVM
 * @param allowHostNetwork whether a JVM in the host's network (a hostNetwork pod, seen by a node
 *     agent that is not) gets a remote agent, which then listens on a node address that no
 *     NetworkPolicy covers; {@code false}: such a JVM is not watched, and its target says why
 */
public record LocalDiscoveryConfig(
    Duration interval,
    Duration pollInterval,
    List<JvmMatch> include,
    List<JvmMatch> exclude,
    JmxAgent jmxAgent,
    boolean allowHostNetwork) {
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
  public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);

  /** The tags of every discovered target: its main class (or jar), its pid, its pod. */
  public static final String MAIN_CLASS_TAG = "main_class";

  public static final String PID_TAG = "pid";

  /**
   * The UID of the pod the JVM's cgroup places it in (a node agent reads it without the API); one
   * value per pod, so it adds no series beyond the pod's own.
   */
  public static final String POD_UID_TAG = "pod_uid";

  /**
   * Main class, pid and pod UID, then the pod's identity (a node agent knows it, docs/identity.md).
   */
  public static final List<String> TAG_KEYS =
      Stream.concat(Stream.of(MAIN_CLASS_TAG, PID_TAG, POD_UID_TAG), PodIdentity.TAG_KEYS.stream())
          .toList();

  /** {@code discovery.local.jmxAgent}: how the daemon reaches each discovered JVM. */
  public enum JmxAgent {
    /**
     * The local agent for a JVM in the daemon's network, a remote agent with a generated password
     * for one in another network (another pod, seen by a node agent).
     */
    AUTO,
    /** A remote agent with a generated password for every JVM (on loopback in the same network). */
    REMOTE
  }

  public LocalDiscoveryConfig {
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
  }

  /** Discovery that refuses host-network JVMs a remote agent. */
  public LocalDiscoveryConfig(
      Duration interval,
      Duration pollInterval,
      List<JvmMatch> include,
      List<JvmMatch> exclude,
      JmxAgent jmxAgent) {
    this(interval, pollInterval, include, exclude, jmxAgent, false);
  }

  /** Discovery that reaches each JVM the {@link JmxAgent#AUTO} way. */
  public LocalDiscoveryConfig(
      Duration interval, Duration pollInterval, List<JvmMatch> include, List<JvmMatch> exclude) {
    this(interval, pollInterval, include, exclude, JmxAgent.AUTO);
  }

  /** Whether the JVM with these fields is to be watched. */
  public boolean watches(String mainClass, String commandLine, Optional<String> user) {
    boolean included =
        include.isEmpty()
            || include.stream().anyMatch(m -> m.matches(mainClass, commandLine, user));
    return included && exclude.stream().noneMatch(m -> m.matches(mainClass, commandLine, user));
  }

  /** The {@code discovery.local} section; empty when it is absent or not enabled. */
  static Optional<LocalDiscoveryConfig> read(ConfigNode s) {
    boolean enabled = s.bool("enabled", true);
    Duration interval = s.duration("interval", DEFAULT_INTERVAL);
    Duration pollInterval = s.duration("pollInterval", TargetConfig.DEFAULT_POLL_INTERVAL);
    List<JvmMatch.Written> include = s.listOf("include", JvmMatch::read);
    List<JvmMatch.Written> exclude = s.listOf("exclude", JvmMatch::read);
    String jmxAgent = s.text("jmxAgent");
    boolean allowHostNetwork = s.bool("allowHostNetwork", false);
    if (!s.present() || !enabled) {
      return Optional.empty();
    }
    return Optional.of(
        new LocalDiscoveryConfig(
            s.atLeastGot("interval", interval, MIN_INTERVAL) ? interval : DEFAULT_INTERVAL,
            s.atLeastGot("pollInterval", pollInterval, TargetConfig.MIN_POLL_INTERVAL)
                ? pollInterval
                : TargetConfig.DEFAULT_POLL_INTERVAL,
            JvmMatch.all(include),
            JvmMatch.all(exclude),
            s.oneOf(
                jmxAgent,
                JmxAgent.values(),
                JmxAgent.AUTO,
                text ->
                    "'discovery.local.jmxAgent' must be 'auto' (the local agent for JVMs in the"
                        + " daemon's network, a password-protected remote agent for JVMs in other"
                        + " pods) or 'remote' (the remote agent for every JVM), got '"
                        + text
                        + "'"),
            allowHostNetwork));
  }
}
