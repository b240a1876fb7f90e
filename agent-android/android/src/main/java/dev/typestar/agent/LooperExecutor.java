package dev.typestar.agent;

import android.os.Handler;
import android.os.Looper;
import android.os.SystemClock;

/**
 * The Android {@link CallinExecutor}: every task is posted to a {@link Handler} of the main
 * {@link Looper}, so the code under study runs on the looper thread and its callbacks come back
 * through the same looper, as in an app. The session thread waits with the watchdog; a task that
 * overruns leaves the looper thread stuck in app code, which cannot be interrupted, so the agent
 * is wedged and the client restarts it.
 */
final class LooperExecutor implements CallinExecutor {
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
        PendingCall pending = new PendingCall(task);
        long start = SystemClock.elapsedRealtimeNanos();
        if (!handler.post(pending)) {
            throw new IllegalStateException("the main looper has quit");
        }
        if (!pending.await(timeoutMs)) {
            wedged = true;
            return new Outcome(null, null, true, elapsed(start));
        }
        return pending.outcome(elapsed(start));
    }

    @Override
    public boolean isWedged() {
        return wedged;
    }

    private static double elapsed(long startNanos) {
        return (SystemClock.elapsedRealtimeNanos() - startNanos) / 1e6;
    }
}
