package dev.redrive.console.wizard;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.detail.ToolSchemaRecord;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/** Step 3: every precondition of every item checked against the store's facts, and the remedy for each failed one. */
final class PreconditionsStep {
    private final StepWork work;
    private final ReadOnlyBooleanWrapper checked = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper anyDecision = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper checkSummary = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper blockedReason = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper schemaChange = new ReadOnlyStringWrapper("");
    private final ObservableList<CheckTally> tallies = FXCollections.observableArrayList();
    private final ObservableList<Remedy> remedies = FXCollections.observableArrayList();
    private final Map<String, List<ToolSchemaRecord>> schemaVersions = new HashMap<>();

    PreconditionsStep(StepWork work) {
        this.work = work;
    }

    /**
     * Checks every item now; {@code choicesChanged} runs once the checks are summed up, before the step counts as
     * checked, so that the decision step's choices follow them.
     */
    void recheck(Runnable choicesChanged) {
        checked.set(false);
        Set<String> toolsLoaded = new LinkedHashSet<>();
        WizardBackend backend = work.backend();
        UiExecutor executor = work.executor();
        work.run("Checking preconditions", List.copyOf(work.items()), item -> {
            PreconditionReport report = backend.check(item.target());
            String tool = item.entryOnly() ? null : schemaChangedTool(report);
            List<ToolSchemaRecord> versions = tool != null && toolsLoaded.add(tool) ? backend.schemaVersions(tool) : null;
            executor.onUi(() -> {
                if (versions != null) {
                    schemaVersions.put(tool, versions);
                }
                item.checked(report);
            });
        }, () -> summarizeChecks(choicesChanged));
    }

    /** The checks no longer hold (the entries are being read again). */
    void uncheck() {
        checked.set(false);
    }

    /** The tool whose current schema version is not the one the item was dispatched with; null when it is. */
    private static String schemaChangedTool(PreconditionReport report) {
        Map<String, Object> facts = report.result(PreconditionId.TOOL_SCHEMA).facts();
        Object current = facts.get("current_version");
        return current == null || current.equals(facts.get("dispatched_version")) ? null : Objects.toString(facts.get("tool"));
    }

    private void summarizeChecks(Runnable choicesChanged) {
        List<WizardItem> items = work.items();
        int pass = (int) items.stream().filter(WizardItem::passes).count();
        tallies.setAll(CheckTally.of(items));
        WizardItem first = work.first();
        if (work.isBatch()) {
            checkSummary.set(pass + " of " + items.size() + " entries pass every check"
                    + (pass == items.size() ? "" : "; " + (items.size() - pass) + " blocked"));
            blockedReason.set(tallies.stream().map(CheckTally::line).collect(Collectors.joining("\n")));
            if (items.stream().noneMatch(PreconditionsStep::allowsAnything)) {
                blockedReason.set(blockedReason.get() + "\nNo entry can get any decision.");
            }
        } else {
            checkSummary.set(first.checkSummaryProperty().get());
            blockedReason.set(first.passes() ? "" : nextStep(first));
        }
        schemaChange.set(work.isBatch() ? "" : describeSchemaChange(first));
        remedies.setAll(findRemedies());
        anyDecision.set(items.stream().anyMatch(PreconditionsStep::allowsAnything));
        choicesChanged.run();
        checked.set(true);
    }

    private static boolean allowsAnything(WizardItem item) {
        return Arrays.stream(DecisionKind.values()).anyMatch(item::allows);
    }

    /** For one blocked item: what is left to decide, or that nothing is. */
    private static String nextStep(WizardItem item) {
        String discard = item.whyNot(DecisionKind.DISCARD);
        if (discard != null) {
            return "No decision is possible: " + discard + ". " + item.reportProperty().get()
                    .result(PreconditionId.ENTRY_OPEN).explanation();
        }
        String schema = item.entryOnly() || item.reportProperty().get().result(PreconditionId.TOOL_SCHEMA).passed() ? ""
                : " (or choose the current schema version above, if the payload fits it)";
        // An entry alone is never redriven: the reason is no blocking state ("blocked by ...") but the entry's nature.
        String redrive = item.entryOnly() ? "No redrive: " : "A redrive is ";
        return redrive + item.whyNot(DecisionKind.REDRIVE) + schema + ". You can still decide: "
                + item.stillPossibleProperty().get() + ".";
    }

    private String describeSchemaChange(WizardItem item) {
        if (item.entryOnly()) {
            return "";
        }
        PreconditionResult schema = item.reportProperty().get().result(PreconditionId.TOOL_SCHEMA);
        Object current = schema.facts().get("current_version");
        String tool = item.tool();
        if (current == null || tool == null || Objects.equals(current, schema.facts().get("dispatched_version"))) {
            return "";
        }
        return SchemaVersions.describe(tool, Objects.toString(schema.facts().get("dispatched_version")), current.toString(),
                schemaVersions.getOrDefault(tool, List.of()),
                TriageJson.compact(item.detailsProperty().get().operation().payload()));
    }

    /** For one item: a remedy under each failed check. For a batch: the schema choices and a refresh. */
    private List<Remedy> findRemedies() {
        List<Remedy> found = new ArrayList<>(schemaRemedies());
        if (!work.isBatch()) {
            found.addAll(remediesOf(work.first()));
        }
        boolean decidedElsewhere = work.items().stream().anyMatch(item -> !item.reportProperty().get()
                .result(PreconditionId.ENTRY_OPEN).passed());
        if (decidedElsewhere) {
            found.add(new Remedy(PreconditionId.ENTRY_OPEN, Remedy.Action.REFRESH, "Refresh", null, null));
        }
        return found;
    }

    /** Per tool whose schema changed: redrive with its current version, or back to the dispatched one once chosen. */
    private List<Remedy> schemaRemedies() {
        Map<String, String> schemaChoices = new LinkedHashMap<>();
        for (WizardItem item : work.items().filtered(item -> !item.entryOnly())) {
            PreconditionResult schema = item.reportProperty().get().result(PreconditionId.TOOL_SCHEMA);
            Object current = schema.facts().get("current_version");
            if (item.tool() != null && current != null && !current.equals(schema.facts().get("dispatched_version"))) {
                schemaChoices.put(item.tool(), item.chosenSchemaVersion() == null ? current.toString() : null);
            }
        }
        List<Remedy> found = new ArrayList<>();
        schemaChoices.forEach((tool, version) -> found.add(new Remedy(PreconditionId.TOOL_SCHEMA,
                Remedy.Action.CHOOSE_SCHEMA, version == null ? "Keep the dispatched version of " + tool
                : "Redrive with " + tool + " version " + version, tool, version)));
        return found;
    }

    /** The one item's remedies under its failed checks; a check offers Discard only if nothing before moves on. */
    private static List<Remedy> remediesOf(WizardItem item) {
        List<Remedy> found = new ArrayList<>();
        for (PreconditionResult failed : item.reportProperty().get().failed()) {
            if (failed.id() == PreconditionId.OWN_OPERATION) {
                // Nothing to run again: the entry is handled elsewhere (resolve) or given up (discard).
                if (item.allows(DecisionKind.DISCARD)) {
                    found.add(new Remedy(failed.id(), Remedy.Action.DISCARD, "Discard the entry…", null, null));
                }
                if (item.allows(DecisionKind.RESOLVE)) {
                    found.add(new Remedy(failed.id(), Remedy.Action.RESOLVE, "Resolve the entry…", null, null));
                }
            } else if (failed.id() == PreconditionId.SIDE_EFFECT && item.allows(DecisionKind.RESOLVE)) {
                found.add(new Remedy(failed.id(), Remedy.Action.RESOLVE, "Resolve as succeeded instead…", null, null));
            } else if ((failed.id() == PreconditionId.RUN_ACTIVE || failed.id() == PreconditionId.APPROVAL)
                    && item.allows(DecisionKind.DISCARD) && found.stream().noneMatch(r -> r.advances())) {
                found.add(new Remedy(failed.id(), Remedy.Action.DISCARD, "Discard instead…", null, null));
            }
        }
        return found;
    }

    ReadOnlyBooleanProperty checkedProperty() { return checked.getReadOnlyProperty(); }
    ReadOnlyBooleanProperty anyDecisionProperty() { return anyDecision.getReadOnlyProperty(); }
    ReadOnlyStringProperty checkSummaryProperty() { return checkSummary.getReadOnlyProperty(); }
    ReadOnlyStringProperty blockedReasonProperty() { return blockedReason.getReadOnlyProperty(); }
    ReadOnlyStringProperty schemaChangeProperty() { return schemaChange.getReadOnlyProperty(); }
    ObservableList<CheckTally> tallies() { return FXCollections.unmodifiableObservableList(tallies); }
    ObservableList<Remedy> remedies() { return FXCollections.unmodifiableObservableList(remedies); }
}
