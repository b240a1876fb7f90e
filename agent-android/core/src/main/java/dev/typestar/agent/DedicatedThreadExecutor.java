package dev.typestar.agent;

import java.util.concurrent.LinkedBlockingQueue;

/**
 * The host-JVM {@link CallinExecutor}: one long-lived daemon thread runs every task, so the code
 * under study always sees the same thread (as it would see its looper thread on Android), and
 * the session thread stays free to enforce the watchdog.
 */
final class DedicatedThreadExecutor implements CallinExecutor {
    private final LinkedBlockingQueue<PendingCall> tasks = new LinkedBlockingQueue<>();
    private final Thread worker;
    private volatile boolean wedged;

    DedicatedThreadExecutor() {
        worker = new Thread(this::loop, "typestar-callin"); // default stack size, like an app thread
        worker.setDaemon(true);
        worker.start();
    }

    private void loop() {
        while (true) {
            PendingCall next;
            try {
                next = tasks.take();
            } catch (InterruptedException lateInterrupt) {
                continue; // aimed at a task that overran but has finished by now
            }
            next.run();
        }
    }

    @Override
    public Outcome run(Task task, long timeoutMs) throws InterruptedException {
        if (wedged) {
            throw new IllegalStateException("the callin thread is stuck in an earlier call");
        }
        PendingCall pending = new PendingCall(task);
        long start = System.nanoTime();
        tasks.add(pending);
        if (!pending.await(timeoutMs)) {
            wedged = true;
            worker.interrupt(); // a blocking call may give up, but the object's state is unknown now
            return new Outcome(null, null, true, elapsed(start));
        }
        return pending.outcome(elapsed(start));
    }

    @Override
    public boolean isWedged() {
        return wedged;
    }

    private static double elapsed(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }
}
