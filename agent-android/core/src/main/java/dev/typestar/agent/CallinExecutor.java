package dev.typestar.agent;

/**
 * Runs the code under study (setup, build, teardown steps and callins) on the thread it must run
 * on, under a watchdog.
 *
 * <p>This is the seam between the platform-neutral query logic and the platform: on a host JVM
 * every call runs on one dedicated thread ({@link DedicatedThreadExecutor}); on Android an
 * implementation will post to a {@code Handler} of the right {@code Looper} (the main looper for
 * framework classes that need it). Implementations must run tasks one at a time, in order.
 */
interface CallinExecutor {
    /** A call into the code under study; may throw anything. */
    interface Task {
        Object call() throws Throwable;
    }

    /** How a task ended. Exactly one of the three outcomes holds. */
    final class Outcome {
        /** The task's return value, if it returned. */
        final Object value;
        /** What the task threw (any {@link Throwable}, including errors), if it threw. */
        final Throwable thrown;
        /** Whether the watchdog fired before the task finished. */
        final boolean timedOut;
        /** Wall-clock duration in milliseconds (the timeout if it timed out). */
        final double millis;

        Outcome(Object value, Throwable thrown, boolean timedOut, double millis) {
            this.value = value;
            this.thrown = thrown;
            this.timedOut = timedOut;
            this.millis = millis;
        }
    }

    /**
     * Runs {@code task} and waits at most {@code timeoutMs} for it. After a time-out the
     * executor is unusable ({@link #isWedged()}) because the stuck task still occupies its thread.
     *
     * @throws IllegalStateException if the executor is already wedged
     */
    Outcome run(Task task, long timeoutMs) throws InterruptedException;

    /** Whether an earlier task timed out; the agent process must then be restarted. */
    boolean isWedged();

    /**
     * How a wait lets time pass under Robolectric (PROTOCOL.md §5, {@code timeouts.clock}). On a
     * host JVM and on a device every wait is real time, whichever is chosen.
     */
    enum Clock {
        /** The simulated clock of the paused main looper: a quiet wait costs no real time. */
        SIMULATED,
        /**
         * Real time, the main looper's clock following it: for classes whose work runs on threads
         * of their own (an image loader's, a request queue's), which the simulated clock does not
         * wait for.
         */
        REAL
    }

    /**
     * Takes the oldest callback of {@code bus}, waiting up to {@code timeoutMs} for one, on
     * {@code clock} under Robolectric, in real time elsewhere.
     */
    default String awaitCallback(CallbackBus bus, long timeoutMs, Clock clock) throws InterruptedException {
        return bus.poll(timeoutMs);
    }

    /**
     * Puts back the state a simulated platform keeps for the whole process for the classes around
     * {@code subject}, as a fresh process holds it, before a query's object is built; true if it
     * did, and the experiment's setup steps must then run again (what they made or registered may
     * live in that state). Only Robolectric keeps such state: its shadows' static fields, which its
     * test runner resets between tests. On a host JVM and on a device there is nothing to put back.
     */
    default boolean resetSimulatedState(Class<?> subject) {
        return false;
    }

    /** Lets {@code ms} pass (settle and drain times), on {@code clock} under Robolectric, in real time elsewhere. */
    default void pause(long ms, Clock clock) throws InterruptedException {
        Thread.sleep(ms);
    }
}
