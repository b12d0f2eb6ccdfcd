package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.testing.DaemonLogsOnFailure;
import io.jvmsentinel.daemon.testing.ForkedDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's runtime stage without a Docker engine: jlink (JDK 25, as the image's
 * eclipse-temurin:25-jdk) makes a runtime from deploy/Dockerfile's own MODULES and jlink options,
 * and the daemon runs on it with the image's JVM options against a real lab JVM over remote JMX
 * (which needs the two modules jdeps cannot see) and catches its thread storm.
 */
@ExtendWith(DaemonLogsOnFailure.class)
class JlinkedRuntimeIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path DOCKERFILE = Jdks.repoRoot().resolve("deploy/Dockerfile");

  @TempDir Path dir;

  @Test
  void theDaemonOnTheJlinkedRuntimeCatchesAThreadStorm() throws Exception {
    String dockerfile = Files.readString(DOCKERFILE);
    String modules = match(dockerfile, "(?m)^ARG MODULES=(\\S+)$");
    Path runtime = dir.resolve("runtime");
    List<String> jlink = new ArrayList<>(List.of(Jdks.jdk25().resolve("bin/jlink").toString()));
    jlink.addAll(List.of("--add-modules", modules));
    // The options of the Dockerfile's jlink RUN, except the ones given here.
    String run = match(dockerfile, "(?s)RUN jlink(.*?)--output");
    for (String option : run.replace("\\", " ").trim().split("\\s+")) {
      if (option.startsWith("--") && !option.startsWith("--add-modules")) {
        jlink.add(option);
      }
    }
    jlink.addAll(List.of("--output", runtime.toString()));
    Process linker =
        new ProcessBuilder(jlink)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("jlink.log").toFile())
            .start();
    assertThat(linker.waitFor(5, TimeUnit.MINUTES)).as("jlink finished").isTrue();
    assertThat(linker.exitValue()).as(Files.readString(dir.resolve("jlink.log"))).isZero();

    // The image's JVM options: ENV JDK_JAVA_OPTIONS and the ENTRYPOINT's flags, /tmp made ours.
    Path tmp = dir.resolve("daemon-tmp");
    String imageOptions = match(dockerfile, "(?m)^ENV JDK_JAVA_OPTIONS=\"([^\"]*)\"");
    String entrypoint = match(dockerfile, "(?m)^ENTRYPOINT \\[\"java\", (.*), \"-jar\"");
    String entrypointFlags =
        entrypoint.replace("\"", "").replace(",", " ").replace("=/tmp", "=" + tmp);
    Map<String, String> env = Map.of("JDK_JAVA_OPTIONS", imageOptions + " " + entrypointFlags);

    int jmxPort = LoopbackPorts.freePort();
    LabSpec storm =
        LabSpec.builder("thread-per-request")
            .javaHome(Jdks.jdk17())
            .rate(200)
            .jmxPort(jmxPort)
            .build();
    try (LabProcess lab = storm.startReady(Duration.ofSeconds(30))) {
      int port = LoopbackPorts.freePort();
      String yaml =
          Daemons.connectionYaml().replace("127.0.0.1:0", "127.0.0.1:" + port)
              + Daemons.target("lab", lab.jmxHostPort(), "1s");
      try (ForkedDaemon daemon = ForkedDaemon.start(dir, yaml, port, runtime, env)) {
        await("ThreadStorm on the jlinked runtime")
            .atMost(Duration.ofSeconds(90))
            .ignoreExceptions()
            .untilAsserted(() -> assertThat(firing(daemon)).contains("ThreadStorm"));
        assertThat(daemon.log()).doesNotContain("ClassNotFoundException", "NoClassDefFoundError");
      }
    }
  }

  private static List<String> firing(ForkedDaemon daemon) throws Exception {
    List<String> names = new ArrayList<>();
    JsonNode alerts = JSON.readTree(daemon.http().get("/api/v1/alerts").body()).get("alerts");
    for (JsonNode alert : alerts) {
      if (alert.get("state").asText().equals("firing")) {
        names.add(alert.get("alert").asText());
      }
    }
    return names;
  }

  private static String match(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as("deploy/Dockerfile has " + regex).isTrue();
    return m.group(1);
  }
}
