package io.jvmsentinel.daemon.jfr;

import java.io.IOException;

/**
 * Asked once an evidence read has its turn ({@link DumpLimit}), right before it writes anything:
 * the snapshot directory makes room for it here, or refuses it with {@link NoRoom}. Asked then, not
 * when the alert fires, so that only the reads that run hold room, not those that wait.
 */
@FunctionalInterface
public interface DumpAdmission {
  DumpAdmission ANY = () -> {};

  void admit() throws IOException;

  /** The read is refused: the disk budget has no room for it. */
  final class NoRoom extends IOException {
    private static final long serialVersionUID = 1L;

    public NoRoom(String message) {
      super(message);
    }
  }
}
