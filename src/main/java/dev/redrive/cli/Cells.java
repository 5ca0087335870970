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

    /** A size as people read it: 812 bytes, 4.2 KB, 37.5 MB (powers of 1,024). */
    static String bytes(long count) {
        if (count < 1024) {
            return count + " bytes";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double value = count;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(java.util.Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
