package io.jvmsentinel.daemon.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes a connection that has not completed a request head within a window (10 s) of opening (a
 * TLS handshake included), or that keeps sending bytes for a whole window without completing one (a
 * slowloris on a kept-alive connection). Jetty's idle timeout alone cannot catch a client that
 * sends one byte a second: it is never idle. Such a client costs no thread here, only a connection,
 * so this keeps connections free for the clients that finish their requests.
 */
final class RequestDeadline implements Connection.Listener {
  private final Scheduler scheduler;
  private final long windowMillis;

  RequestDeadline(Scheduler scheduler, Duration window) {
    this.scheduler = scheduler;
    this.windowMillis = window.toMillis();
  }

  @Override
  public void onOpened(Connection connection) {
    if (connection instanceof SslConnection) {
      return; // its HTTP connection on the decrypted side is watched, which covers the handshake
    }
    check(connection, 0, 0);
  }

  private void check(Connection connection, long lastRequests, long lastBytes) {
    scheduler.schedule(
        () -> {
          if (!connection.getEndPoint().isOpen()) {
            return;
          }
          long requests = connection.getMessagesIn();
          long bytes = connection.getBytesIn();
          if (requests == lastRequests && (requests == 0 || bytes > lastBytes)) {
            connection.close();
          } else {
            check(connection, requests, bytes);
          }
        },
        windowMillis,
        TimeUnit.MILLISECONDS);
  }
}
