package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import io.jvmsentinel.collectors.jfr.locks.BlockedEvent;
import io.jvmsentinel.collectors.jfr.tls.TlsHandshakeHandler;
import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.rules.DeoptimizationStormRule;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;

/**
 * The events that make an alert's snapshot hold its incident, per rule: the snapshot is published
 * only if it holds each of them within the alert's window ({@link SnapshotCheck}). A rule missing
 * here fails {@code SnapshotCheckTest}.
 */
final class SnapshotEvidence {
  /** Events of any of {@code types} that {@code matches}, described for people as {@code what}. */
  record Need(String what, Set<String> types, Predicate<RecordedEvent> matches) {
    static Need any(String what, String... types) {
      return new Need(what, Set.of(types), event -> true);
    }
  }

  private static final Need CODE_CACHE =
      Need.any("code cache events", "jdk.CodeCacheStatistics", "jdk.CodeCacheFull");
  private static final Need COMPILATIONS = Need.any("compilations", "jdk.Compilation");

  private SnapshotEvidence() {}

  /** What a snapshot of {@code alert} must hold; empty when its rule has no snapshot. */
  static Optional<List<Need>> of(ActiveAlert alert) {
    return Optional.ofNullable(
        switch (alert.ruleId()) {
          case "ThreadStorm" -> List.of(threadStarts(creatorSite(alert)));
          case "LockContention" -> List.of(monitorEvents(alert));
          case "CodeCacheNearFull", "CodeCacheFull" -> List.of(CODE_CACHE);
          case "CodeCacheChurn" -> List.of(CODE_CACHE, COMPILATIONS);
          // The same methods compiled again; class loading itself is read over JMX, not recorded.
          case "ClassLoaderChurn" -> List.of(COMPILATIONS);
          case "CompilerCpuHigh" ->
              List.of(
                  COMPILATIONS,
                  new Need(
                      "compiler thread CPU",
                      Set.of("jdk.ThreadCPULoad"),
                      e -> threadName(e).contains("CompilerThread")));
          // Inferred without deoptimisation events (before JDK 14, or code invalidated through its
          // dependencies): from the compilations of discarded code.
          case "DeoptimizationStorm" ->
              List.of(
                  alert.finding().evidence().containsKey(DeoptimizationStormRule.INFERRED_RATE)
                      ? COMPILATIONS
                      : Need.any("deoptimizations", "jdk.Deoptimization"));
          case "GcOverhead" -> List.of(Need.any("garbage collections", "jdk.GarbageCollection"));
          case "TlsHandshakeStorm" -> List.of(handshakes(alert.key()));
          case "TargetDown" -> null;
          default -> List.of(new Need("events", Set.of(), event -> true));
        });
  }

  /** Why a rule has no snapshot. */
  static String whyNone(ActiveAlert alert) {
    return "TargetDown".equals(alert.ruleId())
        ? "the target cannot be reached, so there is no JFR data to read"
        : "the rule has no snapshot";
  }

  /** The creator site the finding names first ({@code Class.method}), or null. */
  static String creatorSite(ActiveAlert alert) {
    if (alert.finding().evidence().get("topCreatorSites") instanceof List<?> sites
        && !sites.isEmpty()
        && sites.get(0) instanceof Map<?, ?> top
        && top.get("site") instanceof String site
        && !site.isEmpty()) {
      return site;
    }
    return null;
  }

  private static Need threadStarts(String site) {
    if (site == null) {
      return Need.any("thread starts", "jdk.ThreadStart");
    }
    return new Need(
        "thread starts from " + site,
        Set.of("jdk.ThreadStart"),
        event ->
            event.getStackTrace() != null
                && event.getStackTrace().getFrames().stream()
                    .anyMatch(frame -> site.equals(methodOf(frame))));
  }

  private static Need monitorEvents(ActiveAlert alert) {
    Set<String> types = Set.of("jdk.JavaMonitorEnter", "jdk.ThreadPark", "jdk.JavaMonitorWait");
    Object lock = alert.finding().evidence().get("lockClass");
    if (!(lock instanceof String lockClass) || lockClass.startsWith("an unknown")) {
      return new Need("monitor events", types, event -> true);
    }
    return new Need(
        "monitor events on " + lockClass,
        types,
        event ->
            lockClass.equals(className(event, "monitorClass"))
                || lockClass.equals(className(event, "parkedClass")));
  }

  private static Need handshakes(String peer) {
    if (peer.isEmpty()) {
      return Need.any("TLS handshakes", "jdk.TLSHandshake");
    }
    return new Need(
        "TLS handshakes with " + peer,
        Set.of("jdk.TLSHandshake"),
        event ->
            event.hasField("peerHost")
                && event.hasField("peerPort")
                && peer.equals(TlsHandshakeHandler.peer(event)));
  }

  /** The frame's site as the handlers name it (cut and made safe), so the two can be compared. */
  private static String methodOf(RecordedFrame frame) {
    return frame.getMethod() == null ? "" : StackFrame.of(frame).site();
  }

  private static String className(RecordedEvent event, String field) {
    if (!event.hasField(field)) {
      return null;
    }
    RecordedClass type = event.getClass(field);
    return type == null ? null : BlockedEvent.className(type);
  }

  private static String threadName(RecordedEvent event) {
    if (!event.hasField("eventThread") || event.getThread("eventThread") == null) {
      return "";
    }
    String name = event.getThread("eventThread").getJavaName();
    return name == null ? event.getThread("eventThread").getOSName() : name;
  }
}
