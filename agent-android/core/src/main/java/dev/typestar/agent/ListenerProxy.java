package dev.typestar.agent;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;

/**
 * A {@link Proxy} implementation of a listener interface that reports its calls as callbacks of
 * one object generation, optionally reacts to them (for example
 * {@code Flow.Subscription.request(n)} in {@code onSubscribe}) and returns configured or zero
 * values. Also provides the no-op implementations behind the {@code {"lambda": ...}} literal.
 */
final class ListenerProxy implements InvocationHandler {
    /** The load-time description of one listener of an experiment. */
    static final class Spec {
        final String name;
        final Class<?> iface;
        /**
         * Interface method name to the rules that map its calls to callback symbols, tried in
         * order; a call no rule maps is reported as unmapped.
         */
        final Map<String, List<Rule>> symbols;
        /** Interface method name to a call run after reporting, with the arguments as arg0.... */
        final Map<String, Invocation> reactions;
        /** Interface method name to the value the proxy returns. */
        final Map<String, Literal> returns;

        Spec(String name, Class<?> iface, Map<String, List<Rule>> symbols, Map<String, Invocation> reactions,
                Map<String, Literal> returns) {
            this.name = name;
            this.iface = iface;
            this.symbols = symbols;
            this.reactions = reactions;
            this.returns = returns;
        }
    }

    /**
     * One callback symbol of a listener method: always, or only when the {@code "when"} call
     * (run with the callback's arguments bound as {@code arg0...}) returns its expected value.
     */
    static final class Rule {
        final String symbol;
        /** {@code null} for a rule that always applies. */
        final Invocation when;
        final Experiment.Expect expect;

        Rule(String symbol, Invocation when, Experiment.Expect expect) {
            this.symbol = symbol;
            this.when = when;
            this.expect = expect;
        }
    }

    private final Spec spec;
    private final long generation;
    private final CallbackBus bus;
    private final Scope scope;

    private ListenerProxy(Spec spec, long generation, CallbackBus bus, Scope scope) {
        this.spec = spec;
        this.generation = generation;
        this.bus = bus;
        this.scope = scope;
    }

    /** A fresh listener object for {@code generation}; reactions see {@code scope}. */
    static Object create(Spec spec, long generation, CallbackBus bus, Scope scope) {
        return Proxy.newProxyInstance(Types.loader(), new Class<?>[] {spec.iface},
                new ListenerProxy(spec, generation, bus, scope));
    }

    /** An implementation of {@code iface} whose methods do nothing and return zero values. */
    static Object noOp(Class<?> iface) {
        return Proxy.newProxyInstance(Types.loader(), new Class<?>[] {iface}, (proxy, method, args) -> {
            Object identity = objectMethod(proxy, method, args, "no-op " + iface.getName());
            return identity != null ? identity : Types.defaultValue(method.getReturnType());
        });
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        Object identity = objectMethod(proxy, method, args,
                "typestar listener " + spec.name + " (generation " + generation + ")");
        if (identity != null) {
            return identity;
        }
        String name = method.getName();
        Scope local = new Scope(scope);
        for (int i = 0; args != null && i < args.length; i++) {
            local.put("arg" + i, args[i]);
        }
        bus.post(generation, symbol(name, local), spec.name + "." + name);
        Invocation reaction = spec.reactions.get(name);
        if (reaction != null) {
            try {
                reaction.invoke(local);
            } catch (Throwable t) {
                bus.fail(generation, "reaction of " + spec.name + "." + name + " (" + reaction.signature + ") threw " + t);
            }
        }
        Literal value = spec.returns.get(name);
        if (value == null) {
            return Types.defaultValue(method.getReturnType());
        }
        try {
            return value.evaluate(scope);
        } catch (Throwable t) {
            bus.fail(generation, "return value of " + spec.name + "." + name + " failed: " + t);
            return Types.defaultValue(method.getReturnType());
        }
    }

    /** The symbol of the first rule of method {@code name} that applies, or {@code null}. */
    private String symbol(String name, Scope local) {
        List<Rule> rules = spec.symbols.get(name);
        if (rules == null) {
            return null;
        }
        for (Rule rule : rules) {
            if (rule.when == null) {
                return rule.symbol;
            }
            try {
                if (rule.expect.matches(rule.when.invoke(local))) {
                    return rule.symbol;
                }
            } catch (Throwable t) {
                bus.fail(generation, "the \"when\" call of callback " + rule.symbol + " (" + rule.when.signature
                        + ") threw " + t);
                return null;
            }
        }
        return null;
    }

    /** Identity semantics for equals/hashCode/toString; {@code null} for any other method. */
    private static Object objectMethod(Object proxy, Method method, Object[] args, String description) {
        if (method.getDeclaringClass() != Object.class) {
            return null;
        }
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            default:
                return description;
        }
    }
}
