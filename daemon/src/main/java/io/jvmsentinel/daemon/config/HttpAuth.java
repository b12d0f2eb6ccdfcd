package io.jvmsentinel.daemon.config;

/** Who may read {@code /metrics} and {@code /api/}: anyone, or a client with a credential. */
public sealed interface HttpAuth {
  /** The default: no credential, as a Prometheus sidecar scrape on the pod network expects. */
  record None() implements HttpAuth {
    @Override
    public String describe() {
      return "no authentication";
    }
  }

  /** HTTP basic authentication with one user. */
  record Basic(String username, Secret password) implements HttpAuth {
    @Override
    public String describe() {
      return "basic authentication as '" + username + "'; /health and /ready open";
    }
  }

  /** {@code Authorization: Bearer <token>}. */
  record Bearer(Secret token) implements HttpAuth {
    @Override
    public String describe() {
      return "bearer token required; /health and /ready open";
    }
  }

  HttpAuth NONE = new None();

  /** For logs and {@code check-config}: the scheme and the user, never the secret. */
  String describe();
}
