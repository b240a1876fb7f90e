package dev.typestar.agent;

import static org.robolectric.Shadows.shadowOf;

import android.os.Looper;
import android.os.SystemClock;
import java.time.Duration;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.robolectric.annotation.Resetter;
import org.robolectric.internal.ShadowProvider;
import org.robolectric.shadows.ShadowLooper;
import org.robolectric.shadows.ShadowPausedAsyncTask;

/**
 * The Robolectric {@link CallinExecutor}. The session runs on the sandbox's main thread, the
 * thread of the paused main looper, so every call into the code under study runs inline there,
 * as an app's calls on its main thread do, and callbacks posted to the main looper run on it
 * during waits. A wait advances the looper's simulated clock task by task (after letting real
 * background threads, AsyncTask's executor, finish), so a quiet wait costs no real time; under
 * the experiment's real clock it lasts its real time instead, for work on threads of a class's own.
 *
 * <p>Before each query's object is built it resets the static state of the shadows of the
 * subject's package, as Robolectric's test runner does between two tests (their
 * {@code @Resetter} methods), so that no query sees what an earlier one left there:
 * ShadowBluetoothDevice, for one, keeps a single socket for the whole JVM, which the first query's
 * connect-and-close leaves closed for every later query. The shadows of other packages keep their
 * state, as within one test: the application's content resolver, services and loopers, which
 * Robolectric sets up once per test (resetting them all left MediaScannerConnection without its
 * media provider).
 *
 * <p>The main thread cannot be preempted, so the watchdog cannot end one call and keep serving:
 * when a call (or the looper work of a wait) overruns, it reports the call on stderr and ends the
 * JVM, and the learner restarts the agent.
 */
final class RobolectricExecutor implements CallinExecutor {
    /** Real time background work may take in one wait before the wait fails. */
    static final long BACKGROUND_MS = 10_000;
    /** Exit status when the watchdog ends the JVM. */
    static final int EXIT_HUNG = 4;
    /** Real time the looper work of one wait may take before the watchdog fires. */
    private static final long LOOPER_WORK_MS = BACKGROUND_MS + 20_000;
    /** How often a wait in real time runs the main looper. */
    private static final long REAL_TIME_POLL_MS = 5;

    private final BackgroundTracker background = new BackgroundTracker();
    private final ShadowLooper main = shadowOf(Looper.getMainLooper());
    private final Watchdog watchdog = new Watchdog();
    /** Real class name to shadow class name, from every shadow provider. */
    private final Map<String, String> shadows = new HashMap<>();
    /** The {@code @Resetter} methods of the shadows of each package, found on first use. */
    private final Map<String, List<Method>> resetters = new HashMap<>();

    @SuppressWarnings("deprecation") // still the way to give AsyncTask an executor in 4.16
    RobolectricExecutor() {
        ShadowPausedAsyncTask.overrideExecutor(background);
        for (ShadowProvider provider : ServiceLoader.load(ShadowProvider.class, getClass().getClassLoader())) {
            for (Map.Entry<String, String> entry : provider.getShadows()) {
                shadows.putIfAbsent(entry.getKey(), entry.getValue());
            }
        }
        watchdog.start();
    }

    @Override
    @SuppressWarnings("deprecation") // see the constructor
    public boolean resetSimulatedState(Class<?> subject) {
        String pkg = subject.getPackage() == null ? "" : subject.getPackage().getName();
        for (Method resetter : resetters.computeIfAbsent(pkg, this::resettersOf)) {
            try {
                resetter.invoke(null);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot reset " + resetter + ": " + e, e);
            }
        }
        ShadowPausedAsyncTask.overrideExecutor(background); // in case a resetter put it back
        return true;
    }

    /** The static {@code @Resetter} methods of the shadows of the classes of package {@code pkg}. */
    private List<Method> resettersOf(String pkg) {
        List<Method> found = new ArrayList<>();
        for (Map.Entry<String, String> entry : new TreeMap<>(shadows).entrySet()) {
            String real = entry.getKey();
            if (!real.substring(0, Math.max(0, real.lastIndexOf('.'))).equals(pkg)) {
                continue;
            }
            Class<?> shadow;
            try {
                shadow = Class.forName(entry.getValue(), true, getClass().getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                continue; // a shadow of a class this SDK level lacks
            }
            for (Method m : shadow.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Resetter.class) && Modifier.isStatic(m.getModifiers())
                        && m.getParameterCount() == 0) {
                    m.setAccessible(true);
                    found.add(m);
                }
            }
        }
        return found;
    }

    @Override
    public Outcome run(Task task, long timeoutMs) {
        long start = System.nanoTime();
        watchdog.arm("a call into the code under study", timeoutMs);
        try {
            Object value = task.call();
            return new Outcome(value, null, false, elapsed(start));
        } catch (Throwable t) { // errors included, as on the host JVM
            return new Outcome(null, t, false, elapsed(start));
        } finally {
            watchdog.disarm();
        }
    }

    @Override
    public boolean isWedged() {
        return false; // a hung call ends the JVM instead
    }

    @Override
    public String awaitCallback(CallbackBus bus, long timeoutMs, Clock clock) throws InterruptedException {
        if (clock == Clock.REAL) {
            return awaitInRealTime(bus, timeoutMs);
        }
        long deadline = SystemClock.uptimeMillis() + timeoutMs;
        while (true) {
            runDue();
            String callback = bus.pollNow();
            if (callback != null) {
                return callback;
            }
            if (!advanceTowards(deadline)) {
                return null;
            }
        }
    }

    @Override
    public void pause(long ms, Clock clock) throws InterruptedException {
        if (clock == Clock.REAL) {
            awaitInRealTime(null, ms);
            return;
        }
        long deadline = SystemClock.uptimeMillis() + ms;
        do {
            runDue();
        } while (advanceTowards(deadline));
    }

    /**
     * Waits {@code ms} of real time for a callback of {@code bus} (none taken when null), running
     * the main looper every {@link #REAL_TIME_POLL_MS} and moving its clock on by the real time
     * that passed, so that what other threads post to it runs as on a device.
     */
    private String awaitInRealTime(CallbackBus bus, long ms) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(ms);
        long followed = start;
        while (true) {
            runDue();
            String callback = bus == null ? null : bus.pollNow();
            if (callback != null) {
                return callback;
            }
            long now = System.nanoTime();
            if (now >= deadline) {
                return null;
            }
            Thread.sleep(Math.min(REAL_TIME_POLL_MS, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - now))));
            long passed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - followed);
            if (passed > 0) {
                followed += TimeUnit.MILLISECONDS.toNanos(passed);
                watchdog.arm("looper work of a wait", LOOPER_WORK_MS);
                try {
                    main.idleFor(Duration.ofMillis(passed));
                } finally {
                    watchdog.disarm();
                }
            }
        }
    }

    /** Lets background work finish (real time), then runs what is due on the main looper. */
    private void runDue() throws InterruptedException {
        if (!background.awaitIdle(BACKGROUND_MS)) {
            throw new IllegalStateException("background work (AsyncTask's executor) still runs after "
                    + BACKGROUND_MS + " ms of real time; the wait cannot let simulated time move on");
        }
        watchdog.arm("looper work due now", LOOPER_WORK_MS);
        try {
            main.idle();
        } finally {
            watchdog.disarm();
        }
    }

    /**
     * Advances the simulated clock to the next scheduled task or to {@code deadline}, whichever
     * comes first, running what falls due; false if the deadline had already passed.
     */
    private boolean advanceTowards(long deadline) {
        long now = SystemClock.uptimeMillis();
        if (now >= deadline) {
            return false;
        }
        Duration next = main.getNextScheduledTaskTime(); // uptime; ZERO when nothing is scheduled
        long stop = next.isZero() || next.toMillis() >= deadline ? deadline : Math.max(now + 1, next.toMillis());
        watchdog.arm("looper work of a wait", LOOPER_WORK_MS);
        try {
            main.idleFor(Duration.ofMillis(stop - now));
        } finally {
            watchdog.disarm();
        }
        return true;
    }

    private static double elapsed(long startNanos) {
        return Math.round((System.nanoTime() - startNanos) / 1e3) / 1e3;
    }

    /** Ends the JVM when the armed work overruns its real-time limit. */
    private static final class Watchdog extends Thread {
        private String what;
        private long deadlineNanos;
        private long limitMs;

        Watchdog() {
            super("typestar-watchdog");
            setDaemon(true);
        }

        synchronized void arm(String description, long ms) {
            what = description;
            limitMs = ms;
            deadlineNanos = System.nanoTime() + ms * 1_000_000L;
            notifyAll();
        }

        synchronized void disarm() {
            what = null;
        }

        @Override
        public synchronized void run() {
            try {
                while (true) {
                    if (what == null) {
                        wait();
                        continue;
                    }
                    long left = deadlineNanos - System.nanoTime();
                    if (left > 0) {
                        wait(left / 1_000_000L + 1);
                        continue;
                    }
                    System.err.println("typestar robolectric agent: " + what + " did not return within " + limitMs
                            + " ms (real time); the main thread cannot be preempted, so the JVM ends (status "
                            + EXIT_HUNG + ")");
                    System.err.flush();
                    Runtime.getRuntime().halt(EXIT_HUNG);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
