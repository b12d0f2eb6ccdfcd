package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.SentinelJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The user contract of the packaged jar: commands, flags, environment variables, exit codes. */
class CommandLineIT {
  @TempDir Path dir;

  @Test
  void versionAndHelpWorkOnEveryCommand() throws Exception {
    SentinelJar.Result version = SentinelJar.run(Jdks.jdk17(), Map.of(), dir, "--version");
    assertThat(version.exitCode()).isZero();
    assertThat(version.stdout()).startsWith("jvm-sentinel 0.1.0");

    for (String command : new String[] {"run", "check-config", "demo"}) {
      SentinelJar.Result help = SentinelJar.run(Jdks.jdk17(), Map.of(), dir, command, "--help");
      assertThat(help.exitCode()).as(command + " --help").isZero();
      assertThat(help.stdout()).contains("Usage: jvm-sentinel " + command);
    }
    SentinelJar.Result top = SentinelJar.run(Jdks.jdk17(), Map.of(), dir, "--help");
    assertThat(top.stdout()).contains("run", "check-config", "demo");
  }

  @Test
  void checkConfigExitsZeroForAValidFileAndTwoWithEveryProblemOtherwise() throws Exception {
    Path good = dir.resolve("good.yaml");
    Files.writeString(good, "targets:\n  - name: orders\n    jmx: localhost:9010\n");
    SentinelJar.Result ok =
        SentinelJar.run(Jdks.jdk17(), Map.of(), dir, "check-config", good.toString());
    assertThat(ok.exitCode()).isZero();
    assertThat(ok.stdout()).contains("OK").contains("orders");

    Path bad = dir.resolve("bad.yaml");
    Files.writeString(
        bad,
        "targets:\n  - name: orders\n    jmx: localhost:9010\n    polInterval: 5s\n    color: red\n");
    SentinelJar.Result problems =
        SentinelJar.run(Jdks.jdk17(), Map.of(), dir, "check-config", bad.toString());
    assertThat(problems.exitCode()).isEqualTo(2);
    assertThat(problems.stderr()).contains("polInterval").contains("color").contains("bad.yaml:4");
  }

  /** Representative bad files: each command exits 2 naming the problem, and nothing starts. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"binary junk", "truncated", "wrong types", "state file dir", "missing"})
  void checkConfigAndRunExitTwoWithAClearMessageOnABadFile(String kind) throws Exception {
    Path file = dir.resolve("bad.yaml");
    String expected =
        switch (kind) {
          case "binary junk" -> {
            byte[] junk = new byte[300];
            new java.util.Random(8).nextBytes(junk);
            Files.write(file, junk);
            yield "it is not UTF-8 text";
          }
          case "truncated" -> {
            Files.writeString(file, "targets:\n  - name: orders\n    jmx: \"127.0.0.1:9010\n");
            yield "bad.yaml:4:1: malformed YAML: found unexpected end of stream";
          }
          case "wrong types" -> {
            Files.writeString(
                file,
                "targets:\n  - name: orders\n    jmx: 127.0.0.1:9010\n    pollInterval: [1, 2]\n");
            yield "'targets[0].pollInterval': expected a duration such as 10s, got a list";
          }
          case "state file dir" -> {
            Files.writeString(
                file,
                "alerts:\n  stateFile: /nonexistent/alerts.json\n"
                    + "targets:\n  - {name: a, jmx: \"127.0.0.1:9010\"}\n");
            yield "'alerts.stateFile': the directory of /nonexistent/alerts.json does not exist";
          }
          default -> {
            file = dir.resolve("missing.yaml");
            yield "config file not found";
          }
        };
    // `run` shares the loader with check-config: two of the kinds suffice to prove its exit code.
    boolean alsoRun = kind.equals("truncated") || kind.equals("state file dir");
    for (String command :
        alsoRun ? new String[] {"check-config", "run"} : new String[] {"check-config"}) {
      String[] args =
          command.equals("run")
              ? new String[] {"run", "--config", file.toString(), "--listen", "127.0.0.1:0"}
              : new String[] {"check-config", file.toString()};
      SentinelJar.Result result = SentinelJar.run(Jdks.jdk17(), Map.of(), dir, args);
      assertThat(result.exitCode()).as(command + " exit code").isEqualTo(2);
      assertThat(result.stderr())
          .as(command)
          .contains("invalid configuration")
          .contains(expected)
          .doesNotContain("Exception");
    }
  }

  @Test
  void runWithoutAnyTargetExitsTwoAndSaysHowToGiveOne() throws Exception {
    SentinelJar.Result result = SentinelJar.run(Jdks.jdk17(), Map.of(), dir, "run");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).contains("--target");
  }

  @ParameterizedTest(name = "daemon on JDK {0}")
  @ValueSource(ints = {17, 25})
  void runTakesTargetAndListenFromTheEnvironmentAndWatchesTheTarget(int daemonJdk)
      throws Exception {
    LabSpec spec = LabSpec.builder("idle").javaHome(Jdks.jdk17()).build();
    int port = LoopbackPorts.freePort();
    try (LabProcess lab = spec.startReady(Duration.ofSeconds(30))) {
      Process daemon =
          SentinelJar.command(
                  daemonJdk == 17 ? Jdks.jdk17() : Jdks.jdk25(),
                  Map.of(
                      "JVM_SENTINEL_TARGET", lab.jmxHostPort() + ",127.0.0.1:1",
                      "JVM_SENTINEL_LISTEN", "127.0.0.1:" + port),
                  "run")
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("daemon.log").toFile())
              .start();
      try {
        DaemonHttp http = new DaemonHttp(port);
        String labTarget = lab.jmxHostPort().replace(':', '-');
        await()
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptions()
            .untilAsserted(
                () ->
                    assertThat(
                            http.scrape()
                                .value("jvm_sentinel_target_up", Map.of("target", labTarget)))
                        .contains(1.0));
        // The second target (nothing listens on port 1) is down, and says so.
        assertThat(http.scrape().value("jvm_sentinel_target_up", Map.of("target", "127.0.0.1-1")))
            .contains(0.0);
        assertThat(http.get("/ready").statusCode()).isEqualTo(503);
        assertThat(http.get("/ready").body()).contains("127.0.0.1-1").doesNotContain(labTarget);
        assertThat(http.get("/health").statusCode()).isEqualTo(200);
        assertThat(http.get("/api/v1/targets").body())
            .contains("\"up\":true")
            .contains("\"featureVersion\":17");
      } finally {
        daemon.destroy();
        assertThat(daemon.waitFor(20, TimeUnit.SECONDS)).as("daemon stops on SIGTERM").isTrue();
      }
      assertThat(Files.readString(dir.resolve("daemon.log"))).contains("connected to");
    }
  }

  @Test
  void sighupReloadsTheFileAndTheDaemonRunsOn() throws Exception {
    // Targets nobody listens on: the test is about the file, not about the JVMs.
    Path file = dir.resolve("sentinel.yaml");
    Files.writeString(file, "targets:\n  - {name: before, jmx: \"127.0.0.1:1\"}\n");
    int port = LoopbackPorts.freePort();
    Path log = dir.resolve("daemon-hup.log");
    Process daemon =
        SentinelJar.command(
                Jdks.jdk17(),
                Map.of(),
                "run",
                "--config",
                file.toString(),
                "--listen",
                "127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      DaemonHttp http = new DaemonHttp(port);
      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .until(() -> http.get("/api/v1/targets").body().contains("\"target\":\"before\""));

      Files.writeString(file, "targets:\n  - {name: after, jmx: \"127.0.0.1:1\"}\n");
      Process hup = new ProcessBuilder("kill", "-HUP", Long.toString(daemon.pid())).start();
      assertThat(hup.waitFor()).isZero();
      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  assertThat(http.get("/api/v1/targets").body())
                      .contains("\"target\":\"after\"")
                      .doesNotContain("\"target\":\"before\""));
      assertThat(daemon.isAlive()).as("a JVM without a handler exits on SIGHUP").isTrue();
      assertThat(Files.readString(log)).contains("(signal)");
    } finally {
      daemon.destroy();
      daemon.waitFor(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void runAttachesToALocalJvmByPidWithoutAnyJmxRemoteFlags() throws Exception {
    LabSpec spec =
        LabSpec.builder("thread-per-request")
            .javaHome(Jdks.jdk17())
            .rate(20)
            .withoutJmxRemote()
            .build();
    int port = LoopbackPorts.freePort();
    try (LabProcess lab = spec.startReady(Duration.ofSeconds(30))) {
      Process daemon =
          SentinelJar.command(
                  Jdks.jdk17(),
                  Map.of("JVM_SENTINEL_TARGET_NAME", "orders"),
                  "run",
                  "--pid",
                  Long.toString(lab.pid()),
                  "--listen",
                  "127.0.0.1:" + port)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("daemon.log").toFile())
              .start();
      try {
        DaemonHttp http = new DaemonHttp(port);
        // Named by JVM_SENTINEL_TARGET_NAME, not pid-<pid>: the name survives restarts.
        Map<String, String> target = Map.of("target", "orders");
        await()
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptions()
            .untilAsserted(
                () -> {
                  var scrape = http.scrape();
                  assertThat(scrape.value("jvm_sentinel_target_up", target)).contains(1.0);
                  assertThat(scrape.value("jvm_threads_started_threads_total", target))
                      .hasValueSatisfying(v -> assertThat(v).isPositive());
                });
      } finally {
        daemon.destroy();
        daemon.waitFor(20, TimeUnit.SECONDS);
      }
    }
  }
}
