package dev.redrive.console.profile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.redrive.config.ConfigurationException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Connection profiles of one user, as {@code profiles.json} in the user's config folder. Never holds passwords. */
public final class ProfileStore {
    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;

    public ProfileStore(Path directory) {
        this.file = directory.resolve("profiles.json");
    }

    public Path file() {
        return file;
    }

    public synchronized List<ConnectionProfile> list() {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            ConnectionProfile[] profiles = JSON.readValue(file.toFile(), ConnectionProfile[].class);
            return List.of(profiles).stream().sorted(Comparator.comparing(ConnectionProfile::name)).toList();
        } catch (IOException e) {
            throw new ConfigurationException("cannot read connection profiles from " + file + ": " + e.getMessage());
        }
    }

    public Optional<ConnectionProfile> find(String name) {
        return list().stream().filter(profile -> profile.name().equals(name)).findFirst();
    }

    /** Adds the profile, or replaces the one with the same name; a name that differs from another only in case is refused. */
    public synchronized void save(ConnectionProfile profile) {
        List<ConnectionProfile> profiles = new ArrayList<>(list());
        checkName(profiles, profile.name());
        profiles.removeIf(existing -> existing.name().equals(profile.name()));
        profiles.add(profile);
        write(profiles);
    }

    /**
     * Two names that differ only in case would be one file name on macOS and Windows and one entry in keychains that
     * ignore case, so a remembered password could serve the other profile; they would also read as one in the list.
     */
    public static void checkName(List<ConnectionProfile> existing, String name) {
        existing.stream().map(ConnectionProfile::name)
                .filter(other -> other.equalsIgnoreCase(name) && !other.equals(name))
                .findFirst()
                .ifPresent(other -> {
                    throw new ConfigurationException("a profile named " + other + " exists, and " + name
                            + " differs from it only in case; expected another name, or " + other + " itself to change it");
                });
    }

    public synchronized void delete(String name) {
        List<ConnectionProfile> profiles = new ArrayList<>(list());
        if (profiles.removeIf(existing -> existing.name().equals(name))) {
            write(profiles);
        }
    }

    private void write(List<ConnectionProfile> profiles) {
        try {
            Files.createDirectories(file.getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            JSON.writeValue(temporary.toFile(), profiles);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write connection profiles to " + file, e);
        }
    }
}
