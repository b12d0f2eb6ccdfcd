package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import io.jvmsentinel.daemon.discovery.HostJvmScan;
import io.jvmsentinel.daemon.discovery.LocalJvm;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The node-agent mode of {@code local} discovery on a real forked JVM (one lab for the class): the
 * {@code /proc} scan sees it as the Attach API does.
 */
class NodeAgentIT {
  private static final Duration READY = Duration.ofSeconds(30);
  private static final String LABEL = "node-agent-" + UUID.randomUUID();
  private static LabProcess lab;

  @BeforeAll
  static void startLab() throws Exception {
    lab =
        LabSpec.builder("idle")
            .withoutJmxRemote()
            .args("--label", LABEL)
            .jvmArgs("-Xmx64m")
            .build()
            .startReady(READY);
  }

  @AfterAll
  static void stopLab() {
    if (lab != null) {
      lab.close();
    }
  }

  @Test
  void theProcScanFindsTheLabWithTheCommandLineTheAttachApiReports() {
    LocalJvm scanned =
        HostJvmScan.ofThisHost().jvms().stream()
            .filter(jvm -> jvm.pid() == lab.pid())
            .findFirst()
            .orElseThrow(() -> new AssertionError("the scan did not find lab pid " + lab.pid()));
    VirtualMachineDescriptor attach =
        VirtualMachine.list().stream()
            .filter(vm -> vm.id().equals(Long.toString(lab.pid())))
            .findFirst()
            .orElseThrow();
    assertThat(scanned.commandLine()).isEqualTo(attach.displayName()).contains("--label " + LABEL);
    assertThat(scanned.mainClass()).isEqualTo(LabSpec.MAIN_CLASS);
    assertThat(scanned.user()).isEqualTo(ProcessHandle.current().info().user());
    assertThat(HostJvmScan.ofThisHost().jvms())
        .noneMatch(jvm -> jvm.pid() == ProcessHandle.current().pid());
  }
}
