package dev.redrive.health;

/** A crossed alert threshold and a sentence saying by how much. */
public record HealthAlert(Kind kind, String message) {
    public enum Kind { DEPTH, GROWTH, AGE, NO_WORKER }
}
