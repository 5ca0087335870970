package dev.redrive.console.wizard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.triage.json.TriageJson;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * A tool's result as the operator types it: optional (empty records none, as the CLI without {@code --result} does), a
 * JSON object when given, read by the same rule as the CLI's {@code --result}. What is wrong shows as it is typed.
 */
public final class ResultInput {
    private static final String WHAT = "the result";

    private final StringProperty text = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");

    public ResultInput() {
        text.addListener((obs, was, now) -> problem.set(problemWith(now)));
    }

    /** The object typed, or null when nothing is; fails with the one line {@link #problemProperty} shows. */
    public JsonNode value() {
        return TriageJson.parseObject(text.get(), WHAT);
    }

    public boolean isValid() {
        return problem.get().isEmpty();
    }

    private static String problemWith(String typed) {
        try {
            TriageJson.parseObject(typed, WHAT);
            return "";
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    public StringProperty textProperty() { return text; }
    /** Empty while the text is empty or a JSON object; else one line saying what is expected. */
    public ReadOnlyStringProperty problemProperty() { return problem.getReadOnlyProperty(); }
}
