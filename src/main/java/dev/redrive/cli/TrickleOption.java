package dev.redrive.cli;

import dev.redrive.demo.sandbox.Trickle;
import picocli.CommandLine.Option;

/** {@code --trickle}: the sandbox's new work per minute, the same for {@code demo} and {@code console --demo}. */
final class TrickleOption {
    @Option(names = "--trickle", paramLabel = "PER_MINUTE",
            description = "new operations the sandbox sends per minute while it runs, a few of which fail (default 40; "
                    + "0 sends none; at most " + Trickle.MAX_PER_MINUTE + ")")
    Integer perMinute;

    Trickle trickle() {
        return perMinute == null ? Trickle.DEFAULT : new Trickle(perMinute);
    }

    boolean given() {
        return perMinute != null;
    }
}
