package dev.typestar.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes membership queries of the synchronous closure against fresh objects.
 *
 * <p>Per query: tear down the previous object, open a new generation, create the listener
 * proxies, run the build steps, then run each input: a callin yields {@code eps}, or {@code err}
 * if it throws an exception the error rules accept; {@code wait} yields the oldest queued
 * callback, waiting up to t_max, else {@code quiet}. After the first {@code err} every later
 * output is {@code err} without running anything. A step during or before which an error
 * callback arrived also yields {@code err}. All calls into the code under study go through the
 * {@link CallinExecutor} under a watchdog.
 */
final class QueryRunner {
    private static final int MAX_STACK_FRAMES = 12;

    /** One input of a query: {@code wait}, or a callin symbol with the chosen form. */
    static final class Input {
        final String symbol;
        final int variant;
        /** {@code null} for {@code wait}. */
        final Invocation call;

        Input(String symbol, int variant, Invocation call) {
            this.symbol = symbol;
            this.variant = variant;
            this.call = call;
        }
    }

    /** The object of the latest query, kept alive until the next teardown. */
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

    private final CallbackBus bus = new CallbackBus();
    private final CallinExecutor executor;
    private Experiment experiment;
    private Scope shared;
    private long lastGeneration;
    private Live live;

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
        Callbacks.bind(bus, 0); // reporters made during setup belong to no generation: always stale
        Scope setupScope = new Scope(null);
        for (int i = 0; i < next.setup.size(); i++) {
            Experiment.Step step = next.setup.get(i);
            CallinExecutor.Outcome o = executor.run(() -> {
                step.run(setupScope);
                return null;
            }, next.stepMs);
            String field = "experiment.setup[" + i + "]";
            if (o.timedOut) {
                throw new RequestException("hang", field, field + " (" + step.call.signature + ") did not return within "
                        + next.stepMs + " ms; restart the agent");
            }
            if (o.thrown != null) {
                throw new RequestException("setup-failed", field, field + " (" + step.call.signature + ") threw "
                        + describe(o.thrown));
            }
        }
        experiment = next;
        shared = setupScope;
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

    /** Resolves the {@code inputs} array of a query against the current experiment. */
    List<Input> parseInputs(List<Object> raw) throws RequestException {
        Experiment e = requireExperiment();
        List<Input> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            String field = "inputs[" + i + "]";
            Object item = raw.get(i);
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
                out.add(new Input(symbol, 0, null));
                continue;
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
            out.add(new Input(symbol, variant, callin.forms.get(variant)));
        }
        return out;
    }

    /** Runs one query on a fresh object; returns the body of the {@code result} reply. */
    Map<String, Object> query(List<Input> inputs) throws RequestException, InterruptedException {
        requireUsable();
        Experiment e = requireExperiment();
        long queryStart = System.nanoTime();
        List<String> warnings = new ArrayList<>();
        Map<String, Object> timings = new LinkedHashMap<>();
        List<Object> outputs = new ArrayList<>();
        List<Object> stepTimes = new ArrayList<>();
        Map<String, Object> err = null;
        Map<String, Object> failure = null;
        String status = "ok";

        long t = System.nanoTime();
        failure = tearDown(warnings);
        timings.put("teardownMs", ms(t));
        long generation = ++lastGeneration;
        if (failure != null) {
            status = "hang";
        } else {
            bus.open(generation, e.harnessSymbols, e.errorCallbacks);
            Callbacks.bind(bus, generation);
            Scope scope = new Scope(shared);
            for (ListenerProxy.Spec spec : e.listeners.values()) {
                scope.put(spec.name, ListenerProxy.create(spec, generation, bus, scope));
            }
            live = new Live(generation, e, scope);

            t = System.nanoTime();
            for (int i = 0; i < e.build.size() && failure == null; i++) {
                Experiment.Step step = e.build.get(i);
                CallinExecutor.Outcome o = executor.run(() -> {
                    step.run(scope);
                    return null;
                }, e.stepMs);
                if (o.timedOut) {
                    status = "hang";
                    failure = failure("build", null, null, i, step.call.signature, null, e.stepMs);
                } else if (o.thrown != null) {
                    status = "crash";
                    failure = failure("build", null, null, i, step.call.signature, o.thrown, 0);
                }
            }
            timings.put("buildMs", ms(t));

            for (int i = 0; i < inputs.size() && failure == null; i++) {
                Input in = inputs.get(i);
                if (err != null) {
                    outputs.add(Experiment.ERR);
                    stepTimes.add(0.0);
                    continue;
                }
                String output;
                double took;
                if (in.call == null) {
                    long w = System.nanoTime();
                    String callback = bus.poll(e.quiescenceMs);
                    took = ms(w);
                    output = callback != null ? callback : Experiment.QUIET;
                } else {
                    Scope s = scope;
                    CallinExecutor.Outcome o = executor.run(() -> in.call.invoke(s), e.callinMs);
                    took = round(o.millis);
                    if (o.timedOut) {
                        status = "hang";
                        failure = failure("callin", i, in.symbol, null, in.call.signature, null, e.callinMs);
                        break;
                    }
                    if (o.thrown == null) {
                        output = Experiment.EPS;
                    } else if (!(o.thrown instanceof InvocationFailure) && e.isErr(o.thrown)) {
                        output = Experiment.ERR;
                        err = new LinkedHashMap<>();
                        err.put("position", (long) i);
                        err.put("symbol", in.symbol);
                        err.put("exception", o.thrown.getClass().getName());
                        err.put("message", o.thrown.getMessage());
                    } else {
                        status = o.thrown instanceof Exception && !(o.thrown instanceof InvocationFailure)
                                ? "unexpected" : "crash";
                        failure = failure("callin", i, in.symbol, null, in.call.signature, o.thrown, 0);
                        break;
                    }
                }
                String errorCallback = bus.firstError();
                if (err == null && errorCallback != null) {
                    output = Experiment.ERR;
                    err = new LinkedHashMap<>();
                    err.put("position", (long) i);
                    err.put("symbol", in.symbol);
                    err.put("callback", errorCallback);
                }
                outputs.add(output);
                stepTimes.add(took);
            }
            t = System.nanoTime();
            if (failure == null && e.drainMs > 0) {
                Thread.sleep(e.drainMs);
            }
            timings.put("drainMs", ms(t));
        }
        if ("hang".equals(status)) {
            live = null; // its thread is stuck; nothing more can run on it
        }
        List<String> leftover = bus.close();
        List<String> reactionFailures = bus.drainFailures();
        if (failure == null && !reactionFailures.isEmpty()) {
            status = "crash";
            failure = new LinkedHashMap<>();
            failure.put("phase", "callback");
            failure.put("message", String.join("; ", reactionFailures));
        }
        List<Object> stale = new ArrayList<>();
        for (CallbackBus.Stale s : bus.drainStale()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("symbol", s.symbol);
            m.put("generation", s.generation);
            m.put("count", (long) s.count);
            stale.add(m);
        }
        timings.put("stepsMs", stepTimes);
        timings.put("totalMs", ms(queryStart));

        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("status", status);
        reply.put("generation", generation);
        reply.put("outputs", outputs);
        reply.put("err", err);
        reply.put("failure", failure);
        reply.put("leftover", leftover);
        reply.put("stale", stale);
        reply.put("unmapped", bus.drainUnmapped());
        reply.put("warnings", warnings);
        reply.put("timings", timings);
        reply.put("restartRequired", executor.isWedged());
        return reply;
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
            CallinExecutor.Outcome o = executor.run(() -> {
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
