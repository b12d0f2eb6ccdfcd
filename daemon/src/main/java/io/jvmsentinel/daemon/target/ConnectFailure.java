package io.jvmsentinel.daemon.target;

import io.jvmsentinel.daemon.support.Causes;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/** Why a connection attempt failed, as the {@code reason} tag of the failure counter. */
public enum ConnectFailure {
  REFUSED,
  TIMEOUT,
  AUTH,
  TLS,
  LOST,
  ERROR;

  /**
   * How long a target that did not answer in time waits at most for its next attempt. It is there
   * but hung or frozen (a long GC, a stopped process) or out of reach: an attempt costs it one
   * socket, and a short cap sees it back within seconds of its thaw, not after a backoff grown to
   * half a minute while it was frozen (14 s late after an 18 s GC freeze, measured).
   */
  static final Duration TIMEOUT_RETRY_CAP = Duration.ofSeconds(2);

  /**
   * How long a target whose connects are refused (a JVM restarting, a closed JMX port) waits at
   * most: a refused connect costs nothing, a restarted JVM is found again within seconds, and
   * TargetDown, which pages only once an attempt has seen the target down for its threshold, pages
   * within this of it instead of within the 30 s backoff cap.
   */
  static final Duration REFUSED_RETRY_CAP = Duration.ofSeconds(10);

  public String tag() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The delay before the next attempt after a failure of this kind, from the backoff's. */
  Duration nextDelay(Duration backoff) {
    Duration cap =
        switch (this) {
          case TIMEOUT -> TIMEOUT_RETRY_CAP;
          case REFUSED -> REFUSED_RETRY_CAP;
          default -> backoff; // Credentials, TLS, errors: a configuration problem, backed off.
        };
    return backoff.compareTo(cap) > 0 ? cap : backoff;
  }

  /** Classifies an exception from a connection attempt by walking its causes. */
  public static ConnectFailure classify(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SecurityException) {
        return AUTH;
      }
      if (t instanceof javax.net.ssl.SSLException) {
        return TLS;
      }
      if (t instanceof TimeoutException || t instanceof SocketTimeoutException) {
        return TIMEOUT;
      }
      if (t instanceof ConnectException
          || t instanceof java.rmi.ConnectException
          || t instanceof UnknownHostException) {
        return REFUSED;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return ERROR;
  }

  /** What to check for this kind of failure, or empty when the message says it all. */
  public String hint() {
    return switch (this) {
      case AUTH -> " (check the target's username and password)";
      case TLS ->
          " (check the target's tls: its trustStore must hold the CA or certificate the JMX agent"
              + " presents; with need.client.auth its keyStore must hold a key the agent trusts;"
              + " for a discovered pod: ca.crt, and tls.crt with tls.key, in its Secret)";
      default -> "";
    };
  }

  /**
   * What to check for {@code failure}: the connector's own diagnosis if it made one (a refused
   * client certificate), else the hint of its reason.
   */
  public static String hintFor(Throwable failure) {
    return Causes.find(failure, ClientCertificateRefused.class)
        .map(refused -> " (" + refused.getMessage() + ")")
        .orElseGet(() -> classify(failure).hint());
  }

  /**
   * What makes a failure of a connect "the same" as the one before, for logging it once: the
   * diagnosis of a refused client certificate, whose root alternates between the agent's alert and
   * a broken pipe from one attempt to the next under TLS 1.3; else the whole {@code message}.
   */
  public static String sameness(Throwable failure, String message) {
    return Causes.find(failure, ClientCertificateRefused.class)
        .map(ClientCertificateRefused::diagnosis)
        .orElse(message);
  }

  /** The innermost message, which is what tells a user what went wrong. */
  public static String describe(Throwable failure) {
    Throwable root = Causes.root(failure);
    String message = root.getMessage();
    return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
