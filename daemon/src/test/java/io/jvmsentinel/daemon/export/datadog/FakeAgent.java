package io.jvmsentinel.daemon.export.datadog;

import com.timgroup.statsd.StatsDClient;
import io.jvmsentinel.daemon.config.DogStatsdAddress;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import jnr.unixsocket.UnixDatagramChannel;
import jnr.unixsocket.UnixSocketAddress;
import jnr.unixsocket.UnixSocketOptions;

/**
 * What a Datadog Agent's DogStatsD server does, minus the agent: receives datagrams on UDP
 * (127.0.0.1, an ephemeral port) or on a Unix-domain datagram socket, and reads them strictly.
 *
 * <p>A test ends each batch it sends with a marker gauge through the same client; the client keeps
 * the order of its messages (one processor, one sender), so everything before the marker is the
 * batch, and nothing is waited for beyond the marker's arrival.
 */
public abstract class FakeAgent implements AutoCloseable {
  static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(5);
  static final String MARKER = "test.marker";

  private int markers;

  public abstract DogStatsdAddress address();

  /** The next datagram, or null after {@link #RECEIVE_TIMEOUT}. */
  public abstract byte[] receive() throws IOException;

  @Override
  public abstract void close() throws IOException;

  /** Every message {@code client} sent since the last call, client telemetry left out. */
  List<DogStatsdLines.Line> nextBatch(StatsDClient client) throws IOException {
    int marker = ++markers;
    client.gauge(MARKER, marker);
    List<DogStatsdLines.Line> batch = new ArrayList<>();
    while (true) {
      byte[] datagram = receive();
      if (datagram == null) {
        throw new AssertionError("no marker " + marker + " within " + RECEIVE_TIMEOUT);
      }
      for (DogStatsdLines.Line line : DogStatsdLines.parse(datagram)) {
        if (line instanceof DogStatsdLines.Metric m && m.name().equals(MARKER)) {
          if (m.value() == marker) {
            return batch;
          }
          throw new AssertionError("marker " + m.value() + " while waiting for " + marker);
        }
        if (!(line instanceof DogStatsdLines.Metric m
            && m.name().startsWith(DogStatsdLines.CLIENT_TELEMETRY))) {
          batch.add(line);
        }
      }
    }
  }

  /**
   * Keeps every line {@code keep} accepts, read on a thread of its own from now until the agent
   * closes: a test that waits a minute for an alert does not let the socket's buffer overflow.
   */
  public List<DogStatsdLines.Line> record(java.util.function.Predicate<DogStatsdLines.Line> keep) {
    List<DogStatsdLines.Line> kept = new java.util.concurrent.CopyOnWriteArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              try {
                while (!Thread.currentThread().isInterrupted()) {
                  byte[] datagram = receive();
                  if (datagram != null) {
                    DogStatsdLines.parse(datagram).stream().filter(keep).forEach(kept::add);
                  }
                }
              } catch (IOException closed) {
                // the agent closed: recording ends
              }
            },
            "fake-agent-recorder");
    reader.setDaemon(true);
    reader.start();
    return kept;
  }

  public static FakeAgent udp() throws IOException {
    return new Udp();
  }

  static FakeAgent unixSocket(Path dir) throws IOException {
    return new Uds(dir.resolve("dsd.socket"));
  }

  private static final class Udp extends FakeAgent {
    private final DatagramSocket socket;

    Udp() throws IOException {
      socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      socket.setSoTimeout((int) RECEIVE_TIMEOUT.toMillis());
    }

    @Override
    public DogStatsdAddress address() {
      return DogStatsdAddress.parse("udp://127.0.0.1:" + socket.getLocalPort());
    }

    @Override
    public byte[] receive() throws IOException {
      DatagramPacket packet = new DatagramPacket(new byte[65536], 65536);
      try {
        socket.receive(packet);
      } catch (SocketTimeoutException e) {
        return null;
      }
      return Arrays.copyOf(packet.getData(), packet.getLength());
    }

    @Override
    public void close() {
      socket.close();
    }

    @Override
    public String toString() {
      return "UDP";
    }
  }

  // JDK 17 has no Unix-domain datagram sockets; jnr-unixsocket (the client's own) does.
  private static final class Uds extends FakeAgent {
    private final Path path;
    private final UnixDatagramChannel channel;

    Uds(Path path) throws IOException {
      this.path = path;
      channel = UnixDatagramChannel.open();
      channel.bind(new UnixSocketAddress(path.toFile()));
      channel.setOption(UnixSocketOptions.SO_RCVTIMEO, (int) RECEIVE_TIMEOUT.toMillis());
    }

    @Override
    public DogStatsdAddress address() {
      return DogStatsdAddress.parse("unix://" + path);
    }

    @Override
    public byte[] receive() throws IOException {
      ByteBuffer buffer = ByteBuffer.allocate(65536);
      if (channel.receive(buffer) == null && buffer.position() == 0) {
        return null;
      }
      buffer.flip();
      byte[] datagram = new byte[buffer.remaining()];
      buffer.get(datagram);
      return datagram;
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }

    @Override
    public String toString() {
      return "Unix socket";
    }
  }
}
