package io.jvmsentinel.daemon.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link DockerIgnore} decides as Docker's patternmatcher does for the forms deploy/ uses. */
class DockerIgnoreTest {
  @Test
  void everythingThenExceptionsLastMatchWins() {
    DockerIgnore ignore =
        new DockerIgnore("# comment\n**\n!mvnw\n!.mvn/\n!daemon/src/\n!lab/pom.xml\n");
    assertThat(ignore.excludes("mvnw")).isFalse();
    assertThat(ignore.excludes(".mvn/wrapper/maven-wrapper.properties")).isFalse();
    assertThat(ignore.excludes("daemon/src/main/java/A.java")).isFalse();
    assertThat(ignore.excludes("daemon/target/classes/A.class")).isTrue();
    assertThat(ignore.excludes("lab/pom.xml")).isFalse();
    assertThat(ignore.excludes("lab/src/main/java/L.java")).isTrue();
    assertThat(ignore.excludes("README.md")).isTrue();
    assertThat(ignore.excludes(".git/config")).isTrue();
  }

  @Test
  void starsStayWithinAPathElementAndDoubleStarsSpanThem() {
    DockerIgnore ignore = new DockerIgnore("*.md\n**/target\n!docs/keep?.md\n");
    assertThat(ignore.excludes("README.md")).isTrue();
    assertThat(ignore.excludes("docs/a.md")).isFalse(); // "*" does not cross "/"
    assertThat(ignore.excludes("daemon/target/x.jar")).isTrue();
    assertThat(ignore.excludes("target/x.jar")).isTrue();
    assertThat(ignore.excludes("docs/keep1.md")).isFalse();
  }
}
