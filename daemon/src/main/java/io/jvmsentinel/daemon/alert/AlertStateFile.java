package io.jvmsentinel.daemon.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The firing alerts, kept in a small JSON file so a restarted daemon neither pages twice nor
 * forgets to resolve. Written on every fire and resolve through a temporary file and an atomic
 * rename: a daemon killed mid-write leaves the previous version, never half a file. A missing file
 * is an empty state; an unreadable one is logged and treated as empty (the worst case is the old
 * behaviour: a forgotten alert), never a reason not to start.
 */
public final class AlertStateFile {
  private static final Logger log = LoggerFactory.getLogger(AlertStateFile.class);
  private static final int VERSION = 1;

  private final Optional<Path> file;
  // Made only with a file: without one the daemon need not load Jackson's databind at start.
  private final ObjectMapper json;
  private String lastWriteProblem;

  /** The file's contents: a version for later changes, and the firing alerts. */
  record State(int version, List<FiringAlertRecord> firing) {
    State {
      firing = firing == null ? List.of() : List.copyOf(firing);
    }
  }

  private AlertStateFile(Optional<Path> file) {
    this.file = file;
    this.json = file.isPresent() ? newMapper() : null;
  }

  private static ObjectMapper newMapper() {
    return new ObjectMapper()
        .registerModule(new JavaTimeModule())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(SerializationFeature.INDENT_OUTPUT);
  }

  public static AlertStateFile at(Path file) {
    return new AlertStateFile(Optional.of(file));
  }

  /** No persistence: alerts live in memory only. */
  public static AlertStateFile none() {
    return new AlertStateFile(Optional.empty());
  }

  public Optional<Path> path() {
    return file;
  }

  /** The alerts firing when the previous daemon last wrote the file. */
  public List<FiringAlertRecord> load() {
    if (file.isEmpty()) {
      return List.of();
    }
    try {
      State state = json.readValue(Files.readString(file.get()), State.class);
      return state.firing();
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException | RuntimeException e) {
      log.warn(
          "alert state file {} is unreadable, starting without restored alerts: {}",
          file.get(),
          e.getMessage());
      return List.of();
    }
  }

  /** Replaces the file's contents with these firing alerts. Failures are logged, once each. */
  public void save(List<FiringAlertRecord> firing) {
    if (file.isEmpty()) {
      return;
    }
    Path target = file.get();
    Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
    try {
      Files.writeString(temporary, text(firing));
      try {
        Files.move(
            temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
      }
      lastWriteProblem = null;
    } catch (IOException e) {
      String problem = e.toString();
      if (!problem.equals(lastWriteProblem)) {
        log.warn(
            "cannot write the alert state file {} (a restarted daemon may page again or miss a"
                + " resolve): {}",
            target,
            problem);
        lastWriteProblem = problem;
      }
    }
  }

  String text(List<FiringAlertRecord> firing) throws JsonProcessingException {
    return json.writeValueAsString(new State(VERSION, firing));
  }
}
