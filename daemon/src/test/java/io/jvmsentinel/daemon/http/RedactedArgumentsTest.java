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
          -javaagent:/opt/agent.jar=token=abc,port=8126 | -javaagent:/opt/agent.jar=token=****,port=8126
          -javaagent:/opt/agent.jar=server=h;apiKey=xyz | -javaagent:/opt/agent.jar=server=h;apiKey=****
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
          """)
  void masks(String argument, String shown) {
    assertThat(builtIn.one(argument)).isEqualTo(shown);
  }

  @Test
  void operatorPatternsMaskEveryMatchAfterTheBuiltInRules() {
    RedactedArguments masking =
        new RedactedArguments(
            List.of(Pattern.compile("ghp_[A-Za-z0-9]{8,}"), Pattern.compile("(?<=-Dlicence=).*")));
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
