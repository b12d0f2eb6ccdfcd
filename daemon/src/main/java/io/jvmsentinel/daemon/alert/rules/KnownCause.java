package io.jvmsentinel.daemon.alert.rules;

import java.util.List;
import java.util.Optional;

/**
 * A known reason for a thread storm, recognised by the creator site and thread names of the threads
 * being started. The table is data: add a row to teach the daemon a new cause.
 *
 * @param id short id, e.g. a JDK bug number
 * @param site the creator site ({@code Class.method}) that starts the threads
 * @param threadNamePrefix the started threads' name prefix, or "" for any
 * @param title one line naming the cause
 * @param explanation why it happens and what to do
 */
public record KnownCause(
    String id, String site, String threadNamePrefix, String title, String explanation) {

  /** The known causes, most specific first. */
  public static final List<KnownCause> TABLE =
      List.of(
          new KnownCause(
              "JDK-8246039",
              "sun.security.ssl.TransportContext.finishHandshake",
              "HandshakeCompletedNotify",
              "TLS handshake listener thread per connection (JDK-8246039)",
              "The JDK starts a new thread to notify HandshakeCompletedListeners after every TLS"
                  + " handshake, and HttpsURLConnection registers such a listener. Each new TLS"
                  + " connection therefore costs a thread: the peer closes connections (answers"
                  + " 'Connection: close'?) so every request opens a new one. Fix: keep"
                  + " connections alive to the peer (check its Connection headers and the"
                  + " client's keep-alive settings), or use a client that registers no"
                  + " HandshakeCompletedListener (java.net.http.HttpClient, Apache HttpClient)."
                  + " See https://bugs.openjdk.org/browse/JDK-8246039."),
          new KnownCause(
              "timer-per-task",
              "java.util.Timer.<init>",
              "Timer-",
              "A new java.util.Timer (and its thread) per task",
              "Each java.util.Timer owns a thread. Creating a Timer per task or request starts a"
                  + " thread each time; share one ScheduledExecutorService instead."));

  /** The first cause whose site matches and whose thread name prefix matches a given name. */
  public static Optional<KnownCause> match(String site, List<String> threadNames) {
    for (KnownCause cause : TABLE) {
      if (cause.site().equals(site)
          && (cause.threadNamePrefix().isEmpty()
              || threadNames.stream().anyMatch(n -> n.startsWith(cause.threadNamePrefix())))) {
        return Optional.of(cause);
      }
    }
    return Optional.empty();
  }
}
