package dev.redrive.cli;

/** Text cells for terminal tables. */
final class Cells {
    private Cells() {
    }

    /** The text on one line, cut to {@code width} characters with an ellipsis. */
    static String cut(String text, int width) {
        if (text == null) {
            return "-";
        }
        String line = text.replace('\n', ' ').replace('\r', ' ');
        return line.length() <= width ? line : line.substring(0, Math.max(0, width - 3)) + "...";
    }
}
