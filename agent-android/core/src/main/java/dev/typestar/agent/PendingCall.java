package dev.typestar.agent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A task handed to the thread that runs the code under study (a dedicated thread on the host, the
 * main looper on Android) and, once it finished, how.
 */
final class PendingCall implements Runnable {
    private final CallinExecutor.Task task;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile Object value;
    private volatile Throwable thrown;

    PendingCall(CallinExecutor.Task task) {
        this.task = task;
    }

    @Override
    public void run() {
        try {
            value = task.call();
        } catch (Throwable t) { // errors included: OutOfMemoryError, StackOverflowError...
            thrown = t;
        } finally {
            done.countDown();
        }
    }

    /** Waits at most {@code timeoutMs} for the task; whether it finished. */
    boolean await(long timeoutMs) throws InterruptedException {
        return done.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** How the finished task ended, having taken {@code millis}. */
    CallinExecutor.Outcome outcome(double millis) {
        return new CallinExecutor.Outcome(value, thrown, false, millis);
    }
}
