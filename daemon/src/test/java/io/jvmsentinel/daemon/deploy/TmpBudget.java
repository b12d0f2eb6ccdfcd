package io.jvmsentinel.daemon.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The daemon's one disk budget ({@code storage.maxDiskMb}) fits the {@code /tmp} emptyDir it writes
 * its JFR chunks and snapshots to, with a quarter left for the alert state file and the JVM's own
 * files: the kubelet evicts a pod whose emptyDir outgrows its sizeLimit.
 */
final class TmpBudget {
  private TmpBudget() {}

  /** {@code daemon}: the daemon's container in {@code pod}; {@code config}: its sentinel.yaml. */
  static void check(String where, JsonNode pod, JsonNode daemon, String config) {
    JsonNode storage;
    try {
      storage = DeployFiles.YAML.readTree(config).at("/storage/maxDiskMb");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(storage.isIntegralNumber()).as(where + ": storage.maxDiskMb is set").isTrue();
    String mount = tmpMount(daemon);
    JsonNode volume = DeployFiles.byName(pod.path("volumes"), mount).orElseThrow();
    String limit = volume.at("/emptyDir/sizeLimit").asText();
    assertThat(storage.asLong())
        .as(where + ": storage.maxDiskMb within 3/4 of the /tmp emptyDir (" + limit + ")")
        .isPositive()
        .isLessThanOrEqualTo(mebibytes(limit) * 3 / 4);
  }

  private static String tmpMount(JsonNode container) {
    for (JsonNode mount : container.path("volumeMounts")) {
      if (mount.path("mountPath").asText().equals("/tmp")) {
        return mount.path("name").asText();
      }
    }
    throw new AssertionError(container.path("name").asText() + " mounts nothing at /tmp");
  }

  static long mebibytes(String quantity) {
    if (quantity.endsWith("Gi")) {
      return Long.parseLong(quantity.substring(0, quantity.length() - 2)) * 1024;
    }
    if (quantity.endsWith("Mi")) {
      return Long.parseLong(quantity.substring(0, quantity.length() - 2));
    }
    throw new AssertionError("a sizeLimit in Mi or Gi expected, got " + quantity);
  }
}
