package io.jvmsentinel.daemon.config;

import java.util.Objects;

/** Who may read {@code /metrics} and {@code /api/}: anyone, or a client with a credential. */
public sealed interface HttpAuth {
  /** The default: no credential, as a Prometheus sidecar scrape on the pod network expects. */
  record None() implements HttpAuth {}

  /** HTTP basic authentication with one user. */
  record Basic(String username, Secret password) implements HttpAuth {
    public Basic {
      Objects.requireNonNull(username, "username");
      Objects.requireNonNull(password, "password");
    }
  }

  /** {@code Authorization: Bearer <token>}. */
  record Bearer(Secret token) implements HttpAuth {
    public Bearer {
      Objects.requireNonNull(token, "token");
    }
  }

  HttpAuth NONE = new None();
}
