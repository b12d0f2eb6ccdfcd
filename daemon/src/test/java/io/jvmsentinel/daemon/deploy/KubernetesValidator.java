package io.jvmsentinel.daemon.deploy;

import io.jvmsentinel.daemon.support.DaemonThreads;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code .ci/validate-k8s.py --serve}, kept running for a test class: it loads the Kubernetes
 * schemas and the Prometheus Operator's models once (2.5 s), then checks a request's files in about
 * 0.2 s each. Started once per rendering, the validator took most of HelmChartIT's time.
 */
final class KubernetesValidator implements AutoCloseable {
  /** What the validator said of one request: valid or not, and its lines. */
  record Verdict(boolean valid, String report) {}

  private final Process process;
  private final Path errors;
  private final Writer requests;
  private final BufferedReader replies;
  private final ExecutorService reading =
      Executors.newSingleThreadExecutor(DaemonThreads.named("k8s-validator"));

  private KubernetesValidator(Process process, Path errors) {
    this.process = process;
    this.errors = errors;
    this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    this.replies =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** Runs {@code script --serve} with {@code python}, from {@code directory}. */
  static KubernetesValidator start(String python, Path script, Path directory) throws IOException {
    Path errors = Files.createTempFile("k8s-validator", ".err");
    Process process =
        new ProcessBuilder(python, script.toString(), "--serve")
            .directory(directory.toFile())
            .redirectError(errors.toFile())
            .start();
    return new KubernetesValidator(process, errors);
  }

  /**
   * The verdict on {@code files}; fails when the validator does not answer within {@code limit}.
   */
  synchronized Verdict validate(List<String> files, Duration limit) {
    Future<Verdict> verdict = reading.submit(this::readVerdict);
    try {
      requests.write(String.join("\t", files) + "\n");
      requests.flush();
      return verdict.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (IOException | ExecutionException e) {
      throw new IllegalStateException("the validator failed: " + stderr(), e);
    } catch (TimeoutException e) {
      process.destroyForcibly();
      throw new IllegalStateException("the validator did not answer within " + limit, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while validating " + files, e);
    }
  }

  private Verdict readVerdict() throws IOException {
    StringBuilder report = new StringBuilder();
    for (String line = replies.readLine(); line != null; line = replies.readLine()) {
      if (line.startsWith("END ")) {
        return new Verdict(line.equals("END 0"), report.toString());
      }
      report.append(line).append('\n');
    }
    throw new IOException("the validator exited (" + report + ")");
  }

  private String stderr() {
    try {
      return Files.readString(errors, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(its stderr is unreadable: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() throws IOException {
    reading.shutdownNow();
    requests.close();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    Files.deleteIfExists(errors);
  }
}
