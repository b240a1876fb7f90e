package dev.typestar.agent;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The executor AsyncTask runs its background work on under the Robolectric backend: real threads
 * (doInBackground may block or sleep in real time), counted, so that simulated time moves on only
 * once no background work is in flight.
 */
final class BackgroundTracker implements Executor {
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "typestar-background");
        t.setDaemon(true);
        return t;
    });
    private int inFlight;

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            inFlight++;
        }
        threads.execute(() -> {
            try {
                task.run();
            } finally {
                synchronized (this) {
                    inFlight--;
                    notifyAll();
                }
            }
        });
    }

    /** Waits (real time) until no task runs; false if some still runs after {@code ms}. */
    synchronized boolean awaitIdle(long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (inFlight > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
        return true;
    }
}
