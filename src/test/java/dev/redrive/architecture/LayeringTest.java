package dev.redrive.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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

    @Test
    void noPackageCycles() {
        slices().matching("dev.redrive.(**)").should().beFreeOfCycles()
                .because("a package that reaches back up through another cannot be read, tested or moved on its own")
                .check(production);
    }

    @Test
    void viewModelsNeverTouchTheSceneGraph() {
        noClasses().that().haveSimpleNameEndingWith("ViewModel")
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..", "javafx.stage..")
                .because("a view model is tested without a toolkit; only its view knows nodes and windows")
                .check(production);
    }
}
