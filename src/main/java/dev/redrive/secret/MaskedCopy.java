package dev.redrive.secret;

/**
 * A text with spans of it replaced by {@link SecretScanner#MASK}, copied only once the first span is masked: most texts
 * hold no secret, and a masking pass over one then hands back the text itself.
 */
final class MaskedCopy {
    private final String text;
    private StringBuilder out;
    private int copied;

    MaskedCopy(String text) {
        this.text = text;
    }

    /** Masks {@code text[from, to)}; the spans of a pass come in order and do not overlap. */
    void mask(int from, int to) {
        if (out == null) {
            out = new StringBuilder(text.length() + 16);
        }
        out.append(text, copied, from).append(SecretScanner.MASK);
        copied = to;
    }

    /** The text with every span masked; the text itself when none was. */
    String result() {
        return out == null ? text : out.append(text, copied, text.length()).toString();
    }
}
