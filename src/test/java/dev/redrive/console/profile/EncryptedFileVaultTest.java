package dev.redrive.console.profile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The vault where no OS keychain answers: a file encrypted with a key derived from the operator's master password. */
class EncryptedFileVaultTest {
    private static final char[] EARLIER_VERSIONS_CONSTANT = "redrive-console".toCharArray();

    @TempDir
    Path directory;

    @Test
    void theMasterPasswordIsChosenOnce_andEachNewSessionAsksForItOnce() throws Exception {
        ScriptedMasterPassword firstSession = ScriptedMasterPassword.answering("correct horse");
        EncryptedFileVault vault = new EncryptedFileVault(directory, firstSession);

        vault.remember("staging", "s3cret-pw");
        vault.remember("prod", "pr0d-pw");

        assertThat(firstSession.prompts()).containsExactly("choose");
        assertThat(vault.password("staging")).contains("s3cret-pw");
        ScriptedMasterPassword secondSession = ScriptedMasterPassword.answering("correct horse");
        EncryptedFileVault reopened = new EncryptedFileVault(directory, secondSession);
        assertThat(reopened.password("staging")).contains("s3cret-pw");
        assertThat(reopened.password("prod")).contains("pr0d-pw");
        assertThat(secondSession.prompts()).containsExactly("unlock");
    }

    @Test
    void theFileIsOwnerOnly_holdsNoPasswordInClear_andOpensWithNoConstant() throws Exception {
        new EncryptedFileVault(directory, ScriptedMasterPassword.answering("correct horse")).remember("staging", "s3cret-pw");
        Path file = directory.resolve("passwords.p12");
        Properties derivation = new Properties();
        try (var in = Files.newInputStream(directory.resolve("passwords.kdf"))) {
            derivation.load(in);
        }

        assertThat(new String(Files.readAllBytes(file))).doesNotContain("s3cret-pw");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(derivation).containsEntry("algorithm", "PBKDF2WithHmacSHA256").containsEntry("iterations", "600000")
                .containsKey("salt");
        assertThatThrownBy(() -> PasswordKeyStore.read(file, EARLIER_VERSIONS_CONSTANT))
                .isInstanceOf(PasswordKeyStore.WrongPasswordException.class);
        assertThatThrownBy(() -> PasswordKeyStore.read(file, "correct horse".toCharArray()))
                .isInstanceOf(PasswordKeyStore.WrongPasswordException.class);
    }

    @Test
    void aWrongMasterPasswordIsRefusedInOneLine_andAskedAgain() {
        new EncryptedFileVault(directory, ScriptedMasterPassword.answering("correct horse")).remember("staging", "s3cret-pw");
        ScriptedMasterPassword operator = ScriptedMasterPassword.answering("battery staple", "correct horse");

        assertThat(new EncryptedFileVault(directory, operator).password("staging")).contains("s3cret-pw");

        assertThat(operator.prompts()).containsExactly("unlock", "unlock: wrong master password for "
                + directory.resolve("passwords.p12") + "; expected the one chosen when the first password was remembered");
    }

    @Test
    void declinedMasterPasswordLeavesThePasswordsLocked_andNothingIsAskedWhileNoneIsRemembered() {
        ScriptedMasterPassword nobody = ScriptedMasterPassword.answering();
        EncryptedFileVault empty = new EncryptedFileVault(directory, nobody);

        assertThat(empty.password("staging")).isEmpty();
        empty.forget("staging");
        assertThat(nobody.prompts()).isEmpty();
        assertThatThrownBy(() -> empty.remember("staging", "s3cret-pw")).isInstanceOf(VaultLockedException.class)
                .hasMessage("remembered passwords stay locked: no master password was given for "
                        + directory.resolve("passwords.p12"));
    }

    @Test
    void anEarlierVersionsSecretsFileIsMovedOnce_andDeleted() throws Exception {
        Path earlier = directory.resolve("secrets.p12");
        PasswordKeyStore.write(earlier, EARLIER_VERSIONS_CONSTANT, Map.of("staging", "s3cret-pw", "prod", "pr0d-pw"));
        ScriptedMasterPassword operator = ScriptedMasterPassword.answering("correct horse");
        EncryptedFileVault vault = new EncryptedFileVault(directory, operator);

        assertThat(PasswordVaults.moveEarlierVersionsPasswords(directory, vault)).isEqualTo(2);

        assertThat(earlier).doesNotExist();
        assertThat(vault.password("staging")).contains("s3cret-pw");
        assertThat(vault.password("prod")).contains("pr0d-pw");
        assertThat(operator.prompts()).containsExactly("choose");
        assertThat(PasswordVaults.moveEarlierVersionsPasswords(directory, vault)).isZero();
    }
}
