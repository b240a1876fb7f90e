package dev.typestar.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes membership queries of the synchronous closure against fresh objects, whole or one
 * input at a time.
 *
 * <p>A <em>run</em> is one fresh object and the inputs given to it: {@link #start} tears down the
 * previous object, opens a new generation, creates the listener proxies and runs the build steps;
 * {@link #step} runs one input: a callin yields {@code eps}, or {@code err} if it throws an
 * exception the error rules accept (or returns a value other than its {@code expect} literal);
 * {@code wait} yields the oldest queued callback, waiting up to t_max, else {@code quiet}. After
 * the first {@code err} every later output is {@code err} without running anything. A step during
 * or before which an error callback arrived also yields {@code err}. {@link #query} is a whole
 * run in one request; the {@code reset} and {@code step} requests drive a run incrementally. All
 * calls into the code under study go through the {@link CallinExecutor} under a watchdog.
 */
final class QueryRunner {
    private static final int MAX_STACK_FRAMES = 12;

    /** One input of a query: {@code wait}, or a callin symbol with the chosen form. */
    static final class Input {
        final String symbol;
        final int variant;
        /** {@code null} for {@code wait}. */
        final Experiment.Form call;

        Input(String symbol, int variant, Experiment.Form call) {
            this.symbol = symbol;
            this.variant = variant;
            this.call = call;
        }
    }

    /** The object of the latest run, kept alive until the next teardown. */
    private static final class Live {
        final long generation;
        final Experiment experiment;
        final Scope scope;

        Live(long generation, Experiment experiment, Scope scope) {
            this.generation = generation;
            this.experiment = experiment;
            this.scope = scope;
        }
    }

    /** The run in progress: its generation is open until {@link #finish}. */
    private final class Run {
        final long started = System.nanoTime();
        final Experiment experiment;
        final long generation;
        final List<String> warnings = new ArrayList<>();
        final Map<String, Object> timings = new LinkedHashMap<>();
        Scope scope;
        int position;
        Map<String, Object> err;
        Map<String, Object> failure;
        String status = "ok";

        Run(Experiment experiment, long generation) {
            this.experiment = experiment;
            this.generation = generation;
        }

        boolean failed() {
            return failure != null;
        }
    }

    /** What one step produced: its output ({@code null} if the run failed in it) and duration. */
    private static final class Stepped {
        final String output;
        final double millis;

        Stepped(String output, double millis) {
            this.output = output;
            this.millis = millis;
        }
    }

    private final CallbackBus bus = new CallbackBus();
    private final CallinExecutor executor;
    private Experiment experiment;
    private Scope shared;
    /**
     * Whether {@link #shared} was set up on freshly reset simulated state and no object was built
     * since: the next query then needs no reset.
     */
    private boolean setUpFresh;
    private long lastGeneration;
    private Live live;
    private Run run;

    QueryRunner(CallinExecutor executor) {
        this.executor = executor;
    }

    /** Whether a watchdog fired; the agent then refuses to run code until it is restarted. */
    boolean restartRequired() {
        return executor.isWedged();
    }

    /**
     * Makes {@code next} the current experiment: tears down the previous object and runs the
     * setup steps once. Returns the body of the {@code loaded} reply.
     */
    Map<String, Object> load(Experiment next) throws RequestException, InterruptedException {
        requireUsable();
        List<String> warnings = new ArrayList<>();
        Map<String, Object> hang = tearDown(warnings);
        if (hang != null) {
            throw new RequestException("hang", "teardown", "teardown of the previous object hung ("
                    + hang.get("message") + "); restart the agent");
        }
        experiment = null;
        executor.resetSimulatedState(next.subjectType);
        try {
            shared = setUp(next);
        } catch (SetupFailure f) {
            String field = "experiment.setup[" + f.index + "]";
            if (f.outcome.timedOut) {
                throw new RequestException("hang", field, field + " (" + f.step.call.signature
                        + ") did not return within " + next.stepMs + " ms; restart the agent");
            }
            throw new RequestException("setup-failed", field, field + " (" + f.step.call.signature + ") threw "
                    + describe(f.outcome.thrown));
        }
        setUpFresh = true;
        experiment = next;
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("name", next.name);
        reply.put("inputs", next.inputAlphabet());
        reply.put("outputs", next.outputAlphabet());
        Map<String, Object> variants = new LinkedHashMap<>();
        for (Experiment.Callin c : next.callins.values()) {
            variants.put(c.symbol, (long) c.forms.size() - 1);
        }
        reply.put("variants", variants);
        reply.put("errorCallbacks", new ArrayList<>(next.errorCallbacks));
        reply.put("warnings", warnings);
        return reply;
    }

    /** A setup step that hung or threw: which one, and how it ended. */
    private static final class SetupFailure extends Exception {
        private static final long serialVersionUID = 1L;

        final int index;
        final transient Experiment.Step step;
        final transient CallinExecutor.Outcome outcome;

        SetupFailure(int index, Experiment.Step step, CallinExecutor.Outcome outcome) {
            super(step.call.signature);
            this.index = index;
            this.step = step;
            this.outcome = outcome;
        }
    }

    /** Runs {@code next}'s setup steps into a new scope, up to the first that hangs or throws. */
    private Scope setUp(Experiment next) throws SetupFailure, InterruptedException {
        Callbacks.bind(bus, 0); // reporters made during setup belong to no generation: always stale
        Scope setupScope = new Scope(null);
        for (int i = 0; i < next.setup.size(); i++) {
            Experiment.Step step = next.setup.get(i);
            CallinExecutor.Outcome o = running(() -> {
                step.run(setupScope);
                return null;
            }, next.stepMs);
            if (o.timedOut || o.thrown != null) {
                throw new SetupFailure(i, step, o);
            }
        }
        return setupScope;
    }

    /** Resolves the {@code inputs} array of a query against the current experiment. */
    List<Input> parseInputs(List<Object> raw) throws RequestException {
        List<Input> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            out.add(parseInput(raw.get(i), "inputs[" + i + "]"));
        }
        return out;
    }

    /** Resolves one input symbol (a string, or {@code {"symbol", "variant"}}) found at {@code field}. */
    Input parseInput(Object item, String field) throws RequestException {
        Experiment e = requireExperiment();
        String symbol;
        int variant = 0;
        if (item instanceof String) {
            symbol = (String) item;
        } else {
            Fields f = Fields.of(item, field);
            f.rejectUnknown(Fields.keys("symbol", "variant"));
            symbol = f.string("symbol");
            variant = (int) f.optInteger("variant", 0, 0, Integer.MAX_VALUE);
        }
        if (symbol.equals(Experiment.WAIT)) {
            if (variant != 0) {
                throw new RequestException("unknown-symbol", field, "wait has no variants");
            }
            return new Input(symbol, 0, null);
        }
        Experiment.Callin callin = e.callins.get(symbol);
        if (callin == null) {
            throw new RequestException("unknown-symbol", field, "\"" + symbol + "\" at " + field
                    + " is not an input symbol of this experiment (inputs: "
                    + String.join(", ", e.inputAlphabet()) + ")");
        }
        if (variant >= callin.forms.size()) {
            throw new RequestException("unknown-symbol", field, "callin " + symbol + " has "
                    + (callin.forms.size() - 1) + " variant(s); variant " + variant + " does not exist");
        }
        return new Input(symbol, variant, callin.forms.get(variant));
    }

    /** Runs one query on a fresh object; returns the body of the {@code result} reply. */
    Map<String, Object> query(List<Input> inputs) throws RequestException, InterruptedException {
        requireUsable();
        Experiment e = requireExperiment();
        List<String> earlierLeftover = finish();
        Run r = begin(e);
        if (!earlierLeftover.isEmpty()) {
            r.warnings.add("the unfinished incremental run before this query left callbacks unconsumed: "
                    + earlierLeftover);
        }
        List<Object> outputs = new ArrayList<>();
        List<Object> stepTimes = new ArrayList<>();
        runSteps(r, inputs, outputs, stepTimes);
        long t = System.nanoTime();
        if (!r.failed() && e.drainMs > 0) {
            executor.pause(e.drainMs, e.clock);
        }
        r.timings.put("drainMs", ms(t));
        r.timings.put("stepsMs", stepTimes);
        r.timings.put("totalMs", ms(r.started));
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("status", r.status);
        reply.put("generation", r.generation);
        reply.put("outputs", outputs);
        reply.put("err", r.err);
        reply.putAll(report(r, finish()));
        reply.put("timings", r.timings);
        reply.put("restartRequired", executor.isWedged());
        return reply;
    }

    /**
     * The {@code reset} request: ends the open incremental run (its unconsumed callbacks are
     * reported as {@code leftover}) and starts a new one on a fresh object.
     */
    Map<String, Object> reset() throws RequestException, InterruptedException {
        requireUsable();
        Experiment e = requireExperiment();
        List<String> leftover = finish();
        Run r = begin(e);
        r.timings.put("totalMs", ms(r.started));
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("status", r.status);
        reply.put("generation", r.generation);
        reply.put("failure", r.failure);
        reply.put("leftover", leftover);
        reply.putAll(report(r, null));
        if (r.failed()) {
            finish();
        }
        reply.put("timings", r.timings);
        reply.put("restartRequired", executor.isWedged());
        return reply;
    }

    /**
     * The {@code step} request: inputs of the open incremental run, back to back with no round
     * trip between them (a timer scheduled a few milliseconds ahead must not fire between two
     * callins only because the learner was slow to send the second).
     */
    Map<String, Object> step(List<Input> inputs) throws RequestException, InterruptedException {
        requireUsable();
        if (run == null) {
            throw new RequestException("no-run", null, "no incremental run is open; send a reset request first");
        }
        Run r = run;
        int position = r.position;
        List<Object> outputs = new ArrayList<>();
        List<Object> stepTimes = new ArrayList<>();
        runSteps(r, inputs, outputs, stepTimes);
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("status", r.status);
        reply.put("generation", r.generation);
        reply.put("position", (long) position);
        reply.put("output", r.failed() || outputs.isEmpty() ? null : outputs.get(outputs.size() - 1));
        reply.put("outputs", outputs);
        reply.put("err", r.err);
        reply.putAll(report(r, null));
        if (r.failed()) {
            finish();
        }
        Map<String, Object> timings = new LinkedHashMap<>();
        double total = 0;
        for (Object millis : stepTimes) {
            total += (Double) millis;
        }
        timings.put("stepMs", round(total));
        timings.put("stepsMs", stepTimes);
        reply.put("timings", timings);
        reply.put("restartRequired", executor.isWedged());
        return reply;
    }

    /** Runs {@code inputs} in order until one fails, collecting each output and its duration. */
    private void runSteps(Run r, List<Input> inputs, List<Object> outputs, List<Object> stepTimes)
            throws InterruptedException {
        for (int i = 0; i < inputs.size() && !r.failed(); i++) {
            Stepped s = runStep(r, inputs.get(i));
            if (s.output != null) {
                outputs.add(s.output);
                stepTimes.add(s.millis);
            }
        }
    }

    /** Tears down the previous object, opens a new generation and builds its object. */
    private Run begin(Experiment e) throws InterruptedException {
        long t = System.nanoTime();
        Run r = new Run(e, ++lastGeneration);
        r.failure = tearDown(r.warnings);
        r.timings.put("teardownMs", ms(t));
        run = r;
        if (r.failed()) {
            r.status = "hang";
            return r;
        }
        if (!setUpFresh && executor.resetSimulatedState(e.subjectType)) {
            try {
                shared = setUp(e);
            } catch (SetupFailure f) {
                r.status = f.outcome.timedOut ? "hang" : "crash";
                r.failure = failure("setup", null, null, f.index, f.step.call.signature, f.outcome.thrown, e.stepMs);
                return r;
            }
        }
        setUpFresh = false;
        bus.open(r.generation, e.harnessSymbols, e.errorCallbacks);
        Callbacks.bind(bus, r.generation);
        Scope scope = new Scope(shared);
        for (ListenerProxy.Spec spec : e.listeners.values()) {
            scope.put(spec.name, ListenerProxy.create(spec, r.generation, bus, scope));
        }
        r.scope = scope;
        live = new Live(r.generation, e, scope);
        t = System.nanoTime();
        for (int i = 0; i < e.build.size() && !r.failed(); i++) {
            Experiment.Step step = e.build.get(i);
            CallinExecutor.Outcome o = running(() -> {
                step.run(scope);
                return null;
            }, e.stepMs);
            if (o.timedOut) {
                r.status = "hang";
                r.failure = failure("build", null, null, i, step.call.signature, null, e.stepMs);
            } else if (o.thrown != null) {
                r.status = "crash";
                r.failure = failure("build", null, null, i, step.call.signature, o.thrown, 0);
            }
        }
        r.timings.put("buildMs", ms(t));
        if (r.failed()) {
            discardIfHung(r);
        }
        return r;
    }

    /** Runs input number {@code r.position} of the run; the output is null if the run failed in it. */
    private Stepped runStep(Run r, Input in) throws InterruptedException {
        int i = r.position++;
        Experiment e = r.experiment;
        if (r.failed()) {
            return new Stepped(null, 0.0);
        }
        if (r.err != null) {
            return new Stepped(Experiment.ERR, 0.0);
        }
        String output;
        double took;
        if (in.call == null) {
            long w = System.nanoTime();
            String callback;
            StepClock.start();
            try {
                callback = executor.awaitCallback(bus, e.quiescenceMs, e.clock);
            } finally {
                StepClock.stop();
            }
            took = ms(w);
            output = callback != null ? callback : Experiment.QUIET;
        } else {
            Scope s = r.scope;
            CallinExecutor.Outcome o = running(() -> in.call.call.invoke(s), e.callinMs);
            took = round(o.millis);
            if (o.timedOut) {
                r.status = "hang";
                r.failure = failure("callin", i, in.symbol, null, in.call.call.signature, null, e.callinMs);
                discardIfHung(r);
                return new Stepped(null, took);
            }
            if (e.settleMs > 0) {
                executor.pause(e.settleMs, e.clock);
                took = round(o.millis + e.settleMs);
            }
            if (o.thrown == null) {
                output = Experiment.EPS;
                if (in.call.expect != null && !in.call.expect.matches(o.value)) {
                    output = Experiment.ERR;
                    r.err = new LinkedHashMap<>();
                    r.err.put("position", (long) i);
                    r.err.put("symbol", in.symbol);
                    r.err.put("returned", String.valueOf(o.value));
                    r.err.put("expected", in.call.expect.describe());
                } else if (in.call.as != null) {
                    s.put(in.call.as, o.value);
                }
            } else if (!(o.thrown instanceof InvocationFailure) && e.isErr(o.thrown)) {
                output = Experiment.ERR;
                r.err = new LinkedHashMap<>();
                r.err.put("position", (long) i);
                r.err.put("symbol", in.symbol);
                r.err.put("exception", o.thrown.getClass().getName());
                r.err.put("message", o.thrown.getMessage());
            } else {
                r.status = o.thrown instanceof Exception && !(o.thrown instanceof InvocationFailure)
                        ? "unexpected" : "crash";
                r.failure = failure("callin", i, in.symbol, null, in.call.call.signature, o.thrown, 0);
                return new Stepped(null, took);
            }
        }
        String errorCallback = bus.firstError();
        if (r.err == null && errorCallback != null) {
            output = Experiment.ERR;
            r.err = new LinkedHashMap<>();
            r.err.put("position", (long) i);
            r.err.put("symbol", in.symbol);
            r.err.put("callback", errorCallback);
        }
        return new Stepped(output, took);
    }

    /** Runs {@code task} on the executor with the {@link StepClock} running. */
    private CallinExecutor.Outcome running(CallinExecutor.Task task, long timeoutMs) throws InterruptedException {
        StepClock.start();
        try {
            return executor.run(task, timeoutMs);
        } finally {
            StepClock.stop();
        }
    }

    /** A hung run's object is unusable: its thread is stuck, so nothing more runs on it. */
    private void discardIfHung(Run r) {
        if ("hang".equals(r.status)) {
            live = null;
        }
    }

    /**
     * Ends the open run, if any: closes its generation and returns the callbacks no {@code wait}
     * consumed (empty if no run was open). The object stays alive until the next teardown.
     */
    private List<String> finish() {
        if (run == null) {
            return new ArrayList<>();
        }
        run = null;
        return bus.close();
    }

    /**
     * The health report of a reply: {@code failure} (a callback reaction that threw makes an ok
     * run a crash), {@code leftover} if given, {@code stale}, {@code unmapped} and {@code warnings}.
     */
    private Map<String, Object> report(Run r, List<String> leftover) {
        List<String> reactionFailures = bus.drainFailures();
        if (!r.failed() && !reactionFailures.isEmpty()) {
            r.status = "crash";
            r.failure = new LinkedHashMap<>();
            r.failure.put("phase", "callback");
            r.failure.put("message", String.join("; ", reactionFailures));
        }
        List<Object> stale = new ArrayList<>();
        for (CallbackBus.Stale s : bus.drainStale()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("symbol", s.symbol);
            m.put("generation", s.generation);
            m.put("count", (long) s.count);
            stale.add(m);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", r.status);
        m.put("failure", r.failure);
        if (leftover != null) {
            m.put("leftover", leftover);
        }
        m.put("stale", stale);
        m.put("unmapped", bus.drainUnmapped());
        m.put("warnings", new ArrayList<>(r.warnings));
        r.warnings.clear();
        return m;
    }

    /**
     * Tears down the live object with its experiment's teardown steps. A throwing step becomes a
     * warning; a hanging one returns the hang failure (and the executor is wedged from then on).
     */
    Map<String, Object> tearDown(List<String> warnings) throws InterruptedException {
        Live old = live;
        live = null;
        if (old == null || executor.isWedged()) {
            return null;
        }
        for (int i = 0; i < old.experiment.teardown.size(); i++) {
            Experiment.Step step = old.experiment.teardown.get(i);
            if (step.call.hasNullReceiver(old.scope)) {
                continue; // bound by a callin that never ran: nothing to tear down
            }
            CallinExecutor.Outcome o = running(() -> {
                step.run(old.scope);
                return null;
            }, old.experiment.stepMs);
            if (o.timedOut) {
                return failure("teardown", null, null, i, step.call.signature, null, old.experiment.stepMs);
            }
            if (o.thrown != null) {
                warnings.add("teardown step " + i + " (" + step.call.signature + ") of generation " + old.generation
                        + " threw " + describe(o.thrown));
            }
        }
        return null;
    }

    private Experiment requireExperiment() throws RequestException {
        if (experiment == null) {
            throw new RequestException("no-experiment", null, "no experiment is loaded; send a load request first");
        }
        return experiment;
    }

    private void requireUsable() throws RequestException {
        if (executor.isWedged()) {
            throw new RequestException("restart-required", null,
                    "an earlier call hung and still occupies the callin thread; restart the agent");
        }
    }

    private static Map<String, Object> failure(String phase, Integer position, String symbol, Integer step,
            String signature, Throwable thrown, long timeoutMs) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("phase", phase);
        f.put("position", position == null ? null : (long) position);
        f.put("symbol", symbol);
        f.put("step", step == null ? null : (long) step);
        f.put("call", signature);
        if (thrown == null) {
            f.put("timeoutMs", timeoutMs);
            f.put("message", signature + " did not return within " + timeoutMs + " ms");
        } else {
            f.put("throwable", thrown.getClass().getName());
            f.put("message", String.valueOf(thrown.getMessage()));
            List<Object> frames = new ArrayList<>();
            StackTraceElement[] trace = thrown.getStackTrace();
            for (int i = 0; i < trace.length && i < MAX_STACK_FRAMES; i++) {
                frames.add(trace[i].toString());
            }
            f.put("stack", frames);
        }
        return f;
    }

    private static String describe(Throwable t) {
        return t.getClass().getName() + (t.getMessage() != null ? ": " + t.getMessage() : "");
    }

    private static double ms(long startNanos) {
        return round((System.nanoTime() - startNanos) / 1e6);
    }

    private static double round(double millis) {
        return Math.round(millis * 1000) / 1000.0;
    }
}
