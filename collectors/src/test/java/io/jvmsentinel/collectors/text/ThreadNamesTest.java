package io.jvmsentinel.collectors.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ThreadNamesTest {
  @Test
  void numbersAndHexIdsAreWhatVaries() {
    assertThat(ThreadNames.pattern("pool-3-thread-17")).isEqualTo("pool-#-thread-#");
    assertThat(ThreadNames.pattern("req-3f2a9c1e-4b7d-11ee-be56-0242ac120002"))
        .isEqualTo("req-#-#-#-#-#");
    assertThat(ThreadNames.pattern("task-0x1F")).isEqualTo("task-#");
    assertThat(ThreadNames.pattern("task-0x7")).isEqualTo("task-#");
    assertThat(ThreadNames.pattern("worker7abc-x")).isEqualTo("worker#abc-x");
  }

  @Test
  void wordsWithoutDigitsStayAsTheyAre() {
    assertThat(ThreadNames.pattern("decoder-facade")).isEqualTo("decoder-facade");
    assertThat(ThreadNames.pattern("C2 CompilerThread0")).isEqualTo("C# CompilerThread#");
    assertThat(ThreadNames.pattern("ab12-cd")).isEqualTo("#-cd");
    assertThat(ThreadNames.pattern("0x")).isEqualTo("#x");
    assertThat(ThreadNames.pattern("HandshakeCompletedNotify-Thread"))
        .isEqualTo("HandshakeCompletedNotify-Thread");
    assertThat(ThreadNames.pattern("Émile-1")).isEqualTo("Émile-#");
  }

  @Test
  void namesAreSafeAndBounded() {
    assertThat(ThreadNames.pattern(null)).isEqualTo(ThreadNames.UNKNOWN);
    assertThat(ThreadNames.pattern("a\u202Eb\nc")).isEqualTo("a_b_c");
    assertThat(ThreadNames.pattern("w".repeat(500))).hasSize(128);
  }

  @Test
  void onlyTheStartOfAHugeNameIsRead() {
    // A hex word with its digit at the very end: judged on what was read, it has no digit.
    String hugeWord = "a".repeat(1_000_000) + "1";
    assertThat(ThreadNames.pattern(hugeWord)).isEqualTo("a".repeat(128));
    assertThat(ThreadNames.pattern("a".repeat(1_000) + "1")).isEqualTo("#");
  }
}
