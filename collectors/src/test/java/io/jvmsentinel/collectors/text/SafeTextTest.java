package io.jvmsentinel.collectors.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SafeTextTest {
  @Test
  void bidiAndControlCharactersBecomeUnderscores() {
    assertThat(SafeText.of("invoice\u202Etxt.exe")).isEqualTo("invoice_txt.exe");
    assertThat(SafeText.of("a\u2066b\u2069c\u200Fd\u061Ce")).isEqualTo("a_b_c_d_e");
    assertThat(SafeText.of("line\nbreak\ttab\u0085nel")).isEqualTo("line_break_tab_nel");
  }

  @Test
  void zeroWidthCharactersBecomeUnderscoresSoTwoNamesCannotLookAlike() {
    assertThat(SafeText.of("ord\u200Bers\u200C\u200D\u2060\uFEFF")).isEqualTo("ord_ers____");
  }

  @Test
  void ordinaryTextIsKeptAsIs() {
    String text = "pool-3-thread-17 Ünïcödé 名前 עברית";
    assertThat(SafeText.of(text)).isSameAs(text);
  }

  @Test
  void boundedCutsThenCleansAndNeverSplitsASurrogatePair() {
    String hostile = "Evil<!channel>|#tag\n\u001bc\u202E" + "A".repeat(10_000);
    String bounded = SafeText.name(hostile);
    assertThat(bounded).hasSize(SafeText.MAX_NAME).startsWith("Evil<!channel>|#tag__c_AAA");
    assertThat(SafeText.bounded("ab\uD83D\uDE00", 3)).isEqualTo("ab");
    assertThat(SafeText.bounded("ab\uD83D\uDE00", 4)).isEqualTo("ab\uD83D\uDE00");
    assertThat(SafeText.name(null)).isNull();
    String ordinary = "G1 Eden Space";
    assertThat(SafeText.name(ordinary)).isSameAs(ordinary);
  }
}
