package io.jvmsentinel.daemon.target;

import com.sun.tools.attach.VirtualMachine;
import io.jvmsentinel.daemon.tls.NodeCa;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXServiceURL;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connects to a local JVM through a remote JMX agent the daemon starts in it: the node-agent way to
 * reach a JVM in another pod.
 *
 * <p>Implementation notes. The local agent ({@link AttachConnector}) listens on the target's
 * loopback, which is another network namespace when the JVM runs in another pod, so the daemon
 * cannot reach it. Instead, through the Attach API, the daemon starts the target's remote agent
 * ({@code VirtualMachine.startManagementAgent}, the {@code com.sun.management.jmxremote.*}
 * properties of JDK 11 to 25's {@code ConnectorBootstrap}) bound to the target's own address (its
 * pod IP; loopback when it shares the daemon's network) on a port free in its network, with mutual
 * TLS on the registry and the connector ({@code ssl}, {@code registry.ssl}, {@code
 * ssl.need.client.auth}): the agent presents a certificate the daemon's {@link NodeCa} issued to it
 * alone and admits only clients with a certificate of that CA, which only the daemon has; the
 * daemon trusts exactly that agent's certificate. Inside TLS, a random password per JVM and an
 * access file granting one role read and write, as before: the password ties a login to this JVM's
 * agent (the CA's client certificate fits every agent) and the access file keeps the role. All are
 * written into the target's /tmp ({@link AgentFiles}); the key and trust stores only while the
 * agent starts (it reads them once).
 *
 * <p>A JVM runs at most one remote agent. When the daemon stops watching the JVM (gone from
 * discovery, daemon shutdown) it stops the agent ({@code ManagementAgent.stop}, {@link AgentStop})
 * and removes its files and note. A daemon that died without that leaves the agent running, with a
 * trust store of a CA that died with it: the next daemon finds it (through the address note), stops
 * it and starts its own. A JVM started with its own {@code -Dcom.sun.management.jmxremote.port}
 * cannot get ours: that is a clear error, the JVM is for a {@code targets:} entry (or the
 * kubernetes provider) with its own address and credentials.
 *
 * <p>RMI caveat: the agent's RMI stub carries the target's host name address ({@code
 * InetAddress.getLocalHost()} in the target), which in a pod is the pod IP, as bound here.
 */
public final class RemoteAgentConnector implements Connector {
  private static final Logger log = LoggerFactory.getLogger(RemoteAgentConnector.class);
  static final String ROLE = "jvmsentinel";
  private static final String PROPERTY = "com.sun.management.jmxremote.";
  private static final int PORT_ATTEMPTS = 5;

  /** The agents' ports: deploy/kubernetes/node-agent-networkpolicy.yaml admits this range. */
  public static final int FIRST_PORT = 20_000;

  public static final int PORTS = 10_000;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final TargetProcess process;
  private final boolean allowHostNetwork;
  private final NodeCa ca;
  private final Duration connectTimeout;
  private final Duration callTimeout;
  // Attach and agent start have no timeout of their own (a stopped JVM hangs them): they run here.
  private final ExecutorService agentThread;
  private volatile Optional<AgentFiles> files = Optional.empty();
  private Future<RunningAgent> agent;

  /** A connector that refuses a JVM in the host's network ({@link AgentBindAddress}). */
  public RemoteAgentConnector(long pid, NodeCa ca, Duration connectTimeout, Duration callTimeout) {
    this(pid, false, ca, connectTimeout, callTimeout);
  }

  /**
   * @param ca the daemon's CA: issues the agent's certificate, gives the daemon's client one
   */
  public RemoteAgentConnector(
      long pid,
      boolean allowHostNetwork,
      NodeCa ca,
      Duration connectTimeout,
      Duration callTimeout) {
    this(TargetProcess.onThisHost(pid), allowHostNetwork, ca, connectTimeout, callTimeout);
  }

  RemoteAgentConnector(
      TargetProcess process,
      boolean allowHostNetwork,
      NodeCa ca,
      Duration connectTimeout,
      Duration callTimeout) {
    this.process = process;
    this.allowHostNetwork = allowHostNetwork;
    this.ca = ca;
    this.connectTimeout = connectTimeout;
    this.callTimeout = callTimeout;
    this.agentThread = HelperThread.withQueue("jmx-agent-pid-" + process.pid(), 1);
  }

  /**
   * Starts (or finds) the agent once, then connects to it; an agent start that outlives the connect
   * timeout goes on in the background and the next attempt waits for it again.
   */
  @Override
  public synchronized JMXConnector connect() throws IOException {
    if (agent == null) {
      agent = agentThread.submit(this::startOrFindAgent);
    }
    RunningAgent started;
    try {
      started = agent.get(connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // The session reports the innermost message: the one that says what happened.
      String message =
          "starting the JMX agent in pid "
              + process.pid()
              + " takes longer than "
              + connectTimeout.toMillis()
              + " ms (a stopped or overloaded JVM?)";
      throw new IOException(message, new SocketTimeoutException(message));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while starting the JMX agent");
    } catch (ExecutionException e) {
      agent = null; // try again on the next attempt
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException("starting the JMX agent failed: " + e.getCause(), e.getCause());
    }
    return started.connector().connect();
  }

  /** The agent this daemon started or found, and how to log in to it. */
  private record RunningAgent(String host, int port, Connector connector) {}

  private RunningAgent startOrFindAgent() throws IOException {
    // Decided before anything is written into the target's /tmp.
    String host = AgentBindAddress.of(process, allowHostNetwork);
    AgentFiles agentFiles = new AgentFiles(process.tmp(), process.pid(), process.owner());
    files = Optional.of(agentFiles);
    char[] password = newPassword();
    boolean earlierAgent =
        agentFiles.rememberedAddress().flatMap(note -> earlier(note, host)).isPresent();
    // The host is an address literal (AgentBindAddress): no name lookup.
    NodeCa.Issued certificate =
        ca.issueServer("jvm-sentinel agent pid " + process.pid(), InetAddress.getByName(host));
    String url;
    try {
      agentFiles.write(ROLE, password);
      agentFiles.writeTls(AgentTlsStores.of(certificate, agentFiles));
      url = agentUrl(host, startAgent(agentFiles, host, earlierAgent));
      agentFiles.rememberAddress(url);
    } catch (IOException | RuntimeException e) {
      agentFiles.removeSecrets(); // no agent uses them
      throw e;
    } finally {
      removeTls(agentFiles);
    }
    SSLContext context;
    try {
      context = ca.clientContext(certificate.certificate());
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot build the daemon's TLS client context: " + e, e);
    }
    return new RunningAgent(
        host,
        portOf(url),
        new TlsJmxConnector(
            "pid " + process.pid(),
            new JMXServiceURL(url),
            requests -> context, // the daemon's own agent: its CA, its certificate
            true,
            Optional.empty(),
            new Credentials(ROLE, password),
            connectTimeout,
            callTimeout));
  }

  /** The agent read its stores when it started (or never will): they go now either way. */
  private void removeTls(AgentFiles agentFiles) {
    try {
      agentFiles.removeTls();
    } catch (IOException e) {
      log.warn("pid {}: JMX agent TLS files not removed: {}", process.pid(), e.getMessage());
    }
  }

  /** The port of an address this daemon built ({@link #agentUrl}). */
  private static int portOf(String url) {
    int end = url.lastIndexOf("/jmxrmi");
    return Integer.parseInt(url.substring(url.lastIndexOf(':', end) + 1, end));
  }

  /**
   * Starts the agent on a free port of the target's network; returns that port.
   *
   * @param replaceEarlier an earlier daemon's note names an agent here: if one runs, it is that
   *     daemon's (its trust store holds a CA that died with it), so it is stopped and ours started
   */
  private int startAgent(AgentFiles agentFiles, String host, boolean replaceEarlier)
      throws IOException {
    VirtualMachine vm = AttachConnector.attach(process.pid());
    try {
      IOException last = null;
      for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
        int port = freePort(process.portsInUse());
        Properties properties = new Properties();
        properties.setProperty(PROPERTY + "port", Integer.toString(port));
        properties.setProperty(PROPERTY + "rmi.port", Integer.toString(port));
        properties.setProperty(PROPERTY + "host", host);
        properties.setProperty(PROPERTY + "authenticate", "true");
        properties.setProperty(PROPERTY + "ssl", "true");
        properties.setProperty(PROPERTY + "registry.ssl", "true");
        properties.setProperty(PROPERTY + "ssl.need.client.auth", "true");
        properties.setProperty(PROPERTY + "ssl.config.file", agentFiles.sslConfigInTarget());
        properties.setProperty(PROPERTY + "password.file", agentFiles.passwordFileInTarget());
        properties.setProperty(PROPERTY + "access.file", agentFiles.accessFileInTarget());
        try {
          vm.startManagementAgent(properties);
          log.info(
              "pid {}: started its JMX agent at {} (mutual TLS, password auth)",
              process.pid(),
              agentUrl(host, port));
          return port;
        } catch (IOException e) {
          String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
          if (message.contains("already started") || message.contains("already running")) {
            if (replaceEarlier) {
              replaceEarlier = false;
              log.info(
                  "pid {}: stopping the JMX agent an earlier daemon started, to start this"
                      + " daemon's",
                  process.pid());
              AgentStop.run(vm);
              continue;
            }
            throw new AgentAlreadyRuns(
                "pid "
                    + process.pid()
                    + " already runs a JMX agent of its own (-Dcom.sun.management.jmxremote.port"
                    + " or jcmd ManagementAgent.start), so the daemon cannot start one with its"
                    + " password: watch it as a `targets:` entry (or through the kubernetes"
                    + " provider's annotations) with that agent's address and credentials, and"
                    + " exclude it from discovery.local (the JVM said: "
                    + e.getMessage()
                    + ")");
          }
          if (!message.contains("port already in use") && !message.contains("bind")) {
            throw cannotStart(host + ":" + port, e.getMessage());
          }
          last = e; // the port was taken meanwhile: try another
        }
      }
      throw cannotStart(
          host, PORT_ATTEMPTS + " ports taken, the last: " + ConnectFailure.describe(last));
    } finally {
      vm.detach();
    }
  }

  private IOException cannotStart(String where, String why) {
    return new IOException(
        "cannot start a JMX agent in pid " + process.pid() + " on " + where + ": " + why);
  }

  static String agentUrl(String host, int port) {
    return "service:jmx:rmi:///jndi/rmi://" + host + ":" + port + "/jmxrmi";
  }

  /**
   * The address in an earlier daemon's note, only if it is exactly one this daemon would have
   * started here: the target's /tmp is the target's to write, so a note could point the daemon (and
   * its password) at a serialized stub ({@code service:jmx:rmi:///stub/...}), an LDAP or other JNDI
   * lookup, or another host. Rebuilt from the host and port, never used as written.
   */
  private Optional<String> earlier(String note, String host) {
    Optional<String> url = startedByDaemon(note, host);
    if (url.isEmpty()) {
      log.warn(
          "pid {}: ignoring the JMX agent note in its /tmp: not an address the daemon starts on {}"
              + " ({} characters)",
          process.pid(),
          host,
          note.length());
    }
    return url;
  }

  static Optional<String> startedByDaemon(String note, String host) {
    Matcher matcher =
        Pattern.compile(
                "service:jmx:rmi:///jndi/rmi://" + Pattern.quote(host) + ":([0-9]{5})/jmxrmi")
            .matcher(note);
    if (!matcher.matches()) {
      return Optional.empty();
    }
    int port = Integer.parseInt(matcher.group(1));
    return port >= FIRST_PORT && port < FIRST_PORT + PORTS
        ? Optional.of(agentUrl(host, port))
        : Optional.empty();
  }

  /** A random port that nothing in the target's network uses now. */
  static int freePort(Set<Integer> inUse) {
    while (true) {
      int port = FIRST_PORT + ThreadLocalRandom.current().nextInt(PORTS);
      if (!inUse.contains(port)) {
        return port;
      }
    }
  }

  /** The target runs a remote JMX agent already: its own, or one an earlier daemon started. */
  private static final class AgentAlreadyRuns extends IOException {
    private static final long serialVersionUID = 1L;

    AgentAlreadyRuns(String message) {
      super(message);
    }
  }

  private static char[] newPassword() {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).toCharArray();
  }

  @Override
  public String describe() {
    return "pid " + process.pid() + " (JMX agent started by the daemon, mutual TLS)";
  }

  /**
   * Stops the agent the daemon started or found ({@code ManagementAgent.stop}), so its port closes
   * and its last password is of no use; then removes the password and access files, and the address
   * note once the agent is gone. An agent that cannot be stopped (a hung JVM) keeps its note, so
   * the next daemon finds it; without the password file it lets nobody in until then.
   */
  @Override
  public void close() {
    agentThread.shutdownNow();
    try {
      // An agent start under way writes the files first: let it finish before removing them.
      agentThread.awaitTermination(connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    boolean stopped = runningAgent().map(this::stop).orElse(false);
    files.ifPresent(
        f -> {
          try {
            f.removeSecrets();
            if (stopped) {
              f.forgetAddress();
            }
          } catch (IOException e) {
            log.debug("pid {}: JMX agent files not removed: {}", process.pid(), e.toString());
          }
        });
  }

  private synchronized Optional<RunningAgent> runningAgent() {
    if (agent == null || !agent.isDone() || agent.isCancelled()) {
      return Optional.empty();
    }
    try {
      return Optional.of(agent.get());
    } catch (ExecutionException | InterruptedException e) {
      return Optional.empty(); // no agent was started
    }
  }

  /**
   * Runs {@code ManagementAgent.stop} in the target through the Attach API ({@link AgentStop}),
   * within the connect timeout (attach hangs on a stopped JVM); the closed port is what says it
   * stopped.
   */
  private boolean stop(RunningAgent running) {
    String why = "";
    ExecutorService stopThread = HelperThread.withQueue("jmx-agent-stop-pid-" + process.pid(), 1);
    try {
      stopThread
          .submit(
              () -> {
                VirtualMachine vm = AttachConnector.attach(process.pid());
                try {
                  return AgentStop.run(vm);
                } finally {
                  vm.detach();
                }
              })
          .get(connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      why = " (interrupted)";
    } catch (ExecutionException e) {
      why = " (" + ConnectFailure.describe(e.getCause()) + ")";
    } catch (TimeoutException e) {
      why = " (no answer within " + connectTimeout.toMillis() + " ms)";
    } finally {
      stopThread.shutdownNow();
    }
    if (stillAccepts(running.host(), running.port())) {
      log.warn(
          "pid {}: its JMX agent at {}:{} still runs, not stopped{}; its password file is removed,"
              + " so it lets nobody in",
          process.pid(),
          running.host(),
          running.port(),
          why);
      return false;
    }
    if (why.isEmpty()) {
      log.info(
          "pid {}: stopped its JMX agent at {}:{}", process.pid(), running.host(), running.port());
    } else { // typically a JVM that exited, and its agent with it
      log.info(
          "pid {}: its JMX agent at {}:{} is closed{}",
          process.pid(),
          running.host(),
          running.port(),
          why);
    }
    return true;
  }

  /**
   * Whether the port still accepts connections once the connect timeout has passed: the JVM closes
   * the listening socket when its RMI objects are unexported, which may trail the command's reply.
   */
  private boolean stillAccepts(String host, int port) {
    long deadline = System.nanoTime() + connectTimeout.toNanos();
    while (accepts(host, port)) {
      if (System.nanoTime() > deadline) {
        return true;
      }
      try {
        TimeUnit.MILLISECONDS.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return true;
      }
    }
    return false;
  }

  private boolean accepts(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), (int) connectTimeout.toMillis());
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
