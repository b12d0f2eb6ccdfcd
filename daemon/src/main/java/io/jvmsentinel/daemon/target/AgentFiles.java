package io.jvmsentinel.daemon.target;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.Optional;
import java.util.Set;

/**
 * The files of the JMX agent the daemon starts inside a target, in the target's own {@code /tmp}:
 * the password file and access file the agent reads (owned by the target's user, mode 0600: the JDK
 * refuses a password file others may read), its TLS key store, trust store and SSL configuration
 * (the same way; present only while the agent starts), and a note of the agent's address, so that a
 * restarted daemon finds the agent an earlier one left running (one that died, or could not stop
 * it).
 *
 * <p>The target's /tmp is the target's to shape, and an absolute symbolic link met on the way
 * through {@code /proc/<pid>/root} resolves in the daemon's own file system; a check of a path
 * followed by its use races with a target that swaps a directory for a link in between. So every
 * operation goes through one directory handle ({@link SecureDirectoryStream}: {@code openat},
 * {@code unlinkat}, {@code renameat}, {@code fchownat}), opened on {@code tmp} without following a
 * link, and names one entry in it without following a link: files are created exclusively, chowned
 * and read without following links, and put in place by a rename within the handle. The note is
 * only a hint: what it says is checked by {@link RemoteAgentConnector} against the one address form
 * the daemon starts.
 */
final class AgentFiles {
  private static final String PREFIX = "jvm-sentinel-jmx-";
  private static final int MAX_NOTE = 1024;

  private final Path tmp;
  private final String name;
  private final TargetProcess.Owner owner;

  /**
   * @param tmp the target's /tmp as this daemon reaches it ({@code /proc/<pid>/root/tmp}): its
   *     parent is opened as it is (the kernel's link to the target's root), {@code tmp} itself
   *     never through a link
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

  String keyStoreInTarget() {
    return "/tmp/" + name + ".keystore";
  }

  String trustStoreInTarget() {
    return "/tmp/" + name + ".truststore";
  }

  /** The agent's SSL configuration ({@code com.sun.management.jmxremote.ssl.config.file}). */
  String sslConfigInTarget() {
    return "/tmp/" + name + ".ssl";
  }

  /**
   * Writes the agent's TLS files: its key store, its trust store and the configuration naming both
   * with their password. The agent reads them once, when it starts: {@link #removeTls} after that.
   */
  void writeTls(AgentTlsStores stores) throws IOException {
    try (SecureDirectoryStream<Path> dir = openTmp()) {
      writeOwnerOnly(dir, name + ".keystore", stores.keyStore());
      writeOwnerOnly(dir, name + ".truststore", stores.trustStore());
      writeOwnerOnly(dir, name + ".ssl", stores.sslConfig().getBytes(StandardCharsets.ISO_8859_1));
    }
  }

  /** Removes the TLS files: the agent holds its keys in memory once started. */
  void removeTls() throws IOException {
    try (SecureDirectoryStream<Path> dir = openTmp()) {
      deleteIfExists(dir, name + ".keystore");
      deleteIfExists(dir, name + ".truststore");
      deleteIfExists(dir, name + ".ssl");
    }
  }

  /** Writes the password and access files granting {@code role} read and write access. */
  void write(String role, char[] password) throws IOException {
    try (SecureDirectoryStream<Path> dir = openTmp()) {
      writeOwnerOnly(dir, name + ".password", role + " " + new String(password) + "\n");
      writeOwnerOnly(dir, name + ".access", role + " readwrite\n");
    }
  }

  /** Rewrites the password file only: the agent reads it at every login, the access file once. */
  void rewritePassword(String role, char[] password) throws IOException {
    try (SecureDirectoryStream<Path> dir = openTmp()) {
      writeOwnerOnly(dir, name + ".password", role + " " + new String(password) + "\n");
    }
  }

  void rememberAddress(String serviceUrl) throws IOException {
    try (SecureDirectoryStream<Path> dir = openTmp()) {
      writeOwnerOnly(dir, name + ".agent", serviceUrl + "\n");
    }
  }

  /**
   * What the note of an earlier daemon says, if there is one: up to {@value #MAX_NOTE} bytes of a
   * regular file, read without following a link. Target-written text, to be checked by the caller.
   */
  Optional<String> rememberedAddress() throws IOException {
    try (SecureDirectoryStream<Path> dir = openTmp()) {
      Path file = Path.of(name + ".agent");
      BasicFileAttributes attributes;
      try {
        attributes =
            dir.getFileAttributeView(file, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .readAttributes();
      } catch (NoSuchFileException e) {
        return Optional.empty();
      }
      if (!attributes.isRegularFile()) {
        return Optional.empty();
      }
      ByteBuffer bytes = ByteBuffer.allocate(MAX_NOTE);
      // O_NOFOLLOW: a link swapped in after the check fails the open (ELOOP) instead.
      try (SeekableByteChannel in =
          dir.newByteChannel(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
        while (bytes.hasRemaining() && in.read(bytes) > 0) {
          // a URL is short: the rest of a larger file is not read
        }
      } catch (FileSystemException e) {
        return Optional.empty(); // a link or something else swapped in meanwhile
      }
      return Optional.of(
          new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8).strip());
    }
  }

  /**
   * Removes the secrets (the address note stays until the agent is stopped): without a password
   * file the agent lets nobody in.
   */
  void removeSecrets() throws IOException {
    try (SecureDirectoryStream<Path> dir = openTmp()) {
      deleteIfExists(dir, name + ".password");
      deleteIfExists(dir, name + ".access");
    }
  }

  /** Removes the address note: the agent it names was stopped. */
  void forgetAddress() throws IOException {
    try (SecureDirectoryStream<Path> dir = openTmp()) {
      deleteIfExists(dir, name + ".agent");
    }
  }

  /**
   * The handle on the target's /tmp: its parent as it is, then /tmp relative to it with {@code
   * O_NOFOLLOW}, so a /tmp that is a link is refused rather than followed.
   */
  private SecureDirectoryStream<Path> openTmp() throws IOException {
    Path parent = tmp.getParent();
    try (DirectoryStream<Path> root = Files.newDirectoryStream(parent)) {
      if (!(root instanceof SecureDirectoryStream<Path> secure)) {
        throw new IOException(
            "this platform has no secure directory handles: no JMX agent files in " + tmp);
      }
      try {
        return secure.newDirectoryStream(tmp.getFileName(), LinkOption.NOFOLLOW_LINKS);
      } catch (FileSystemException e) {
        throw new IOException(
            tmp + " is not a directory (a link?): no JMX agent files written or read", e);
      }
    }
  }

  private static void deleteIfExists(SecureDirectoryStream<Path> dir, String file)
      throws IOException {
    try {
      dir.deleteFile(Path.of(file)); // unlinkat: removes a link itself, never what it points to
    } catch (NoSuchFileException e) {
      // nothing to remove
    }
  }

  /** Written under a temporary name with mode 0600 and the target's owner, then moved in place. */
  private void writeOwnerOnly(SecureDirectoryStream<Path> dir, String file, String text)
      throws IOException {
    writeOwnerOnly(dir, file, text.getBytes(StandardCharsets.UTF_8));
  }

  private void writeOwnerOnly(SecureDirectoryStream<Path> dir, String file, byte[] content)
      throws IOException {
    Path target = Path.of(file);
    Path temporary = Path.of(file + ".new");
    deleteIfExists(dir, file + ".new");
    try {
      // CREATE_NEW fails on anything there, a link included (O_EXCL): nothing is followed.
      try (SeekableByteChannel out =
          dir.newByteChannel(
              temporary,
              Set.of(
                  StandardOpenOption.CREATE_NEW,
                  StandardOpenOption.WRITE,
                  LinkOption.NOFOLLOW_LINKS),
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
        ByteBuffer bytes = ByteBuffer.wrap(content);
        while (bytes.hasRemaining()) {
          out.write(bytes);
        }
      }
      PosixFileAttributeView attributes =
          dir.getFileAttributeView(
              temporary, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
      UserPrincipalLookupService users = tmp.getFileSystem().getUserPrincipalLookupService();
      // A number the lookup does not know as a name is taken as the id itself.
      UserPrincipal user = users.lookupPrincipalByName(Integer.toString(owner.uid()));
      if (!attributes.readAttributes().owner().equals(user)) {
        attributes.setOwner(user);
        attributes.setGroup(users.lookupPrincipalByGroupName(Integer.toString(owner.gid())));
      }
      // renameat within the handle: replaces a link planted at the target, never follows it.
      dir.move(temporary, dir, target);
    } catch (IOException e) {
      deleteIfExists(dir, file + ".new");
      throw new IOException("cannot write " + tmp.resolve(file) + ": " + e.getMessage(), e);
    }
  }
}
