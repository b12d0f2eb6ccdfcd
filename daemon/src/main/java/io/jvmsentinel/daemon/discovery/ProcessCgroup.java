package io.jvmsentinel.daemon.discovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a process runs, as its {@code /proc/<pid>/cgroup} tells: the Kubernetes pod (by UID) and
 * container (by runtime id) it is in, or the systemd service that runs it. Each is empty when the
 * path does not say.
 *
 * <p>The kubelet puts every container in a cgroup below its pod's, named after the pod's UID, in
 * one of two layouts (its cgroup driver) on either cgroup version:
 *
 * <ul>
 *   <li>cgroupfs: {@code /kubepods/burstable/pod<uid>/<container id>} (guaranteed pods have no QoS
 *       level: {@code /kubepods/pod<uid>/...});
 *   <li>systemd: {@code /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid with _
 *       for ->.slice/cri-containerd-<container id>.scope} ({@code docker-}, {@code crio-} by
 *       runtime).
 * </ul>
 *
 * On cgroup v1 each controller has its own line ({@code 4:memory:/kubepods/...}), on v2 there is
 * one ({@code 0::/kubepods/...}); a reader in a cgroup namespace of its own sees the path relative
 * to its own ({@code 0::/../../kubepods-...}). Static pods have a 32-digit hash as UID. The path is
 * the target's, so untrusted: only the exact shapes above are believed.
 *
 * @param podUid the pod's UID in the API's form (with dashes)
 * @param containerId the container runtime's id (64 hex digits), as the pod's status names it
 * @param service the systemd service outside Kubernetes ({@code kafka} for {@code kafka.service})
 */
public record ProcessCgroup(
    Optional<String> podUid, Optional<String> containerId, Optional<String> service) {
  public static final ProcessCgroup NONE =
      new ProcessCgroup(Optional.empty(), Optional.empty(), Optional.empty());

  private static final Pattern POD =
      Pattern.compile(
          "pod([0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12}|[0-9a-f]{32})"
              + "(?:\\.slice)?$");
  private static final Pattern CONTAINER =
      Pattern.compile("^(?:(?:cri-containerd|docker|crio)-)?([0-9a-f]{64})(?:\\.scope)?$");
  private static final Pattern SERVICE = Pattern.compile("^([a-zA-Z0-9_.@:-]{1,100})\\.service$");
  // Longer than any real cgroup file; a target cannot make the daemon read more.
  private static final int MAX_BYTES = 64 * 1024;

  /** The cgroup file of a process; {@link #NONE} when it cannot be read (the process is gone). */
  public static ProcessCgroup read(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      int length = Math.min(bytes.length, MAX_BYTES);
      return parse(new String(bytes, 0, length, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return NONE;
    }
  }

  /** The placement the lines of a cgroup file name: the first line with a pod, else a service. */
  public static ProcessCgroup parse(String content) {
    Optional<String> service = Optional.empty();
    for (String line : content.split("\n")) {
      String[] fields = line.split(":", 3);
      if (fields.length < 3) {
        continue;
      }
      String[] segments = fields[2].strip().split("/");
      for (int i = 0; i < segments.length; i++) {
        Matcher pod = POD.matcher(segments[i]);
        if (pod.find()) {
          Optional<String> container = Optional.empty();
          if (i + 1 < segments.length) {
            Matcher id = CONTAINER.matcher(segments[i + 1]);
            container = id.matches() ? Optional.of(id.group(1)) : Optional.empty();
          }
          return new ProcessCgroup(Optional.of(uid(pod.group(1))), container, Optional.empty());
        }
      }
      if (service.isEmpty() && segments.length > 0) {
        Matcher unit = SERVICE.matcher(segments[segments.length - 1]);
        if (unit.matches()) {
          service = Optional.of(unit.group(1));
        }
      }
    }
    return new ProcessCgroup(Optional.empty(), Optional.empty(), service);
  }

  /** The systemd driver writes the UID's dashes as underscores; the API has dashes. */
  private static String uid(String written) {
    return written.replace('_', '-').toLowerCase(Locale.ROOT);
  }
}
