package dev.redrive.demo.tools;

/** How a demo tool treats a call for an idempotency key it has applied already. */
public enum EffectPolicy {
    /** Replays the first result: the remote system honours the key, as a well-behaved tool does. */
    ONCE_PER_KEY,
    /** Applies the effect again: a tool that is not idempotent, which makes every repeated call a second effect. */
    EVERY_CALL
}
