package io.jvmsentinel.daemon.target;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * The files of the JMX agent the daemon starts inside a target, in the target's own {@code /tmp}:
 * the password file and access file the agent reads (owned by the target's user, mode 0600: the JDK
 * refuses a password file others may read), and a note of the agent's address, so that a restarted
 * daemon finds the agent an earlier one started (a JVM runs one agent until it exits).
 */
final class AgentFiles {
  private static final String PREFIX = "jvm-sentinel-jmx-";

  private final Path tmp;
  private final String name;
  private final TargetProcess.Owner owner;

  /**
   * @param tmp the target's /tmp as this daemon reaches it ({@code /proc/<pid>/root/tmp})
   * @param pid names the files: one set per JVM even when JVMs share a /tmp
   */
  AgentFiles(Path tmp, long pid, TargetProcess.Owner owner) {
    this.tmp = tmp;
    this.name = PREFIX + pid;
    this.owner = owner;
  }

  /** The password file's path as the target sees it. */
  String passwordFileInTarget() {
    return "/tmp/" + name + ".password";
  }

  String accessFileInTarget() {
    return "/tmp/" + name + ".access";
  }

  /** Writes the password and access files granting {@code role} read and write access. */
  void write(String role, char[] password) throws IOException {
    writeOwnerOnly(name + ".password", role + " " + new String(password) + "\n");
    writeOwnerOnly(name + ".access", role + " readwrite\n");
  }

  /** Rewrites the password file only: the agent reads it at every login, the access file once. */
  void rewritePassword(String role, char[] password) throws IOException {
    writeOwnerOnly(name + ".password", role + " " + new String(password) + "\n");
  }

  void rememberAddress(String serviceUrl) throws IOException {
    writeOwnerOnly(name + ".agent", serviceUrl + "\n");
  }

  /** The address of the agent an earlier daemon started in this JVM, if it noted one. */
  Optional<String> rememberedAddress() throws IOException {
    Path file = tmp.resolve(name + ".agent");
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    String url = Files.readString(file, StandardCharsets.UTF_8).strip();
    return url.isEmpty() ? Optional.empty() : Optional.of(url);
  }

  /**
   * Removes the secrets (the address note stays, for the next daemon): without a password file the
   * agent lets nobody in.
   */
  void removeSecrets() throws IOException {
    Files.deleteIfExists(tmp.resolve(name + ".password"));
    Files.deleteIfExists(tmp.resolve(name + ".access"));
  }

  /** Written under a temporary name with mode 0600 and the target's owner, then moved in place. */
  private void writeOwnerOnly(String file, String text) throws IOException {
    Path target = tmp.resolve(file);
    Path temporary = tmp.resolve(file + ".new");
    Files.deleteIfExists(temporary);
    Files.createFile(
        temporary,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.writeString(temporary, text, StandardCharsets.UTF_8);
      if (((Number) Files.getAttribute(temporary, "unix:uid")).intValue() != owner.uid()) {
        Files.setAttribute(temporary, "unix:uid", owner.uid());
        Files.setAttribute(temporary, "unix:gid", owner.gid());
      }
      Files.move(
          temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      Files.deleteIfExists(temporary);
      throw new IOException("cannot write " + target + ": " + e.getMessage(), e);
    }
  }
}
