package io.jvmsentinel.daemon.discovery;

import io.jvmsentinel.collectors.text.SafeText;
import io.jvmsentinel.daemon.config.LocalDiscoveryConfig;
import io.jvmsentinel.daemon.config.PidAddress;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.identity.PodIdentity;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A JVM found on this host: its pid, command line (main class or jar, then arguments) and user.
 *
 * <p>The command line is the target's to write (its own argv memory, through {@code
 * /proc/self/mem}) and becomes a tag, a target name, part of file names and log lines: it is
 * cleaned here, once, where it enters (control, bidirectional and zero-width characters as {@code
 * _}), and the main class is cut to {@value #MAX_MAIN_CLASS} characters.
 *
 * @param pid the process id
 * @param commandLine main class, jar path or module/class, then the program arguments (the Attach
 *     API's display name of the JVM), cleaned
 * @param user the operating-system user it runs as, when the daemon may read it
 * @param sharesNetwork whether it is in the daemon's network namespace (its local JMX agent is then
 *     reachable); false for a JVM in another pod, or when that could not be read
 * @param cgroup where it runs: its pod and container, or its systemd service
 */
public record LocalJvm(
    long pid,
    String commandLine,
    Optional<String> user,
    boolean sharesNetwork,
    ProcessCgroup cgroup) {
  private static final Pattern NOT_IN_NAME = Pattern.compile("[^a-zA-Z0-9_.-]+");
  static final int MAX_MAIN_CLASS = 128;
  static final int SHORT_UID = 8;

  public LocalJvm {
    commandLine = SafeText.of(commandLine);
  }

  /** A JVM whose cgroup says nothing. */
  public LocalJvm(long pid, String commandLine, Optional<String> user, boolean sharesNetwork) {
    this(pid, commandLine, user, sharesNetwork, ProcessCgroup.NONE);
  }

  /** A JVM in the daemon's network. */
  public LocalJvm(long pid, String commandLine, Optional<String> user) {
    this(pid, commandLine, user, true);
  }

  /** The main class, or the jar's file name for {@code java -jar}; "unknown" when not reported. */
  public String mainClass() {
    String first = commandLine.strip().split("\\s+", 2)[0];
    if (first.isEmpty()) {
      return "unknown";
    }
    String main = first.endsWith(".jar") ? first.substring(first.lastIndexOf('/') + 1) : first;
    return main.length() > MAX_MAIN_CLASS ? main.substring(0, MAX_MAIN_CLASS) : main;
  }

  /**
   * The target outside any known pod, tagged with its main class and pid, attached to as {@code run
   * --pid} does when it shares the daemon's network, else through a remote agent the daemon starts
   * in it.
   */
  public TargetConfig target(Duration pollInterval) {
    return target(pollInterval, LocalDiscoveryConfig.JmxAgent.AUTO);
  }

  /** The target outside any known pod, reached through the JMX agent {@code jmxAgent} asks for. */
  public TargetConfig target(Duration pollInterval, LocalDiscoveryConfig.JmxAgent jmxAgent) {
    return target(pollInterval, jmxAgent, PodIdentity.NONE);
  }

  /**
   * The target, named {@link #name(PodIdentity)}, tagged with its main class, pid and {@code pod}'s
   * identity.
   */
  public TargetConfig target(
      Duration pollInterval, LocalDiscoveryConfig.JmxAgent jmxAgent, PodIdentity pod) {
    return target(pollInterval, jmxAgent, pod, false);
  }

  /**
   * The target of {@link #target(Duration, LocalDiscoveryConfig.JmxAgent, PodIdentity)}; with
   * {@code allowHostNetwork}, a JVM in the host's network gets a remote agent too.
   */
  public TargetConfig target(
      Duration pollInterval,
      LocalDiscoveryConfig.JmxAgent jmxAgent,
      PodIdentity pod,
      boolean allowHostNetwork) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put(LocalDiscoveryConfig.MAIN_CLASS_TAG, mainClass());
    tags.put(LocalDiscoveryConfig.PID_TAG, Long.toString(pid));
    cgroup.podUid().ifPresent(uid -> tags.put(LocalDiscoveryConfig.POD_UID_TAG, uid));
    tags.putAll(pod.tags());
    return new TargetConfig(
        name(pod),
        new PidAddress(pid, agent(jmxAgent), allowHostNetwork),
        Optional.empty(),
        Optional.empty(),
        pollInterval,
        tags);
  }

  /**
   * A name that stays when the JVM restarts, where something says who it is (docs/identity.md): in
   * a known pod {@code <namespace>.<pod>.<container>} (the container's restarts keep it); in a pod
   * the API did not name (no token or no RBAC) {@code <main class>-<first 8 hex digits of the pod's
   * UID>} ({@code OrdersMain-0f2d6e3a}, the cgroup gives the UID and a container restart keeps it);
   * run by a systemd service {@code <main class>-<service>} ({@code Kafka-kafka}); else {@code
   * <main class>-<pid>} ({@code LabMain-4242}), since nothing else tells two such JVMs apart.
   */
  public String name(PodIdentity pod) {
    if (pod.inPod()) {
      String name = clean(pod.namespace()) + "." + clean(pod.pod());
      return pod.container().isEmpty() ? name : name + "." + clean(pod.container());
    }
    String main = mainClass();
    String simple = main.endsWith(".jar") ? main : main.substring(main.lastIndexOf('.') + 1);
    String suffix =
        cgroup
            .podUid()
            .map(LocalJvm::shortUid)
            .or(() -> cgroup.service().map(LocalJvm::clean))
            .orElse(Long.toString(pid));
    return clean(simple) + "-" + suffix;
  }

  /**
   * The first {@value #SHORT_UID} hex digits of a pod UID: as stable as the UID, short enough for a
   * name; two pods of one main class on a node that share them keep apart by pid (LocalDiscovery).
   */
  private static String shortUid(String uid) {
    return uid.replace("-", "").substring(0, SHORT_UID);
  }

  private static String clean(String part) {
    return NOT_IN_NAME.matcher(part).replaceAll("-");
  }

  private PidAddress.Agent agent(LocalDiscoveryConfig.JmxAgent jmxAgent) {
    return jmxAgent == LocalDiscoveryConfig.JmxAgent.AUTO && sharesNetwork
        ? PidAddress.Agent.LOCAL
        : PidAddress.Agent.REMOTE;
  }
}
