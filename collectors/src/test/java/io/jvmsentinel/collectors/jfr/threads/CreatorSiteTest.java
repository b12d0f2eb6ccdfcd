package io.jvmsentinel.collectors.jfr.threads;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CreatorSiteTest {

  @Test
  void theCallerOfThreadStartIsTheSite() {
    assertThat(
            site("java.lang.Thread.start:809", "com.acme.Jobs.launch:12", "com.acme.Main.main:3"))
        .isEqualTo("com.acme.Jobs.launch");
  }

  @Test
  void executorPlumbingIsSkippedToTheCodeThatSubmittedTheTask() {
    // JDK 25: the pool starts its worker through a thread container and JavaLangAccess.
    assertThat(
            site(
                "java.lang.System$1.start:2231",
                "jdk.internal.vm.SharedThreadContainer.start:147",
                "java.util.concurrent.ThreadPoolExecutor.addWorker:899",
                "java.util.concurrent.ThreadPoolExecutor.execute:1316",
                "java.util.concurrent.AbstractExecutorService.submit:125",
                "java.util.concurrent.Executors$DelegatedExecutorService.submit:700",
                "com.acme.Orders.fanOut:40"))
        .isEqualTo("com.acme.Orders.fanOut");
    assertThat(
            site(
                "java.util.concurrent.ForkJoinPool.createWorker:1568",
                "java.util.concurrent.ForkJoinPool.signalWork:1700",
                "java.util.concurrent.CompletableFuture.supplyAsync:2000",
                "com.acme.Prices.refresh:9"))
        .isEqualTo("com.acme.Prices.refresh");
    assertThat(site("java.util.Timer.<init>:188", "sun.net.httpserver.ServerImpl.<init>:154"))
        .isEqualTo("sun.net.httpserver.ServerImpl.<init>");
  }

  @Test
  void jdkFramesThatAreNotPlumbingAreSites() {
    // JDK-8246039: the TLS stack itself starts the thread.
    assertThat(
            site(
                "sun.security.ssl.TransportContext.finishHandshake:664",
                "sun.security.ssl.Finished$T13FinishedProducer.onProduceFinished:766",
                "sun.net.www.protocol.https.HttpsClient.afterConnect:577"))
        .isEqualTo("sun.security.ssl.TransportContext.finishHandshake");
    // Only java.lang.Thread and its nested classes are machinery, not every class named Thread...
    assertThat(site("java.lang.ThreadLocal.get:160")).isEqualTo("java.lang.ThreadLocal.get");
    // ... and only System's nested classes' start, not System itself.
    assertThat(site("java.lang.System.exit:1")).isEqualTo("java.lang.System.exit");
  }

  @Test
  void aWorkerStartingAnotherWorkerIsNamedByThePool() {
    assertThat(
            site(
                "java.util.concurrent.ForkJoinPool.createWorker:1568",
                "java.util.concurrent.ForkJoinPool.signalWork:1700",
                "java.util.concurrent.ForkJoinPool.runWorker:1600",
                "java.util.concurrent.ForkJoinWorkerThread.run:188"))
        .isEqualTo("java.util.concurrent.ForkJoinPool.createWorker");
  }

  @Test
  void noStackOrNoCreatorInsideACutStackIsUnknown() {
    assertThat(CreatorSite.of(null, false)).isEqualTo("unknown");
    assertThat(CreatorSite.of(List.of(), false)).isEqualTo("unknown");
    assertThat(CreatorSite.of(frames("java.lang.Thread.start:1"), false)).isEqualTo("unknown");
    assertThat(
            CreatorSite.of(
                frames(
                    "java.util.concurrent.ThreadPoolExecutor.addWorker:945",
                    "java.util.concurrent.ThreadPoolExecutor.execute:1353"),
                true))
        .isEqualTo("unknown");
  }

  @Test
  void namesThatWouldBreakCollapsedStacksAreCleanedAndCut() {
    StackFrame odd = new StackFrame("Weird;Kt", "fun\nname", 7);
    assertThat(odd.site()).isEqualTo("Weird_Kt.fun_name");
    assertThat(odd.text()).isEqualTo("Weird_Kt.fun_name:7");
    assertThat(new StackFrame("A", "b", -1).text()).isEqualTo("A.b");
    assertThat(new StackFrame("x".repeat(1000), "m", 1).site()).hasSize(StackFrame.MAX_TEXT);
  }

  private static String site(String... frames) {
    return CreatorSite.of(frames(frames), false);
  }

  private static List<StackFrame> frames(String... frames) {
    List<StackFrame> stack = new ArrayList<>(Starts.start(1, "t", frames).frames());
    return stack;
  }
}
