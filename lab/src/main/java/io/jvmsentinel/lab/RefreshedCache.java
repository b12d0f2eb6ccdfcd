package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;

/**
 * A read-mostly cache whose methods are {@code synchronized}, rebuilt in place by {@link #refresh}
 * while it holds the lock: each entry is fetched from a slow backend ({@link SlowPeer}, one round
 * trip per entry), so lookups wait for the whole rebuild. The common pattern of a cache refreshed
 * under its own lock, instead of building the new contents first and swapping them in.
 */
final class RefreshedCache {
  private final int port;
  private final long[] entries;

  RefreshedCache(int port, int size) {
    this.port = port;
    this.entries = new long[size];
  }

  synchronized long lookup(int key) {
    return entries[key];
  }

  /** Fetches every entry again, one round trip each, holding the cache's lock throughout. */
  synchronized void refresh() {
    try (Socket backend = new Socket(InetAddress.getLoopbackAddress(), port);
        OutputStream out = backend.getOutputStream();
        InputStream in = backend.getInputStream()) {
      backend.setSoTimeout(10_000);
      for (int key = 0; key < entries.length; key++) {
        out.write(key);
        out.flush();
        entries[key] = in.read() + System.nanoTime();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
