package io.jvmsentinel.daemon.discovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the host scan needs from {@code /proc/<pid>/status}.
 *
 * @param namespacePid the pid inside the process's own pid namespace (the last {@code NSpid} value;
 *     the host pid on kernels before 4.1, which have no {@code NSpid})
 * @param effectiveUid the effective user id (the second {@code Uid} value)
 */
record ProcessStatus(long namespacePid, long effectiveUid) {

  /**
   * @throws IllegalArgumentException when the file is not a process status (no Pid or Uid line)
   */
  static ProcessStatus read(Path status) throws IOException {
    long pid = -1;
    long nsPid = -1;
    long uid = -1;
    for (String line : Files.readAllLines(status)) {
      String[] fields = line.split("\\s+");
      switch (fields[0]) {
        case "Pid:" -> pid = number(fields, 1, status);
        case "NSpid:" -> nsPid = number(fields, fields.length - 1, status);
        case "Uid:" -> uid = number(fields, 2, status);
        default -> {}
      }
    }
    if (pid < 0 || uid < 0) {
      throw new IllegalArgumentException(status + " has no Pid or Uid line");
    }
    return new ProcessStatus(nsPid < 0 ? pid : nsPid, uid);
  }

  private static long number(String[] fields, int index, Path status) {
    if (index >= fields.length) {
      throw new IllegalArgumentException(status + ": short line " + String.join(" ", fields));
    }
    return Long.parseLong(fields[index]); // NumberFormatException is an IllegalArgumentException
  }
}
