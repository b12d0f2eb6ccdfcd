package io.jvmsentinel.daemon.lab;

import io.jvmsentinel.daemon.support.DaemonThreads;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * The lab's stdout and stderr lines: the most recent ones in a bounded buffer, every {@code LAB}
 * event kept separately (few, and tests wait on them), each line forwarded to a listener.
 */
final class CapturedOutput {

  private final int maxLines;
  private final Consumer<String> listener;
  private final Deque<String> lines = new ArrayDeque<>();
  private final List<LabEvent> events = new ArrayList<>();
  private final List<Thread> readers = new ArrayList<>();

  CapturedOutput(int maxLines, Consumer<String> listener) {
    this.maxLines = maxLines;
    this.listener = listener;
  }

  /** Starts a daemon thread copying lines from the stream until it ends. */
  void follow(InputStream stream, String threadName) {
    Thread reader = DaemonThreads.unstarted(threadName, () -> copy(stream));
    readers.add(reader);
    reader.start();
  }

  private void copy(InputStream stream) {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        add(line);
      }
    } catch (IOException e) {
      // The process is gone; nothing more to read.
    }
  }

  private void add(String line) {
    synchronized (this) {
      if (lines.size() == maxLines) {
        lines.removeFirst();
      }
      lines.addLast(line);
      LabEvent.parse(line).ifPresent(events::add);
      notifyAll();
    }
    try {
      listener.accept(line);
    } catch (RuntimeException e) {
      // A failing listener must not stop the capture (a full pipe would block the lab).
    }
  }

  synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  synchronized List<LabEvent> events() {
    return List.copyOf(events);
  }

  /** Waits up to the timeout for the readers to reach the end of their streams. */
  void drain(long timeoutMillis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    for (Thread reader : readers) {
      reader.join(Math.max(1, deadline - System.currentTimeMillis()));
    }
  }

  /** Waits until a new line arrives or the timeout passes. */
  synchronized void awaitChange(long timeoutMillis) throws InterruptedException {
    wait(timeoutMillis);
  }
}
