package dev.typestar.harness.looper;

import android.os.HandlerThread;
import dev.typestar.harness.thread.ThreadEnd;

/**
 * What a client writes to end a HandlerThread through its Looper, for
 * learner/experiments/android.os.HandlerThread-looper.toml: {@code thread.getLooper().quit()},
 * then the thread's end awaited as {@link ThreadEnd} does.
 * Nothing is caught: a null looper throws NullPointerException, as in the client's code.
 */
public final class ThreadLooper {
    private ThreadLooper() {}

    public static void quit(HandlerThread thread) throws InterruptedException {
        thread.getLooper().quit();
        ThreadEnd.joined(thread);
    }

    public static void quitSafely(HandlerThread thread) throws InterruptedException {
        thread.getLooper().quitSafely();
        ThreadEnd.joined(thread);
    }
}
