package dev.redrive.triage.detail;

/**
 * Which operation a correction replaced, and by which one an operation was replaced: both ends of the link a
 * correction makes between two logical attempts of one node.
 *
 * @param corrects    the operation this one corrects, or null
 * @param correctedBy the operation that corrects this one, or null
 */
public record Lineage(String corrects, String correctedBy) {
    public static final Lineage NONE = new Lineage(null, null);

    public boolean isEmpty() {
        return corrects == null && correctedBy == null;
    }
}
