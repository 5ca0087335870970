package dev.redrive.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

class LayeringTest {
    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.redrive");
    }

    @Test
    void onlyTheConsoleKnowsJavaFx() {
        assertThat(production.stream().filter(c -> c.getPackageName().startsWith("dev.redrive.console"))).isNotEmpty();
        noClasses().that().resideOutsideOfPackage("dev.redrive.console..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.controlsfx..", "atlantafx..")
                .because("the runtime, the store and the triage engine must run without a toolkit")
                .check(production);
    }

    /** Top-level packages, the rooms people think in: a cycle between two of them hides in a leaf-level slicing. */
    @Test
    void topLevelPackagesDependOnEachOtherInOneDirection() {
        slices().matching("dev.redrive.(*)..").should().beFreeOfCycles().check(production);
    }

    @Test
    void theRuntimeKnowsNothingOfTheApplication() {
        noClasses().that().resideInAnyPackage("dev.redrive.identity..", "dev.redrive.model..", "dev.redrive.config..",
                        "dev.redrive.envelope..", "dev.redrive.broker..", "dev.redrive.store..", "dev.redrive.worker..",
                        "dev.redrive.secret..", "dev.redrive.tls..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.redrive.triage..", "dev.redrive.report..",
                        "dev.redrive.services..", "dev.redrive.demo..", "dev.redrive.console..", "dev.redrive.cli..",
                        "dev.redrive.bench..", "dev.redrive.health..", "dev.redrive.timeline..")
                .because("a service embeds the runtime alone (the runtime jar, RuntimeLibraryTest)")
                .check(production);
    }

    @Test
    void theDemoAndTheBenchAreLeavesOnlyTheCommandLineKnows() {
        noClasses().that().resideOutsideOfPackages("dev.redrive.demo..", "dev.redrive.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.redrive.demo..")
                .because("the product's services get the demo's tool endpoints from whoever wires them")
                .check(production);
        noClasses().that().resideOutsideOfPackages("dev.redrive.bench..", "dev.redrive.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.redrive.bench..")
                .because("benchmarks and their data generator are tools of the command line, not of the product")
                .check(production);
    }

    @Test
    void onlyTheConsoleKnowsTheOsKeychain() {
        noClasses().that().resideOutsideOfPackage("dev.redrive.console..")
                .should().dependOnClassesThat().resideInAnyPackage("com.github.javakeyring..")
                .because("java-keyring is an optional dependency of the console, never of an embedding service")
                .check(production);
    }

    @Test
    void theConsoleGoesThroughTheTriageAndStoreApis() {
        noClasses().that().resideInAPackage("dev.redrive.console..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "io.lettuce..")
                .because("views and view-models call the triage and store APIs, never the servers directly")
                .check(production);
    }

    /**
     * The console's way to the servers is the composition root that the CLI uses too: screens cannot wire store or
     * broker classes of their own, so both front ends run the same services. Enums (an outcome the operator picks) are
     * values, not access.
     */
    @Test
    void theConsoleReachesTheStoreAndTheBrokerOnlyThroughTriageServices() {
        DescribedPredicate<JavaClass> storeOrBroker = JavaClass.Predicates
                .resideInAnyPackage("dev.redrive.store..", "dev.redrive.broker..", "dev.redrive.worker..")
                .and(DescribedPredicate.not(DescribedPredicate.describe("enums", JavaClass::isEnum)));
        noClasses().that().resideInAPackage("dev.redrive.console..")
                .should().dependOnClassesThat(storeOrBroker)
                .because("the console opens the store and the broker through dev.redrive.services.TriageServices only")
                .check(production);
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.redrive.(**)").should().beFreeOfCycles()
                .because("a package that reaches back up through another cannot be read, tested or moved on its own")
                .check(production);
    }

    /**
     * Deciding one item or a chunk is what batches, durable batches and the verification build on: it knows none of
     * them, and an in-memory batch knows nothing of the durable one built on its chunk runner.
     */
    @Test
    void decidingKnowsNothingOfTheBatchesBuiltOnIt() {
        noClasses().that().resideInAPackage("dev.redrive.triage.decision")
                .should().dependOnClassesThat().resideInAnyPackage("dev.redrive.triage.decision.batch..",
                        "dev.redrive.triage.decision.durable..", "dev.redrive.triage.decision.verify..")
                .because("one decision is a chunk of one: the same code whether or not a batch runs it")
                .check(production);
        noClasses().that().resideInAPackage("dev.redrive.triage.decision.batch..")
                .should().dependOnClassesThat().resideInAPackage("dev.redrive.triage.decision.durable..")
                .because("a batch in memory runs without the batches' table")
                .check(production);
    }

    /**
     * The demo tools' tables are the demo's own (it creates them, resources/db/demo): the product neither reads nor
     * writes them, so nothing it decides depends on one tool's storage. SQL lives in string literals, which ArchUnit
     * does not see, hence a scan of the sources.
     */
    @Test
    void onlyTheDemoNamesTheDemoTables() throws IOException {
        Path sources = Path.of("src/main/java");
        Path demo = sources.resolve("dev/redrive/demo");
        Pattern demoTable = Pattern.compile("\\bdemo_[a-z_]+", Pattern.CASE_INSENSITIVE);
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") && !f.startsWith(demo)).toList()) {
                Matcher matcher = demoTable.matcher(Files.readString(file));
                while (matcher.find()) {
                    found.add(sources.relativize(file) + ": " + matcher.group());
                }
            }
        }
        assertThat(found).as("demo tables named outside dev.redrive.demo").isEmpty();
    }

    /** A view model, or a class nested in one (its rows, its records, its lambdas' classes). */
    private static final DescribedPredicate<JavaClass> VIEW_MODELS = DescribedPredicate.describe(
            "view models and the classes nested in them", javaClass -> {
                JavaClass outermost = javaClass;
                while (outermost.getEnclosingClass().isPresent()) {
                    outermost = outermost.getEnclosingClass().get();
                }
                return outermost.getSimpleName().endsWith("ViewModel");
            });

    @Test
    void viewModelsNeverTouchTheSceneGraph() {
        assertThat(production.stream().filter(VIEW_MODELS)).hasSizeGreaterThan(8);
        noClasses().that(VIEW_MODELS)
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..", "javafx.stage..")
                .because("a view model is tested without a toolkit; only its view knows nodes and windows")
                .check(production);
    }
}
