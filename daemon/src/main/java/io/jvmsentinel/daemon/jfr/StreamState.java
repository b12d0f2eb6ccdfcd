package io.jvmsentinel.daemon.jfr;

/**
 * Whether a target's JFR stream runs, or why not: written by the stream's own thread only, read by
 * HTTP threads and the gauge. One immutable value in one volatile field, so a reader never sees
 * "streaming" with the reason of the previous failure, or a torn pair.
 *
 * @param unavailableReason why events are not flowing; null while streaming or not yet known
 */
record StreamState(boolean streaming, String unavailableReason) {
  static final StreamState NOT_STARTED = new StreamState(false, null);

  StreamState withReason(String reason) {
    return new StreamState(streaming, reason);
  }

  /** What {@code /api/v1/targets} shows as the stream's state. */
  String describe() {
    return streaming ? "streaming" : unavailableReason != null ? unavailableReason : "not started";
  }
}
