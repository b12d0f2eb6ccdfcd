package io.jvmsentinel.daemon.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.JvmMatch;
import io.jvmsentinel.daemon.config.LocalDiscoveryConfig;
import io.jvmsentinel.daemon.config.PidAddress;
import io.jvmsentinel.daemon.config.TargetConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Which of the host's JVMs become targets, named and tagged how. */
class LocalDiscoveryTest {
  private static final Duration POLL = Duration.ofSeconds(10);
  private static final Duration INTERVAL = Duration.ofSeconds(5);
  private static final Pattern ANY = Pattern.compile("");
  private static final LocalJvm ORDERS =
      new LocalJvm(4242, "com.example.orders.OrdersMain --port 8080", Optional.of("orders"));
  private static final LocalJvm JAR =
      new LocalJvm(77, "/opt/app/billing-2.1.jar serve", Optional.of("billing"));
  private static final LocalJvm GRADLE =
      new LocalJvm(99, "org.gradle.launcher.daemon.bootstrap.GradleDaemon 8.5", Optional.empty());

  @Test
  void aJvmIsNamedAfterItsMainClassAndPidAndTaggedWithBoth() {
    TargetConfig target = ORDERS.target(POLL);
    assertThat(target.name()).isEqualTo("OrdersMain-4242");
    assertThat(target.address()).isEqualTo(new PidAddress(4242));
    assertThat(target.tags())
        .containsExactly(
            java.util.Map.entry("main_class", "com.example.orders.OrdersMain"),
            java.util.Map.entry("pid", "4242"));
    assertThat(target.pollInterval()).isEqualTo(POLL);
  }

  @Test
  void aJvmInAnotherNetworkOrEveryJvmWithJmxAgentRemoteIsReachedThroughARemoteAgent() {
    LocalJvm otherPod =
        new LocalJvm(4242, "com.example.orders.OrdersMain", Optional.empty(), false);
    assertThat(otherPod.target(POLL).address())
        .isEqualTo(new PidAddress(4242, PidAddress.Agent.REMOTE));
    assertThat(ORDERS.target(POLL).address()).isEqualTo(new PidAddress(4242));
    LocalDiscoveryConfig remote =
        new LocalDiscoveryConfig(
            INTERVAL, POLL, List.of(), List.of(), LocalDiscoveryConfig.JmxAgent.REMOTE);
    assertThat(new LocalDiscovery(remote, () -> List.of(ORDERS), t -> {}).discover())
        .extracting(TargetConfig::address)
        .containsExactly(new PidAddress(4242, PidAddress.Agent.REMOTE));
    // Host-network JVMs get a remote agent only when discovery says so.
    LocalDiscoveryConfig allowed =
        new LocalDiscoveryConfig(
            INTERVAL, POLL, List.of(), List.of(), LocalDiscoveryConfig.JmxAgent.AUTO, true);
    assertThat(new LocalDiscovery(allowed, () -> List.of(otherPod), t -> {}).discover())
        .extracting(TargetConfig::address)
        .containsExactly(new PidAddress(4242, PidAddress.Agent.REMOTE, true));
    assertThat(otherPod.target(POLL).address())
        .isEqualTo(new PidAddress(4242, PidAddress.Agent.REMOTE, false));
    // Tags and name do not depend on the agent.
    assertThat(otherPod.target(POLL).tags()).isEqualTo(ORDERS.target(POLL).tags());
  }

  @Test
  void aJarJvmIsNamedAfterItsJarAndOneWithoutACommandLineIsUnknown() {
    assertThat(JAR.mainClass()).isEqualTo("billing-2.1.jar");
    assertThat(JAR.target(POLL).name()).isEqualTo("billing-2.1.jar-77");
    LocalJvm blank = new LocalJvm(5, "", Optional.empty());
    assertThat(blank.mainClass()).isEqualTo("unknown");
    assertThat(blank.target(POLL).name()).isEqualTo("unknown-5");
  }

  @Test
  void aHostileCommandLineGivesABoundedCleanMainClassNameAndTag() {
    String forged = "\u001b[2K\u0007" + "A".repeat(10_000) + "\u2028\u202Eevil";
    LocalJvm hostile = new LocalJvm(31, forged + " --port 1\r\nFORGED", Optional.empty());
    assertThat(hostile.mainClass()).hasSize(128).startsWith("_[2K_AAAA").doesNotContain("\u001b");
    assertThat(hostile.commandLine()).doesNotContain("\r", "\n", "\u2028", "\u202E", "\u0007");
    TargetConfig target = hostile.target(POLL);
    assertThat(target.name()).hasSizeLessThanOrEqualTo(128 + 3).matches("[A-Za-z0-9_.-]+");
    assertThat(target.tags().get("main_class")).hasSize(128);
    // A jar's file name: a path component, at most 255 bytes, may hold a line break.
    LocalJvm jar = new LocalJvm(32, "/opt/a\n/x\n" + "J".repeat(300) + ".jar", Optional.empty());
    assertThat(jar.mainClass()).hasSize(128).startsWith("x_JJJ");
  }

  @Test
  void withoutFiltersEveryJvmIsATarget() {
    assertThat(names(settings(List.of(), List.of())))
        .containsExactly("OrdersMain-4242", "billing-2.1.jar-77", "GradleDaemon-99");
  }

  @Test
  void includeKeepsOnlyMatchesAndExcludeWinsOverInclude() {
    assertThat(names(settings(List.of("^com\\.example\\.", "\\.jar"), List.of())))
        .containsExactly("OrdersMain-4242", "billing-2.1.jar-77");
    assertThat(names(settings(List.of("^com\\.example\\.", "\\.jar"), List.of("billing"))))
        .containsExactly("OrdersMain-4242");
    assertThat(names(settings(List.of(), List.of("Gradle"))))
        .containsExactly("OrdersMain-4242", "billing-2.1.jar-77");
  }

  @Test
  void anEntryMatchesWhenAllItsFieldsMatchAndAnUnknownUserNeverMatches() {
    JvmMatch ordersUser =
        new JvmMatch(
            Optional.of(Pattern.compile("Main$")),
            Optional.empty(),
            Optional.of(Pattern.compile("^orders$")));
    assertThat(names(new LocalDiscoveryConfig(INTERVAL, POLL, List.of(ordersUser), List.of())))
        .containsExactly("OrdersMain-4242");
    JvmMatch anyUser = new JvmMatch(Optional.empty(), Optional.empty(), Optional.of(ANY));
    // GradleDaemon's user could not be read: excluded by no user pattern, included by none.
    assertThat(names(new LocalDiscoveryConfig(INTERVAL, POLL, List.of(anyUser), List.of())))
        .containsExactly("OrdersMain-4242", "billing-2.1.jar-77");
    assertThat(names(new LocalDiscoveryConfig(INTERVAL, POLL, List.of(), List.of(anyUser))))
        .containsExactly("GradleDaemon-99");
  }

  @Test
  void aFailedListingKeepsTheCurrentTargets() throws Exception {
    AtomicReference<List<TargetConfig>> received = new AtomicReference<>();
    AtomicInteger calls = new AtomicInteger();
    try (LocalDiscovery discovery =
        new LocalDiscovery(
            new LocalDiscoveryConfig(Duration.ofMillis(50), POLL, List.of(), List.of()),
            () -> {
              calls.incrementAndGet();
              throw new IllegalStateException("hsperfdata unreadable");
            },
            received::set)) {
      discovery.start();
      org.awaitility.Awaitility.await().until(() -> calls.get() >= 2);
    }
    assertThat(received.get()).isNull(); // never told "no targets"
  }

  @Test
  void theAttachApiListingLeavesOutThisJvm() {
    long self = ProcessHandle.current().pid();
    assertThat(LocalDiscovery.attachable()).noneMatch(jvm -> jvm.pid() == self);
  }

  private static List<String> names(LocalDiscoveryConfig settings) {
    return new LocalDiscovery(settings, () -> List.of(ORDERS, JAR, GRADLE), targets -> {})
        .discover().stream().map(TargetConfig::name).toList();
  }

  /** Filters on the command line, as --discover-include and --discover-exclude give them. */
  private static LocalDiscoveryConfig settings(List<String> include, List<String> exclude) {
    return new LocalDiscoveryConfig(
        INTERVAL,
        POLL,
        include.stream().map(p -> JvmMatch.commandLine(Pattern.compile(p))).toList(),
        exclude.stream().map(p -> JvmMatch.commandLine(Pattern.compile(p))).toList());
  }
}
