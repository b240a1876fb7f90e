package dev.typestar.agent;

/**
 * The time the learner's steps take, for harness code on the host JVM that simulates a delay
 * (a test server's response time, PROTOCOL.md §6).
 *
 * <p>It runs while the code under study runs (a setup, build or teardown step, a callin) and while
 * a {@code wait} waits. It stands still in a callin's settle time, in a query's drain time, between
 * the requests of a query and between queries. A delay measured on it therefore ends inside a
 * {@code wait} (or inside a blocking call that waits for it), never because the agent settled after
 * a few callins or the learner was slow to send the next step: a response delayed by 200 ms cannot
 * arrive between {@code enqueue} and a {@code cancel} a few callins later, however many callins
 * there are, unless those callins themselves run for 200 ms. On the wall clock it could (four
 * callins of 60 ms settle each outlast it), and the answer to the same query then depended on the
 * machine's load.
 *
 * <p>Under Robolectric a quiet {@code wait} on the simulated clock costs no real time, so little
 * passes on this clock: harnesses there keep the wall clock.
 */
public final class StepClock {
    private static final Object LOCK = new Object();
    /** Nanoseconds run in the intervals that have ended. */
    private static long elapsed;
    /** {@link System#nanoTime()} when the running interval started, or -1 if it stands still. */
    private static long since = -1;

    private StepClock() {}

    /** Starts the clock (the agent, as a step or a wait begins). */
    static void start() {
        synchronized (LOCK) {
            if (since < 0) {
                since = System.nanoTime();
            }
            LOCK.notifyAll();
        }
    }

    /** Stops the clock (the agent, as a step or a wait ends). */
    static void stop() {
        synchronized (LOCK) {
            if (since >= 0) {
                elapsed += System.nanoTime() - since;
                since = -1;
            }
            LOCK.notifyAll();
        }
    }

    /** Nanoseconds the clock has run since the agent started. */
    public static long nanos() {
        synchronized (LOCK) {
            return now();
        }
    }

    /** Blocks until the clock has run {@code ms} milliseconds more. */
    public static void sleep(long ms) throws InterruptedException {
        synchronized (LOCK) {
            long until = now() + ms * 1_000_000L;
            for (long left = until - now(); left > 0; left = until - now()) {
                if (since < 0) {
                    LOCK.wait();
                } else {
                    LOCK.wait(left / 1_000_000L, (int) (left % 1_000_000L));
                }
            }
        }
    }

    private static long now() {
        return since < 0 ? elapsed : elapsed + System.nanoTime() - since;
    }
}
