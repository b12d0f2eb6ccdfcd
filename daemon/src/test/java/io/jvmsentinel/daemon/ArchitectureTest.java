package io.jvmsentinel.daemon;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.catalog.PlantedViolation;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The daemon's layers as docs/architecture.md ("Packages") draws them: each package and the
 * packages it may use, nothing else. A new edge is a decision: add it here and to the drawing, or
 * move the code.
 */
class ArchitectureTest {
  private static final String ROOT = "io.jvmsentinel.daemon";
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages(ROOT);

  /** Top to bottom, as in docs/architecture.md; each layer names every layer it may use. */
  static final ArchRule LAYERS =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("Main")
          .definedBy(ROOT)
          .layer("cli")
          .definedBy(ROOT + ".cli..")
          .layer("runtime")
          .definedBy(ROOT + ".runtime..")
          .layer("web")
          .definedBy(ROOT + ".web")
          .layer("http")
          .definedBy(ROOT + ".http..")
          .layer("web.charts")
          .definedBy(ROOT + ".web.charts..")
          .layer("export")
          .definedBy(ROOT + ".export..")
          .layer("discovery")
          .definedBy(ROOT + ".discovery..")
          .layer("detection")
          .definedBy(ROOT + ".detection..")
          .layer("watch")
          .definedBy(ROOT + ".watch..")
          .layer("jfr")
          .definedBy(ROOT + ".jfr..")
          .layer("alert.notify")
          .definedBy(ROOT + ".alert.notify..")
          .layer("target")
          .definedBy(ROOT + ".target..")
          .layer("tls")
          .definedBy(ROOT + ".tls..")
          .layer("config")
          .definedBy(ROOT + ".config..")
          .layer("alert.rules")
          .definedBy(ROOT + ".alert.rules..")
          .layer("alert")
          .definedBy(ROOT + ".alert")
          .layer("catalog")
          .definedBy(ROOT + ".catalog..")
          .layer("lab")
          .definedBy(ROOT + ".lab..")
          .layer("identity")
          .definedBy(ROOT + ".identity..")
          .layer("support")
          .definedBy(ROOT + ".support..")
          .whereLayer("Main")
          .mayOnlyAccessLayers("cli")
          .whereLayer("cli")
          .mayOnlyAccessLayers(
              "runtime", "detection", "alert.notify", "target", "tls", "config", "alert", "lab")
          .whereLayer("runtime")
          .mayOnlyAccessLayers(
              "web",
              "http",
              "export",
              "discovery",
              "detection",
              "watch",
              "jfr",
              "alert.notify",
              "target",
              "tls",
              "config",
              "alert.rules",
              "alert",
              "catalog",
              "support")
          .whereLayer("web")
          .mayOnlyAccessLayers(
              "http",
              "web.charts",
              "detection",
              "watch",
              "alert.notify",
              "config",
              "alert.rules",
              "alert")
          .whereLayer("http")
          .mayOnlyAccessLayers(
              "detection",
              "watch",
              "jfr",
              "target",
              "config",
              "alert.rules",
              "alert",
              "catalog",
              "support")
          .whereLayer("web.charts")
          .mayOnlyAccessLayers("alert.rules", "alert")
          .whereLayer("export")
          .mayOnlyAccessLayers("alert.notify", "config", "alert", "catalog", "identity", "support")
          // Discovery turns what it finds into target configurations (a Secret's PEM client key
          // read with tls), nothing more.
          .whereLayer("discovery")
          .mayOnlyAccessLayers("tls", "config", "identity", "support")
          .whereLayer("detection")
          .mayOnlyAccessLayers("watch", "jfr", "target", "alert", "catalog", "support")
          .whereLayer("watch")
          .mayOnlyAccessLayers("jfr", "target", "alert")
          .whereLayer("jfr")
          .mayOnlyAccessLayers("target", "config", "catalog", "support")
          .whereLayer("alert.notify")
          .mayOnlyAccessLayers("config", "alert", "catalog", "support")
          .whereLayer("target")
          .mayOnlyAccessLayers("tls", "config", "catalog", "support")
          .whereLayer("tls")
          .mayOnlyAccessLayers("config")
          // Validating rule thresholds needs the rules' declared thresholds.
          .whereLayer("config")
          .mayOnlyAccessLayers("alert.rules", "alert", "identity")
          // Rules read immutable snapshots, never live targets.
          .whereLayer("alert.rules")
          .mayOnlyAccessLayers("alert")
          // The dedup key carries the pod.
          .whereLayer("alert")
          .mayOnlyAccessLayers("identity")
          .whereLayer("identity")
          .mayNotAccessAnyLayer()
          .whereLayer("catalog")
          .mayNotAccessAnyLayer()
          .whereLayer("lab")
          .mayOnlyAccessLayers("support")
          .whereLayer("support")
          .mayNotAccessAnyLayer();

  @Test
  void everyPackageUsesOnlyTheLayersItIsAllowed() {
    LAYERS.check(CLASSES);
  }

  @Test
  void everyPackageBelongsToALayer() {
    // A new package must be placed in the drawing (and above), not slip past the rules.
    noClasses()
        .that()
        .resideInAPackage(ROOT + "..")
        .should()
        .resideOutsideOfPackages(
            Stream.of(
                    "",
                    ".cli..",
                    ".runtime..",
                    ".web..",
                    ".http..",
                    ".export..",
                    ".discovery..",
                    ".detection..",
                    ".watch..",
                    ".jfr..",
                    ".alert..",
                    ".target..",
                    ".tls..",
                    ".config..",
                    ".catalog..",
                    ".lab..",
                    ".identity..",
                    ".support..")
                .map(suffix -> ROOT + suffix)
                .toArray(String[]::new))
        .check(CLASSES);
  }

  @Test
  void aPlantedViolationIsReported() throws Exception {
    // catalog.PlantedViolation (test sources only) makes the daemon's meters know the alert model:
    // the rules, run over the daemon's classes and that one, must name it.
    Path mainClasses =
        Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path planted =
        Path.of(PlantedViolation.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .resolve(PlantedViolation.class.getName().replace('.', '/') + ".class");
    JavaClasses withPlanted = new ClassFileImporter().importPaths(mainClasses, planted);

    EvaluationResult result = LAYERS.evaluate(withPlanted);

    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .isNotEmpty()
        .allSatisfy(
            line ->
                assertThat(line)
                    .contains(PlantedViolation.class.getName())
                    .contains(Severity.class.getName()));
  }

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void onlyDiscoveryKnowsTheKubernetesClient() {
    // The client and its model stay behind KubernetesDiscovery: config records stay plain Java.
    noClasses()
        .that()
        .resideOutsideOfPackage("..daemon.discovery..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.fabric8..")
        .check(CLASSES);
  }

  @Test
  void onlyTheLauncherAndTheDemoKnowTheLab() {
    noClasses()
        .that()
        .resideOutsideOfPackages("..daemon.lab..", "..daemon.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.jvmsentinel.lab..")
        .check(CLASSES);
  }
}
