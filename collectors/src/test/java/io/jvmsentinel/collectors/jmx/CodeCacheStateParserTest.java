package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jmx.CodeCacheStateParser.CodeCacheState;
import io.jvmsentinel.collectors.jmx.CodeCacheStateParser.Heap;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Texts captured with {@code jcmd <pid> Compiler.codecache} (README in the resource folder). */
class CodeCacheStateParserTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // file,                enabled, stopped, restarted, full, nmethods, heaps
    "jdk11-default,         true,    0,       0,         0,    796,      3",
    "jdk11-unsegmented,     true,    0,       0,         0,    773,      1",
    "jdk17-default,         true,    0,       0,         0,    1266,     3",
    "jdk17-sweeper,         true,    0,       0,         0,    440,      3",
    "jdk17-unsegmented,     true,    0,       0,         0,    1292,     1",
    "jdk17-full-disabled,   false,   0,       0,         1,    1832,     3",
    "jdk21-default,         true,    0,       0,         0,    5296,     4",
    "jdk21-nearly-full,     true,    0,       0,         0,    1715,     4",
    "jdk21-full-disabled,   false,   1,       0,         1,    1800,     4",
    "jdk25-default,         true,    0,       0,         0,    1641,     4",
    "jdk25-unsegmented,     true,    0,       0,         0,    3590,     1",
    "jdk25-full-disabled,   false,   1,       0,         1,    2115,     4",
  })
  void parsesEveryCapturedFormat(
      String file, boolean enabled, int stopped, int restarted, int full, int nmethods, int heaps) {
    CodeCacheState state = CodeCacheStateParser.parse(text(file));

    assertThat(state.compilationEnabled()).isEqualTo(enabled);
    assertThat(state.stoppedCount()).isEqualTo(stopped);
    assertThat(state.restartedCount()).isEqualTo(restarted);
    assertThat(state.fullCount()).isEqualTo(full);
    assertThat(state.nmethods()).isEqualTo(nmethods);
    assertThat(state.heaps()).hasSize(heaps);
    assertThat(state.disabledReason())
        .isEqualTo(enabled ? null : "not enough contiguous free space left");
  }

  @Test
  void readsHeapSizesInBytesIncludingTheJdk25TotalLine() {
    CodeCacheState state = CodeCacheStateParser.parse(text("jdk25-full-disabled"));

    assertThat(state.heaps())
        .contains(
            new Heap("CodeHeap 'profiled nmethods'", 1252 * 1024, 1251 * 1024, 1251 * 1024, 0),
            new Heap("CodeCache", 8192 * 1024, 3990 * 1024, 4048 * 1024, 4199 * 1024));
    assertThat(state.totalBlobs()).isEqualTo(2579);
    assertThat(state.adapters()).isEqualTo(369);
  }

  @Test
  void unknownTextIsUnknownNotAnError() {
    CodeCacheState state = CodeCacheStateParser.parse("Unknown diagnostic command");

    assertThat(state.compilationEnabled()).isNull();
    assertThat(state.stoppedCount()).isNaN();
    assertThat(state.heaps()).isEmpty();
    assertThat(CodeCacheStateParser.parse(null).fullCount()).isNaN();
  }

  static String text(String name) {
    String resource = "/jfr/codecache/compiler-codecache/" + name + ".txt";
    try (InputStream in = CodeCacheStateParserTest.class.getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(resource, e);
    }
  }
}
