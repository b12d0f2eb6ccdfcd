package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.AlertNotification.Status;
import io.jvmsentinel.daemon.alert.WarmUp;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Class loader churn whose copies fill the cache (the lab's churn-from-boot in a 48 MB cache, the
 * classes never dropped, recorded with the default 10 s poll): ClassLoaderChurn pages first; once
 * the cache passes 80% and is flushed, CodeCacheChurn pages what is true of the cache. The class
 * loader alert must not resolve while the classes keep being reloaded (it did, 15 s after the cache
 * alert, telling on-call the reloading had stopped), and the cache alert must name the reloading,
 * whose fix a larger cache does not replace.
 */
class ClassLoaderChurnFillsTheCacheReplayTest {

  @ParameterizedTest
  @ValueSource(strings = {"churn-from-boot-48m-poll10-jdk11", "churn-from-boot-48m-poll10-jdk17"})
  void theClassLoaderAlertHoldsAndTheCacheAlertNamesTheReloading(String fixture)
      throws IOException {
    List<Replay.Page> pages = Replay.run(Replay.fixture(fixture), WarmUp.DEFAULT);

    List<Replay.Page> cache = AlertLifeReplayTest.with(pages, "CodeCacheChurn", Status.FIRING);
    assertThat(cache)
        .as("the copies fill the cache in this recording; pages: %s", pages)
        .hasSize(1);
    assertThat(AlertLifeReplayTest.with(pages, "ClassLoaderChurn", Status.FIRING))
        .as("pages: %s", pages)
        .hasSize(1)
        .allSatisfy(page -> assertThat(page.atSecond()).isLessThan(cache.get(0).atSecond()));
    assertThat(AlertLifeReplayTest.with(pages, "ClassLoaderChurn", Status.RESOLVED))
        .as("the classes are reloaded to the end of the recording; pages: %s", pages)
        .isEmpty();
    assertThat(cache.get(0).explanation())
        .contains("Classes are loaded at")
        .contains("ClassLoaderChurn's mechanism");
    assertThat(cache.get(0).evidence()).containsEntry("classesReloaded", true);
  }
}
