package io.jvmsentinel.daemon.jfr;

import java.nio.file.Path;
import java.time.Instant;

/**
 * What a target recorded for an alert's snapshot, read and filtered to the daemon's own events.
 *
 * @param file the recording written
 * @param recordedFrom when the recording it was read from started: it holds nothing older
 * @param to the end of what was read: the time asked, or later for a recording that had just
 *     started
 * @param source where it was read from, in words
 * @param keptEvents the daemon's events in it
 * @param droppedEvents events of other recordings on the target left out
 */
public record RecordedEvidence(
    Path file,
    Instant recordedFrom,
    Instant to,
    String source,
    long keptEvents,
    long droppedEvents) {}
