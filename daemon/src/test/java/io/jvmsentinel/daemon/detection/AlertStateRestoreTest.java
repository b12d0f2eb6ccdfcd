package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.AlertListener;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.AlertStateFile;
import io.jvmsentinel.daemon.alert.FiringAlertRecord;
import io.jvmsentinel.daemon.alert.Samples;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.UnstartedTarget;
import io.jvmsentinel.daemon.detection.ScriptedDetection.ScriptedRule;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A daemon restarted while an alert fires: the alert is taken back from the state file, continues
 * without a second page while its condition holds, and resolves when it has cleared.
 */
class AlertStateRestoreTest {
  private static final Duration GRACE = Duration.ofSeconds(10);
  private static final Tags TAGGED_ORDERS =
      Tags.of("target", "orders", "namespace", "shop", "pod", "");

  @TempDir Path tmp;
  private final MutableClock clock = new MutableClock(Samples.T0);
  private final ScriptedRule rule = new ScriptedRule();
  private final List<AlertNotification> sent = new ArrayList<>();
  private final List<AlertNotification> continued = new ArrayList<>();
  private final AlertListener listener =
      new AlertListener() {
        @Override
        public void notify(AlertNotification notification) {
          sent.add(notification);
        }

        @Override
        public void continued(AlertNotification notification) {
          continued.add(notification);
        }
      };
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : open) {
      closeable.close();
    }
  }

  @Test
  void theStateFileHoldsExactlyTheFiringAlerts() throws Exception {
    DetectionEngine engine = daemon("orders");
    rule.keys = List.of("seg-a");
    tickFor(engine, Duration.ofSeconds(6));
    assertThat(sent).extracting(AlertNotification::status).containsExactly(firing());

    assertThat(state().load())
        .singleElement()
        .satisfies(
            record -> {
              assertThat(record.ruleId()).isEqualTo("Scripted");
              assertThat(record.target()).isEqualTo("orders");
              assertThat(record.key()).isEqualTo("seg-a");
              assertThat(record.summary()).isEqualTo("trouble with seg-a");
            });
    assertThat(Files.readString(stateFile())).contains("\"version\" : 1");
    assertThat(tmp.resolve("alerts.json.tmp")).doesNotExist();

    rule.keys = List.of();
    tickFor(engine, Duration.ofSeconds(8));
    assertThat(sent).extracting(AlertNotification::status).containsExactly(firing(), resolved());
    assertThat(state().load()).isEmpty();
  }

  @Test
  void aRestartedDaemonContinuesAnAlertWhoseConditionStillHoldsWithoutPagingAgain()
      throws Exception {
    DetectionEngine first = daemon("orders");
    rule.keys = List.of("seg-a");
    tickFor(first, Duration.ofSeconds(6));
    AlertNotification fired = sent.get(0);
    first.close();

    clock.advance(Duration.ofSeconds(30)); // the daemon is down for a while
    DetectionEngine second = daemon("orders");
    assertThat(second.active()).isEmpty(); // published at the first tick
    tickFor(second, Duration.ofSeconds(20));
    assertThat(sent).as("no second page").containsExactly(fired);
    assertThat(continued)
        .as("told once, for the sinks that must be reminded")
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.dedupKey()).isEqualTo(fired.dedupKey());
              assertThat(n.startedAt()).isEqualTo(fired.startedAt());
            });
    assertThat(second.active())
        .singleElement()
        .satisfies(
            alert -> {
              assertThat(alert.state()).isEqualTo(ActiveAlert.State.FIRING);
              assertThat(alert.since()).isEqualTo(fired.startedAt());
            });

    rule.keys = List.of();
    tickFor(second, Duration.ofSeconds(8));
    assertThat(sent).hasSize(2);
    AlertNotification resolve = sent.get(1);
    assertThat(resolve.status()).isEqualTo(resolved());
    assertThat(resolve.dedupKey()).isEqualTo(fired.dedupKey());
    assertThat(resolve.startedAt()).isEqualTo(fired.startedAt());
    assertThat(resolve.summary()).isEqualTo("trouble with seg-a");
  }

  @Test
  void anAlertThatClearedWhileTheDaemonWasDownIsResolvedAfterTheGrace() throws Exception {
    DetectionEngine first = daemon("orders");
    rule.keys = List.of("seg-a");
    tickFor(first, Duration.ofSeconds(6));
    first.close();

    rule.keys = List.of();
    DetectionEngine second = daemon("orders");
    Instant restarted = clock.instant();
    tickFor(second, GRACE.minusSeconds(2));
    assertThat(sent).as("nothing during the grace").hasSize(1);
    assertThat(second.active())
        .singleElement()
        .satisfies(a -> assertThat(a.key()).isEqualTo("seg-a"));

    // Clear for the rule's clearFor (6 s) after the grace: resolved.
    tickFor(second, Duration.ofSeconds(10));
    assertThat(sent).hasSize(2);
    AlertNotification resolve = sent.get(1);
    assertThat(resolve.status()).isEqualTo(resolved());
    assertThat(resolve.dedupKey()).isEqualTo("jvm-sentinel/Scripted/orders/seg-a");
    assertThat(resolve.at()).isAfterOrEqualTo(restarted.plus(GRACE).plusSeconds(6));
    assertThat(resolve.evidence()).containsEntry("restored", true);
    assertThat(second.active()).isEmpty();
    assertThat(state().load()).isEmpty();
  }

  @Test
  void anAlertOfATargetThatDoesNotComeBackIsResolvedAfterTheGraceWithItsTags() throws Exception {
    DetectionEngine first = daemon(TAGGED_ORDERS);
    rule.keys = List.of("seg-a");
    tickFor(first, Duration.ofSeconds(6));
    assertThat(sent.get(0).targetTags()).containsExactly(entry("namespace", "shop"));
    first.close();

    rule.keys = List.of();
    DetectionEngine second = daemon(Tags.of("target", "billing"));
    Instant restarted = clock.instant();
    tickFor(second, GRACE.minusSeconds(2));
    assertThat(sent).as("the target may still be discovered").hasSize(1);
    assertThat(state().load()).as("kept while waiting").hasSize(1);

    tickFor(second, Duration.ofSeconds(4));
    assertThat(sent).extracting(AlertNotification::status).containsExactly(firing(), resolved());
    AlertNotification resolve = sent.get(1);
    assertThat(resolve.dedupKey()).isEqualTo("jvm-sentinel/Scripted/orders/seg-a");
    assertThat(resolve.at()).isAfterOrEqualTo(restarted.plus(GRACE));
    assertThat(resolve.targetTags()).containsExactly(entry("namespace", "shop"));
    assertThat(state().load()).isEmpty();
  }

  @Test
  void anAlertOfATargetDiscoveredAfterTheRestartContinuesWithoutASecondPage() throws Exception {
    DetectionEngine first = daemon(TAGGED_ORDERS);
    rule.keys = List.of("seg-a");
    tickFor(first, Duration.ofSeconds(6));
    AlertNotification fired = sent.get(0);
    first.close();

    // Discovery finds the target a few seconds after the daemon starts.
    List<WatchedTarget> watched = new ArrayList<>();
    DetectionEngine second = daemon(() -> List.copyOf(watched));
    tickFor(second, Duration.ofSeconds(4));
    watched.add(target(TAGGED_ORDERS));
    tickFor(second, Duration.ofSeconds(20));
    assertThat(sent).as("no second page, no resolve").containsExactly(fired);
    assertThat(continued)
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.dedupKey()).isEqualTo(fired.dedupKey());
              assertThat(n.targetTags()).containsExactly(entry("namespace", "shop"));
            });
  }

  @Test
  void aRestoredAlertOfALateTargetGetsAFullGraceBeforeItMayResolve() throws Exception {
    DetectionEngine first = daemon(TAGGED_ORDERS);
    rule.keys = List.of("seg-a");
    tickFor(first, Duration.ofSeconds(6));
    first.close();

    rule.keys = List.of();
    List<WatchedTarget> watched = new ArrayList<>();
    DetectionEngine second = daemon(() -> List.copyOf(watched));
    tickFor(second, GRACE.minusSeconds(4));
    Instant found = clock.instant();
    watched.add(target(TAGGED_ORDERS));
    tickFor(second, GRACE.minusSeconds(2));
    assertThat(sent).as("its rules have no history yet").hasSize(1);

    tickFor(second, Duration.ofSeconds(10));
    assertThat(sent).extracting(AlertNotification::status).containsExactly(firing(), resolved());
    assertThat(sent.get(1).at()).isAfterOrEqualTo(found.plus(GRACE).plusSeconds(6));
  }

  @Test
  void anUnreadableStateFileIsLoggedAndTheDaemonStartsWithoutRestoredAlerts() throws Exception {
    Files.writeString(stateFile(), "{\"version\": 1, \"firing\": [ {\"ruleId\": tru");
    DetectionEngine engine = daemon("orders");
    engine.tick();
    assertThat(engine.active()).isEmpty();
    assertThat(sent).isEmpty();
  }

  @Test
  void aRestoredAlertNamesItsSnapshotOnlyWhileTheFileIsThere() throws Exception {
    Path kept = Files.writeString(tmp.resolve("orders-Scripted-seg-a.jfr"), "whole");
    Path gone = tmp.resolve("orders-Scripted-seg-b.jfr");
    state().save(List.of(record("seg-a", kept.toString()), record("seg-b", gone.toString())));
    rule.keys = List.of("seg-a", "seg-b");

    DetectionEngine restarted = daemon("orders");
    tickFor(restarted, Duration.ofSeconds(4));

    assertThat(restarted.active())
        .extracting(ActiveAlert::key, ActiveAlert::snapshot)
        .containsExactlyInAnyOrder(tuple("seg-a", kept.toString()), tuple("seg-b", null));
    assertThat(restarted.active())
        .filteredOn(alert -> alert.key().equals("seg-b"))
        .singleElement()
        .extracting(ActiveAlert::snapshotUnavailable)
        .asString()
        .contains("is gone since the daemon restarted");
  }

  private FiringAlertRecord record(String key, String snapshot) {
    return new FiringAlertRecord(
        "Scripted",
        "orders",
        key,
        Severity.WARNING,
        clock.instant().minusSeconds(60),
        "trouble with " + key,
        snapshot,
        Map.of(),
        "");
  }

  @Test
  void withoutAStateFileNothingIsWritten() {
    AlertStateFile none = AlertStateFile.none();
    none.save(List.of());
    assertThat(none.load()).isEmpty();
    assertThat(tmp).isEmptyDirectory();
  }

  private DetectionEngine daemon(String targetName) {
    return daemon(Tags.of("target", targetName));
  }

  private DetectionEngine daemon(Tags tags) {
    WatchedTarget target = target(tags);
    return daemon(() -> List.of(target));
  }

  private DetectionEngine daemon(Supplier<List<WatchedTarget>> targets) {
    DetectionEngine engine =
        ScriptedDetection.engine(
            targets, rule, listener, new SimpleMeterRegistry(), clock, state(), GRACE);
    open.add(engine);
    return engine;
  }

  private WatchedTarget target(Tags tags) {
    WatchedTarget target =
        UnstartedTarget.create(tags, new SimpleMeterRegistry(), tmp.resolve("jfr"));
    open.add(target::close);
    return target;
  }

  private void tickFor(DetectionEngine engine, Duration duration) {
    for (long t = 0; t <= duration.toSeconds(); t += 2) {
      engine.tick();
      clock.advance(Duration.ofSeconds(2));
    }
  }

  private AlertStateFile state() {
    return AlertStateFile.at(stateFile());
  }

  private Path stateFile() {
    return tmp.resolve("alerts.json");
  }

  private static AlertNotification.Status firing() {
    return AlertNotification.Status.FIRING;
  }

  private static AlertNotification.Status resolved() {
    return AlertNotification.Status.RESOLVED;
  }
}
