package dev.redrive.console.profile;

/** The operator gave no master password, so the remembered passwords stay locked for now; asked again next time. */
public final class VaultLockedException extends RuntimeException {
    public VaultLockedException(String message) {
        super(message);
    }
}
