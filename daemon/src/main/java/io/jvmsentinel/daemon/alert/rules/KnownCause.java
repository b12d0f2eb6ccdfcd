package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport;
import java.util.List;
import java.util.Optional;

/**
 * A known reason for an alert: a thread storm, recognised by the creator site and thread names of
 * the threads being started, or lock contention, recognised by the contended lock's class. The
 * table is data: add a row to teach the daemon a new cause.
 *
 * @param id short id, e.g. a JDK bug number
 * @param signal what the cause shows up as
 * @param site for a storm the creator site ({@code Class.method}) that starts the threads; for
 *     contention the lock's class (its nested classes match too)
 * @param threadNamePrefix the started threads' name prefix, or "" for any
 * @param title one line naming the cause
 * @param explanation why it happens and what to do
 */
public record KnownCause(
    String id,
    Signal signal,
    String site,
    String threadNamePrefix,
    String title,
    String explanation) {

  /** The alert a cause explains. */
  public enum Signal {
    THREAD_STORM,
    LOCK_CONTENTION
  }

  /** The known causes, most specific first. */
  public static final List<KnownCause> TABLE =
      List.of(
          new KnownCause(
              "JDK-8246039",
              Signal.THREAD_STORM,
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
              Signal.THREAD_STORM,
              "java.util.Timer.<init>",
              "Timer-",
              "A new java.util.Timer (and its thread) per task",
              "Each java.util.Timer owns a thread. Creating a Timer per task or request starts a"
                  + " thread each time; share one ScheduledExecutorService instead."),
          new KnownCause(
              "JDK-8293562",
              Signal.LOCK_CONTENTION,
              "sun.net.www.http.KeepAliveCache",
              "",
              "HTTP keep-alive cache blocks threads while closing connections (JDK-8293562)",
              "The JDK's HttpURLConnection keep-alive cache (sun.net.www.http.KeepAliveCache)"
                  + " closed expired connections while holding its lock; a close can be slow (a"
                  + " TLS 1.3 close_notify to a slow peer), and every request that gets or returns"
                  + " a pooled connection waits for it. A service dropped from ~15,000 to ~500"
                  + " requests/s. Fix: upgrade to a JDK update that has the fix (JDK 20, and the"
                  + " backports listed on the bug for 8, 11 and 17), or use a client with its own"
                  + " connection pool"
                  + " (java.net.http.HttpClient, Apache HttpClient)."
                  + " See https://bugs.openjdk.org/browse/JDK-8293562."));

  /**
   * The first thread storm cause whose site matches and whose thread name prefix matches a given
   * name.
   */
  private static Optional<KnownCause> match(String site, List<String> threadNames) {
    for (KnownCause cause : TABLE) {
      if (cause.signal() == Signal.THREAD_STORM
          && cause.site().equals(site)
          && (cause.threadNamePrefix().isEmpty()
              || threadNames.stream().anyMatch(n -> n.startsWith(cause.threadNamePrefix())))) {
        return Optional.of(cause);
      }
    }
    return Optional.empty();
  }

  /**
   * The thread storm cause of a creator site: by its site and thread names, and never for the
   * monitoring's own starts (a JDK signature there is the daemon's connection, not the bug).
   */
  public static Optional<KnownCause> of(ThreadStartReport.Site site) {
    if (site.own()) {
      return Optional.empty();
    }
    return match(
        site.site(), site.threadNames().stream().map(ThreadStartReport.NameCount::name).toList());
  }

  /** The first lock contention cause whose class is {@code lockClass} or encloses it. */
  public static Optional<KnownCause> matchLock(String lockClass) {
    for (KnownCause cause : TABLE) {
      if (cause.signal() == Signal.LOCK_CONTENTION
          && (lockClass.equals(cause.site()) || lockClass.startsWith(cause.site() + "$"))) {
        return Optional.of(cause);
      }
    }
    return Optional.empty();
  }
}
