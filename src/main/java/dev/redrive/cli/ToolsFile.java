package dev.redrive.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.redrive.config.ConfigurationException;
import dev.redrive.config.FileProblem;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.model.TypedDuration;
import dev.redrive.secret.JsonErrors;
import dev.redrive.worker.Worker;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.tool.HttpTool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The tools a CLI worker serves, from a JSON or YAML file: each an {@link HttpTool} (name, URL, look-up endpoint,
 * schema version, request timeout, rate budget), and the worker's retry limits per failure class. A mistake is one
 * line naming the file, the entry and what is expected.
 */
record ToolsFile(List<Entry> tools, Retry retry) {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

    record Entry(String name, String url, String lookup, @JsonProperty("schema_version") String schemaVersion,
                 @JsonProperty("request_timeout") String requestTimeout, Budget budget) {
    }

    record Budget(@JsonProperty("per_second") double perSecond, int burst) {
    }

    record Retry(@JsonProperty("max_attempts") Map<String, Integer> maxAttempts,
                 @JsonProperty("base_delay") String baseDelay, @JsonProperty("max_delay") String maxDelay) {
    }

    static ToolsFile read(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        ObjectMapper mapper = (name.endsWith(".yaml") || name.endsWith(".yml") ? new ObjectMapper(new YAMLFactory())
                : new ObjectMapper()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        ToolsFile parsed;
        try {
            parsed = mapper.readValue(Files.readString(file), ToolsFile.class);
        } catch (UnrecognizedPropertyException e) {
            throw new ConfigurationException(file + ": unknown field '" + e.getPropertyName() + "'; expected one of "
                    + e.getKnownPropertyIds());
        } catch (JsonProcessingException e) {
            throw new ConfigurationException(file + ": not a tools file: " + JsonErrors.describe(e));
        } catch (IOException e) {
            throw new ConfigurationException("cannot read the tools file " + file + ": " + FileProblem.reading(e));
        }
        if (parsed == null || parsed.tools() == null || parsed.tools().isEmpty()) {
            throw new ConfigurationException(file + ": no tools; expected \"tools\": [{\"name\": ..., \"url\": ...}]");
        }
        return parsed;
    }

    /** Adds every tool, its budget and the retry limits to a worker being built. */
    void configure(Worker.Builder builder, Path file) {
        for (int i = 0; i < tools.size(); i++) {
            Entry entry = tools.get(i);
            String where = file + ": tools[" + i + "]";
            if (entry.name() == null || !OperationId.isValidId(entry.name())) {
                throw new ConfigurationException(where + ": name must match [A-Za-z0-9._-]{1,128}, got " + entry.name());
            }
            where = file + ": tool " + entry.name();
            HttpTool.Builder tool = HttpTool.builder(entry.name(),
                    entry.schemaVersion() == null ? "1" : entry.schemaVersion(),
                    HttpUrl.parse(entry.url(), where + ": url"));
            if (entry.lookup() != null) {
                tool.lookupEndpoint(HttpUrl.parse(entry.lookup(), where + ": lookup"));
            }
            if (entry.requestTimeout() != null) {
                tool.requestTimeout(duration(entry.requestTimeout(), where + ": request_timeout"));
            }
            builder.tool(tool.build());
            if (entry.budget() != null) {
                if (entry.budget().perSecond() <= 0 || entry.budget().burst() < 1) {
                    throw new ConfigurationException(where + ": budget needs per_second > 0 and burst >= 1");
                }
                builder.toolBudget(entry.name(), entry.budget().perSecond(), entry.budget().burst());
            }
        }
        if (retry != null) {
            builder.retryPolicy(retryPolicy(file));
        }
    }

    private BackoffRetryPolicy retryPolicy(Path file) {
        BackoffRetryPolicy.Builder policy = BackoffRetryPolicy.builder();
        if (retry.maxAttempts() != null) {
            retry.maxAttempts().forEach((failureClass, attempts) -> {
                FailureClass parsed;
                try {
                    parsed = FailureClass.valueOf(failureClass.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new ConfigurationException(file + ": retry.max_attempts: unknown failure class '"
                            + failureClass + "'; expected one of " + List.of(FailureClass.values()));
                }
                if (attempts == null || attempts < 1) {
                    throw new ConfigurationException(file + ": retry.max_attempts." + failureClass + " must be 1 or more");
                }
                policy.maxAttempts(parsed, attempts);
            });
        }
        if (retry.baseDelay() != null) {
            policy.baseDelay(duration(retry.baseDelay(), file + ": retry.base_delay"));
        }
        if (retry.maxDelay() != null) {
            policy.maxDelay(duration(retry.maxDelay(), file + ": retry.max_delay"));
        }
        return policy.build();
    }

    /** A duration as {@link TypedDuration} reads it; a line naming {@code where} when it is none. */
    static Duration duration(String text, String where) {
        try {
            return TypedDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(where + " must be a duration like " + TypedDuration.FORMS + ", got " + text);
        }
    }
}
