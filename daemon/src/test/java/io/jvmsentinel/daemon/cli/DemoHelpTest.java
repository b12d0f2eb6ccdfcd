package io.jvmsentinel.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.Main;
import io.jvmsentinel.lab.Scenarios;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code demo --help}, as the jar's entry point builds it, lists the lab's scenarios. */
class DemoHelpTest {
  @Test
  void theHelpListsEveryScenarioWithWhatItDoes() {
    StringWriter out = new StringWriter();
    int exit = Main.commandLine().setOut(new PrintWriter(out)).execute("demo", "--help");

    String help = out.toString();
    assertThat(exit).isZero();
    assertThat(help).doesNotContain("null").contains("\nScenarios:\n");
    String scenarios = help.substring(help.indexOf("\nScenarios:\n"));
    Scenarios.descriptions()
        .forEach(
            (name, description) ->
                // The name, then its description's first word on the same line.
                assertThat(scenarios)
                    .containsPattern(
                        Pattern.compile(
                            "(?m)^\\s+"
                                + Pattern.quote(name)
                                + "\\s+"
                                + Pattern.quote(description.split(" ")[0]))));
  }
}
