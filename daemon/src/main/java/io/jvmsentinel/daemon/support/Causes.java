package io.jvmsentinel.daemon.support;

import java.util.Optional;

/** Walks an exception's chain of causes (one that names itself as its cause ends the chain). */
public final class Causes {
  private Causes() {}

  /** The innermost cause: what tells a user what went wrong. */
  public static Throwable root(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root;
  }

  /** The outermost exception of {@code type} in the chain, the failure itself included. */
  public static <T extends Throwable> Optional<T> find(Throwable failure, Class<T> type) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return Optional.of(type.cast(t));
      }
    }
    return Optional.empty();
  }
}
