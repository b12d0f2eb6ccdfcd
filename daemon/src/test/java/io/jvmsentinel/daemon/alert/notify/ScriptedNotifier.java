package io.jvmsentinel.daemon.alert.notify;

import io.jvmsentinel.daemon.alert.AlertNotification;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A notifier whose receiver is up or down as the test says: every attempt is recorded, and an
 * attempt fails while {@code down} says so for it.
 */
final class ScriptedNotifier implements Notifier {
  final List<AlertNotification> attempts = new CopyOnWriteArrayList<>();
  final List<AlertNotification> delivered = new CopyOnWriteArrayList<>();
  volatile Predicate<AlertNotification> down = n -> false;
  volatile Predicate<AlertNotification> rejects = n -> false;
  volatile boolean resends;

  @Override
  public String name() {
    return "fake";
  }

  @Override
  public boolean resendsWhileFiring() {
    return resends;
  }

  @Override
  public void send(AlertNotification n) throws IOException {
    attempts.add(n);
    if (rejects.test(n)) {
      throw new RejectedException("HTTP 400: bad event");
    }
    if (down.test(n)) {
      throw new IOException("connection refused");
    }
    delivered.add(n);
  }
}
