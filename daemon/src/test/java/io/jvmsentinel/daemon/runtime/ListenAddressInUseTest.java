package io.jvmsentinel.daemon.runtime;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.config.SentinelConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listen address another process holds (a second daemon, or demo beside a running one, both on
 * 9404 by default) stops the daemon with a message that says how to move, not only the JDK's.
 */
class ListenAddressInUseTest {
  @TempDir Path dir;

  @Test
  void aPortInUseSaysHowToChooseAnother() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Path file =
          Files.writeString(
              dir.resolve("sentinel.yaml"),
              "http: {listen: \"127.0.0.1:"
                  + taken.getLocalPort()
                  + "\"}\n"
                  + "detection: {snapshots: {directory: \"\"}}\n"
                  + "targets:\n  - {name: a, jmx: \"127.0.0.1:1\"}\n");
      SentinelConfig config = new ConfigLoader(name -> null).load(file);

      assertThatThrownBy(() -> SentinelDaemon.start(config).close())
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith("cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": ")
          .hasMessageEndingWith(
              "(is another process listening there? choose another address with --listen"
                  + " HOST:PORT or http.listen)");
    }
  }
}
