package io.jvmsentinel.daemon.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;
import javax.security.auth.x500.X500Principal;

/**
 * What the servers of one TLS context asked for as a client certificate, and what the daemon sent.
 *
 * <p>The JDK asks a client's key manager for a key only when a server's handshake carries a
 * CertificateRequest, so the key manager is where the client learns that the target requires a
 * certificate. That matters under TLS 1.3: the client's handshake is over once it has sent its
 * certificate (or none), and the server judges it only then; its {@code bad_certificate} alert
 * races the client's first write, which then often fails as a bare "Broken pipe" that names neither
 * TLS nor the certificate. With this record the connector can still say what happened.
 */
public final class ClientCertificateRequests {

  /**
   * What was seen so far.
   *
   * @param asked whether a server asked for a client certificate
   * @param acceptedIssuers the issuers that server named (often none under TLS 1.2)
   * @param sent the chain the daemon sent, its own certificate first (then the CA certificates the
   *     key store holds with it); empty if it sent none
   * @param held the certificates the daemon holds for the key types asked, sent or not
   */
  public record Seen(
      boolean asked,
      List<X500Principal> acceptedIssuers,
      List<X509Certificate> sent,
      List<X509Certificate> held) {
    public Seen {
      acceptedIssuers = List.copyOf(acceptedIssuers);
      sent = List.copyOf(sent);
      held = List.copyOf(held);
    }
  }

  // Guarded by this.
  private boolean asked;
  private final Set<X500Principal> issuers = new LinkedHashSet<>();
  private List<X509Certificate> sent = List.of();
  private final Set<X509Certificate> held = new LinkedHashSet<>();

  /** What was seen so far. */
  public synchronized Seen seen() {
    return new Seen(asked, new ArrayList<>(issuers), sent, new ArrayList<>(held));
  }

  /** A key manager that answers as {@code keys} does (none: no certificate) and records it. */
  X509ExtendedKeyManager watching(Optional<X509KeyManager> keys) {
    return new Watching(keys);
  }

  private synchronized void record(
      String[] keyTypes, Principal[] named, Optional<X509KeyManager> keys, String alias) {
    asked = true;
    for (Principal issuer : named == null ? new Principal[0] : named) {
      if (issuer instanceof X500Principal x500) {
        issuers.add(x500);
      }
    }
    if (keys.isEmpty()) {
      return;
    }
    if (alias != null) {
      X509Certificate[] chain = keys.get().getCertificateChain(alias);
      if (chain != null && chain.length > 0) {
        sent = List.of(chain);
        held.add(chain[0]);
      }
      return;
    }
    for (String keyType : keyTypes == null ? new String[0] : keyTypes) {
      String[] aliases = keys.get().getClientAliases(keyType, null);
      for (String candidate : aliases == null ? new String[0] : aliases) {
        X509Certificate[] chain = keys.get().getCertificateChain(candidate);
        if (chain != null && chain.length > 0) {
          held.add(chain[0]);
        }
      }
    }
  }

  private final class Watching extends X509ExtendedKeyManager {
    private final Optional<X509KeyManager> keys;

    Watching(Optional<X509KeyManager> keys) {
      this.keys = keys;
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
      String alias = keys.map(k -> k.chooseClientAlias(keyTypes, issuers, socket)).orElse(null);
      record(keyTypes, issuers, keys, alias);
      return alias;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine e) {
      String alias =
          keys.map(
                  k ->
                      k instanceof X509ExtendedKeyManager extended
                          ? extended.chooseEngineClientAlias(keyTypes, issuers, e)
                          : k.chooseClientAlias(keyTypes, issuers, null))
              .orElse(null);
      record(keyTypes, issuers, keys, alias);
      return alias;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return keys.map(k -> k.getClientAliases(keyType, issuers)).orElse(null);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return null; // a client context: never a server
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return keys.map(k -> k.getCertificateChain(alias)).orElse(null);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return keys.map(k -> k.getPrivateKey(alias)).orElse(null);
    }
  }
}
