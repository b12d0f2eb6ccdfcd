package io.jvmsentinel.daemon.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's build stage without a Docker engine: the build context is made exactly as
 * deploy/Dockerfile.dockerignore lets files through ({@link DockerIgnore}), the build stage's COPY
 * lines copy from it (a source the context lacks fails, as in docker build), and its RUN command
 * runs on the result with Maven offline (MAVEN_ARGS=-o; the machine's ~/.m2 stands in for the cache
 * mount).
 */
class DockerBuildIT {
  private static final Path REPO = DeployFiles.repo();
  private static final Path DOCKERFILE = REPO.resolve("deploy/Dockerfile");

  @TempDir Path dir;

  @Test
  void theBuildStageBuildsTheJarFromTheContextTheDockerignoreAllows() throws Exception {
    DockerIgnore ignore =
        new DockerIgnore(Files.readString(REPO.resolve("deploy/Dockerfile.dockerignore")));
    Path context = Files.createDirectories(dir.resolve("context"));
    List<String> sent = copyContext(ignore, context);
    assertThat(sent)
        .contains("mvnw", "pom.xml", "daemon/pom.xml")
        .noneMatch(p -> p.startsWith(".git/"));
    assertThat(sent)
        .noneMatch(p -> p.matches("[^/]+/target/.*"))
        .noneMatch(p -> p.startsWith("docs/"));

    List<String> stage = buildStage(Files.readAllLines(DOCKERFILE));
    Path work = Files.createDirectories(dir.resolve("src"));
    String run = null;
    for (String instruction : stage) {
      String[] words = instruction.split("\\s+");
      if (words[0].equals("COPY")) {
        copy(context, work, words[words.length - 1], List.of(words).subList(1, words.length - 1));
      } else if (words[0].equals("RUN")) {
        run = instruction.substring(4).replaceAll("--mount=\\S+", "").strip();
      }
    }
    assertThat(run).as("the build stage's RUN").isNotNull();
    Path jar = dir.resolve("jvm-sentinel.jar");
    String command = run.replace(" /jvm-sentinel.jar", " " + jar);
    ProcessBuilder builder =
        new ProcessBuilder("bash", "-c", command)
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("build.log").toFile());
    builder.environment().put("MAVEN_ARGS", "-o");
    Process build = builder.start();
    assertThat(build.waitFor(9, TimeUnit.MINUTES)).as("build finished in 9 min").isTrue();
    assertThat(build.exitValue()).as(Files.readString(dir.resolve("build.log"))).isZero();
    try (JarFile built = new JarFile(jar.toFile())) {
      assertThat(built.getManifest().getMainAttributes().getValue("Main-Class")).isNotBlank();
      // The lab stage runs io.jvmsentinel.lab.LabMain from the same jar.
      assertThat(built.getEntry("io/jvmsentinel/lab/LabMain.class")).isNotNull();
    }
  }

  /** The instructions of the stage named build, continuation lines joined, comments dropped. */
  static List<String> buildStage(List<String> lines) {
    List<String> out = new ArrayList<>();
    boolean inStage = false;
    StringBuilder current = new StringBuilder();
    for (String raw : lines) {
      String line = raw.strip();
      if (line.startsWith("#") || line.isEmpty()) {
        continue;
      }
      if (line.startsWith("FROM ")) {
        inStage = line.endsWith(" AS build");
        continue;
      }
      if (!inStage) {
        continue;
      }
      boolean continues = line.endsWith("\\");
      current.append(continues ? line.substring(0, line.length() - 1) : line).append(' ');
      if (!continues) {
        out.add(current.toString().strip());
        current.setLength(0);
      }
    }
    return out;
  }

  private static void copy(Path context, Path work, String destination, List<String> sources)
      throws IOException {
    for (String source : sources) {
      Path from = context.resolve(source);
      assertThat(from).as("COPY " + source + ": not in the build context").exists();
      String dest = destination.equals("./") ? source : destination;
      Path to = work.resolve(dest);
      if (Files.isDirectory(from)) {
        copyTree(from, to);
      } else {
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  /** Copies what the .dockerignore lets through; returns the relative paths sent. */
  private static List<String> copyContext(DockerIgnore ignore, Path context) throws IOException {
    List<String> sent = new ArrayList<>();
    Files.walkFileTree(
        REPO,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
            String rel = REPO.relativize(d).toString();
            boolean prune =
                !rel.isEmpty() && ignore.excludes(rel) && !ignore.mayReincludeUnder(rel);
            return prune ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
            String rel = REPO.relativize(f).toString();
            if (!ignore.excludes(rel)) {
              Path target = context.resolve(rel);
              Files.createDirectories(target.getParent());
              Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
              sent.add(rel);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return sent;
  }
}
