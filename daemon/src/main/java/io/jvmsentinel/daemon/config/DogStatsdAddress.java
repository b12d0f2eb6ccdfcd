package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;

/**
 * Where the Datadog Agent listens for DogStatsD: {@code udp://host:port} or {@code unix:///path} (a
 * Unix-domain datagram socket), the two forms of {@code DD_DOGSTATSD_URL}.
 *
 * @param url the address in that form; {@link #parse} checks it
 */
public record DogStatsdAddress(String url) {
  public static final int DEFAULT_PORT = 8125;
  public static final DogStatsdAddress DEFAULT = new DogStatsdAddress("udp://localhost:8125");

  /** The hint appended to every "cannot read" message. */
  static final String ACCEPTED_FORMS = "use udp://host:port or unix:///path/to/dsd.socket";

  public DogStatsdAddress {
    Objects.requireNonNull(url, "url");
  }

  /**
   * Parses {@code udp://host[:port]} (port 8125 when left out) or {@code unix:///absolute/path}.
   *
   * @throws IllegalArgumentException naming the text and the accepted forms
   */
  public static DogStatsdAddress parse(String text) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw cannotRead(text);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    boolean plain =
        uri.getRawQuery() == null && uri.getRawFragment() == null && uri.getRawUserInfo() == null;
    if (scheme.equals("udp")
        && plain
        && uri.getHost() != null
        && (uri.getRawPath() == null || uri.getRawPath().isEmpty())) {
      int port = uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort();
      if (port == 0) {
        throw cannotRead(text);
      }
      // getHost() keeps the brackets of an IPv6 literal, as the URL needs them.
      return new DogStatsdAddress("udp://" + uri.getHost() + ":" + port);
    }
    if (scheme.equals("unix")
        && plain
        && uri.getRawAuthority() == null
        && uri.getPath() != null
        && uri.getPath().startsWith("/")
        && uri.getPath().length() > 1) {
      return new DogStatsdAddress("unix://" + uri.getPath());
    }
    throw cannotRead(text);
  }

  /** True for a Unix-domain socket, false for UDP. */
  public boolean unixSocket() {
    return url.startsWith("unix://");
  }

  @Override
  public String toString() {
    return url;
  }

  private static IllegalArgumentException cannotRead(String text) {
    return new IllegalArgumentException(
        "cannot read \"" + text + "\" as a DogStatsD address; " + ACCEPTED_FORMS);
  }
}
