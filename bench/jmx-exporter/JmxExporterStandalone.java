import io.prometheus.jmx.JmxCollector;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.File;
import java.net.InetAddress;

/**
 * What jmx_exporter's standalone main class ({@code io.prometheus.jmx.Standalone}) does, for
 * bench/run: {@code JmxExporterStandalone HOST PORT CONFIG}. The config's {@code hostPort} names
 * the target; every scrape walks the target's MBeans over remote JMX.
 */
public final class JmxExporterStandalone {
  public static void main(String[] args) throws Exception {
    PrometheusRegistry registry = PrometheusRegistry.defaultRegistry;
    new JmxCollector(new File(args[2]), JmxCollector.Mode.STANDALONE).register(registry);
    HTTPServer.builder()
        .inetAddress(InetAddress.getByName(args[0]))
        .port(Integer.parseInt(args[1]))
        .registry(registry)
        .buildAndStart();
    System.out.println("jmx_exporter standalone listening on " + args[0] + ":" + args[1]);
    Thread.currentThread().join();
  }
}
