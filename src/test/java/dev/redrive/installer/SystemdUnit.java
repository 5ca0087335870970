package dev.redrive.installer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What systemd does with a template unit's [Service] section before it starts the program, for the subset of the
 * syntax the shipped units use: the {@code %i} and {@code %%} specifiers, {@code Environment=} then
 * {@code EnvironmentFile=} (the file wins), and ExecStart's {@code ${VAR}} (one word) and {@code $VAR} (split into
 * words, none when empty). Files under {@code /etc/redrive/} are read from {@code etc} instead.
 */
record SystemdUnit(Map<String, List<String>> service) {
    private static final Pattern BRACED = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
    private static final Pattern BARE_WORD = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");

    static SystemdUnit read(Path file) throws IOException {
        Map<String, List<String>> service = new LinkedHashMap<>();
        String section = "";
        for (String line : Files.readAllLines(file)) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            if (trimmed.startsWith("[")) {
                section = trimmed;
            } else if (section.equals("[Service]")) {
                int equals = trimmed.indexOf('=');
                service.computeIfAbsent(trimmed.substring(0, equals), key -> new ArrayList<>())
                        .add(trimmed.substring(equals + 1));
            }
        }
        return new SystemdUnit(service);
    }

    String single(String key) {
        List<String> values = service.getOrDefault(key, List.of());
        if (values.size() != 1) {
            throw new AssertionError(key + "= appears " + values.size() + " times in the unit");
        }
        return values.get(0);
    }

    /** The environment the instance's program sees (besides the inherited one). */
    Map<String, String> environment(String instance, Path etc) throws IOException {
        Map<String, String> environment = new LinkedHashMap<>();
        for (String assignment : service.getOrDefault("Environment", List.of())) {
            put(environment, specifiers(assignment, instance), etc);
        }
        for (String line : Files.readAllLines(local(specifiers(single("EnvironmentFile"), instance), etc))) {
            String trimmed = line.strip();
            if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
                put(environment, trimmed, etc);
            }
        }
        return environment;
    }

    /** ExecStart's words after substitution, its program first. */
    List<String> command(String instance, Map<String, String> environment) {
        List<String> words = new ArrayList<>();
        for (String word : specifiers(single("ExecStart"), instance).split("\\s+")) {
            Matcher bare = BARE_WORD.matcher(word);
            if (bare.matches()) {
                String value = environment.getOrDefault(bare.group(1), "").strip();
                if (!value.isEmpty()) {
                    words.addAll(List.of(value.split("\\s+")));
                }
            } else {
                words.add(BRACED.matcher(word).replaceAll(
                        m -> Matcher.quoteReplacement(environment.getOrDefault(m.group(1), ""))));
            }
        }
        return words;
    }

    static Path local(String path, Path etc) {
        return path.startsWith("/etc/redrive/") ? etc.resolve(path.substring("/etc/redrive/".length())) : Path.of(path);
    }

    private static void put(Map<String, String> environment, String assignment, Path etc) {
        int equals = assignment.indexOf('=');
        String value = assignment.substring(equals + 1);
        environment.put(assignment.substring(0, equals),
                value.startsWith("/etc/redrive/") ? local(value, etc).toString() : value);
    }

    private static String specifiers(String text, String instance) {
        return text.replace("%%", "\u0000").replace("%i", instance).replace("\u0000", "%");
    }
}
