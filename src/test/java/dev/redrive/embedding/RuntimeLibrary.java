package dev.redrive.embedding;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What an embedding service gets, as {@code mvn package} makes it: the runtime jar's entries (the pom's
 * {@code runtime-jar} includes, read from pom.xml so that the list has one home) taken from the compiled classes, and
 * the library's dependencies (the pom's dependencies that are not optional).
 */
final class RuntimeLibrary {
    private static final Pattern RUNTIME_JAR = Pattern.compile("<id>runtime-jar</id>.*?<includes>(.*?)</includes>",
            Pattern.DOTALL);
    private static final Pattern INCLUDE = Pattern.compile("<include>([^<]+)</include>");
    private static final Pattern OPTIONAL = Pattern.compile(
            "<groupId>([^<]+)</groupId><artifactId>([^<]+)</artifactId>[^\\n]*<optional>true</optional>");

    private RuntimeLibrary() {
    }

    /** A fresh directory holding what the runtime jar holds. */
    static Path classes() throws IOException {
        Path classes = Path.of("target", "classes");
        List<PathMatcher> includes = includes();
        Path jar = Files.createTempDirectory("redrive-runtime-jar");
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path relative = classes.relativize(file);
                if (includes.stream().anyMatch(include -> include.matches(relative))) {
                    Files.createDirectories(jar.resolve(relative).getParent());
                    Files.copy(file, jar.resolve(relative));
                }
            }
        }
        return jar;
    }

    /** The class path of the library's dependencies: the test's, less the project's classes and optional artifacts. */
    static String dependencies() {
        List<String> optional = optionalArtifactDirectories();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> library = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            String path = entry.replace(File.separatorChar, '/');
            boolean project = path.endsWith("target/classes") || path.endsWith("target/test-classes");
            boolean test = path.contains("/junit") || path.contains("/assertj") || path.contains("/awaitility")
                    || path.contains("/jqwik") || path.contains("/testfx") || path.contains("/opentest4j");
            if (!project && !test && optional.stream().noneMatch(path::contains)) {
                library.add(entry);
            }
        }
        return String.join(File.pathSeparator, library);
    }

    private static List<PathMatcher> includes() throws IOException {
        Matcher section = RUNTIME_JAR.matcher(Files.readString(Path.of("pom.xml")));
        if (!section.find()) {
            throw new IllegalStateException("pom.xml has no runtime-jar execution with includes");
        }
        List<PathMatcher> matchers = new ArrayList<>();
        Matcher include = INCLUDE.matcher(section.group(1));
        while (include.find()) {
            matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + include.group(1).strip()));
        }
        return matchers;
    }

    /** "/org/openjfx/javafx-controls/" for each optional dependency, as the local repository lays it out. */
    private static List<String> optionalArtifactDirectories() {
        try {
            List<String> directories = new ArrayList<>();
            Matcher dependency = OPTIONAL.matcher(Files.readString(Path.of("pom.xml")));
            while (dependency.find()) {
                directories.add("/" + dependency.group(1).replace('.', '/') + "/" + dependency.group(2) + "/");
            }
            return directories;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
