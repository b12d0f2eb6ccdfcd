package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.config.StorageConfig;
import org.junit.jupiter.api.Test;

/** One disk budget: the feeds' part split over the targets watched now, the rest for snapshots. */
class DiskBudgetTest {
  private static final long MB = 1024 * 1024;

  @Test
  void aFewTargetsKeepTheirConfiguredSizeAHundredShareTheFeedsPart() {
    // Defaults: 1536 MB, half for feeds (768 MB), jfr.maxSizeMb 32.
    DiskBudget budget = new DiskBudget(StorageConfig.DEFAULT, JfrConfig.DEFAULT);
    assertThat(budget.snapshotBytes()).isEqualTo(768 * MB);

    startTargets(budget, 3);
    assertThat(budget.streamBytesPerTarget()).isEqualTo(32 * MB);
    assertThat(budget.bytesPerDump()).isEqualTo(64 * MB);

    startTargets(budget, 97);
    assertThat(budget.targets()).isEqualTo(100);
    assertThat(budget.streamBytesPerTarget()).isEqualTo(768 * MB / 100);
    assertThat(100 * budget.streamBytesPerTarget()).isLessThanOrEqualTo(768 * MB);
  }

  @Test
  void sharesAreRecomputedAsTargetsComeAndGo() {
    DiskBudget budget = new DiskBudget(100 * MB, 50, 32 * MB);
    startTargets(budget, 5);
    assertThat(budget.streamBytesPerTarget()).isEqualTo(10 * MB);
    budget.targetStopped();
    budget.targetStopped();
    budget.targetStopped();
    assertThat(budget.streamBytesPerTarget()).isEqualTo(25 * MB);
    budget.targetStopped();
    assertThat(budget.streamBytesPerTarget()).as("capped by jfr.maxSizeMb").isEqualTo(32 * MB);
  }

  @Test
  void noTargetGetsLessThanTheSmallestUsefulRecording() {
    assertThat(DiskBudget.streamShare(100 * MB, 1000, 32 * MB))
        .isEqualTo(DiskBudget.MIN_STREAM_BYTES);
    assertThat(DiskBudget.streamShare(100 * MB, 0, 32 * MB)).isEqualTo(32 * MB);
  }

  @Test
  void theFeedsAndTheSnapshotsTogetherNeverExceedTheBudget() {
    for (int percent = StorageConfig.MIN_STREAMS_PERCENT;
        percent <= StorageConfig.MAX_STREAMS_PERCENT;
        percent += 10) {
      DiskBudget budget = new DiskBudget(1536 * MB, percent, 4096 * MB);
      startTargets(budget, 7);
      assertThat(7 * budget.streamBytesPerTarget() + budget.snapshotBytes())
          .as("%d%% for feeds", percent)
          .isLessThanOrEqualTo(1536 * MB);
    }
  }

  private static void startTargets(DiskBudget budget, int count) {
    for (int i = 0; i < count; i++) {
      budget.targetStarted();
    }
  }
}
