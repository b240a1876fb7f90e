package dev.typestar.agent;

import android.os.Handler;
import android.os.Looper;
import android.os.SystemClock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The Android {@link CallinExecutor}: every task is posted to a {@link Handler} of the main
 * {@link Looper}, so the code under study runs on the looper thread and its callbacks come back
 * through the same looper, as in an app. The session thread waits with the watchdog; a task that
 * overruns leaves the looper thread stuck in app code, which cannot be interrupted, so the agent
 * is wedged and the client restarts it.
 */
final class LooperExecutor implements CallinExecutor {
    /** A posted task and, once it finished, how. */
    private static final class Pending implements Runnable {
        private final Task task;
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile Object value;
        private volatile Throwable thrown;

        Pending(Task task) {
            this.task = task;
        }

        @Override
        public void run() {
            try {
                value = task.call();
            } catch (Throwable t) { // errors included, as on the host
                thrown = t;
            } finally {
                done.countDown();
            }
        }
    }

    private final Handler handler;
    private volatile boolean wedged;

    LooperExecutor(Looper looper) {
        this.handler = new Handler(looper);
    }

    @Override
    public Outcome run(Task task, long timeoutMs) throws InterruptedException {
        if (wedged) {
            throw new IllegalStateException("the main looper is stuck in an earlier call");
        }
        Pending pending = new Pending(task);
        long start = SystemClock.elapsedRealtimeNanos();
        if (!handler.post(pending)) {
            throw new IllegalStateException("the main looper has quit");
        }
        if (!pending.done.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            wedged = true;
            return new Outcome(null, null, true, elapsed(start));
        }
        return new Outcome(pending.value, pending.thrown, false, elapsed(start));
    }

    @Override
    public boolean isWedged() {
        return wedged;
    }

    private static double elapsed(long startNanos) {
        return (SystemClock.elapsedRealtimeNanos() - startNanos) / 1e6;
    }
}
