package io.jvmsentinel.daemon.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the packaged daemon jar ({@code daemon/target/jvm-sentinel.jar}) as a real process. */
public final class SentinelJar {
  /** A finished command: exit code and output. */
  public record Result(int exitCode, String stdout, String stderr) {}

  private SentinelJar() {}

  public static Path jar() {
    Path jar =
        Path.of(
            System.getProperty(
                "jvmsentinel.jar",
                Jdks.repoRoot().resolve("daemon/target/jvm-sentinel.jar").toString()));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: run `./mvnw verify` (it packages first)");
    }
    return jar;
  }

  public static ProcessBuilder command(Path javaHome, Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>();
    command.add(javaHome.resolve("bin/java").toString());
    command.add("-jar");
    command.add(jar().toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(key -> key.startsWith("JVM_SENTINEL_"));
    builder.environment().putAll(env);
    return builder;
  }

  /** Runs a command that is expected to finish by itself. */
  public static Result run(Path javaHome, Map<String, String> env, Path dir, String... args)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    Process process =
        command(javaHome, env, args)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(Duration.ofSeconds(60).toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("jvm-sentinel " + List.of(args) + " did not finish in 60 s");
    }
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
