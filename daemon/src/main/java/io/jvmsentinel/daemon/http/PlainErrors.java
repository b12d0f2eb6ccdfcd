package io.jvmsentinel.daemon.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answers Jetty gives by itself (a malformed request line, an ambiguous URI, a head too large):
 * one line of plain text naming the status. Jetty's own error page quotes the request URI and the
 * parser's message; a response must never carry what the client sent.
 */
final class PlainErrors extends ErrorHandler {
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus();
    SecurityHeaders.addTo(response.getHeaders());
    response.getHeaders().put("Content-Type", "text/plain; charset=utf-8");
    response.write(true, body(status), callback);
    return true;
  }

  private static ByteBuffer body(int status) {
    return ByteBuffer.wrap(
        (status + " " + HttpStatus.getMessage(status) + "\n").getBytes(StandardCharsets.UTF_8));
  }
}
