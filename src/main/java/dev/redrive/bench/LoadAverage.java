package dev.redrive.bench;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/** The machine's one-minute load average, printed beside each figure: on a shared machine it says what a run was up against. */
final class LoadAverage {
    private LoadAverage() {
    }

    static String now() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "unknown" : String.format(Locale.ROOT, "%.1f", load);
    }
}
