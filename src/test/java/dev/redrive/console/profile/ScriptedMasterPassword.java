package dev.redrive.console.profile;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/** An operator who answers the master-password prompt from a script and is remembered for what each prompt said. */
public final class ScriptedMasterPassword implements MasterPasswordPrompt {
    private final Deque<String> answers;
    private final List<String> prompts = new ArrayList<>();

    private ScriptedMasterPassword(List<String> answers) {
        this.answers = new ArrayDeque<>(answers);
    }

    /** Answers in turn; when they run out, declines. */
    public static ScriptedMasterPassword answering(String... answers) {
        return new ScriptedMasterPassword(List.of(answers));
    }

    @Override
    public synchronized Optional<char[]> ask(boolean creating, String problem) {
        prompts.add((creating ? "choose" : "unlock") + (problem.isBlank() ? "" : ": " + problem));
        return Optional.ofNullable(answers.poll()).map(String::toCharArray);
    }

    /** What each prompt was: "choose" or "unlock", with the refusal of the previous answer after a colon. */
    public synchronized List<String> prompts() {
        return List.copyOf(prompts);
    }
}
