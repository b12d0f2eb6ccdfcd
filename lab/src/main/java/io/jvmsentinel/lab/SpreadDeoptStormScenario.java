package io.jvmsentinel.lab;

import java.util.ArrayList;
import java.util.List;

/**
 * A deoptimisation storm spread over many methods: the rounds of {@link DeoptStormScenario} taken
 * in turn from {@value #FAMILIES} renamed copies of {@link DeoptTemplate} ({@code DeoptSpread00} to
 * {@code DeoptSpread11}), so the same amount of code is thrown away as there, but each of about 50
 * methods only every few seconds: no ten methods carry most of it. A storm of class hierarchy
 * changes across a large code base looks like this.
 */
final class SpreadDeoptStormScenario implements Scenario {

  static final int FAMILIES = 12;

  private final DeoptStormScenario rounds;

  SpreadDeoptStormScenario(LabOptions options) {
    this.rounds = new DeoptStormScenario(options);
  }

  @Override
  public String name() {
    return "spread-deopt-storm";
  }

  @Override
  public String description() {
    return "deopt-storm's rounds taken in turn from "
        + FAMILIES
        + " renamed copies of its code: the same deoptimisation spread over about 50 methods";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    GeneratedCode template = DeoptTemplate.generatedCode();
    List<GeneratedCode> families = new ArrayList<>();
    for (int i = 0; i < FAMILIES; i++) {
      families.add(template.renamed(String.format("io.jvmsentinel.lab.DeoptSpread%02d", i)));
    }
    rounds.run(log, sequence -> families.get((int) (sequence % FAMILIES)));
  }
}
