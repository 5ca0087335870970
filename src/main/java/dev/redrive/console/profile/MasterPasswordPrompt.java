package dev.redrive.console.profile;

import java.util.Optional;

/** Asks the operator for the master password of the {@link EncryptedFileVault}; the console shows a dialog. */
public interface MasterPasswordPrompt {

    /**
     * The master password, or empty when the operator declined.
     *
     * @param creating whether the vault is new, so the operator chooses the password rather than recalls it
     * @param problem  why the previous answer was refused, in one line; blank the first time
     */
    Optional<char[]> ask(boolean creating, String problem);
}
