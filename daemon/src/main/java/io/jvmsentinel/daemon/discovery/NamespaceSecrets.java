package io.jvmsentinel.daemon.discovery;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jvmsentinel.daemon.config.ClientKey;
import io.jvmsentinel.daemon.config.PodCredentials;
import io.jvmsentinel.daemon.support.DaemonThreads;
import io.jvmsentinel.daemon.tls.ClientCertificateCheck;
import io.jvmsentinel.daemon.tls.PemKeys;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credentials Secrets of the namespaces on the allow-list, read with one {@code get} each
 * (bounded by the client's request timeout) on their own thread, so a slow API server never holds
 * up the pod informers. A Secret is read when a pod first needs it, then again every {@code
 * discovery.kubernetes.secretRefresh} (a rotated password or certificate reaches the target within
 * that), or {@link #RETRY} (or the refresh, if shorter) after a failure; one nobody asked for in
 * {@link #FORGET_AFTER} is dropped. A failed refresh keeps the credentials read last: the password
 * in the cluster is more likely unchanged than gone.
 *
 * <p>Only {@code get} on a named Secret in a namespace the configuration lists is ever requested:
 * the daemon needs no {@code list} or {@code watch} on Secrets, and RBAC can name the Secret.
 */
final class NamespaceSecrets implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NamespaceSecrets.class);
  static final Duration RETRY = Duration.ofSeconds(10);
  static final Duration FORGET_AFTER = Duration.ofMinutes(10);

  /** What is known of one Secret now. */
  sealed interface Lookup {}

  /** Not read yet: the pod waits (a change is announced once it is read). */
  record Pending() implements Lookup {}

  record Found(JmxCredentials credentials) implements Lookup {}

  /** Cannot be used; {@code reason} says what to fix. */
  record Failed(String reason) implements Lookup {}

  private record Key(String namespace, String name) {
    @Override
    public String toString() {
      return namespace + "/" + name;
    }
  }

  private static final class Entry {
    Lookup lookup = new Pending();
    long usedAt;
    boolean scheduled;
  }

  private final KubernetesClient client;
  private final Runnable changed;
  private final LongSupplier nanoTime;
  private final Duration refresh;
  private final Duration retry;
  private final ScheduledExecutorService reads =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("discovery-secrets"));
  // Guarded by this.
  private final Map<Key, Entry> entries = new HashMap<>();

  /**
   * @param client the discovery's API client, with its timeouts
   * @param changed told (on the reading thread) when a Secret's credentials appear or change
   * @param refresh how long after a read a Secret is read again
   */
  NamespaceSecrets(
      KubernetesClient client, Runnable changed, LongSupplier nanoTime, Duration refresh) {
    this.client = client;
    this.changed = changed;
    this.nanoTime = nanoTime;
    this.refresh = refresh;
    this.retry = refresh.compareTo(RETRY) < 0 ? refresh : RETRY;
  }

  /** The credentials of Secret {@code name} in {@code namespace}, as known now; never blocks. */
  synchronized Lookup lookup(String namespace, String name) {
    Key key = new Key(namespace, name);
    Entry entry = entries.computeIfAbsent(key, k -> new Entry());
    entry.usedAt = nanoTime.getAsLong();
    if (!entry.scheduled) {
      entry.scheduled = true;
      schedule(key, Duration.ZERO);
    }
    return entry.lookup;
  }

  private void schedule(Key key, Duration delay) {
    try {
      reads.schedule(() -> read(key), delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // closed: discovery stops, nothing to read any more
    }
  }

  private void read(Key key) {
    synchronized (this) {
      Entry entry = entries.get(key);
      if (entry == null
          || nanoTime.getAsLong() - entry.usedAt > FORGET_AFTER.toNanos()
              && !(entry.lookup instanceof Pending)) {
        entries.remove(key);
        return;
      }
    }
    Lookup fetched = fetch(key);
    boolean announce;
    synchronized (this) {
      Entry entry = entries.get(key);
      if (entry == null) {
        return;
      }
      Lookup before = entry.lookup;
      Lookup now = fetched;
      if (fetched instanceof Failed failed && before instanceof Found) {
        log.warn(
            "kubernetes discovery: cannot read Secret {} again ({}); keeping the credentials"
                + " read last, retrying in {} ms",
            key,
            failed.reason(),
            retry.toMillis());
        now = before;
      }
      entry.lookup = now;
      announce = !now.equals(before);
      schedule(key, fetched instanceof Failed ? retry : refresh);
    }
    if (announce) {
      warnOfClientCertificate(key, fetched);
      changed.run();
    }
  }

  /**
   * A Secret's client certificate its agents will refuse, said when it is read, not per connect.
   */
  private static void warnOfClientCertificate(Key key, Lookup fetched) {
    if (fetched instanceof Found found) {
      found
          .credentials()
          .clientKey()
          .map(ClientKey.InMemory::chain)
          .ifPresent(
              chain ->
                  ClientCertificateCheck.refusal(chain, Instant.now(), "the agents")
                      .ifPresent(
                          refusal ->
                              log.warn(
                                  "kubernetes discovery: the client certificate in 'tls.crt' of"
                                      + " Secret {} ({}, issued by {}) {}",
                                  key,
                                  chain.get(0).getSubjectX500Principal(),
                                  chain.get(0).getIssuerX500Principal(),
                                  refusal)));
    }
  }

  /** One {@code get}, with the client's request timeout; every failure becomes a reason. */
  private Lookup fetch(Key key) {
    Secret secret;
    try {
      secret = client.secrets().inNamespace(key.namespace()).withName(key.name()).get();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 403 || e.getCode() == 401) {
        return new Failed(
            "the API server refuses to get Secret "
                + key
                + " ("
                + e.getCode()
                + "): give the daemon's service account get on it (a Role in namespace "
                + key.namespace()
                + " with resourceNames: ["
                + key.name()
                + "])");
      }
      return new Failed("cannot read Secret " + key + ": " + e.getMessage());
    } catch (RuntimeException e) { // a timeout or a broken connection, wrapped by the client
      return new Failed("cannot read Secret " + key + ": " + e);
    }
    if (secret == null) {
      return new Failed(
          "Secret "
              + key
              + " does not exist; create it with keys username and password (and ca.crt for"
              + " TLS)");
    }
    return parse(key, secret.getData() == null ? Map.of() : secret.getData());
  }

  static Lookup parse(Object key, Map<String, String> data) {
    Optional<String> username = value(data, PodCredentials.USERNAME_KEY);
    Optional<String> password = value(data, PodCredentials.PASSWORD_KEY);
    if (username.isEmpty() || password.isEmpty()) {
      return new Failed(
          "Secret "
              + key
              + " has no "
              + (username.isEmpty() ? "'username'" : "'password'")
              + " key; it needs username and password (and ca.crt for TLS)");
    }
    List<X509Certificate> authorities = List.of();
    Optional<String> ca = value(data, PodCredentials.CA_KEY);
    if (ca.isPresent()) {
      authorities = PemKeys.certificates(ca.get());
      if (authorities.isEmpty()) {
        return new Failed("'ca.crt' of Secret " + key + " holds no PEM certificate");
      }
    }
    Optional<String> chain = value(data, PodCredentials.CERTIFICATE_KEY);
    Optional<String> privateKey = value(data, PodCredentials.PRIVATE_KEY_KEY);
    Optional<ClientKey.InMemory> clientKey = Optional.empty();
    if (chain.isPresent() != privateKey.isPresent()) {
      return new Failed(
          "Secret "
              + key
              + (chain.isPresent()
                  ? " has 'tls.crt' but no 'tls.key'"
                  : " has 'tls.key' but no 'tls.crt'")
              + ": a client certificate needs both, as a kubernetes.io/tls Secret has them");
    }
    if (chain.isPresent()) {
      try {
        clientKey = Optional.of(PemKeys.clientKey(chain.get(), privateKey.get()));
      } catch (PemKeys.PemException e) {
        return new Failed(
            "'"
                + (e.part() == PemKeys.Part.CERTIFICATE
                    ? PodCredentials.CERTIFICATE_KEY
                    : PodCredentials.PRIVATE_KEY_KEY)
                + "' of Secret "
                + key
                + " "
                + e.getMessage());
      }
    }
    return new Found(
        new JmxCredentials(
            username.get(),
            io.jvmsentinel.daemon.config.Secret.of(password.get()),
            authorities,
            clientKey));
  }

  private static Optional<String> value(Map<String, String> data, String name) {
    String encoded = data.get(name);
    if (encoded == null) {
      return Optional.empty();
    }
    try {
      String value =
          new String(Base64.getDecoder().decode(encoded.strip()), StandardCharsets.UTF_8);
      return value.isEmpty() ? Optional.empty() : Optional.of(stripNewline(value));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  // `kubectl create secret --from-file` keeps the file's final newline; no password ends in one.
  private static String stripNewline(String value) {
    return value.endsWith("\n") ? value.substring(0, value.length() - 1) : value;
  }

  @Override
  public void close() {
    reads.shutdownNow();
  }
}
