package dev.redrive.embedding;

import dev.redrive.config.RedriveConfig;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.Worker;
import dev.redrive.worker.WorkerState;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The embedding example of docs/embedding.md, taken from it as it is, compiled against the runtime jar alone and run on a fresh
 * namespace: it migrates, starts, runs an operation through its own tool, and stops, closing what it opened.
 */
class EmbeddingExampleTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Pattern EXAMPLE = Pattern.compile("<!-- embedding-example -->\\s*```java\\n(.*?)```", Pattern.DOTALL);

    @Test
    void readmesEmbeddingExample_compilesAndRunsAnOperation() throws Exception {
        Matcher example = EXAMPLE.matcher(Files.readString(Path.of("docs", "embedding.md")));
        assertThat(example.find()).as("docs/embedding.md has the embedding example").isTrue();
        Path dir = Files.createTempDirectory("redrive-embedding");
        Path source = dir.resolve("BillingWorker.java");
        Files.writeString(source, example.group(1));

        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        String runtime = RuntimeLibrary.classes() + java.io.File.pathSeparator + RuntimeLibrary.dependencies();
        int compiled = compiler.run(null, diagnostics, diagnostics, "-classpath", runtime, "-d",
                dir.toString(), source.toString());
        assertThat(compiled).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

        // A namespace never migrated: the example's own migrate() must create the schema.
        ns.database().dropSchema();
        RedriveConfig config = ns.config();
        try (URLClassLoader loader = new URLClassLoader(new URL[]{dir.toUri().toURL()}, getClass().getClassLoader())) {
            Worker worker = (Worker) loader.loadClass("BillingWorker").getMethod("start", RedriveConfig.class)
                    .invoke(null, config);
            try {
                WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
                OperationId id = new OperationId("invoice-7", "charge", 0);
                client.dispatch(client.newDispatch(id, "billing.charge", "1", "{\"amount\":42}", "trace-7", null, null));
                await().atMost(Duration.ofSeconds(20)).until(() -> "SUCCEEDED".equals(ns.database().jdbc().queryOne(
                        "SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), id.value())
                        .orElse(null)));
                assertThat(ns.database().jdbc().queryOne("SELECT result->>'charge_id' FROM operations WHERE operation_id = ?",
                        row -> row.getString(1), id.value())).contains("ch_" + id.idempotencyKey());
            } finally {
                worker.shutdown().get(10, TimeUnit.SECONDS);
            }
            assertThat(worker.state()).isEqualTo(WorkerState.STOPPED);
        }
    }
}
