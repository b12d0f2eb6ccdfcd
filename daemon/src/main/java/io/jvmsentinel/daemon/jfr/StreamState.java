package io.jvmsentinel.daemon.jfr;

/**
 * Whether a target's JFR events flow (from a stream or from chunk reads), or why not: written by
 * the session's own thread only, read by HTTP threads and the gauge. One immutable value in one
 * volatile field, so a reader never sees "streaming" with the reason of the previous failure, or a
 * torn pair.
 *
 * @param streaming whether events flow
 * @param unavailableReason why events are not flowing; null while they flow or not yet known
 * @param feed how they flow ("streaming", "reading the recording in chunks every 2s ..."); null
 *     while they do not
 */
record StreamState(boolean streaming, String unavailableReason, String feed) {
  static final StreamState NOT_STARTED = new StreamState(false, null, null);

  StreamState(boolean streaming, String unavailableReason) {
    this(streaming, unavailableReason, streaming ? "streaming" : null);
  }

  static StreamState flowing(String feed) {
    return new StreamState(true, null, feed);
  }

  StreamState withReason(String reason) {
    return new StreamState(streaming, reason, feed);
  }

  /** What {@code /api/v1/targets} shows as the events' state. */
  String describe() {
    return streaming ? feed : unavailableReason != null ? unavailableReason : "not started";
  }
}
