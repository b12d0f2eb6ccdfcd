package io.jvmsentinel.daemon.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {

  @Test
  void aFreePortLiesBelowTheKernelsEphemeralRangeAndCanBeBound() throws IOException {
    Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    int ephemeralFrom =
        Files.isReadable(range)
            ? Integer.parseInt(Files.readAllLines(range).get(0).trim().split("\\s+")[0])
            : 32_768;
    for (int i = 0; i < 20; i++) {
      int port = LoopbackPorts.freePort();
      assertThat(port)
          .isBetween(LoopbackPorts.FIRST_PORT, LoopbackPorts.FIRST_PORT + LoopbackPorts.PORTS - 1)
          .isLessThan(ephemeralFrom);
      try (ServerSocket socket =
          new ServerSocket(port, 1, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))) {
        assertThat(socket.getLocalPort()).isEqualTo(port);
      }
    }
  }

  @Test
  void aPortSomeoneListensOnIsSkipped() throws IOException {
    InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    int taken = LoopbackPorts.freePort();
    int free = LoopbackPorts.freePort();
    try (ServerSocket listening = new ServerSocket(taken, 1, loopback)) {
      assertThat(listening.getLocalPort()).isEqualTo(taken);
      Iterator<Integer> candidates = List.of(taken, taken, free).iterator();
      assertThat(LoopbackPorts.freePort(candidates::next)).isEqualTo(free);
    }
  }
}
