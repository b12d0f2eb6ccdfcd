package io.jvmsentinel.daemon.web;

import io.jvmsentinel.daemon.http.HttpEndpoint;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/snapshots/{file}}: the JFR evidence snapshot of an alert, as a download for
 * JDK Mission Control. Read-only and narrow: only a file an alert names (firing, pending or recent)
 * is served, only from the snapshot directory, only by a plain file name; anything else is 404.
 */
public final class SnapshotDownloads implements HttpEndpoint.Route {
  public static final String PREFIX = "/api/v1/snapshots/";
  private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}\\.jfr");

  private final Optional<Path> directory;
  private final Supplier<Set<String>> namedByAlerts;

  /**
   * @param directory where snapshots are saved; empty when snapshots are off
   * @param namedByAlerts the snapshot paths the alerts name now
   */
  public SnapshotDownloads(Optional<Path> directory, Supplier<Set<String>> namedByAlerts) {
    this.directory = directory;
    this.namedByAlerts = namedByAlerts;
  }

  /** The download path of a snapshot the alert names, for the page's link. */
  public static String link(String snapshotPath) {
    return PREFIX + Path.of(snapshotPath).getFileName();
  }

  @Override
  public HttpEndpoint.Response get(HttpEndpoint.Request request) throws IOException {
    String name = request.path().substring(PREFIX.length());
    if (directory.isEmpty() || !FILE_NAME.matcher(name).matches()) {
      throw notFound();
    }
    Path file = directory.get().toAbsolutePath().normalize().resolve(name);
    boolean named =
        namedByAlerts.get().stream()
            .anyMatch(path -> Path.of(path).toAbsolutePath().normalize().equals(file));
    if (!named) {
      throw notFound();
    }
    // Opened here and streamed by the server: a snapshot of hundreds of MB never sits in the heap,
    // and one pruned while it downloads stays readable through the open file.
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      // Not written yet (the writer runs after the alert fires) or pruned since.
      throw new HttpEndpoint.NotFound(
          "the snapshot is not on disk (still being written, or pruned to fit the directory cap)");
    }
    try {
      return HttpEndpoint.Response.streamed(
              "application/octet-stream", Channels.newInputStream(channel), channel.size())
          .withHeader("Content-Disposition", "attachment; filename=\"" + name + "\"");
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static HttpEndpoint.NotFound notFound() {
    return new HttpEndpoint.NotFound("no such snapshot; GET /api/v1/alerts names them");
  }
}
