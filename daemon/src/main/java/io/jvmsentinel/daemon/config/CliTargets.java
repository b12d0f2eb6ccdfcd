package io.jvmsentinel.daemon.config;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.net.MalformedURLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.remote.JMXServiceURL;

/**
 * Turns {@code --target} and {@code --pid} values into targets with generated names, so a quick
 * {@code jvm-sentinel --target localhost:9010} needs no configuration file.
 */
final class CliTargets {
  // The registry address inside the usual RMI URL: service:jmx:rmi:///jndi/rmi://HOST:PORT/jmxrmi
  private static final Pattern RMI_REGISTRY = Pattern.compile("rmi://([^/]+)/");
  private static final Pattern NOT_IN_NAME = Pattern.compile("[^a-zA-Z0-9_.-]+");

  private CliTargets() {}

  /**
   * @param pod the pod the daemon watches in; its name is the default name of the one target the
   *     command line gives, so the replicas of an app have names of their own
   */
  static List<TargetSource> from(CliOverrides cli, ConfigNode.Reading reading, PodIdentity pod) {
    Problems problems = reading.problems;
    List<TargetSource> sources = new ArrayList<>();
    for (String spec : cli.targets()) {
      String where = "--target " + spec;
      try {
        JmxAddress address = JmxAddress.parse(spec);
        sources.add(source(reading, where, name(spec, address), address, null));
      } catch (IllegalArgumentException e) {
        problems.add(where + ": " + e.getMessage());
      }
    }
    for (long pid : cli.pids()) {
      sources.add(source(reading, "--pid " + pid, "pid-" + pid, null, pid));
    }
    if (cli.name().isPresent()) {
      return named(sources, cli.name().get(), problems);
    }
    if (pod.inPod() && sources.size() == 1) {
      return named(sources, pod.pod(), problems);
    }
    return sources;
  }

  /**
   * A pid changes whenever the target restarts, and with it a generated name; {@code --name} keeps
   * the {@code target} tag (and so every series and alert) stable across restarts.
   */
  private static List<TargetSource> named(
      List<TargetSource> sources, String name, Problems problems) {
    if (sources.size() != 1) {
      problems.add(
          "--name "
              + name
              + ": names the one target of --target or --pid, but the command line gives "
              + sources.size());
      return sources;
    }
    return List.of(sources.get(0).withName(name));
  }

  static Optional<HostPort> listen(CliOverrides cli, Problems problems) {
    try {
      return cli.listen().map(HostPort::parse);
    } catch (IllegalArgumentException e) {
      problems.add("--listen " + cli.listen().get() + ": " + e.getMessage());
      return Optional.empty();
    }
  }

  /** {@code localhost:9010} becomes {@code localhost-9010}; a URL is named after its host. */
  static String name(String spec, JmxAddress address) {
    String hostPort = spec;
    if (spec.startsWith("service:jmx:")) {
      Matcher registry = RMI_REGISTRY.matcher(spec);
      hostPort = registry.find() ? registry.group(1) : urlHostPort(address);
    }
    String name = NOT_IN_NAME.matcher(hostPort).replaceAll("-").replaceAll("^-+|-+$", "");
    return name.isEmpty() ? "jmx" : name;
  }

  private static String urlHostPort(JmxAddress address) {
    try {
      JMXServiceURL url = new JMXServiceURL(address.serviceUrl());
      return url.getHost() + "-" + url.getPort();
    } catch (MalformedURLException e) {
      return "jmx"; // not reached: the address was validated when it was built
    }
  }

  private static TargetSource source(
      ConfigNode.Reading reading, String where, String name, JmxAddress jmx, Long pid) {
    // A path of its own: nothing in the file can make a command-line value unreadable.
    return TargetSource.fromCommandLine(
        new ConfigNode(reading, where, null), where, name, jmx, pid);
  }
}
