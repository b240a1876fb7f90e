package dev.typestar.harness.thread;

import android.os.HandlerThread;

/**
 * HandlerThread's quits for learner/experiments/android.os.HandlerThread*.toml, each followed by
 * the thread's end: after a quit the thread leaves Looper.loop() on its own thread, which
 * Robolectric's simulated clock does not drive, so the next call would race its end.
 * Joining the thread orders the two with no real-time margin: a thread not started or already
 * ended joins at once, a quit one as soon as its loop returns.
 * A thread still alive after {@link #BOUND_MS} ends the run with an error (an exception no
 * experiment lists), never an answer.
 */
public final class ThreadEnd {
    /** How long a quit thread may take to end before the run fails. */
    public static final long BOUND_MS = 3000;

    private ThreadEnd() {}

    public static boolean quit(HandlerThread thread) throws InterruptedException {
        boolean quit = thread.quit();
        joined(thread);
        return quit;
    }

    public static boolean quitSafely(HandlerThread thread) throws InterruptedException {
        boolean quit = thread.quitSafely();
        joined(thread);
        return quit;
    }

    /** Waits for {@code thread} to end, at most {@link #BOUND_MS}; throws if it is still alive. */
    public static void joined(Thread thread) throws InterruptedException {
        thread.join(BOUND_MS);
        if (thread.isAlive()) {
            throw new IllegalStateException(
                    thread.getName() + " still runs " + BOUND_MS + " ms after a quit");
        }
    }
}
