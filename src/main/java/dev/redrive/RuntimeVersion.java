package dev.redrive;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of this build, recorded in every dispatch and every DLQ entry as runtime_version. */
public final class RuntimeVersion {
    private static final String VERSION = load();

    private RuntimeVersion() {
    }

    public static String current() {
        return VERSION;
    }

    /** What a dispatch carries: which runtime wrote it, and which version. */
    public static String wireValue() {
        return "redrive-java/" + VERSION;
    }

    private static String load() {
        try (InputStream in = RuntimeVersion.class.getResourceAsStream("/redrive-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
