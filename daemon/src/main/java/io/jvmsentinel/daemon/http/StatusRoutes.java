package io.jvmsentinel.daemon.http;

import io.jvmsentinel.collectors.jmx.JvmIdentity;
import io.jvmsentinel.daemon.alert.RuleCoverage;
import io.jvmsentinel.daemon.alert.RuleSettings;
import io.jvmsentinel.daemon.alert.rules.Rules;
import io.jvmsentinel.daemon.target.TargetSession;
import io.jvmsentinel.daemon.target.TargetStatus;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** {@code /health}, {@code /ready} and {@code /api/v1/targets}, from the sessions' status. */
public final class StatusRoutes {
  private final Supplier<List<WatchedTarget>> targets;
  private final Predicate<String> warmingUp;
  private final RedactedArguments masking;
  private final RuleCoverage coverage;

  /**
   * @param warmingUp whether a target (by name) is still in its JIT warm-up, as detection judges
   * @param masking how secrets in the targets' JVM arguments are hidden
   * @param coverage which rules can judge a target with the data it delivers
   */
  public StatusRoutes(
      Supplier<List<WatchedTarget>> targets,
      Predicate<String> warmingUp,
      RedactedArguments masking,
      RuleCoverage coverage) {
    this.targets = targets;
    this.warmingUp = warmingUp;
    this.masking = masking;
    this.coverage = coverage;
  }

  /** With every rule at its defaults, judged every second. */
  public StatusRoutes(
      Supplier<List<WatchedTarget>> targets,
      Predicate<String> warmingUp,
      RedactedArguments masking) {
    this(
        targets,
        warmingUp,
        masking,
        new RuleCoverage(Rules.all(), RuleSettings.DEFAULTS, true, Duration.ofSeconds(1)));
  }

  private List<TargetStatus> statuses() {
    return targets.get().stream().map(t -> t.session().status()).toList();
  }

  /** The daemon process is alive and serving. */
  public HttpEndpoint.Route health() {
    return request -> HttpEndpoint.Response.json(200, Map.of("status", "UP"));
  }

  /**
   * 200 only when every target is connected; otherwise 503 with how many are down, and which (name,
   * address, last error) to a caller that {@code mayName}: the probe stays open when the rest of
   * the endpoint needs a credential, and the addresses and errors of the targets must not.
   */
  public HttpEndpoint.Route ready(Predicate<HttpEndpoint.Request> mayName) {
    return request -> {
      List<TargetStatus> all = statuses();
      List<TargetStatus> down = all.stream().filter(t -> !t.up()).toList();
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("status", down.isEmpty() ? "READY" : "NOT_READY");
      body.put("targets", all.size());
      body.put("downTargets", down.size());
      if (mayName.test(request)) {
        body.put("down", down.stream().map(StatusRoutes::brief).toList());
      }
      return HttpEndpoint.Response.json(down.isEmpty() ? 200 : 503, body);
    };
  }

  /** Every target with its state, last error and identity. */
  public HttpEndpoint.Route targets() {
    return request ->
        HttpEndpoint.Response.json(
            200, Map.of("targets", targets.get().stream().map(this::full).toList()));
  }

  private static Map<String, Object> brief(TargetStatus status) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("target", status.name());
    map.put("address", status.address());
    map.put("since", status.since().toString());
    map.put("error", status.lastError());
    // While down: the latest failed attempt, up to which TargetDown counts the time seen down.
    map.put("lastFailure", status.lastFailure() == null ? null : status.lastFailure().toString());
    return map;
  }

  private Map<String, Object> full(WatchedTarget target) {
    TargetStatus status = target.session().status();
    Map<String, Object> map = brief(status);
    map.put("jfr", target.stream().state());
    // How events come (a stream on JDK 16+, chunk reads on JDK 8u262+/11) and how late they are.
    map.put("jfrFeed", target.stream().feedKind());
    double lag = target.stream().lagSeconds();
    map.put("jfrLagSeconds", Double.isNaN(lag) ? null : Math.round(lag * 10) / 10.0);
    // Events the daemon would read that this JVM does not have (jdk.Deoptimization before 14).
    map.put("jfrEventsMissing", target.stream().missingEvents());
    // Which source feeds the compiler-thread CPU metrics of this target (one source per metric).
    map.put(
        "compilerCpuSource",
        target.stream().streaming()
            ? "JFR jdk.ThreadCPULoad of the C1/C2 compiler threads"
            : "JMX DiagnosticCommand threadPrint (cpu= of the compiler threads; a safepoint of a"
                + " few ms per poll)");
    // Issue 17: a target without JFR (JDK 11) says which contention signals it lacks and why.
    map.put("contentionSignals", target.contentionSignals().toJson());
    map.put("up", status.up());
    // Seed incident 5: a JIT warming up is not an outage; dashboards shade it, rules allow for it.
    map.put("warmingUp", warmingUp.test(status.name()));
    // Every rule: judged on this target, from what and how often; or why not (never silently).
    TargetSession session = target.session();
    map.put(
        "rules",
        coverage.judgements(
            status.name(),
            new RuleCoverage.Sources(
                target.stream().streaming(),
                target.stream().state(),
                session.pollInterval(),
                session.detectionSignalInterval(),
                Set.copyOf(target.stream().missingEvents()))));
    map.put("connectAttempts", status.connectAttempts());
    JvmIdentity identity = status.identity();
    if (identity != null) {
      Map<String, Object> jvm = new LinkedHashMap<>();
      jvm.put("vmName", identity.vmName());
      jvm.put("vmVendor", identity.vmVendor());
      jvm.put("javaVersion", identity.javaVersion());
      jvm.put("featureVersion", identity.featureVersion());
      jvm.put("pid", identity.pid());
      jvm.put("startTimeMillis", identity.startTimeMillis());
      jvm.put("inputArguments", masking.of(identity.inputArguments()));
      jvm.put("vmOptions", identity.vmOptions());
      map.put("jvm", jvm);
    }
    return map;
  }
}
