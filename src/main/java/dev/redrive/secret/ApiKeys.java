package dev.redrive.secret;

import java.util.List;

import static dev.redrive.secret.ScanText.isKeyChar;
import static dev.redrive.secret.ScanText.startsToken;

/** Masking pass 6 of {@link SecretScanner}: API keys by their well-known prefixes, and JWTs. */
final class ApiKeys {
    /** Prefixes of API keys, each with the number of key characters at least after it. */
    private static final List<Prefix> API_KEY_PREFIXES = List.of(
            new Prefix("sk_live_", 1), new Prefix("sk_test_", 1), new Prefix("rk_live_", 1), new Prefix("rk_test_", 1),
            new Prefix("whsec_", 1), new Prefix("ghp_", 1), new Prefix("gho_", 1), new Prefix("ghu_", 1),
            new Prefix("ghs_", 1), new Prefix("ghr_", 1), new Prefix("github_pat_", 1), new Prefix("glpat-", 1),
            new Prefix("xoxa-", 1), new Prefix("xoxb-", 1), new Prefix("xoxp-", 1), new Prefix("xoxr-", 1),
            new Prefix("xoxs-", 1), new Prefix("xapp-", 1), new Prefix("shpat_", 1), new Prefix("shpss_", 1),
            new Prefix("shpca_", 1), new Prefix("shppa_", 1), new Prefix("sk-", 20), new Prefix("AKIA", 16),
            new Prefix("ASIA", 16), new Prefix("AIza", 30), new Prefix("npm_", 30), new Prefix("SG.", 16),
            new Prefix("eyJ", 8));

    private record Prefix(String text, int atLeast) {
    }

    private ApiKeys() {
    }

    static String mask(String text) {
        int n = text.length();
        MaskedCopy masked = new MaskedCopy(text);
        int taken = 0;
        int runEnd = -1;
        for (int s = 0; s < n; s++) {
            if (!startsToken(text, s, taken)) {
                continue;
            }
            Prefix matched = null;
            for (Prefix prefix : API_KEY_PREFIXES) {
                if (text.startsWith(prefix.text(), s)) {
                    matched = prefix;
                    break;
                }
            }
            if (matched == null) {
                continue;
            }
            if (s >= runEnd) {
                runEnd = s;
                while (runEnd < n && isKeyChar(text.charAt(runEnd))) {
                    runEnd++;
                }
            }
            if (runEnd - (s + matched.text().length()) < matched.atLeast()) {
                continue;
            }
            masked.mask(s, runEnd);
            taken = runEnd;
            s = runEnd - 1;
        }
        return masked.result();
    }
}
