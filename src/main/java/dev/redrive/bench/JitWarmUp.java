package dev.redrive.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Tells whether the JIT compiler was still busy during a measured stretch. Measured here: the worker's code paths kept
 * the compiler threads busy for about 45 s of CPU over the first two drains of 50,000 operations (a second drain ran
 * at 0.65× the rate of later ones while the compiler took about 60 % of a core), and for under 1 s per drain after
 * that. A drain counted before then measures the compiler, not the worker; so warm-up drains go on while the
 * compiler's share of a drain's time is above {@link #SETTLED_SHARE}.
 */
final class JitWarmUp {
    /** Compiler time (summed over its threads) per wall-clock time below which the code is taken as compiled. */
    static final double SETTLED_SHARE = 0.10;

    private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
    private long compiledMillis;
    private long startedNanos;

    /** Starts a stretch. */
    void start() {
        compiledMillis = compilationMillis();
        startedNanos = System.nanoTime();
    }

    /** The compiler's time since {@link #start} as a share of the wall-clock time; 0 where the JVM does not tell. */
    double share() {
        double elapsedMillis = (System.nanoTime() - startedNanos) / 1e6;
        return elapsedMillis <= 0 ? 0 : (compilationMillis() - compiledMillis) / elapsedMillis;
    }

    static boolean settled(double share) {
        return share < SETTLED_SHARE;
    }

    private long compilationMillis() {
        return compiler != null && compiler.isCompilationTimeMonitoringSupported() ? compiler.getTotalCompilationTime() : 0;
    }
}
