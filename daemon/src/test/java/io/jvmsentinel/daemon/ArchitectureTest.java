package io.jvmsentinel.daemon;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The daemon's packages depend one way (docs/architecture.md, "Packages"): configuration at the
 * bottom, the rules over immutable signal snapshots above it, target connections and JFR streams,
 * the watched target, live detection, exporters, {@code runtime} wiring them together, the CLI, and
 * {@code Main} alone in the root package.
 */
class ArchitectureTest {
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.jvmsentinel.daemon");

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("io.jvmsentinel.daemon.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void onlyTheEntryPointKnowsTheRootPackage() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.jvmsentinel.daemon")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.jvmsentinel.daemon")
        .check(CLASSES);
  }

  @Test
  void configurationKnowsNothingLive() {
    noClasses()
        .that()
        .resideInAPackage("..daemon.config..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "..daemon.target..",
            "..daemon.jfr..",
            "..daemon.watch..",
            "..daemon.detection..",
            "..daemon.export..",
            "..daemon.alert.notify..",
            "..daemon.cli..")
        .check(CLASSES);
  }

  @Test
  void discoveryOnlyTurnsWhatItFindsIntoTargetConfigurations() {
    noClasses()
        .that()
        .resideInAPackage("..daemon.discovery..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "..daemon.runtime..",
            "..daemon.target..",
            "..daemon.jfr..",
            "..daemon.watch..",
            "..daemon.detection..",
            "..daemon.export..",
            "..daemon.web..",
            "..daemon.alert..",
            "..daemon.cli..")
        .check(CLASSES);
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
  void rulesReadSnapshotsNeverLiveTargets() {
    noClasses()
        .that()
        .resideInAnyPackage("io.jvmsentinel.daemon.alert", "..daemon.alert.rules..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "..daemon.config..",
            "..daemon.target..",
            "..daemon.jfr..",
            "..daemon.watch..",
            "..daemon.detection..",
            "..daemon.export..",
            "..daemon.cli..")
        .check(CLASSES);
  }

  @Test
  void notificationsKnowNoExporter() {
    noClasses()
        .that()
        .resideInAPackage("..daemon.alert.notify..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("..daemon.export..", "..daemon.detection..", "..daemon.cli..")
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
