package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {
  @ParameterizedTest
  @CsvSource({"500ms, PT0.5S", "10s, PT10S", "2m, PT2M", "1h, PT1H", "0s, PT0S"})
  void readsTheShortForms(String text, Duration expected) {
    assertThat(Durations.parse(text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"abc", "10", "-5s", "1.5s", "10 s", "PT10S", "5d", "", "99999999999999999h"})
  void rejectsAnythingElseNamingTheAcceptedForms(String text) {
    assertThatThrownBy(() -> Durations.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot read \"" + text + "\" as a duration; use e.g. 500ms, 10s, 2m, 1h");
  }

  @ParameterizedTest
  @CsvSource({"PT0.5S, 500ms", "PT10S, 10s", "PT90S, 90s", "PT2M, 2m", "PT1H, 1h", "PT0S, 0s"})
  void formatsInTheLargestExactUnit(Duration duration, String expected) {
    assertThat(Durations.format(duration)).isEqualTo(expected);
  }
}
