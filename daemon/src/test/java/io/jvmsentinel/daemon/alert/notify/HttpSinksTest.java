package io.jvmsentinel.daemon.alert.notify;

import static io.jvmsentinel.daemon.alert.notify.TestNotifications.firing;
import static io.jvmsentinel.daemon.alert.notify.TestNotifications.resolved;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.support.Backoff;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HTTP sinks against a real local receiver. */
class HttpSinksTest {
  static final Duration TIMEOUT = Duration.ofMillis(500);

  final Receiver receiver;
  final HttpClient client = JsonPoster.newClient(TIMEOUT);
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final List<Duration> waits = new CopyOnWriteArrayList<>();
  Delivery delivery;

  HttpSinksTest() throws IOException {
    receiver = new Receiver();
  }

  @AfterEach
  void close() {
    if (delivery != null) {
      delivery.close(Duration.ZERO);
    }
    receiver.close();
  }

  Delivery deliver(Notifier notifier) {
    delivery =
        Delivery.start(
            notifier,
            100,
            new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), () -> 1.0),
            waits::add, // recorded, not slept
            registry);
    return delivery;
  }

  double count(String sink, String outcome) {
    return registry
        .get("jvm.sentinel.notifications")
        .tags("sink", sink, "outcome", outcome)
        .counter()
        .count();
  }

  @Test
  void webhookPostsTheNotificationWithItsHeaders() throws Exception {
    new WebhookNotifier(receiver.url("/hooks/jvm"), Map.of("X-Team", "jvm"), client, TIMEOUT)
        .send(firing());

    Receiver.Request request = receiver.requests.get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/hooks/jvm");
    assertThat(request.headers().getFirst("X-Team")).isEqualTo("jvm");
    assertThat(request.headers().getFirst("Content-Type")).isEqualTo("application/json");
    assertThat(request.body()).isEqualTo(WebhookNotifier.body(firing()));
  }

  @Test
  void slackReceivesTheMessage() throws Exception {
    Secret url = Secret.of(receiver.url("/services/T0/B0/s3cr3t").toString());
    new SlackNotifier(url, client, TIMEOUT).send(resolved());

    assertThat(receiver.requests.get(0).path()).isEqualTo("/services/T0/B0/s3cr3t");
    assertThat(receiver.requests.get(0).body()).isEqualTo(SlackNotifier.body(resolved()));
  }

  @Test
  void slackErrorsNeverShowTheWebhookPath() {
    receiver.script.add(Receiver.Answer.status(500));
    Secret url = Secret.of(receiver.url("/services/T0/B0/s3cr3t").toString());

    IOException e =
        catchThrowableOfType(
            IOException.class, () -> new SlackNotifier(url, client, TIMEOUT).send(firing()));

    assertThat(e).hasMessageContaining("HTTP 500").hasMessageNotContaining("s3cr3t");
    assertThat(e).hasMessageContaining(receiver.url("/…").toString());
  }

  @Test
  void pagerDutyReceivesTriggerThenResolve() throws Exception {
    Secret key = Secret.of("R0UT1NG");
    PagerDutyNotifier pd = new PagerDutyNotifier(key, receiver.url("/v2/enqueue"), client, TIMEOUT);

    pd.send(firing());
    pd.send(resolved());

    assertThat(receiver.requests).extracting(Receiver.Request::path).containsOnly("/v2/enqueue");
    assertThat(receiver.accepted())
        .containsExactly(
            PagerDutyNotifier.body(firing(), key), PagerDutyNotifier.body(resolved(), key));
  }

  @Test
  void twoServerErrorsThenSuccessDeliversOnceInOrderWithTheResolveAfterTheTrigger() {
    receiver.script.add(Receiver.Answer.status(500));
    receiver.script.add(Receiver.Answer.status(503));
    deliver(new WebhookNotifier(receiver.url("/hook"), Map.of(), client, TIMEOUT));

    delivery.submit(firing());
    delivery.submit(resolved());

    // The receiver records a request before it answers: wait for the sender to see the answer.
    await().until(() -> count("webhook", "delivered") == 2);
    assertThat(receiver.requests)
        .extracting(Receiver.Request::answeredWith)
        .containsExactly(500, 503, 200, 200);
    assertThat(receiver.requests.subList(0, 3))
        .extracting(Receiver.Request::body)
        .containsOnly(WebhookNotifier.body(firing()));
    assertThat(receiver.accepted())
        .containsExactly(WebhookNotifier.body(firing()), WebhookNotifier.body(resolved()));
    assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(count("webhook", "retried")).isEqualTo(2);
    assertThat(count("webhook", "delivered")).isEqualTo(2);
  }

  @Test
  void aHangingReceiverTimesOutAndTheAttemptIsRetried() {
    receiver.script.add(Receiver.Answer.HANG);
    deliver(new WebhookNotifier(receiver.url("/hook"), Map.of(), client, TIMEOUT));

    delivery.submit(firing());

    await().until(() -> count("webhook", "delivered") == 1);
    assertThat(receiver.requests).hasSize(2);
    assertThat(count("webhook", "retried")).isEqualTo(1);
    assertThat(count("webhook", "delivered")).isEqualTo(1);
  }

  @Test
  void aHangingReceiverFailsTheAttemptWithATimeout() {
    receiver.script.add(Receiver.Answer.HANG);
    WebhookNotifier webhook =
        new WebhookNotifier(receiver.url("/hook"), Map.of(), client, Duration.ofMillis(200));

    IOException e = catchThrowableOfType(IOException.class, () -> webhook.send(firing()));

    assertThat(e).isNotInstanceOf(RejectedException.class);
    assertThat(e.getCause()).isInstanceOf(HttpTimeoutException.class);
  }

  @Test
  void redirectsAreNotFollowedAndClientErrorsAreRejected() {
    receiver.script.add(new Receiver.Answer(307, "http://elsewhere.example.com/hook"));
    receiver.script.add(Receiver.Answer.status(400));
    WebhookNotifier webhook = new WebhookNotifier(receiver.url("/hook"), Map.of(), client, TIMEOUT);

    assertThat(catchThrowableOfType(RejectedException.class, () -> webhook.send(firing())))
        .hasMessageContaining("HTTP 307")
        .hasMessageContaining("redirects are not followed (to elsewhere.example.com)");
    assertThat(catchThrowableOfType(RejectedException.class, () -> webhook.send(firing())))
        .hasMessageContaining("HTTP 400");
    assertThat(receiver.requests).hasSize(2); // nothing went to elsewhere.example.com
  }
}
