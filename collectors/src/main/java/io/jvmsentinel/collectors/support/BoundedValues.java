package io.jvmsentinel.collectors.support;

import java.util.HashSet;
import java.util.Set;

/**
 * Caps the number of distinct values of one tag: the first {@code limit} values seen keep their
 * name, later ones become {@code other}. Failure messages and deoptimisation reasons come from the
 * target, which decides how many there are; a meter registry must not grow with them.
 */
public final class BoundedValues {
  public static final String OTHER = "other";
  public static final String UNKNOWN = "unknown";

  private final int limit;
  private final Set<String> seen = new HashSet<>();

  public BoundedValues(int limit) {
    this.limit = limit;
  }

  /** The tag value to use for {@code value}: itself, {@code other} or {@code unknown}. */
  public synchronized String bound(String value) {
    if (value == null || value.isBlank()) {
      return UNKNOWN;
    }
    if (seen.contains(value)) {
      return value;
    }
    if (seen.size() < limit) {
      seen.add(value);
      return value;
    }
    return OTHER;
  }
}
