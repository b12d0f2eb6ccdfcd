package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A minimal HTTPS/1.1 client on a plain {@link SSLSocket}: one request per connection, no handshake
 * listener (so, unlike HttpsURLConnection, no notify thread per handshake).
 */
final class TlsSocketClient {

  private static final int TIMEOUT_MILLIS = 5_000;

  private TlsSocketClient() {}

  /** GETs {@code path} from 127.0.0.1:{@code port} and reads the response to the end. */
  static void get(SSLContext context, int port, String path) throws IOException {
    try (SSLSocket socket =
        (SSLSocket)
            context.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(TIMEOUT_MILLIS);
      socket.setTcpNoDelay(true);
      SSLParameters parameters = socket.getSSLParameters();
      // Check the server's name against its certificate, as an HTTPS client must.
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      socket.setSSLParameters(parameters);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      readResponse(socket.getInputStream());
    }
  }

  /**
   * Reads the headers and a {@code Content-Length} body: the client then closes first instead of
   * waiting for the server's close, as an HTTP client does.
   */
  private static void readResponse(InputStream in) throws IOException {
    StringBuilder headers = new StringBuilder();
    while (headers.length() < 4 || !headers.substring(headers.length() - 4).equals("\r\n\r\n")) {
      int next = in.read();
      if (next < 0) {
        throw new IOException("connection closed in the response headers");
      }
      headers.append((char) next);
    }
    int length = 0;
    for (String line : headers.toString().split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
        length = Integer.parseInt(line.substring(colon + 1).trim());
      }
    }
    if (in.readNBytes(length).length < length) {
      throw new IOException("connection closed in the response body");
    }
  }
}
