package io.jvmsentinel.collectors;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The library's packages depend one way (docs/architecture.md, "Packages"): shared structures in
 * {@code support}, the JFR handler contract in {@code jfr.handler}, one package per signal family
 * above them, and {@code jfr.JfrHandlers} assembling the families on top.
 */
class ArchitectureTest {
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.jvmsentinel.collectors");

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("io.jvmsentinel.collectors.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void sharedSupportDependsOnNoCollector() {
    noClasses()
        .that()
        .resideInAPackage("..collectors.support..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("..collectors.jfr..", "..collectors.jmx..")
        .check(CLASSES);
  }

  @Test
  void jmxPollersAndTheHandlerContractKnowNoJfrSignalFamily() {
    noClasses()
        .that()
        .resideInAnyPackage("..collectors.jmx..", "..collectors.jfr.handler..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "..collectors.jfr.codecache..",
            "..collectors.jfr.compiler..",
            "..collectors.jfr.locks..",
            "..collectors.jfr.threads..",
            "..collectors.jfr.tls..")
        .check(CLASSES);
  }

  @Test
  void signalFamiliesDoNotKnowEachOther() {
    String[] families = {"codecache", "compiler", "locks", "threads", "tls"};
    for (String family : families) {
      for (String other : families) {
        if (!family.equals(other)) {
          noClasses()
              .that()
              .resideInAPackage("..collectors.jfr." + family + "..")
              .should()
              .dependOnClassesThat()
              .resideInAPackage("..collectors.jfr." + other + "..")
              .check(CLASSES);
        }
      }
    }
  }
}
