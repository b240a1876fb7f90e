package dev.typestar.agent;

/**
 * The API harness classes use to report callbacks to the agent.
 *
 * <p>A harness is a concrete subclass of the class under study (or of a callback-receiving
 * abstract class such as {@link java.util.TimerTask}) that overrides the callback methods and
 * reports each call by name. It must obtain its {@link Reporter} while it is being constructed,
 * typically in a field initializer:
 *
 * <pre>{@code
 * public class ReportingTimerTask extends TimerTask {
 *     private final Callbacks.Reporter reporter = Callbacks.reporter();
 *     @Override public void run() { reporter.report("run"); }
 * }
 * }</pre>
 *
 * <p>The reporter is bound to the object generation that was being built or queried when it was
 * created, so a callback fired later by an object of an earlier query is recognised as stale
 * instead of leaking into the current query (a defect of DroidStar's shared output buffer).
 * The experiment maps reported names to callback symbols ({@code {"harness": "run"}}).
 */
public final class Callbacks {
    private static volatile CallbackBus bus;
    private static volatile long generation;

    private Callbacks() {
    }

    /** Reports callbacks of one harness object; safe to use from any thread. */
    public static final class Reporter {
        private final CallbackBus target;
        private final long generation;

        private Reporter(CallbackBus target, long generation) {
            this.target = target;
            this.generation = generation;
        }

        /** Records that the callback method {@code name} was called. */
        public void report(String name) {
            target.postHarness(generation, name);
        }
    }

    /**
     * A reporter bound to the current object generation.
     *
     * @throws IllegalStateException if no agent is running in this JVM
     */
    public static Reporter reporter() {
        CallbackBus current = bus;
        if (current == null) {
            throw new IllegalStateException("Callbacks.reporter() called outside a typestar agent");
        }
        return new Reporter(current, generation);
    }

    /** Binds reporters created from now on to {@code generation} of {@code target}. */
    static void bind(CallbackBus target, long generation) {
        Callbacks.generation = generation;
        Callbacks.bus = target;
    }
}
