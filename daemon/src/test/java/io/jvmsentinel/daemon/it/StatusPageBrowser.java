package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Headless Debian chromium through chromium-driver, as the status page ITs drive it: every request
 * not on loopback goes to a dead proxy, and the browser's console and network logs are kept for the
 * tests to read. Screenshots go to {@link #SCREENSHOTS}.
 */
final class StatusPageBrowser implements AutoCloseable {
  static final Path SCREENSHOTS = Path.of("target", "screenshots");
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChromeDriver driver;

  private StatusPageBrowser(ChromeDriver driver) {
    this.driver = driver;
  }

  /** Starts the browser; fails (never skips) when chromium or its driver is missing. */
  static StatusPageBrowser start() throws IOException {
    assertThat(CHROMIUM)
        .as("chromium is needed: run .ci/install-test-deps (apt-get install chromium)")
        .isExecutable();
    assertThat(CHROMEDRIVER)
        .as("chromedriver is needed: run .ci/install-test-deps (apt-get install chromium-driver)")
        .isExecutable();
    Files.createDirectories(SCREENSHOTS);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,2200",
        // Anything not on loopback would go to a proxy on a closed port and fail: the page must
        // work without it. The performance log shows what the page asked for.
        "--proxy-server=http://127.0.0.1:9",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.PERFORMANCE, Level.ALL);
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    // The driver given explicitly: Selenium Manager must never try to download one.
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
            .usingAnyFreePort()
            .build();
    return new StatusPageBrowser(new ChromeDriver(service, options));
  }

  ChromeDriver driver() {
    return driver;
  }

  Object js(String script, Object... arguments) {
    return driver.executeScript(script, arguments);
  }

  boolean noAlertOpen() {
    try {
      driver.switchTo().alert();
      return false;
    } catch (NoAlertPresentException e) {
      return true;
    }
  }

  /** The URLs the browser requested since the last call (the performance log is drained). */
  List<String> requestedUrls() throws IOException {
    List<String> urls = new ArrayList<>();
    for (LogEntry entry : driver.manage().logs().get(LogType.PERFORMANCE)) {
      JsonNode message = JSON.readTree(entry.getMessage()).get("message");
      if (message.get("method").asText().equals("Network.requestWillBeSent")) {
        urls.add(message.get("params").get("request").get("url").asText());
      }
    }
    return urls;
  }

  /** Asserts the browser requested something since the last call, and only from loopback. */
  void assertOnlyLoopbackRequested() throws IOException {
    assertThat(requestedUrls())
        .isNotEmpty()
        .allSatisfy(
            url ->
                assertThat(URI.create(url).getHost())
                    .as("request to %s", url)
                    .isEqualTo("127.0.0.1"));
  }

  /** The SEVERE console entries since the last call (the browser log is drained). */
  List<String> severeConsoleEntries() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage)
        .toList();
  }

  void screenshot(String name) throws IOException {
    Files.write(SCREENSHOTS.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
  }

  /** Waits until the text of the element with this id passes {@code check}. */
  void awaitText(String id, Duration timeout, Consumer<String> check) {
    await()
        .atMost(timeout)
        .untilAsserted(() -> check.accept(driver.findElement(By.id(id)).getText()));
  }

  @Override
  public void close() {
    driver.quit();
  }
}
