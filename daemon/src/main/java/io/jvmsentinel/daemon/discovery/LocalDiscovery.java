package io.jvmsentinel.daemon.discovery;

import com.sun.tools.attach.VirtualMachine;
import io.jvmsentinel.daemon.config.LocalDiscoveryConfig;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.identity.PodIdentity;
import io.jvmsentinel.daemon.support.DaemonThreads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code local} discovery provider: lists the host's HotSpot JVMs every few seconds and hands
 * the matching ones, as targets, to the daemon. A JVM that exits drops out of the next list, and so
 * out of the targets. Listing only reads the JVMs' perf-data files; attaching happens later, in
 * each target's own session, so a hung JVM cannot stall discovery.
 */
public final class LocalDiscovery implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocalDiscovery.class);

  private static final Path PROC = Path.of("/proc");
  private static final Path TOKEN = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");
  // One scan for the process: it remembers what each process was found to be.
  private static final HostJvmScan HOST = HostJvmScan.ofThisHost();

  private final LocalDiscoveryConfig settings;
  private final Supplier<List<LocalJvm>> jvms;
  private final Consumer<List<TargetConfig>> targets;
  private final PodLookup pods;
  private final String node;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("discovery-local"));

  /**
   * @param jvms lists the JVMs on the host ({@link #attachable()} in production; tests pass a list)
   * @param targets receives the whole set of matching targets after every listing
   */
  public LocalDiscovery(
      LocalDiscoveryConfig settings,
      Supplier<List<LocalJvm>> jvms,
      Consumer<List<TargetConfig>> targets) {
    this(settings, jvms, targets, PodLookup.NONE, "");
  }

  /**
   * @param pods which pod a JVM's cgroup places it in (a node agent asks the Kubernetes API)
   * @param node the node this daemon runs on, the {@code node} tag of every JVM; "" when unknown
   */
  public LocalDiscovery(
      LocalDiscoveryConfig settings,
      Supplier<List<LocalJvm>> jvms,
      Consumer<List<TargetConfig>> targets,
      PodLookup pods,
      String node) {
    this.settings = settings;
    this.jvms = jvms;
    this.targets = targets;
    this.pods = pods;
    this.node = node;
  }

  /**
   * The provider of this host: in a Kubernetes cluster (the API's {@code KUBERNETES_SERVICE_HOST}
   * set, as in every pod) with a service-account token, JVMs are named after their pods, which the
   * API is asked for (the pods of {@code JVM_SENTINEL_NODE_NAME}'s node when set); else by main
   * class.
   */
  public static LocalDiscovery forThisHost(
      LocalDiscoveryConfig settings,
      Consumer<List<TargetConfig>> targets,
      Function<String, String> env) {
    String node = java.util.Objects.requireNonNullElse(env.apply(PodIdentity.NODE_ENV), "").strip();
    // Only with a token: the node agent has none unless pod identity was given RBAC to list pods.
    boolean api = env.apply("KUBERNETES_SERVICE_HOST") != null && Files.isRegularFile(TOKEN);
    PodLookup pods =
        api
            ? KubernetesPods.inCluster(node.isEmpty() ? Optional.empty() : Optional.of(node))
            : PodLookup.NONE;
    return new LocalDiscovery(settings, LocalDiscovery::attachable, targets, pods, node);
  }

  /**
   * The host's JVMs, without this daemon itself: from {@code /proc} on Linux, which sees the JVMs
   * of every container ({@link HostJvmScan}); elsewhere as the Attach API lists them.
   */
  public static List<LocalJvm> attachable() {
    if (Files.isDirectory(PROC)) {
      return HOST.jvms();
    }
    long self = ProcessHandle.current().pid();
    return VirtualMachine.list().stream()
        .filter(vm -> !vm.id().isEmpty() && vm.id().chars().allMatch(Character::isDigit))
        .filter(vm -> Long.parseLong(vm.id()) != self)
        .map(vm -> new LocalJvm(Long.parseLong(vm.id()), vm.displayName(), user(vm.id())))
        .toList();
  }

  private static Optional<String> user(String pid) {
    return ProcessHandle.of(Long.parseLong(pid)).flatMap(process -> process.info().user());
  }

  /** Lists now, then every {@link LocalDiscoveryConfig#interval()}. */
  public void start() {
    long every = settings.interval().toMillis();
    thread.scheduleWithFixedDelay(this::discoverSafely, 0, every, TimeUnit.MILLISECONDS);
  }

  /** One listing: the matching JVMs, as targets. */
  public List<TargetConfig> discover() {
    List<LocalJvm> watched =
        jvms.get().stream()
            .filter(jvm -> settings.watches(jvm.mainClass(), jvm.commandLine(), jvm.user()))
            .toList();
    List<TargetConfig> found = new ArrayList<>();
    Map<String, Long> oldestByName = new HashMap<>();
    for (LocalJvm jvm : watched) {
      PodIdentity pod = pods.find(jvm.cgroup()).onNode(node);
      TargetConfig target =
          jvm.target(
              settings.pollInterval(), settings.jmxAgent(), pod, settings.allowHostNetwork());
      found.add(target);
      oldestByName.merge(target.name(), jvm.pid(), Math::min);
    }
    // Two JVMs of one container or service: the oldest (lowest) pid keeps the name.
    List<TargetConfig> named = new ArrayList<>();
    for (int i = 0; i < found.size(); i++) {
      TargetConfig target = found.get(i);
      long pid = watched.get(i).pid();
      named.add(
          oldestByName.get(target.name()) == pid
              ? target
              : target.withName(target.name() + "-" + pid));
    }
    return named;
  }

  private void discoverSafely() {
    try {
      targets.accept(discover());
    } catch (RuntimeException e) {
      // Keep the current targets: a failed listing is not every JVM exiting at once.
      log.warn("local discovery failed, keeping the current targets: {}", e.toString(), e);
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
    if (pods instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.debug("closing the pod lookup: {}", e.toString());
      }
    }
  }
}
