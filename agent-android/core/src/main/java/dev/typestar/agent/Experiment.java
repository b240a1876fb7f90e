package dev.typestar.agent;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A loaded experiment: how to build the object under study, its callins (with variants), its
 * callbacks, what counts as {@code err}, and the timeouts; everything resolved and type-checked
 * against the classes on the agent's class path when the {@code load} request arrives, so a
 * query can only fail for reasons of the code under study. The JSON schema is in PROTOCOL.md.
 */
final class Experiment {
    /** Input symbol that waits for the next callback (paper §4.1). */
    static final String WAIT = "wait";
    /** Output symbols of the synchronous closure besides the callbacks. */
    static final String QUIET = "quiet";
    static final String EPS = "eps";
    static final String ERR = "err";
    private static final Set<String> RESERVED = Fields.keys(WAIT, QUIET, EPS, ERR);
    private static final String SUBJECT = "subject";

    /** A setup, build or teardown step: a call whose result may be named for later steps. */
    static final class Step {
        final Invocation call;
        final String as;
        final Class<?> type;

        Step(Invocation call, String as, Class<?> type) {
            this.call = call;
            this.as = as;
            this.type = type;
        }

        /** Runs the call and binds its result; a result of the wrong declared type is an agent failure. */
        void run(Scope scope) throws Throwable {
            Object result = call.invoke(scope);
            if (as != null) {
                if (result != null && !Types.boxed(type).isInstance(result)) {
                    throw new InvocationFailure(call.signature + " returned a " + result.getClass().getName()
                            + ", not the declared type " + Types.name(type) + " of \"" + as + "\"", null);
                }
                scope.put(as, result);
            }
        }
    }

    /** One callin symbol: its main form (index 0) and its variants (index 1...). */
    static final class Callin {
        final String symbol;
        final List<Form> forms;

        Callin(String symbol, List<Form> forms) {
            this.symbol = symbol;
            this.forms = forms;
        }
    }

    /**
     * One concrete form of a callin: the call, the return value it must produce, if any, and
     * the name its result is bound to, if any (the callin's {@code "as"}, shared by its variants).
     */
    static final class Form {
        final Invocation call;
        /** {@code null} unless the form has {@code "expect"} or {@code "expectNot"}. */
        final Expect expect;
        /** {@code null} unless the callin has {@code "as"}. */
        final String as;

        Form(Invocation call, Expect expect, String as) {
            this.call = call;
            this.expect = expect;
            this.as = as;
        }

        static Form parse(Fields c, Map<String, Class<?>> names, String path, Set<String> extraKeys, String as)
                throws RequestException {
            Set<String> keys = new HashSet<>(extraKeys);
            keys.add("expect");
            keys.add("expectNot");
            Invocation call = Invocation.parse(c, names, path, keys);
            if (c.has("expect") && c.has("expectNot")) {
                throw new RequestException("bad-request", c.child("expectNot"),
                        c.child("expectNot") + ": a form has at most one of expect and expectNot");
            }
            Expect expect = null;
            if (c.has("expect")) {
                expect = Expect.parse(c.raw("expect"), call, c.child("expect"), false);
            } else if (c.has("expectNot")) {
                expect = Expect.parse(c.raw("expectNot"), call, c.child("expectNot"), true);
            }
            return new Form(call, expect, as);
        }
    }

    /**
     * The {@code "expect"} rule of a callin form: the call must return this constant, else the
     * output is {@code err} (a callin refined by its result, such as {@code hasNext()} returning true);
     * or the {@code "expectNot"} rule: it must return anything else ({@code getLooper()} not null).
     */
    static final class Expect {
        private final Object value;
        private final boolean negated;

        private Expect(Object value, boolean negated) {
            this.value = value;
            this.negated = negated;
        }

        static Expect parse(Object json, Invocation call, String field, boolean negated) throws RequestException {
            if (call.resultType == void.class) {
                throw new RequestException("bad-argument", field, field + ": " + call.signature
                        + " returns void, so it cannot expect a value");
            }
            if (json instanceof Map || json instanceof List) {
                throw new RequestException("bad-argument", field, field
                        + " must be null, a boolean, a number or a string");
            }
            Literal literal = Literal.parse(json, call.resultType, Collections.<String, Class<?>>emptyMap(), field);
            try {
                return new Expect(literal.evaluate(new Scope(null)), negated);
            } catch (Throwable t) {
                throw new RequestException("bad-argument", field, field + " cannot be evaluated: " + t);
            }
        }

        /** Whether a returned value satisfies the rule. */
        boolean matches(Object returned) {
            return Objects.equals(value, returned) != negated;
        }

        /** The expected value, for reports: {@code "not null"} for an expectNot rule. */
        String describe() {
            return (negated ? "not " : "") + value;
        }
    }

    final String name;
    /** The type of the object under test, as its build step or callin declares it. */
    final Class<?> subjectType;
    final List<Step> setup;
    final Map<String, ListenerProxy.Spec> listeners;
    final List<Step> build;
    final List<Step> teardown;
    final Map<String, Callin> callins;
    final List<String> callbackSymbols;
    /** Harness-reported name to callback symbol. */
    final Map<String, String> harnessSymbols;
    final Set<String> errorCallbacks;
    final List<Class<?>> errorExceptions;
    final long quiescenceMs;
    final long callinMs;
    final long stepMs;
    final long drainMs;
    final long settleMs;
    final CallinExecutor.Clock clock;

    private Experiment(Builder b) {
        this.name = b.name;
        this.subjectType = b.subjectType;
        this.setup = b.setup;
        this.listeners = b.listeners;
        this.build = b.build;
        this.teardown = b.teardown;
        this.callins = b.callins;
        this.callbackSymbols = b.callbackSymbols;
        this.harnessSymbols = b.harnessSymbols;
        this.errorCallbacks = b.errorCallbacks;
        this.errorExceptions = b.errorExceptions;
        this.quiescenceMs = b.quiescenceMs;
        this.callinMs = b.callinMs;
        this.stepMs = b.stepMs;
        this.drainMs = b.drainMs;
        this.settleMs = b.settleMs;
        this.clock = b.clock;
    }

    /** Whether a throwable of a callin counts as {@code err} under this experiment's error rules. */
    boolean isErr(Throwable t) {
        for (Class<?> c : errorExceptions) {
            if (c.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** The input alphabet of the synchronous closure: callin symbols, then {@code wait}. */
    List<String> inputAlphabet() {
        List<String> out = new ArrayList<>(callins.keySet());
        out.add(WAIT);
        return out;
    }

    /** The output alphabet of the synchronous closure: callback symbols, then quiet, eps, err. */
    List<String> outputAlphabet() {
        List<String> out = new ArrayList<>(callbackSymbols);
        out.addAll(Arrays.asList(QUIET, EPS, ERR));
        return out;
    }

    /**
     * Parses and resolves an experiment object for an agent running on {@code platform}
     * ({@link Platform#name}); {@code f}'s path prefixes every error field.
     */
    static Experiment parse(Fields f, String platform) throws RequestException {
        f.rejectUnknown(Fields.keys("name", "setup", "listeners", "build", "teardown", "callins",
                "callbacks", "errors", "timeouts"));
        Builder b = new Builder();
        b.name = f.optString("name", "");
        Map<String, Class<?>> names = new LinkedHashMap<>();
        b.setup = steps(f, "setup", names, platform, false);
        Map<String, Map<String, List<PendingRule>>> listenerSymbols = new LinkedHashMap<>();
        Map<String, String> callbackPaths = new HashMap<>();
        parseCallbacks(f, b, listenerSymbols, callbackPaths);
        parseListeners(f, b, names, listenerSymbols, callbackPaths);
        b.build = steps(f, "build", names, platform, true);
        parseCallins(f, b, names);
        if (!names.containsKey(SUBJECT)) {
            throw new RequestException("bad-request", f.child("build"),
                    "no build step names the object under test (add \"as\": \"subject\" to the step that creates it,"
                            + " or to a callin that returns it)");
        }
        b.subjectType = names.get(SUBJECT);
        b.teardown = steps(f, "teardown", new LinkedHashMap<>(names), platform, false);
        parseErrors(f, b);
        parseTimeouts(f, b);
        return new Experiment(b);
    }

    private static final class Builder {
        String name;
        Class<?> subjectType;
        List<Step> setup;
        Map<String, ListenerProxy.Spec> listeners = new LinkedHashMap<>();
        List<Step> build;
        List<Step> teardown;
        Map<String, Callin> callins = new LinkedHashMap<>();
        List<String> callbackSymbols = new ArrayList<>();
        Map<String, String> harnessSymbols = new HashMap<>();
        Set<String> errorCallbacks = Collections.emptySet();
        List<Class<?>> errorExceptions;
        long quiescenceMs;
        long callinMs;
        long stepMs;
        long drainMs;
        long settleMs;
        CallinExecutor.Clock clock;
    }

    /**
     * The steps under {@code key}; a step whose {@code "platform"} names another platform than
     * {@code platform} is left out unresolved (its classes may not exist here).
     */
    private static List<Step> steps(Fields f, String key, Map<String, Class<?>> names, String platform,
            boolean isBuild) throws RequestException {
        List<Step> out = new ArrayList<>();
        if (!f.has(key)) {
            if (isBuild) {
                throw new RequestException("bad-request", f.child(key), "missing field " + f.child(key)
                        + " (the steps that construct the object under test)");
            }
            return out;
        }
        List<Object> raw = f.list(key);
        for (int i = 0; i < raw.size(); i++) {
            String path = f.child(key) + "[" + i + "]";
            Fields step = Fields.of(raw.get(i), path);
            if (step.has("platform") && !step.string("platform").equals(platform)) {
                continue;
            }
            Invocation call = Invocation.parse(step, names, path, Fields.keys("as", "type", "platform"));
            String as = step.has("as") ? step.string("as") : null;
            Class<?> type = call.resultType;
            if (step.has("type")) {
                if (as == null) {
                    throw new RequestException("bad-request", step.child("type"), step.child("type") + " needs \"as\"");
                }
                type = Types.forName(step.string("type"), step.child("type"));
                if (!Types.assignable(type, call.resultType) && !Types.assignable(call.resultType, type)) {
                    throw new RequestException("bad-argument", step.child("type"), call.signature + " returns "
                            + Types.name(call.resultType) + ", which can never be a " + Types.name(type));
                }
            }
            if (as != null) {
                if (type == void.class) {
                    throw new RequestException("bad-argument", step.child("as"), call.signature + " returns void");
                }
                checkName(as, step.child("as"), names);
                if (as.equals(SUBJECT) && !isBuild) {
                    throw new RequestException("bad-request", step.child("as"),
                            "only build steps may define \"subject\"");
                }
                names.put(as, type);
            }
            out.add(new Step(call, as, type));
        }
        return out;
    }

    /** A callback symbol of a listener method, before the listener's interface is known. */
    private static final class PendingRule {
        final String symbol;
        final Fields callback;

        PendingRule(String symbol, Fields callback) {
            this.symbol = symbol;
            this.callback = callback;
        }
    }

    private static void checkName(String name, String field, Map<String, Class<?>> names) throws RequestException {
        if (name.isEmpty() || name.matches("arg[0-9]+")) {
            throw new RequestException("bad-request", field, "\"" + name + "\" is not a usable name");
        }
        if (names.containsKey(name)) {
            throw new RequestException("bad-request", field, "the name \"" + name + "\" is already defined");
        }
    }

    private static void checkSymbol(String symbol, String field) throws RequestException {
        if (symbol.isEmpty() || RESERVED.contains(symbol)) {
            throw new RequestException("bad-request", field, "\"" + symbol
                    + "\" cannot be a symbol (reserved: wait, quiet, eps, err)");
        }
    }

    /**
     * Reads the callbacks map: harness names go to the builder, listener methods to
     * {@code listenerSymbols} (listener to method to symbol), with each entry's JSON path in
     * {@code callbackPaths} (keyed "listener.method") for errors found once listeners are known.
     */
    private static void parseCallbacks(Fields f, Builder b, Map<String, Map<String, List<PendingRule>>> listenerSymbols,
            Map<String, String> callbackPaths) throws RequestException {
        if (!f.has("callbacks")) {
            return;
        }
        Fields callbacks = f.object("callbacks");
        for (String symbol : callbacks.map.keySet()) {
            String path = callbacks.child(symbol);
            checkSymbol(symbol, path);
            Fields cb = callbacks.object(symbol);
            if (cb.has("harness")) {
                cb.rejectUnknown(Fields.keys("harness"));
                String reported = cb.string("harness");
                if (b.harnessSymbols.containsKey(reported)) {
                    throw new RequestException("bad-request", cb.child("harness"), "harness name \"" + reported
                            + "\" is already mapped to callback " + b.harnessSymbols.get(reported));
                }
                b.harnessSymbols.put(reported, symbol);
            } else {
                cb.rejectUnknown(Fields.keys("listener", "method", "when"));
                String listener = cb.string("listener");
                String method = cb.string("method");
                Map<String, List<PendingRule>> methods = listenerSymbols.computeIfAbsent(listener, k -> new LinkedHashMap<>());
                List<PendingRule> rules = methods.computeIfAbsent(method, k -> new ArrayList<>());
                if (!rules.isEmpty() && (!cb.has("when") || !rules.get(0).callback.has("when"))) {
                    throw new RequestException("bad-request", path, listener + "." + method
                            + " is already mapped to callback " + rules.get(0).symbol
                            + " (several callbacks may share a method only if each has \"when\")");
                }
                rules.add(new PendingRule(symbol, cb));
                callbackPaths.putIfAbsent(listener + "." + method, path);
            }
            b.callbackSymbols.add(symbol);
        }
    }

    private static void parseListeners(Fields f, Builder b, Map<String, Class<?>> names,
            Map<String, Map<String, List<PendingRule>>> listenerSymbols, Map<String, String> callbackPaths)
            throws RequestException {
        Fields listeners = f.has("listeners") ? f.object("listeners") : Fields.of(new LinkedHashMap<>(), f.child("listeners"));
        for (Map.Entry<String, Map<String, List<PendingRule>>> e : listenerSymbols.entrySet()) {
            if (!listeners.has(e.getKey())) {
                String method = e.getValue().keySet().iterator().next();
                throw new RequestException("unknown-name", callbackPaths.get(e.getKey() + "." + method) + ".listener",
                        "callback refers to listener \"" + e.getKey() + "\", which is not declared in listeners");
            }
        }
        Map<String, Class<?>> listenerTypes = new LinkedHashMap<>();
        for (String name : listeners.map.keySet()) {
            Fields l = listeners.object(name);
            l.rejectUnknown(Fields.keys("interface", "reactions", "returns"));
            checkName(name, listeners.child(name), names);
            Class<?> iface = Types.forName(l.string("interface"), l.child("interface"));
            if (!iface.isInterface()) {
                throw new RequestException("bad-argument", l.child("interface"), iface.getName()
                        + " is not an interface; callbacks of a class need a harness subclass (see PROTOCOL.md)");
            }
            listenerTypes.put(name, iface);
            names.put(name, iface);
        }
        for (String name : listenerTypes.keySet()) {
            Fields l = listeners.object(name);
            Class<?> iface = listenerTypes.get(name);
            Map<String, List<PendingRule>> pending = listenerSymbols.getOrDefault(name, new HashMap<>());
            Map<String, List<ListenerProxy.Rule>> symbols = new HashMap<>();
            for (String method : pending.keySet()) {
                if (interfaceMethod(iface, method) == null) {
                    throw new RequestException("method-not-found", callbackPaths.get(name + "." + method) + ".method",
                            iface.getName() + " has no method " + method);
                }
                List<ListenerProxy.Rule> rules = new ArrayList<>();
                for (PendingRule rule : pending.get(method)) {
                    rules.add(callbackRule(rule, iface, method, names));
                }
                symbols.put(method, rules);
            }
            Map<String, Invocation> reactions = new HashMap<>();
            if (l.has("reactions")) {
                Fields rs = l.object("reactions");
                for (String method : rs.map.keySet()) {
                    Method m = uniqueMethod(iface, method, rs.child(method));
                    Map<String, Class<?>> local = new LinkedHashMap<>(names);
                    Class<?>[] params = m.getParameterTypes();
                    for (int i = 0; i < params.length; i++) {
                        local.put("arg" + i, params[i]);
                    }
                    reactions.put(method, Invocation.parse(rs.object(method), local, rs.child(method), Fields.keys()));
                }
            }
            Map<String, Literal> returns = new HashMap<>();
            if (l.has("returns")) {
                Fields rs = l.object("returns");
                for (String method : rs.map.keySet()) {
                    Method m = uniqueMethod(iface, method, rs.child(method));
                    if (m.getReturnType() == void.class) {
                        throw new RequestException("bad-argument", rs.child(method), iface.getName() + "." + method
                                + " returns void");
                    }
                    returns.put(method, Literal.parse(rs.raw(method), m.getReturnType(), names, rs.child(method)));
                }
            }
            b.listeners.put(name, new ListenerProxy.Spec(name, iface, symbols, reactions, returns));
        }
    }

    /**
     * A callback symbol of a listener method, with its {@code "when"} call resolved against the
     * method's parameters ({@code arg0...}) and the names defined so far.
     */
    private static ListenerProxy.Rule callbackRule(PendingRule rule, Class<?> iface, String method,
            Map<String, Class<?>> names) throws RequestException {
        if (!rule.callback.has("when")) {
            return new ListenerProxy.Rule(rule.symbol, null, null);
        }
        Method m = uniqueMethod(iface, method, rule.callback.child("method"));
        Map<String, Class<?>> local = new LinkedHashMap<>(names);
        Class<?>[] params = m.getParameterTypes();
        for (int i = 0; i < params.length; i++) {
            local.put("arg" + i, params[i]);
        }
        Fields when = rule.callback.object("when");
        Invocation call = Invocation.parse(when, local, when.path, Fields.keys("expect"));
        if (!when.has("expect")) {
            throw new RequestException("bad-request", when.child("expect"), "missing field " + when.child("expect")
                    + " (the value the \"when\" call must return for the callback to be " + rule.symbol + ")");
        }
        Expect expect = Expect.parse(when.raw("expect"), call, when.child("expect"), false);
        return new ListenerProxy.Rule(rule.symbol, call, expect);
    }

    private static Method interfaceMethod(Class<?> iface, String name) {
        for (Method m : iface.getMethods()) {
            if (m.getName().equals(name)) {
                return m;
            }
        }
        return null;
    }

    private static Method uniqueMethod(Class<?> iface, String name, String field) throws RequestException {
        Method found = null;
        for (Method m : iface.getMethods()) {
            if (m.getName().equals(name)) {
                if (found != null && !Arrays.equals(found.getParameterTypes(), m.getParameterTypes())) {
                    throw new RequestException("ambiguous-overload", field, iface.getName() + "." + name
                            + " is overloaded; reactions and returns need a unique method name");
                }
                found = m;
            }
        }
        if (found == null) {
            throw new RequestException("method-not-found", field, iface.getName() + " has no method " + name);
        }
        return found;
    }

    private static void parseCallins(Fields f, Builder b, Map<String, Class<?>> names) throws RequestException {
        if (!f.has("callins")) {
            return;
        }
        Fields callins = f.object("callins");
        // Names bound by callins ("as") exist from the build on (null until the callin runs), so
        // every callin may use them. A binding callin may use names other binding callins
        // define, so they are resolved in rounds until none is left (or none makes progress).
        Set<String> callinBound = new HashSet<>();
        List<String> unresolved = new ArrayList<>();
        for (String symbol : callins.map.keySet()) {
            if (callins.object(symbol).has("as")) {
                unresolved.add(symbol);
            }
        }
        while (!unresolved.isEmpty()) {
            int before = unresolved.size();
            RequestException blocked = null;
            for (String symbol : new ArrayList<>(unresolved)) {
                Fields c = callins.object(symbol);
                Invocation call;
                try {
                    call = Invocation.parse(c, names, callins.child(symbol), Fields.keys("variants", "expect", "expectNot", "as"));
                } catch (RequestException e) {
                    if (!e.code.equals("unknown-name")) {
                        throw e;
                    }
                    blocked = e;
                    continue;
                }
                unresolved.remove(symbol);
                String as = c.string("as");
                if (call.resultType == void.class) {
                    throw new RequestException("bad-argument", c.child("as"), call.signature + " returns void");
                }
                Class<?> bound = names.get(as);
                if (bound == null || !callinBound.contains(as)) {
                    checkName(as, c.child("as"), names);
                } else if (bound != call.resultType) {
                    throw new RequestException("bad-argument", c.child("as"), call.signature + " returns "
                            + Types.name(call.resultType) + ", but another callin binds \"" + as + "\" to a "
                            + Types.name(bound));
                }
                callinBound.add(as);
                names.put(as, call.resultType);
            }
            if (blocked != null && unresolved.size() == before) {
                throw blocked;
            }
        }
        for (String symbol : callins.map.keySet()) {
            String path = callins.child(symbol);
            checkSymbol(symbol, path);
            if (b.callbackSymbols.contains(symbol)) {
                throw new RequestException("bad-request", path, "\"" + symbol + "\" is both a callin and a callback");
            }
            Fields c = callins.object(symbol);
            String as = c.has("as") ? c.string("as") : null;
            Map<String, Class<?>> visible = names;
            List<Form> forms = new ArrayList<>();
            forms.add(Form.parse(c, visible, path, Fields.keys("variants", "as"), as));
            if (c.has("variants")) {
                List<Object> variants = c.list("variants");
                for (int i = 0; i < variants.size(); i++) {
                    String vpath = c.child("variants") + "[" + i + "]";
                    Form form = Form.parse(Fields.of(variants.get(i), vpath), visible, vpath, Fields.keys(), as);
                    if (as != null && !Types.assignable(names.get(as), form.call.resultType)) {
                        throw new RequestException("bad-argument", vpath, form.call.signature + " returns "
                                + Types.name(form.call.resultType) + ", which cannot be bound to \"" + as + "\" ("
                                + Types.name(names.get(as)) + ")");
                    }
                    forms.add(form);
                }
            }
            b.callins.put(symbol, new Callin(symbol, forms));
        }
    }

    private static void parseErrors(Fields f, Builder b) throws RequestException {
        b.errorExceptions = new ArrayList<>();
        Fields errors = f.has("errors") ? f.object("errors") : Fields.of(new LinkedHashMap<>(), f.child("errors"));
        errors.rejectUnknown(Fields.keys("exceptions", "callbacks"));
        if (errors.has("exceptions")) {
            List<Object> raw = errors.list("exceptions");
            for (int i = 0; i < raw.size(); i++) {
                String path = errors.child("exceptions") + "[" + i + "]";
                if (!(raw.get(i) instanceof String)) {
                    throw new RequestException("bad-request", path, path + " must be a class name string");
                }
                Class<?> c = Types.forName((String) raw.get(i), path);
                if (!Throwable.class.isAssignableFrom(c)) {
                    throw new RequestException("bad-argument", path, c.getName() + " is not a Throwable");
                }
                b.errorExceptions.add(c);
            }
        } else {
            b.errorExceptions.add(Exception.class);
        }
        if (errors.has("callbacks")) {
            Set<String> symbols = new LinkedHashSet<>();
            List<Object> raw = errors.list("callbacks");
            for (int i = 0; i < raw.size(); i++) {
                String path = errors.child("callbacks") + "[" + i + "]";
                Object s = raw.get(i);
                if (!(s instanceof String) || !b.callbackSymbols.contains(s)) {
                    throw new RequestException("unknown-symbol", path, path + " must name a callback symbol of this "
                            + "experiment (declared: " + String.join(", ", b.callbackSymbols) + ")");
                }
                symbols.add((String) s);
            }
            b.errorCallbacks = symbols;
        }
    }

    private static void parseTimeouts(Fields f, Builder b) throws RequestException {
        Fields t = f.has("timeouts") ? f.object("timeouts") : Fields.of(new LinkedHashMap<>(), f.child("timeouts"));
        t.rejectUnknown(Fields.keys("quiescenceMs", "callinMs", "stepMs", "drainMs", "settleMs", "clock"));
        long hour = 3_600_000L;
        b.quiescenceMs = t.optInteger("quiescenceMs", 500, 0, hour);
        b.callinMs = t.optInteger("callinMs", 5_000, 1, hour);
        b.stepMs = t.optInteger("stepMs", 10_000, 1, hour);
        b.drainMs = t.optInteger("drainMs", 0, 0, hour);
        b.settleMs = t.optInteger("settleMs", 0, 0, hour);
        String clock = t.optString("clock", "simulated");
        switch (clock) {
            case "simulated":
                b.clock = CallinExecutor.Clock.SIMULATED;
                break;
            case "real":
                b.clock = CallinExecutor.Clock.REAL;
                break;
            default:
                throw new RequestException("bad-request", t.child("clock"),
                        t.child("clock") + " must be \"simulated\" or \"real\", not \"" + clock + "\"");
        }
    }
}
