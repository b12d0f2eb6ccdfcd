package io.jvmsentinel.daemon.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DaemonThreadsTest {
  @Test
  void aFactoryMakesDaemonThreadsOfTheGivenName() {
    Thread thread = DaemonThreads.named("discovery-local").newThread(() -> {});
    assertThat(thread.getName()).isEqualTo("discovery-local");
    assertThat(thread.isDaemon()).isTrue();
    assertThat(thread.getState()).isEqualTo(Thread.State.NEW);
  }

  @Test
  void startRunsTheTaskOnANamedDaemonThread() throws Exception {
    CompletableFuture<Thread> ranOn = new CompletableFuture<>();
    Thread thread =
        DaemonThreads.start("close-orders", () -> ranOn.complete(Thread.currentThread()));
    assertThat(ranOn.get(10, TimeUnit.SECONDS)).isSameAs(thread);
    assertThat(thread.getName()).isEqualTo("close-orders");
    assertThat(thread.isDaemon()).isTrue();
  }

  @Test
  void unstartedIsNotRunningYet() {
    Thread thread = DaemonThreads.unstarted("alert-delivery-log", () -> {});
    assertThat(thread.getState()).isEqualTo(Thread.State.NEW);
    assertThat(thread.isDaemon()).isTrue();
  }
}
