package io.jvmsentinel.daemon.alert;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each target's signal timeline, the samples the rules read, one JSON line a tick, to {@code
 * <directory>/<target>.signals.jsonl}. Rules read nothing else, so replaying a recording reproduces
 * every finding exactly: recorded lab scenarios are the detection tests' fixtures, and a user's
 * recording reproduces a false or missed alert.
 *
 * <p>The format is versioned: each time the daemon opens a recording it writes a header line,
 * {@code {"format":"jvm-sentinel-signals","version":N}}, that applies to the lines after it (a file
 * appended to by daemons of two versions says so where it changes). Lines before any header are
 * version 1 (recordings made before the header existed; the same fields as version 2). A sample
 * with a field this daemon does not know is refused, never read as a default: a renamed field would
 * otherwise read as 0 and replay as a different timeline.
 *
 * <p>Confined to the detection thread. A write failure is logged once and stops recording for that
 * target; detection carries on.
 */
public final class SignalRecorder implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SignalRecorder.class);

  /** The mapper, made on first use: a daemon that records nothing need not load Jackson. */
  static final class Json {
    static final ObjectMapper MAPPER =
        new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private Json() {}
  }

  /** The version this daemon writes, and the newest it reads. */
  public static final int VERSION = 2;

  static final String FORMAT = "jvm-sentinel-signals";

  /** The line that starts each stretch of a recording written by one daemon. */
  record Header(String format, int version) {}

  private final Optional<Path> directory;
  private final Map<String, Writer> writers = new HashMap<>();

  private SignalRecorder(Optional<Path> directory) {
    this.directory = directory;
  }

  public static SignalRecorder none() {
    return new SignalRecorder(Optional.empty());
  }

  public static SignalRecorder to(Path directory) {
    return new SignalRecorder(Optional.of(directory));
  }

  public void record(String target, SignalSample sample) {
    if (directory.isEmpty()) {
      return;
    }
    Writer writer = writers.computeIfAbsent(target, this::open);
    if (writer == NOT_WRITING) {
      return;
    }
    try {
      writer.write(Json.MAPPER.writeValueAsString(sample));
      writer.write('\n');
      writer.flush();
    } catch (IOException e) {
      log.warn("stopped recording the signals of {}: {}", target, e.toString());
      writers.put(target, NOT_WRITING);
    }
  }

  private Writer open(String target) {
    Path file = directory.orElseThrow().resolve(fileName(target));
    try {
      Files.createDirectories(file.getParent());
      log.info("recording the signals of {} to {}", target, file);
      Writer writer =
          Files.newBufferedWriter(
              file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      writer.write(Json.MAPPER.writeValueAsString(new Header(FORMAT, VERSION)));
      writer.write('\n');
      return writer;
    } catch (IOException e) {
      log.warn("cannot record the signals of {} to {}: {}", target, file, e.toString());
      return NOT_WRITING;
    }
  }

  /** A target name as a file name: only letters, digits, dot, dash and underscore. */
  static String fileName(String target) {
    return target.replaceAll("[^A-Za-z0-9._-]", "_") + ".signals.jsonl";
  }

  /** Reads a recorded timeline ({@code .jsonl}, or {@code .jsonl.gz}), oldest sample first. */
  public static List<SignalSample> read(Path file) throws IOException {
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      List<SignalSample> samples = new ArrayList<>();
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        if (line.startsWith("{\"format\"")) {
          checkHeader(file, number, line);
          continue;
        }
        try {
          samples.add(Json.MAPPER.readValue(line, SignalSample.class));
        } catch (IOException e) {
          throw new IOException(
              file + ":" + number + ": not a signal sample: " + e.getMessage(), e);
        }
      }
      return samples;
    }
  }

  private static void checkHeader(Path file, int number, String line) throws IOException {
    Header header;
    try {
      header = Json.MAPPER.readValue(line, Header.class);
    } catch (IOException e) {
      throw new IOException(file + ":" + number + ": not a recording header: " + e.getMessage(), e);
    }
    if (!FORMAT.equals(header.format())) {
      throw new IOException(
          file + ":" + number + ": not a signal recording (format '" + header.format() + "')");
    }
    if (header.version() < 1 || header.version() > VERSION) {
      throw new IOException(
          file
              + ":"
              + number
              + ": recorded in format version "
              + header.version()
              + "; this daemon reads versions 1 to "
              + VERSION
              + " (read it with the daemon that wrote it, or a newer one)");
    }
  }

  @Override
  public void close() {
    for (Writer writer : writers.values()) {
      try {
        writer.close();
      } catch (IOException e) {
        log.debug("closing a signal recording: {}", e.toString());
      }
    }
    writers.clear();
  }

  private static final Writer NOT_WRITING = Writer.nullWriter();
}
