package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import javax.management.RuntimeMBeanException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Who the target is, for JDK 8 targets (no JDK 8 runs here: the fixtures are built from the jdk8u
 * sources) and for the version strings of every JDK.
 */
class JvmIdentityPollerTest {
  /**
   * The options a JDK 8u392 HotSpot server VM has among the watched ones, with their defaults on
   * x86_64 with tiered compilation (jdk8u {@code globals.hpp}, {@code c2_globals_x86.hpp}, and
   * {@code arguments.cpp} {@code set_tiered_flags}: 48 MB x 5). No segmented code cache flags.
   */
  static final Map<String, String> JDK8_OPTIONS =
      Map.of(
          "ReservedCodeCacheSize", "251658240",
          "TieredCompilation", "true",
          "UseCodeCacheFlushing", "true",
          "InitialCodeCacheSize", "2555904",
          "CICompilerCount", "3");

  /** System properties of an OpenJDK 8u392 target (the ones the identity reads). */
  static final Map<String, String> JDK8_PROPERTIES =
      Map.of(
          "java.version", "1.8.0_392",
          "java.runtime.version", "1.8.0_392-b08",
          "java.runtime.name", "OpenJDK Runtime Environment",
          "java.specification.version", "1.8",
          "java.vm.specification.version", "1.8");

  private final MeterRegistry registry = new SimpleMeterRegistry();

  @ParameterizedTest
  @CsvSource({
    "1.8, 8",
    "1.8.0_392, 8",
    "1.8.0_392-b08, 8",
    "1.8.0-internal, 8",
    "1.7.0_80, 7",
    "9, 9",
    "11.0.13, 11",
    "11.0.13+8, 11",
    "17, 17",
    "17.0.15, 17",
    "21, 21",
    "21.0.8+9-LTS, 21",
    "25-ea, 25",
    "' 25 ', 25"
  })
  void parsesTheFeatureVersionOfOldAndNewVersionStrings(String version, int feature) {
    assertThat(JvmIdentity.parseFeatureVersion(version)).isEqualTo(feature);
  }

  @ParameterizedTest
  @CsvSource({"''", "abc", "1.", "1.x", "-8", "99999999999999999999", "12345.0"})
  void unreadableVersionsAreUnknownNotAnError(String version) {
    assertThat(JvmIdentity.parseFeatureVersion(version)).isZero();
    assertThat(JvmIdentity.parseFeatureVersion(null)).isZero();
  }

  @Test
  void aJdk8TargetReadsAsFeature8WithItsPidFromTheNameAndOnlyTheOptionsItHas() throws Exception {
    FakeTarget target =
        new FakeTarget()
            .runtime(jdk8Runtime("1.8", "4242@build-host"))
            .hotSpotDiagnostic(JDK8_OPTIONS);
    JvmIdentityPoller poller = new JvmIdentityPoller(Tags.of("target", "legacy"));
    poller.bindTo(registry);

    poller.connected(target.server);

    JvmIdentity identity = poller.identity();
    assertThat(identity.featureVersion()).isEqualTo(8);
    assertThat(identity.javaVersion()).isEqualTo("1.8.0_392-b08");
    assertThat(identity.runtimeName()).isEqualTo("OpenJDK Runtime Environment");
    assertThat(identity.pid()).isEqualTo(4242);
    assertThat(identity.inputArguments()).containsExactly("-Xmx512m");
    // SegmentedCodeCache, NonNMethodCodeHeapSize, ... threw "does not exist": quietly left out.
    assertThat(identity.vmOptions()).isEqualTo(JDK8_OPTIONS);
    assertThat(registry.get("jvm.info").tag("version", "1.8.0_392-b08").gauge().value())
        .isEqualTo(1);
  }

  @Test
  void theTargetsArgumentsAreFewAndCutAndSafe() {
    String[] args = new String[10_000];
    java.util.Arrays.fill(args, "-Dx=\r\nforged\u001b" + "y".repeat(100_000));
    List<String> read = JvmIdentityPoller.inputArguments(args);
    assertThat(read).hasSize(JvmIdentityPoller.MAX_ARGUMENTS);
    assertThat(read.get(0))
        .hasSize(JvmIdentityPoller.MAX_ARGUMENT_CHARS)
        .startsWith("-Dx=__forged_yyy");
    assertThat(JvmIdentityPoller.inputArguments("not an array")).isEmpty();
  }

  @Test
  void theFixtureFailsAMissingOptionTheWayATargetDoes() throws Exception {
    FakeTarget target = new FakeTarget().hotSpotDiagnostic(JDK8_OPTIONS);

    // A JDK 11.0.13 target answered getVMOption("NoSuchOption") over remote JMX with exactly this.
    assertThatThrownBy(
            () ->
                target.server.invoke(
                    ObjectNames.HOTSPOT_DIAGNOSTIC,
                    "getVMOption",
                    new Object[] {"SegmentedCodeCache"},
                    new String[] {String.class.getName()}))
        .isInstanceOf(RuntimeMBeanException.class)
        .cause()
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("VM option \"SegmentedCodeCache\" does not exist");
  }

  @Test
  void everyOptionMissingStillGivesAnIdentity() throws Exception {
    FakeTarget target =
        new FakeTarget().runtime(jdk8Runtime("1.8", "4242@host")).hotSpotDiagnostic(Map.of());

    JvmIdentity identity = JvmIdentityPoller.read(target.server);

    assertThat(identity.featureVersion()).isEqualTo(8);
    assertThat(identity.vmOptions()).isEmpty();
  }

  @Test
  void withoutASpecVersionTheSystemPropertiesSayTheFeature() throws Exception {
    for (String spec : new String[] {null, "", "garbage", "99999999999"}) {
      FakeTarget target =
          new FakeTarget().runtime(jdk8Runtime(spec, "4242@host")).hotSpotDiagnostic(Map.of());

      assertThat(JvmIdentityPoller.read(target.server).featureVersion()).as(spec).isEqualTo(8);
    }
  }

  @Test
  void anUnreadableNameGivesPidZero() throws Exception {
    for (String name :
        new String[] {"host", "@host", "x@host", "-3@host", "99999999999999999999@h"}) {
      FakeTarget target =
          new FakeTarget().runtime(jdk8Runtime("1.8", name)).hotSpotDiagnostic(Map.of());

      assertThat(JvmIdentityPoller.read(target.server).pid()).as(name).isZero();
    }
  }

  private static FakeTarget.Jdk8Runtime jdk8Runtime(String specVersion, String name) {
    return new FakeTarget.Jdk8Runtime(
        name,
        "OpenJDK 64-Bit Server VM",
        "Temurin",
        "25.392-b08",
        specVersion,
        1_700_000_000_000L,
        List.of("-Xmx512m"),
        JDK8_PROPERTIES);
  }
}
