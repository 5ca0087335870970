package dev.redrive.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README's map of the packages is drawn from the code: the top-level packages of {@code dev.redrive} and which depends
 * on which, each arrow one that no longer path already implies (the layering is acyclic, so that reduction is unique).
 * When a dependency between two packages appears or goes, this test fails and prints the map to paste into README.
 */
class PackageMapTest {
    private static final String PREFIX = "dev.redrive.";
    private static final String BEGIN = "```mermaid\n";
    private static final String END = "```\n";

    @Test
    void readmesPackageMap_isTheOneTheCodeDraws() throws IOException {
        String drawn = map(dependencies());
        String readme = Files.readString(Path.of("README.md"));
        int start = readme.indexOf(BEGIN);
        assertThat(start).as("README has a mermaid package map").isNotNegative();
        int end = readme.indexOf(END, start + BEGIN.length());
        assertThat(readme.substring(start, end + END.length()))
                .as("README's package map; the code draws this one, paste it over the old one:%n%s", drawn)
                .isEqualTo(drawn);
    }

    /** Top-level package -> the top-level packages its classes use, itself and the root package left out. */
    private static Map<String, Set<String>> dependencies() {
        JavaClasses production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.redrive");
        Map<String, Set<String>> uses = new TreeMap<>();
        for (JavaClass type : production) {
            String from = topLevel(type);
            if (from == null) {
                continue;
            }
            Set<String> targets = uses.computeIfAbsent(from, unused -> new TreeSet<>());
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                String to = topLevel(dependency.getTargetClass());
                if (to != null && !to.equals(from)) {
                    targets.add(to);
                }
            }
        }
        return uses;
    }

    private static String topLevel(JavaClass type) {
        String name = type.getPackageName();
        if (!name.startsWith(PREFIX)) {
            return null;
        }
        String rest = name.substring(PREFIX.length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    /** The mermaid block: every package, and the arrows no longer path implies, in name order. */
    private static String map(Map<String, Set<String>> uses) {
        StringBuilder block = new StringBuilder(BEGIN).append("graph TD\n");
        uses.forEach((from, targets) -> {
            Set<String> direct = targets.stream().filter(to -> !reachableAround(uses, from, to))
                    .collect(Collectors.toCollection(TreeSet::new));
            if (direct.isEmpty()) {
                block.append("    ").append(from).append('\n');
            }
            direct.forEach(to -> block.append("    ").append(from).append(" --> ").append(to).append('\n'));
        });
        return block.append(END).toString();
    }

    /** Whether {@code to} is reached from {@code from} through another package. */
    private static boolean reachableAround(Map<String, Set<String>> uses, String from, String to) {
        Deque<String> open = new ArrayDeque<>();
        Set<String> seen = new TreeSet<>();
        uses.getOrDefault(from, Set.of()).stream().filter(next -> !next.equals(to)).forEach(open::add);
        while (!open.isEmpty()) {
            String at = open.pop();
            if (at.equals(to)) {
                return true;
            }
            if (seen.add(at)) {
                open.addAll(uses.getOrDefault(at, Set.of()));
            }
        }
        return false;
    }
}
