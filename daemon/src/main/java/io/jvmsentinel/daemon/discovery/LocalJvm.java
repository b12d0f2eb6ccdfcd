package io.jvmsentinel.daemon.discovery;

import io.jvmsentinel.collectors.text.SafeText;
import io.jvmsentinel.daemon.config.LocalDiscoveryConfig;
import io.jvmsentinel.daemon.config.PidAddress;
import io.jvmsentinel.daemon.config.TargetConfig;
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
 * cleaned here, once, where it enters (control and bidirectional characters as {@code _}), and the
 * main class is cut to {@value #MAX_MAIN_CLASS} characters.
 *
 * @param pid the process id
 * @param commandLine main class, jar path or module/class, then the program arguments (the Attach
 *     API's display name of the JVM), cleaned
 * @param user the operating-system user it runs as, when the daemon may read it
 * @param sharesNetwork whether it is in the daemon's network namespace (its local JMX agent is then
 *     reachable); false for a JVM in another pod, or when that could not be read
 */
public record LocalJvm(long pid, String commandLine, Optional<String> user, boolean sharesNetwork) {
  private static final Pattern NOT_IN_NAME = Pattern.compile("[^a-zA-Z0-9_.-]+");
  static final int MAX_MAIN_CLASS = 128;

  public LocalJvm {
    commandLine = SafeText.of(commandLine);
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
   * The target: named after the main class's simple name and the pid ({@code LabMain-4242}, unique
   * on the host), tagged with both, attached to as {@code run --pid} does when it shares the
   * daemon's network, else through a remote agent the daemon starts in it.
   */
  public TargetConfig target(Duration pollInterval) {
    return target(pollInterval, LocalDiscoveryConfig.JmxAgent.AUTO);
  }

  /** The target, reached through the JMX agent {@code jmxAgent} asks for. */
  public TargetConfig target(Duration pollInterval, LocalDiscoveryConfig.JmxAgent jmxAgent) {
    return target(pollInterval, jmxAgent, false);
  }

  /**
   * The target, reached through the JMX agent {@code jmxAgent} asks for; with {@code
   * allowHostNetwork}, a JVM in the host's network gets a remote agent too.
   */
  public TargetConfig target(
      Duration pollInterval, LocalDiscoveryConfig.JmxAgent jmxAgent, boolean allowHostNetwork) {
    String main = mainClass();
    String simple = main.endsWith(".jar") ? main : main.substring(main.lastIndexOf('.') + 1);
    String name = NOT_IN_NAME.matcher(simple).replaceAll("-") + "-" + pid;
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put(LocalDiscoveryConfig.MAIN_CLASS_TAG, main);
    tags.put(LocalDiscoveryConfig.PID_TAG, Long.toString(pid));
    return new TargetConfig(
        name,
        new PidAddress(pid, agent(jmxAgent), allowHostNetwork),
        Optional.empty(),
        Optional.empty(),
        pollInterval,
        tags);
  }

  private PidAddress.Agent agent(LocalDiscoveryConfig.JmxAgent jmxAgent) {
    return jmxAgent == LocalDiscoveryConfig.JmxAgent.AUTO && sharesNetwork
        ? PidAddress.Agent.LOCAL
        : PidAddress.Agent.REMOTE;
  }
}
