package dev.redrive.demo.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The faults a payload asks for, e.g. {@code "rate_limit:2:1;transient:1"}. Call faults play one after the other
  * over the calls of one idempotency key: there the first two calls are rate limited, the third fails with a 500 and
 * the fourth succeeds. A fault without a count takes every call from its turn on. {@code lookup_down} concerns the
 * look-ups of the key and is counted separately.
 */
public final class FaultPlan {
    private static final int DEFAULT_RETRY_AFTER_SECONDS = 1;

    private final List<Fault> callFaults;
    private final Optional<Fault> lookupFault;

    private FaultPlan(List<Fault> callFaults, Optional<Fault> lookupFault) {
        this.callFaults = List.copyOf(callFaults);
        this.lookupFault = lookupFault;
    }

    public static FaultPlan none() {
        return new FaultPlan(List.of(), Optional.empty());
    }

    /** Parses a fault list; a null or blank text means no fault. */
    public static FaultPlan parse(String text) {
        if (text == null || text.isBlank()) {
            return none();
        }
        List<Fault> calls = new ArrayList<>();
        Optional<Fault> lookup = Optional.empty();
        for (String item : text.split(";")) {
            if (item.isBlank()) {
                continue;
            }
            Fault fault = parseOne(item.strip());
            if (fault.kind().affectsCalls()) {
                calls.add(fault);
            } else if (lookup.isPresent()) {
                throw new InvalidFaultException("lookup_down is given twice in fault '" + text + "'");
            } else {
                lookup = Optional.of(fault);
            }
        }
        return new FaultPlan(calls, lookup);
    }

    /** The fault that the {@code callNumber}-th call (1-based) of a key plays, if any. */
    public Optional<Fault> forCall(int callNumber) {
        int consumed = 0;
        for (Fault fault : callFaults) {
            if (fault.unlimited()) {
                return Optional.of(fault);
            }
            consumed += fault.count().getAsInt();
            if (callNumber <= consumed) {
                return Optional.of(fault);
            }
        }
        return Optional.empty();
    }

    /** Whether the {@code lookupNumber}-th look-up (1-based) of a key must answer "cannot tell". */
    public boolean lookupDown(int lookupNumber) {
        return lookupFault
                .map(fault -> fault.unlimited() || lookupNumber <= fault.count().getAsInt())
                .orElse(false);
    }

    private static Fault parseOne(String item) {
        String[] parts = item.split(":", -1);
        FaultKind kind = FaultKind.fromWireName(parts[0]).orElseThrow(() -> new InvalidFaultException(
                "unknown fault '" + parts[0] + "' (known: rate_limit, transient, dependency_down, invalid, forbidden, "
                        + "timeout_after_apply, timeout_before_apply, lookup_down)"));
        int maxParts = kind == FaultKind.RATE_LIMIT ? 3 : 2;
        if (parts.length > maxParts) {
            throw new InvalidFaultException("fault '" + item + "' has too many parts: " + kind.wireName()
                    + (kind == FaultKind.RATE_LIMIT ? "[:COUNT[:RETRY_AFTER_SECONDS]]" : "[:COUNT]"));
        }
        OptionalInt count = parts.length > 1 && !parts[1].isEmpty()
                ? OptionalInt.of(number(parts[1], "count", item)) : OptionalInt.empty();
        int retryAfter = parts.length > 2 ? number(parts[2], "Retry-After seconds", item) : DEFAULT_RETRY_AFTER_SECONDS;
        return new Fault(kind, count, retryAfter);
    }

    private static int number(String text, String what, String item) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new InvalidFaultException("the " + what + " of fault '" + item + "' must be a whole number, got '" + text + "'");
        }
    }
}
