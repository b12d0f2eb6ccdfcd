package io.jvmsentinel.daemon.target;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/**
 * The files of the JMX agent the daemon starts inside a target, in the target's own {@code /tmp}:
 * the password file and access file the agent reads (owned by the target's user, mode 0600: the JDK
 * refuses a password file others may read), and a note of the agent's address, so that a restarted
 * daemon finds the agent an earlier one started (a JVM runs one agent until it exits).
 *
 * <p>The target's /tmp is the target's to shape, and an absolute symbolic link met on the way
 * through {@code /proc/<pid>/root} resolves in the daemon's own file system. So no link is ever
 * followed here: /tmp must be a real directory, files are created exclusively, chowned and read
 * without following links, and put in place by a rename.
 */
final class AgentFiles {
  private static final String PREFIX = "jvm-sentinel-jmx-";
  private static final int MAX_NOTE = 1024;

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
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    ByteBuffer bytes = ByteBuffer.allocate(MAX_NOTE);
    try (SeekableByteChannel in =
        Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      while (bytes.hasRemaining() && in.read(bytes) > 0) {
        // a URL is short: the rest of a larger file is not read
      }
    }
    String url = new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8).strip();
    return url.startsWith("service:jmx:") ? Optional.of(url) : Optional.empty();
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
    if (!Files.isDirectory(tmp, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(tmp + " is not a directory (a link?): no JMX agent files written");
    }
    Path target = tmp.resolve(file);
    Path temporary = tmp.resolve(file + ".new");
    Files.deleteIfExists(temporary); // unlinks a link itself, never what it points to
    try {
      // CREATE_NEW fails on anything there, a link included (O_EXCL): nothing is followed.
      try (SeekableByteChannel out =
          Files.newByteChannel(
              temporary,
              Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          out.write(bytes);
        }
      }
      Object uid = Files.getAttribute(temporary, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      if (((Number) uid).intValue() != owner.uid()) {
        Files.setAttribute(temporary, "unix:uid", owner.uid(), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(temporary, "unix:gid", owner.gid(), LinkOption.NOFOLLOW_LINKS);
      }
      Files.move( // a rename: replaces a link planted at the target, never follows it
          temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      Files.deleteIfExists(temporary);
      throw new IOException("cannot write " + target + ": " + e.getMessage(), e);
    }
  }
}
