package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.rules.DeoptimizationStormRule;
import io.jvmsentinel.daemon.alert.rules.Rules;
import io.jvmsentinel.lab.HostileFrameTemplate;
import io.jvmsentinel.lab.RenamedClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What makes a snapshot whole, judged on real recordings of this JVM: the rule's events, within the
 * window the recording covers.
 */
class SnapshotCheckTest {
  @TempDir Path dir;

  private static ActiveAlert alert(String rule, String key, Map<String, Object> evidence) {
    Instant now = Instant.now();
    return new ActiveAlert(
        rule,
        "orders",
        key,
        Severity.WARNING,
        ActiveAlert.State.FIRING,
        now,
        now,
        new Finding(key, "summary", "explanation", "action", evidence),
        null,
        null);
  }

  /** Thread starts from {@link #startThreads}, recorded with their stacks. */
  private Path threadStarts(String name) throws Exception {
    Path file = dir.resolve(name);
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ThreadStart").withStackTrace();
      recording.start();
      startThreads();
      recording.stop();
      recording.dump(file);
    }
    return file;
  }

  private static void startThreads() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      Thread thread = new Thread(() -> {}, "snapshot-check-" + i);
      thread.start();
      thread.join();
    }
  }

  private static final String CREATOR = SnapshotCheckTest.class.getName() + ".startThreads";

  @Test
  void everyRuleSaysWhatItsSnapshotMustHoldOrWhyItHasNone() {
    for (AlertRule rule : Rules.all()) {
      var needs = SnapshotEvidence.of(alert(rule.id(), "", Map.of()));
      if (rule.id().equals("TargetDown")) {
        assertThat(needs).as(rule.id()).isEmpty();
        assertThat(SnapshotEvidence.whyNone(alert(rule.id(), "", Map.of())))
            .contains("cannot be reached");
      } else {
        assertThat(needs.orElseThrow())
            .as(rule.id() + " needs the events of its incident, not just any")
            .isNotEmpty()
            .allSatisfy(need -> assertThat(need.types()).isNotEmpty());
      }
    }
  }

  @Test
  void anInferredDeoptimisationStormNeedsTheCompilationsItWasInferredFrom() {
    ActiveAlert measured = alert("DeoptimizationStorm", "", Map.of());
    ActiveAlert inferred =
        alert("DeoptimizationStorm", "", Map.of(DeoptimizationStormRule.INFERRED_RATE, 15.1));

    assertThat(SnapshotEvidence.of(measured).orElseThrow())
        .singleElement()
        .satisfies(need -> assertThat(need.types()).containsExactly("jdk.Deoptimization"));
    assertThat(SnapshotEvidence.of(inferred).orElseThrow())
        .singleElement()
        .satisfies(need -> assertThat(need.types()).containsExactly("jdk.Compilation"));
  }

  @Test
  void aThreadStormSnapshotIsWholeWithStartsFromItsCreatorInTheWindow() throws Exception {
    Instant from = Instant.now();
    Path file = threadStarts("storm.jfr");
    Instant to = Instant.now();
    ActiveAlert storm =
        alert("ThreadStorm", "", Map.of("topCreatorSites", List.of(Map.of("site", CREATOR))));

    SnapshotCheck.Verdict verdict =
        SnapshotCheck.check(file, SnapshotEvidence.of(storm).orElseThrow(), from, to);

    assertThat(verdict.whole()).as(verdict.why()).isTrue();
    assertThat(verdict.events()).containsKey("jdk.ThreadStart");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aCreatorWhoseNameTheHandlersCutAndCleanedIsFoundInTheSnapshot() throws Exception {
    // The site as the alert names it: the handlers cut and clean the class name the target chose.
    String className = "Evil<!channel>|#x\n\u202E" + "A".repeat(1_000);
    Consumer<String> starter =
        RenamedClass.newInstance(HostileFrameTemplate.class, className, Consumer.class);
    String site = new StackFrame(className, "accept", -1).site();
    assertThat(site).hasSize(StackFrame.MAX_TEXT).startsWith("Evil<!channel>|#x__AAA");
    Instant from = Instant.now();
    Path file = dir.resolve("hostile.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ThreadStart").withStackTrace();
      recording.start();
      starter.accept("snapshot-check-hostile");
      recording.stop();
      recording.dump(file);
    }
    ActiveAlert storm =
        alert("ThreadStorm", "", Map.of("topCreatorSites", List.of(Map.of("site", site))));

    SnapshotCheck.Verdict verdict =
        SnapshotCheck.check(file, SnapshotEvidence.of(storm).orElseThrow(), from, Instant.now());

    assertThat(verdict.whole()).as(verdict.why()).isTrue();
  }

  @Test
  void startsFromAnotherCreatorDoNotMakeTheSnapshotWhole() throws Exception {
    Instant from = Instant.now();
    Path file = threadStarts("other.jfr");
    ActiveAlert storm =
        alert(
            "ThreadStorm",
            "",
            Map.of("topCreatorSites", List.of(Map.of("site", "com.example.Pool.spawn"))));

    SnapshotCheck.Verdict verdict =
        SnapshotCheck.check(file, SnapshotEvidence.of(storm).orElseThrow(), from, Instant.now());

    assertThat(verdict.whole()).isFalse();
    assertThat(verdict.why()).startsWith("it holds no thread starts from com.example.Pool.spawn");
  }

  @Test
  void aRecordingThatStartsAfterTheWindowDoesNotCoverIt() throws Exception {
    Instant from = Instant.now().minusSeconds(60);
    Path file = threadStarts("late.jfr");

    SnapshotCheck.Verdict verdict =
        SnapshotCheck.check(
            file,
            SnapshotEvidence.of(alert("ThreadStorm", "", Map.of())).orElseThrow(),
            from,
            Instant.now());

    assertThat(verdict.whole()).isFalse();
    assertThat(verdict.why()).contains("not the window");
  }

  @Test
  void anEmptyFileHoldsNothing() throws Exception {
    Path empty = Files.createFile(dir.resolve("empty.jfr"));

    SnapshotCheck.Verdict verdict =
        SnapshotCheck.check(
            empty,
            SnapshotEvidence.of(alert("GcOverhead", "", Map.of())).orElseThrow(),
            Instant.now().minusSeconds(60),
            Instant.now());

    assertThat(verdict.whole()).isFalse();
    assertThat(verdict.why()).isEqualTo("the target returned no JFR events for the window");
  }
}
