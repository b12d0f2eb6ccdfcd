package io.jvmsentinel.daemon.alert.notify;

import java.io.IOException;

/**
 * The receiver refused a notification in a way that retrying cannot fix (HTTP 400, 401, 403, 404,
 * ...). {@link Delivery} counts it as failed and moves on, so one bad notification or a wrong key
 * does not hold back every later notification of the sink forever.
 */
public final class RejectedException extends IOException {
  private static final long serialVersionUID = 1L;

  public RejectedException(String message) {
    super(message);
  }
}
