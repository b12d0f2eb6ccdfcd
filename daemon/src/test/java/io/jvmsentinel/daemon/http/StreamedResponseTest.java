package io.jvmsentinel.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A streamed response reaches the client whole, from a file the server never holds in memory. */
class StreamedResponseTest {
  @TempDir Path dir;

  @Test
  void aLargeFileIsSentWholeAndItsStreamClosed() throws Exception {
    Path file = dir.resolve("big.jfr");
    byte[] block = new byte[1024 * 1024];
    new Random(42).nextBytes(block);
    MessageDigest written = MessageDigest.getInstance("SHA-256");
    try (var out = Files.newOutputStream(file)) {
      for (int i = 0; i < 24; i++) {
        out.write(block);
        written.update(block);
      }
    }
    AtomicBoolean closed = new AtomicBoolean();
    HttpEndpoint.Route route =
        request -> {
          FileChannel channel = FileChannel.open(file);
          InputStream in =
              new java.io.FilterInputStream(Channels.newInputStream(channel)) {
                @Override
                public void close() throws java.io.IOException {
                  closed.set(true);
                  super.close();
                }
              };
          return HttpEndpoint.Response.streamed("application/octet-stream", in, channel.size());
        };
    try (HttpEndpoint endpoint =
        HttpEndpoint.start(new InetSocketAddress("127.0.0.1", 0), Map.of("/big", route))) {
      HttpResponse<InputStream> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/big"))
                      .timeout(Duration.ofSeconds(30))
                      .build(),
                  HttpResponse.BodyHandlers.ofInputStream());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(24L << 20);
      MessageDigest read = MessageDigest.getInstance("SHA-256");
      long total = 0;
      try (InputStream body = response.body()) {
        byte[] buffer = new byte[64 * 1024];
        for (int n; (n = body.read(buffer)) > 0; ) {
          read.update(buffer, 0, n);
          total += n;
        }
      }
      assertThat(total).isEqualTo(24L << 20);
      assertThat(read.digest()).isEqualTo(written.digest());
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilTrue(closed);
    }
  }
}
