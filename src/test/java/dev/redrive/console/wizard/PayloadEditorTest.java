package dev.redrive.console.wizard;

import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.json.TriageJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The wizard's payload editor, without a toolkit: what it says as the operator types, against a masked original. */
class PayloadEditorTest {
    private final Redactor redactor = Redactor.defaults();

    private PayloadEditor editing(String stored) {
        PayloadEditor editor = new PayloadEditor(redactor);
        editor.original(redactor.redact(TriageJson.parse(stored)));
        return editor;
    }

    @Test
    void theOriginalIsShownMasked_andTakenAsItIs() {
        PayloadEditor editor = editing("{\"amount\":\"5 EUR\",\"password\":\"hunter2\"}");

        assertThat(editor.originalText()).contains(Redactor.MASK).doesNotContain("hunter2");
        assertThat(editor.textProperty().get()).isEqualTo(editor.originalText());
        assertThat(editor.isValid()).isTrue();
        assertThat(editor.changesProperty().get()).startsWith("No change yet");
    }

    @Test
    void textThatIsNotJson_saysWhereItStops_andWhatIsExpected() {
        PayloadEditor editor = editing("{\"amount\":1}");

        editor.textProperty().set("{\n  \"amount\": 1,\n}");

        assertThat(editor.isValid()).isFalse();
        assertThat(editor.problemProperty().get()).startsWith("the corrected payload is not JSON: ")
                .contains(" at line 3, column 1").doesNotContain("Source", "REDACTED")
                .endsWith("(expected: one JSON object of at most 262144 bytes)");
        editor.textProperty().set("{\"amount\": 12");
        assertThat(editor.problemProperty().get()).isEqualTo("the corrected payload is not JSON: the text ends inside a "
                + "JSON value at line 1, column 14 (expected: one JSON object of at most 262144 bytes)");
        assertThat(editor.changesProperty().get()).isEmpty();
    }

    @Test
    void aMaskWhereTheOriginalHasNoValue_isRefused() {
        PayloadEditor editor = editing("{\"amount\":1}");

        editor.textProperty().set("{\"amount\":1,\"token\":\"" + Redactor.MASK + "\"}");

        assertThat(editor.problemProperty().get()).contains("/token").contains("type the value");
    }

    @Test
    void aSecretTypedAnew_isListedAsChanged_withMasksOnBothSides() {
        PayloadEditor editor = editing("{\"amount\":\"5 EUR\",\"password\":\"hunter2\"}");

        editor.textProperty().set("{\"amount\":5,\"password\":\"new-secret\"}");

        assertThat(editor.isValid()).isTrue();
        assertThat(editor.changesProperty().get().lines().toList()).containsExactly(
                "changed /amount: \"5 EUR\" → 5",
                "changed /password: \"" + Redactor.MASK + "\" → \"" + Redactor.MASK + "\"");
        assertThat(editor.changesProperty().get()).doesNotContain("new-secret").doesNotContain("hunter2");
    }
}
