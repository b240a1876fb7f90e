package dev.typestar.harness.looper;

import android.os.HandlerThread;

/**
 * What a client writes to end a HandlerThread through its Looper, for
 * learner/experiments/android.os.HandlerThread-looper.toml: {@code thread.getLooper().quit()}.
 * Nothing is caught: a null looper throws NullPointerException, as in the client's code.
 */
public final class ThreadLooper {
    private ThreadLooper() {}

    public static void quit(HandlerThread thread) {
        thread.getLooper().quit();
    }

    public static void quitSafely(HandlerThread thread) {
        thread.getLooper().quitSafely();
    }
}
