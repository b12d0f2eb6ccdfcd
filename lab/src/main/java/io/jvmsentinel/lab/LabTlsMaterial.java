package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The lab's TLS material, made on first use with the target JDK's own {@code keytool} and never
 * shipped: a CA ({@code CN=jvm-sentinel lab CA}) and a server key for {@code localhost}/127.0.0.1
 * signed by it. A real chain matters: the JDK runs path validation, and so emits {@code
 * jdk.X509Validation}, only for a chain, not for a directly trusted self-signed certificate.
 *
 * <p>Made once per user and machine in {@code java.io.tmpdir} (three keytool runs, about a second)
 * and shared by every lab JVM after that: each generates into its own directory and renames it into
 * place, so concurrent first starts never see half-written files.
 */
final class LabTlsMaterial {

  static final char[] PASSWORD = "lab-only".toCharArray();
  private static final String VERSION = "v1";
  private static final String CA_STORE = "ca.p12";
  private static final String SERVER_STORE = "server.p12";
  private static final String LEAF = "leaf.pem";
  private static final long KEYTOOL_TIMEOUT_SECONDS = 60;
  private static final long VALIDITY_DAYS = 3650;

  private final KeyStore serverKeys;
  private final KeyStore trustStore;
  private final X509Certificate leaf;

  private LabTlsMaterial(KeyStore serverKeys, KeyStore trustStore, X509Certificate leaf) {
    this.serverKeys = serverKeys;
    this.trustStore = trustStore;
    this.leaf = leaf;
  }

  /** The server key with its chain (leaf, CA). */
  KeyStore serverKeys() {
    return serverKeys;
  }

  /** Trusts the lab CA only. */
  KeyStore trustStore() {
    return trustStore;
  }

  X509Certificate leaf() {
    return leaf;
  }

  /** The shared material, made if missing, unreadable, foreign or about to expire. */
  static LabTlsMaterial obtain() {
    return obtain(
        Path.of(
            System.getProperty("java.io.tmpdir"),
            "jvm-sentinel-lab-tls-" + VERSION + "-" + System.getProperty("user.name", "user")));
  }

  static LabTlsMaterial obtain(Path shared) {
    try {
      if (Files.isDirectory(shared)) {
        LabTlsMaterial existing = usable(shared);
        if (existing != null) {
          return existing;
        }
        deleteTree(shared);
      }
      Path fresh = Files.createTempDirectory(shared.getParent(), "jvm-sentinel-lab-tls-");
      generate(fresh);
      LabTlsMaterial made = load(fresh);
      try {
        Files.move(fresh, shared, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
        deleteTree(fresh); // another lab JVM won the race, or no rename here: use ours once
      } catch (IOException e) {
        if (!Files.isDirectory(shared)) {
          throw e;
        }
        deleteTree(fresh); // lost the race (rename onto a non-empty directory)
      }
      return made;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot make the lab's TLS material: " + e, e);
    }
  }

  /** The material in {@code dir} if it is ours, complete and valid for another day. */
  private static LabTlsMaterial usable(Path dir) {
    try {
      if (!Files.getOwner(dir).getName().equals(System.getProperty("user.name"))) {
        return null;
      }
      LabTlsMaterial material = load(dir);
      material.leaf.checkValidity(new Date(System.currentTimeMillis() + TimeUnit.DAYS.toMillis(1)));
      return material;
    } catch (IOException | GeneralSecurityException | UnsupportedOperationException e) {
      return null;
    }
  }

  static LabTlsMaterial load(Path dir) throws IOException, GeneralSecurityException {
    KeyStore caStore = read(dir.resolve(CA_STORE));
    KeyStore serverStore = read(dir.resolve(SERVER_STORE));
    Certificate ca = caStore.getCertificate("ca");
    Key key = serverStore.getKey("localhost", PASSWORD);
    X509Certificate leaf;
    try (InputStream in = Files.newInputStream(dir.resolve(LEAF))) {
      leaf = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
    if (ca == null || key == null) {
      throw new GeneralSecurityException("incomplete lab TLS material in " + dir);
    }
    leaf.verify(ca.getPublicKey());
    KeyStore serverKeys = KeyStore.getInstance("PKCS12");
    serverKeys.load(null, null);
    serverKeys.setKeyEntry("localhost", key, PASSWORD, new Certificate[] {leaf, ca});
    KeyStore trustStore = KeyStore.getInstance("PKCS12");
    trustStore.load(null, null);
    trustStore.setCertificateEntry("lab-ca", ca);
    return new LabTlsMaterial(serverKeys, trustStore, leaf);
  }

  private static KeyStore read(Path file) throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD);
    }
    return store;
  }

  /** The CA and the leaf key pair in parallel, then the leaf's request signed by the CA. */
  static void generate(Path dir) throws IOException {
    String validity = Long.toString(VALIDITY_DAYS);
    Process ca =
        keytool(
            dir,
            "-genkeypair",
            "-alias",
            "ca",
            "-keyalg",
            "EC",
            "-groupname",
            "secp256r1",
            "-dname",
            "CN=jvm-sentinel lab CA",
            "-validity",
            validity,
            "-ext",
            "bc:c=ca:true",
            "-ext",
            "ku:c=keyCertSign,cRLSign",
            "-keystore",
            CA_STORE);
    Process leafKey =
        keytool(
            dir,
            "-genkeypair",
            "-alias",
            "localhost",
            "-keyalg",
            "EC",
            "-groupname",
            "secp256r1",
            "-dname",
            "CN=localhost",
            "-validity",
            validity,
            "-keystore",
            SERVER_STORE);
    await(ca, "CA key pair");
    await(leafKey, "server key pair");
    await(
        keytool(
            dir, "-certreq", "-alias", "localhost", "-keystore", SERVER_STORE, "-file", "leaf.csr"),
        "certificate request");
    await(
        keytool(
            dir,
            "-gencert",
            "-alias",
            "ca",
            "-keystore",
            CA_STORE,
            "-infile",
            "leaf.csr",
            "-outfile",
            LEAF,
            "-rfc",
            "-validity",
            validity,
            "-ext",
            "san=dns:localhost,ip:127.0.0.1",
            "-ext",
            "ku:c=digitalSignature",
            "-ext",
            "eku=serverAuth"),
        "signed server certificate");
  }

  private static Process keytool(Path dir, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    // A short-lived tool: the quickest start matters more than peak speed.
    command.addAll(Arrays.asList("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
    command.addAll(Arrays.asList(args));
    command.addAll(
        Arrays.asList("-storetype", "PKCS12", "-storepass", new String(PASSWORD), "-noprompt"));
    return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
  }

  private static void await(Process keytool, String what) throws IOException {
    try {
      if (!keytool.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        keytool.destroyForcibly();
        throw new IOException("keytool timed out making the lab's " + what);
      }
    } catch (InterruptedException e) {
      keytool.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted making the lab's " + what, e);
    }
    String output =
        new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (keytool.exitValue() != 0) {
      throw new IOException(
          "keytool failed (exit "
              + keytool.exitValue()
              + ") making the lab's "
              + what
              + ": "
              + output);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(file);
      }
    }
  }
}
