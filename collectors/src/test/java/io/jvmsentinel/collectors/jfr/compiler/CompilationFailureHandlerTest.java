package io.jvmsentinel.collectors.jfr.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class CompilationFailureHandlerTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final CompilationFailureHandler handler =
      new CompilationFailureHandler(Tags.of("target", "t1"), MonitoringThreads.DEFAULT);

  @Test
  void aFullCodeCacheFailsCompilationsWithBothSpellingsOnJdk17() {
    handler.bindTo(registry);
    Recordings.events("codecache/codecache-full-noflush-jdk17.jfr", CompilationFailureHandler.EVENT)
        .forEach(handler::accept);

    // jfr print: "CodeCache is full", "code cache is full", and the JVMTI one from JFR starting.
    assertThat(failures("code cache is full")).isEqualTo(1);
    assertThat(failures("CodeCache is full")).isEqualTo(1);
    assertThat(failures(CompilationFailureHandler.JVMTI_INVALIDATED)).isEqualTo(1);
  }

  @Test
  void benignClassLoadingFailuresKeepTheirOwnReason() {
    handler.bindTo(registry);
    Recordings.events("compiler/compiler-deopt-jdk25.jfr", CompilationFailureHandler.EVENT)
        .forEach(handler::accept);

    assertThat(failures("concurrent class loading")).isEqualTo(2);
  }

  @Test
  void normalisesNumbersAddressesSpacesAndLength() {
    assertThat(CompilationFailureHandler.normalise("  out of nodes   80001 "))
        .isEqualTo("out of nodes #");
    assertThat(CompilationFailureHandler.normalise("bad oop at 0x7fbbabec7000 in 12 places"))
        .isEqualTo("bad oop at # in # places");
    assertThat(CompilationFailureHandler.normalise("x".repeat(100))).hasSize(60);
    assertThat(CompilationFailureHandler.normalise(null)).isNull();
  }

  private double failures(String reason) {
    return registry
        .get("jvm.jit.compilation.failures")
        .tags("target", "t1", "reason", reason)
        .counter()
        .count();
  }
}
