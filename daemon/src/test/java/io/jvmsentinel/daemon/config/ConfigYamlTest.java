package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The YAML the reader refuses or reads safely: the file is untrusted input. */
class ConfigYamlTest {
  static final String TARGETS = "targets:\n  - {name: a, pid: 1}\n";

  @TempDir Path dir;

  SentinelConfig load(String yaml) throws Exception {
    return new ConfigLoader(name -> null).load(Files.writeString(dir.resolve("c.yaml"), yaml));
  }

  String problems(String yaml) {
    return assertThatThrownBy(() -> load(yaml))
        .isInstanceOf(ConfigException.class)
        .actual()
        .getMessage()
        .replace(dir + "/", "");
  }

  @Test
  void tagsOtherThanThoseOfPlainDataAreRefusedNotApplied() throws Exception {
    assertThat(
            problems(
                "tags: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[x]]]\n"
                    + TARGETS))
        .isEqualTo(
            "c.yaml:1:7: 'tags': the YAML tag !!javax.script.ScriptEngineManager is not allowed;"
                + " write the value without a tag\n"
                + "c.yaml:1:7: 'tags': expected a map, got a list\n"
                + "c.yaml:1:43: 'tags[0]': the YAML tag !!java.net.URLClassLoader is not allowed;"
                + " write the value without a tag");
    assertThat(problems("tags: {app: !custom orders}\n" + TARGETS))
        .isEqualTo(
            "c.yaml:1:13: 'tags.app': the YAML tag !custom is not allowed; write the value without"
                + " a tag");
    assertThat(load("tags: !!map {app: !!str 12}\n" + TARGETS).tags()).containsEntry("app", "12");
  }

  @Test
  @Timeout(10)
  void anAliasBombIsRefused() {
    StringBuilder yaml = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 10; i++) {
      yaml.append("a").append(i).append(": &a").append(i).append(" [");
      yaml.append(("*a" + (i - 1) + ", ").repeat(9)).append("*a").append(i - 1).append("]\n");
    }
    assertThat(problems(yaml + TARGETS)).contains("malformed YAML").contains("aliases");
  }

  @Test
  @Timeout(10)
  void aliasesAreExpandedAndARecursiveOneEndsCleanly() throws Exception {
    assertThat(
            load("targets:\n  - &t {name: a, jmx: \"h:1\", pollInterval: 5s}\n")
                .targets()
                .get(0)
                .pollInterval())
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(problems("tags: &a {x: *a}\n" + TARGETS))
        .isEqualTo("c.yaml:1:7: 'tags.x': expected text, got a map");
  }

  @Test
  void deepNestingIsRefusedBeforeItIsBuilt() {
    assertThat(problems("a: " + "[".repeat(100_000) + "\n"))
        .isEqualTo("c.yaml:1:53: malformed YAML: nested deeper than 50 levels");
  }

  @Test
  void aKeyMustBeText() {
    assertThat(problems("? [a, b]\n: 1\n" + TARGETS))
        .isEqualTo("c.yaml:1:3: a key must be text, not a list or a map");
  }

  @Test
  void yaml11BooleansAndNullsAsBefore() throws Exception {
    assertThat(load("jfr: {enabled: off}\n" + TARGETS).jfr().enabled()).isFalse();
    assertThat(load("jfr: {enabled: ~, maxSizeMb: null}\n" + TARGETS).jfr())
        .isEqualTo(JfrConfig.DEFAULT);
  }

  @Test
  void aSecretIsNeverQuotedEvenWhenItLandsInTheWrongKey() {
    assertThat(problems("targets:\n  - {name: a, pid: 1, passwordFile: \"hunter2\\u0000\"}\n"))
        .doesNotContain("hunter2");
  }
}
