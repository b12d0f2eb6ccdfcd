package io.jvmsentinel.daemon.web;

import io.jvmsentinel.daemon.http.HttpEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * {@code GET /ui/{file}}: the status page's scripts and styles, from the jar (our own files and the
 * uPlot webjar from Maven Central): nothing is fetched from elsewhere, so the page works in an
 * air-gapped cluster. A fixed table of files, read once at start: no path from a request ever
 * reaches the class loader.
 */
public final class PageAssets implements HttpEndpoint.Route {
  public static final String PREFIX = "/ui/";
  private static final String OWN = "io/jvmsentinel/daemon/web/";
  private static final String UPLOT_POM = "META-INF/maven/org.webjars.npm/uplot/pom.properties";

  /** One file as served. */
  private record Asset(String contentType, byte[] body) {}

  private final Map<String, Asset> assets = new LinkedHashMap<>();

  public PageAssets() {
    String uplot = "META-INF/resources/webjars/uplot/" + uplotVersion() + "/";
    add("page.js", OWN + "page.js", "text/javascript; charset=utf-8");
    add("flame.js", OWN + "flame.js", "text/javascript; charset=utf-8");
    add("page.css", OWN + "page.css", "text/css; charset=utf-8");
    add("uPlot.iife.min.js", uplot + "dist/uPlot.iife.min.js", "text/javascript; charset=utf-8");
    add("uPlot.min.css", uplot + "dist/uPlot.min.css", "text/css; charset=utf-8");
    add("LICENSE-uPlot.txt", uplot + "LICENSE", "text/plain; charset=utf-8");
  }

  /** The page's own HTML, from the same place as its scripts. */
  static byte[] html() {
    return read(OWN + "page.html");
  }

  /** Bytes of every file the page loads (HTML, scripts, styles): its weight. */
  public long pageWeight() {
    long total = html().length;
    for (Map.Entry<String, Asset> asset : assets.entrySet()) {
      if (!asset.getKey().startsWith("LICENSE")) {
        total += asset.getValue().body().length;
      }
    }
    return total;
  }

  private void add(String name, String resource, String contentType) {
    assets.put(name, new Asset(contentType, read(resource)));
  }

  private static String uplotVersion() {
    Properties pom = new Properties();
    try (InputStream in = open(UPLOT_POM)) {
      pom.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pom.getProperty("version");
  }

  private static byte[] read(String resource) {
    try (InputStream in = open(resource)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InputStream open(String resource) {
    InputStream in = PageAssets.class.getClassLoader().getResourceAsStream(resource);
    if (in == null) {
      // A build without the webjar or the page files: fail at start, not at the first visit.
      throw new IllegalStateException("the jar lacks " + resource + "; rebuild the daemon");
    }
    return in;
  }

  @Override
  public HttpEndpoint.Response get(HttpEndpoint.Request request) {
    Asset asset = assets.get(request.path().substring(PREFIX.length()));
    if (asset == null) {
      throw new HttpEndpoint.NotFound("no such file; the status page is at /");
    }
    return ContentSecurity.apply(new HttpEndpoint.Response(200, asset.contentType(), asset.body()));
  }
}
