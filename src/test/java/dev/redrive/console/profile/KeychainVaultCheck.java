package dev.redrive.console.profile;

import java.nio.file.Path;

/**
 * Run by {@link KeychainVaultTest} in a D-Bus session of its own with a GNOME Keyring: opens the vault as the console
 * does, moves an earlier version's file into it and prints what each step found, one {@code name: value} per line.
 */
public final class KeychainVaultCheck {
    private KeychainVaultCheck() {
    }

    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        MasterPasswordPrompt none = (creating, problem) -> {
            throw new IllegalStateException("a keychain needs no master password");
        };
        try (PasswordVault vault = PasswordVaults.open(directory, none)) {
            System.out.println("vault: " + vault.place());
            System.out.println("moved: " + PasswordVaults.moveEarlierVersionsPasswords(directory, vault));
            try (PasswordVault nextSession = PasswordVaults.open(directory, none)) {
                System.out.println("staging: " + nextSession.password("staging").orElse("none"));
                nextSession.remember("prod", "pr0d-pw");
                System.out.println("prod: " + vault.password("prod").orElse("none"));
                vault.forget("staging");
                vault.forget("prod");
                System.out.println("after forgetting: " + nextSession.password("staging").orElse("none") + ", "
                        + nextSession.password("prod").orElse("none"));
            }
        }
    }
}
