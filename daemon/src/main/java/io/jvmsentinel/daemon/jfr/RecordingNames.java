package io.jvmsentinel.daemon.jfr;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The name the daemon gives its recording on a target: {@code jvm-sentinel@<daemon host>}. */
public final class RecordingNames {
  private RecordingNames() {}

  /**
   * One name per daemon host, so a restarted daemon (same pod, same host) recognises and closes the
   * recording its killed predecessor left running, and daemons elsewhere are left alone.
   */
  public static String forThisHost() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "unknown-host";
      }
    }
    return "jvm-sentinel@" + host;
  }
}
