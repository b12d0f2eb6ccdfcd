package io.jvmsentinel.collectors.jfr.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Recompilation is the same method compiled again at the same tier; nothing else is. */
class CompiledMethodsTest {
  private final CompiledMethods compiled = new CompiledMethods();

  @Test
  void theSameMethodAtTheSameTierIsARecompilation() {
    assertThat(compiled.compiledBefore("a.B.run()V", 4)).isFalse();
    assertThat(compiled.compiledBefore("a.B.run()V", 3)).as("another tier").isFalse();
    assertThat(compiled.compiledBefore("a.B.run(I)V", 4)).as("an overload").isFalse();
    assertThat(compiled.compiledBefore("a.B.run()V", 4)).isTrue();
  }

  @Test
  void aNewStreamStartsOverAndTheTableStaysBounded() {
    compiled.compiledBefore("a.B.run()V", 4);
    compiled.clear();
    assertThat(compiled.compiledBefore("a.B.run()V", 4)).isFalse();

    for (int i = 0; i < 200_000; i++) {
      compiled.compiledBefore("gen.C" + i + ".m()V", 4);
    }
    assertThat(compiled.size()).isLessThanOrEqualTo(CompiledMethods.MAX_SLOTS / 4 * 3);
    assertThat(compiled.capacity()).isEqualTo(CompiledMethods.MAX_SLOTS);
  }

  @Test
  void theTableStartsSmallAndGrowsKeepingWhatItHolds() {
    assertThat(compiled.capacity()).isEqualTo(CompiledMethods.INITIAL_SLOTS);
    int methods = CompiledMethods.INITIAL_SLOTS * 4;
    for (int i = 0; i < methods; i++) {
      assertThat(compiled.compiledBefore("gen.C" + i + ".m()V", 4)).isFalse();
    }
    assertThat(compiled.capacity()).isGreaterThan(CompiledMethods.INITIAL_SLOTS);
    assertThat(compiled.size()).isEqualTo(methods);
    for (int i = 0; i < methods; i++) {
      assertThat(compiled.compiledBefore("gen.C" + i + ".m()V", 4))
          .as("still known after growing")
          .isTrue();
    }
    compiled.clear();
    assertThat(compiled.capacity()).isEqualTo(CompiledMethods.INITIAL_SLOTS);
  }
}
