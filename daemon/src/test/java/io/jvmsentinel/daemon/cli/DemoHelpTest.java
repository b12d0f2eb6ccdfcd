package io.jvmsentinel.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.Main;
import io.jvmsentinel.lab.Scenarios;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code demo --help}, as the jar's entry point builds it, lists the lab's scenarios. */
class DemoHelpTest {
  @Test
  void theHelpListsEveryScenarioWithWhatItDoes() {
    StringWriter out = new StringWriter();
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    int exit;
    System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
    try {
      exit = Main.commandLine().setOut(new PrintWriter(out)).execute("demo", "--help");
    } finally {
      System.setErr(stderr);
    }

    String help = out.toString();
    assertThat(exit).isZero();
    // picocli warns on stderr when a text does not format (a '%' in a description).
    assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(help).doesNotContain("null").contains("\nScenarios:\n");
    String scenarios = help.substring(help.indexOf("\nScenarios:\n")).replaceAll("\\s+", " ");
    Scenarios.descriptions()
        .forEach(
            (name, description) -> assertThat(scenarios).contains(" " + name + " " + description));
  }
}
