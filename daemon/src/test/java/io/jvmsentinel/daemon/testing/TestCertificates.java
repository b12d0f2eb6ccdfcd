package io.jvmsentinel.daemon.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed certificates and PKCS12 stores made with the JDK's {@code keytool}, for tests that
 * need real TLS peers. Each {@link #identity} is its own CA: two identities never trust each other.
 */
public final class TestCertificates {
  private final Path dir;

  public TestCertificates(Path dir) {
    this.dir = dir;
  }

  /**
   * A key store with one EC key and a self-signed certificate for 127.0.0.1 and localhost; the
   * certificate also as a PEM file.
   */
  public record Identity(Path keyStore, String password, Path certificate) {}

  public Identity identity(String name, String password) throws IOException {
    return identity(name, password, "EC");
  }

  /** As {@link #identity(String, String)} with an {@code EC} (P-256) or {@code RSA} (2048) key. */
  public Identity identity(String name, String password, String keyAlgorithm) throws IOException {
    return selfSigned(name, password, keyAlgorithm, "san=ip:127.0.0.1,dns:localhost", true);
  }

  /**
   * A CA: a self-signed EC identity whose certificate may sign others (basic constraints {@code
   * CA:true}), for {@link #issued}.
   */
  public Identity authority(String name, String password) throws IOException {
    return selfSigned(name, password, "EC", "bc:c", true);
  }

  /**
   * A key store with an EC key whose certificate {@code ca} signed, its chain holding the CA's own
   * chain (an intermediate's up to its root), and that certificate as PEM; an intermediate CA is
   * one issued with {@code bc:c}. It is valid from {@code start} (keytool's {@code -startdate}:
   * {@code -3d} three days ago, {@code +1d} tomorrow) for {@code days} days and carries the keytool
   * {@code -ext} values given ({@code EKU=serverAuth}, {@code KU=keyEncipherment}).
   */
  public Identity issued(
      Identity ca, String name, String password, String start, int days, String... extensions)
      throws IOException {
    Identity own = selfSigned(name, password, "EC", "san=ip:127.0.0.1,dns:localhost", false);
    Path chain = dir.resolve(name + "-chain.crt");
    sign(ca, own, own.certificate(), start, days, extensions);
    // The reply with the CA's own chain (an intermediate's up to its root): keytool installs a
    // chain it can complete, whatever its dates.
    Files.writeString(chain, Files.readString(own.certificate()) + chainPem(ca));
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        name,
        "-file",
        chain.toString(),
        "-keystore",
        own.keyStore().toString(),
        "-storepass",
        password);
    return own;
  }

  /** The certificate chain of the key of {@code identity} (its own first) as PEM text. */
  private static String chainPem(Identity identity) throws IOException {
    try (InputStream in = Files.newInputStream(identity.keyStore())) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, identity.password().toCharArray());
      StringBuilder pem = new StringBuilder();
      for (Certificate certificate : keys.getCertificateChain(keys.aliases().nextElement())) {
        pem.append(pem("CERTIFICATE", certificate.getEncoded()));
      }
      return pem.toString();
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read the chain of " + identity.keyStore() + ": " + e, e);
    }
  }

  /**
   * Another certificate for the key of {@code subject} (made by {@link #issued}), signed by {@code
   * ca} with these dates and extensions, as PEM file {@code name.crt}; no key store is written: for
   * tests of the certificate alone, at a quarter of the keytool runs.
   */
  public Path reissued(
      Identity ca, Identity subject, String name, String start, int days, String... extensions)
      throws IOException {
    Path certificate = dir.resolve(name + ".crt");
    sign(ca, subject, certificate, start, days, extensions);
    return certificate;
  }

  /** Signs the key of {@code subject} (its request made once) with {@code ca} into {@code to}. */
  private void sign(
      Identity ca, Identity subject, Path to, String start, int days, String... extensions)
      throws IOException {
    String alias = alias(subject);
    Path request = dir.resolve(alias + ".csr");
    if (!Files.exists(request)) {
      keytool(
          "-certreq",
          "-alias",
          alias,
          "-keystore",
          subject.keyStore().toString(),
          "-storepass",
          subject.password(),
          "-file",
          request.toString());
    }
    List<String> gencert =
        new ArrayList<>(
            List.of(
                "-gencert",
                "-rfc",
                "-alias",
                alias(ca),
                "-keystore",
                ca.keyStore().toString(),
                "-storepass",
                ca.password(),
                "-infile",
                request.toString(),
                "-outfile",
                to.toString(),
                "-startdate",
                start,
                "-validity",
                Integer.toString(days)));
    for (String extension : extensions) {
      gencert.add("-ext");
      gencert.add(extension);
    }
    keytool(gencert.toArray(String[]::new));
  }

  /** With its certificate exported as PEM if {@code export} (else the caller writes that file). */
  private Identity selfSigned(
      String name, String password, String keyAlgorithm, String extension, boolean export)
      throws IOException {
    Path keyStore = dir.resolve(name + "-keys.p12");
    Path certificate = dir.resolve(name + ".crt");
    keytool(
        "-genkeypair",
        "-alias",
        name,
        "-keyalg",
        keyAlgorithm,
        keyAlgorithm.equals("EC") ? "-groupname" : "-keysize",
        keyAlgorithm.equals("EC") ? "secp256r1" : "2048",
        "-dname",
        "CN=" + name,
        "-ext",
        extension,
        "-validity",
        "2",
        "-keystore",
        keyStore.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        password);
    if (export) {
      keytool(
          "-exportcert",
          "-rfc", // PEM: what Prometheus' tls_config.ca_file and curl --cacert read
          "-alias",
          name,
          "-keystore",
          keyStore.toString(),
          "-storepass",
          password,
          "-file",
          certificate.toString());
    }
    return new Identity(keyStore, password, certificate);
  }

  private static String alias(Identity identity) throws IOException {
    try (InputStream in = Files.newInputStream(identity.keyStore())) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, identity.password().toCharArray());
      return keys.aliases().nextElement();
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read " + identity.keyStore() + ": " + e, e);
    }
  }

  /** The private key of {@code identity}, read from its key store. */
  public static PrivateKey privateKey(Identity identity) throws IOException {
    try (InputStream in = Files.newInputStream(identity.keyStore())) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, identity.password().toCharArray());
      String alias = keys.aliases().nextElement();
      return (PrivateKey) keys.getKey(alias, identity.password().toCharArray());
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read the key of " + identity.keyStore() + ": " + e, e);
    }
  }

  /** The key of {@code identity} as PEM PKCS#8 ({@code BEGIN PRIVATE KEY}), as tls.key holds it. */
  public static String privateKeyPem(Identity identity) throws IOException {
    return pem("PRIVATE KEY", privateKey(identity).getEncoded());
  }

  /** DER as PEM text with this label, 64 characters a line like OpenSSL writes it. */
  public static String pem(String label, byte[] der) {
    return "-----BEGIN "
        + label
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + label
        + "-----\n";
  }

  /** A PKCS12 trust store holding the certificates of {@code trusted}. */
  public Path trustStore(String name, String password, Identity... trusted) throws IOException {
    Path store = dir.resolve(name + "-trust.p12");
    for (Identity identity : trusted) {
      keytool(
          "-importcert",
          "-noprompt",
          "-alias",
          identity.certificate().getFileName().toString(),
          "-file",
          identity.certificate().toString(),
          "-keystore",
          store.toString(),
          "-storetype",
          "PKCS12",
          "-storepass",
          password);
    }
    return store;
  }

  private static void keytool(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Jdks.jdk17().resolve("bin/keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("keytool " + args[0] + " did not finish in 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    if (process.exitValue() != 0) {
      throw new IOException(
          "keytool "
              + args[0]
              + " failed: "
              + new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
  }
}
