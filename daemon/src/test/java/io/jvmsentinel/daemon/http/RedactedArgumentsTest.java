package io.jvmsentinel.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Secrets in realistic JVM command lines lose their values; everything else stays readable. */
class RedactedArgumentsTest {
  private final RedactedArguments builtIn = RedactedArguments.builtIn();

  // By default every -D value is masked unless its name is known to be safe: the target's owner
  // decides what goes into a property, and its name need not say "secret".
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          `-Dspring.application.json={"db":{"password":"s3cr3t"}}` | -Dspring.application.json=****
          -Ddb.url=jdbc:postgresql://h/db?user=u&password=p4ss | -Ddb.url=****
          -Dapp.banner=hello | -Dapp.banner=****
          -Dotel.exporter.otlp.headers=Authorization=Bearer abc.def | -Dotel.exporter.otlp.headers=****
          -Dfeature.fast.enabled=true | -Dfeature.fast.enabled=true
          -Dverbose | -Dverbose
          # the allow-list, still through the value rules
          -Dfile.encoding=UTF-8 | -Dfile.encoding=UTF-8
          -Duser.timezone=Europe/Paris | -Duser.timezone=Europe/Paris
          -Djava.rmi.server.hostname=10.0.0.7 | -Djava.rmi.server.hostname=10.0.0.7
          -Dcom.sun.management.jmxremote.port=9010 | -Dcom.sun.management.jmxremote.port=9010
          -Dcom.sun.management.jmxremote.password.file=/etc/jmx/pw | -Dcom.sun.management.jmxremote.password.file=****
          -Djavax.net.ssl.keyStore=/etc/ks.p12 | -Djavax.net.ssl.keyStore=/etc/ks.p12
          -Djavax.net.ssl.keyStorePassword=changeit | -Djavax.net.ssl.keyStorePassword=****
          -Dhttps.proxyHost=proxy.internal | -Dhttps.proxyHost=proxy.internal
          # commands the JVM runs and agent options: anything may be in them
          `-XX:OnError=curl -H "Authorization: Bearer x" https://h/%p` | -XX:OnError=****
          -XX:OnOutOfMemoryError=kill -9 %p | -XX:OnOutOfMemoryError=****
          -javaagent:/opt/dd-java-agent.jar=service=orders,apiKey=x | -javaagent:/opt/dd-java-agent.jar=****
          -agentpath:/opt/yourkit/libyjpagent.so=port=10001,license=ABC | -agentpath:/opt/yourkit/libyjpagent.so=****
          -agentlib:hprof=file=/tmp/x | -agentlib:hprof=****
          -agentlib:jdwp=transport=dt_socket,server=y,address=*:5005 | -agentlib:jdwp=transport=dt_socket,server=y,address=*:5005
          -javaagent:/opt/agent.jar | -javaagent:/opt/agent.jar
          # JVM options: settings, read through the value rules
          -Xmx512m | -Xmx512m
          -XX:ReservedCodeCacheSize=240m | -XX:ReservedCodeCacheSize=240m
          -XX:+UseG1GC | -XX:+UseG1GC
          -XX:StartFlightRecording=filename=/tmp/r.jfr,settings=default | -XX:StartFlightRecording=filename=/tmp/r.jfr,settings=default
          -Xlog:gc*:file=/var/log/gc.log | -Xlog:gc*:file=/var/log/gc.log
          """)
  void masksEveryPropertyValueByDefault(String argument, String shown) {
    assertThat(builtIn.one(argument)).isEqualTo(shown);
  }

  // The value rules, for properties the operator shows (http.showProperties: ['.*']): secrets in
  // names and inside values are still masked.
  private final RedactedArguments everyPropertyShown =
      new RedactedArguments(List.of(), List.of(Pattern.compile(".*")));

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          # by name: any case, anywhere in the name
          -Djavax.net.ssl.keyStorePassword=changeit | -Djavax.net.ssl.keyStorePassword=****
          -Djavax.net.ssl.trustStorePassword=changeit | -Djavax.net.ssl.trustStorePassword=****
          -Dcom.sun.management.jmxremote.password.file=/etc/jmx/pw | -Dcom.sun.management.jmxremote.password.file=****
          -Ddb.secret=s | -Ddb.secret=****
          -Dapi.token=t | -Dapi.token=****
          -Dstripe.api-key=k | -Dstripe.api-key=****
          -Dapp.privateKey=MIIEvQIBADANBg | -Dapp.privateKey=****
          -Dauth=hunter2 | -Dauth=****
          -DPWD=hunter2 | -DPWD=****
          -DDB_PASSWD=hunter2 | -DDB_PASSWD=****
          -Dsecret.token=abc | -Dsecret.token=****
          -Daws.secretAccessKey=wJalrXUtnFEMI | -Daws.secretAccessKey=****
          -Dgcp.credentials.json={"k":1} | -Dgcp.credentials.json=****
          # APM agents
          -Ddd.api.key=0123456789abcdef | -Ddd.api.key=****
          -Delastic.apm.secret_token=s3cr3t | -Delastic.apm.secret_token=****
          -Delastic.apm.api_key=a2V5 | -Delastic.apm.api_key=****
          -Dnewrelic.config.license_key=eu01xx | -Dnewrelic.config.license_key=****
          -Dappdynamics.agent.accountAccessKey=ak-1 | -Dappdynamics.agent.accountAccessKey=****
          -Dotel.exporter.otlp.headers=api-key=abc123,x-team=jvm | -Dotel.exporter.otlp.headers=api-key=****,x-team=jvm
          -Dotel.exporter.otlp.headers=Authorization=Bearer abc.def | -Dotel.exporter.otlp.headers=Authorization=****
          -javaagent:/opt/agent.jar=token=abc,port=8126 | -javaagent:/opt/agent.jar=****
          -agentlib:jdwp=transport=dt_socket,server=y | -agentlib:jdwp=transport=dt_socket,server=y
          # JDBC
          -Ddb.url=jdbc:postgresql://h/db?user=u&password=p4ss&ssl=true | -Ddb.url=jdbc:postgresql://h/db?user=u&password=****&ssl=true
          -Ddb.url=jdbc:mysql://app:p4ss@db:3306/orders | -Ddb.url=jdbc:mysql://app:****@db:3306/orders
          -Ddb.url=jdbc:sqlserver://h:1433;databaseName=x;user=sa;password=p4ss; | -Ddb.url=jdbc:sqlserver://h:1433;databaseName=x;user=sa;password=****;
          -Ddb.url=jdbc:oracle:thin:scott/tiger@db:1521:orcl | -Ddb.url=jdbc:oracle:thin:scott/****@db:1521:orcl
          -Dspring.datasource.url=jdbc:postgresql://h:5432/db | -Dspring.datasource.url=jdbc:postgresql://h:5432/db
          # DSNs and URLs with credentials
          -Dsentry.dsn=https://0f3c9a@o11.ingest.sentry.io/42 | -Dsentry.dsn=https://****@o11.ingest.sentry.io/42
          -Dsentry.dsn=https://public:secret@sentry.example.com/1 | -Dsentry.dsn=https://public:****@sentry.example.com/1
          -Dcache.url=redis://:p4ss@redis:6379/0 | -Dcache.url=redis://:****@redis:6379/0
          -Dmongo.uri=mongodb+srv://app:p4ss@cluster0.example.net/db | -Dmongo.uri=mongodb+srv://app:****@cluster0.example.net/db
          -Dwebhook=https://hooks.example.com/x?token=t0k&team=jvm | -Dwebhook=https://hooks.example.com/x?token=****&team=jvm
          # Kafka SASL JAAS
          `-Dkafka.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="alice-secret";` | `-Dkafka.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="****";`
          `-Dkafka.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username='bob' password='b0b';` | `-Dkafka.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username='bob' password='****';`
          # nothing secret: left alone
          -Djavax.net.ssl.keyStore=/etc/ks.p12 | -Djavax.net.ssl.keyStore=/etc/ks.p12
          -Dcom.sun.management.jmxremote.authenticate=false | -Dcom.sun.management.jmxremote.authenticate=false
          -Dadmin.email=ops@example.com | -Dadmin.email=ops@example.com
          -Dhttp.keepAlive=true | -Dhttp.keepAlive=true
          -Xmx512m | -Xmx512m
          -XX:ReservedCodeCacheSize=240m | -XX:ReservedCodeCacheSize=240m
          -XX:+UseG1GC | -XX:+UseG1GC
          # JSON
          `-Dspring.application.json={"db":{"url":"jdbc:x","password":"s3\\"cr3t"},"port":8080}` | `-Dspring.application.json={"db":{"url":"jdbc:x","password":"****"},"port":8080}`
          `-Dapp.json={"apiKey": 1234567, "name": "orders"}` | `-Dapp.json={"apiKey": ****, "name": "orders"}`
          `-Dapp.json={"clientSecret":"a,b}c","region":"eu"}` | `-Dapp.json={"clientSecret":"****","region":"eu"}`
          # HTTP headers
          -Dotel.exporter.otlp.headers=Authorization: Bearer eyJhbGciOi.x.y | -Dotel.exporter.otlp.headers=Authorization: ****
          -Dapp.headers=X-Api-Key: abc123,X-Team: jvm | -Dapp.headers=X-Api-Key: ****,X-Team: jvm
          `-Dapp.curl=-H "Proxy-Authorization: Basic dXNlcjpwYXNz" -H "Accept: */*"` | `-Dapp.curl=-H "Proxy-Authorization: ****" -H "Accept: */*"`
          # URLs whose passwords hold special characters
          -Ddb.url=postgresql://app:p@ss:w#rd?x@db.example.com:5432/orders | -Ddb.url=postgresql://app:****@db.example.com:5432/orders
          -Dbroker=amqps://svc:%40%2Fx%3A@mq.example.com | -Dbroker=amqps://svc:****@mq.example.com
          -Dproxy=http://u%20ser:pa%24%24@proxy:3128 | -Dproxy=http://u%20ser:****@proxy:3128
          -Dmirror=https://tok!en$@repo.example.com/x | -Dmirror=https://****@repo.example.com/x
          """)
  void valueRulesMaskSecretsInShownValues(String argument, String shown) {
    assertThat(everyPropertyShown.one(argument)).isEqualTo(shown);
  }

  @Test
  void operatorPatternsMaskEveryMatchAfterTheBuiltInRules() {
    RedactedArguments masking =
        new RedactedArguments(
            List.of(Pattern.compile("ghp_[A-Za-z0-9]{8,}"), Pattern.compile("(?<=-Dlicence=).*")),
            List.of(Pattern.compile("git\\.remote|licence")));
    assertThat(
            masking.of(
                List.of(
                    "-Dgit.remote=https://github.example/x?ref=ghp_abcdefgh1234",
                    "-Dlicence=ACME-42",
                    "-Dpassword=x",
                    "-Xss1m")))
        .containsExactly(
            "-Dgit.remote=https://github.example/x?ref=****",
            "-Dlicence=****",
            "-Dpassword=****",
            "-Xss1m");
  }
}
