package dev.typestar.agent;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One reflective call of an experiment (a setup, build or teardown step, or a callin variant),
 * resolved and type-checked at load time.
 *
 * <p>JSON forms: {@code {"new": class}}, {@code {"static": class, "call": method}} and
 * {@code {"call": method, "on": name}} (receiver defaults to {@code "subject"}), each with
 * optional {@code "params"} (wire type names, selects the overload exactly) and {@code "args"}
 * (argument literals). Without {@code "params"} the unique public overload with that arity whose
 * parameter types accept the literals is chosen; several matches are an error asking for params.
 */
final class Invocation {
    private static final Set<String> BASE_KEYS =
            new HashSet<>(Arrays.asList("new", "static", "call", "on", "params", "args"));

    /** Constructor or method to call. */
    private final Executable target;
    /** Name of the receiver in the scope, or {@code null} for constructors and static methods. */
    private final String receiver;
    private final Literal[] args;
    /** Static type of the result (the constructed class, or the method's return type). */
    final Class<?> resultType;
    /** Human-readable signature, e.g. {@code java.util.Timer.schedule(java.util.TimerTask, long)}. */
    final String signature;

    private Invocation(Executable target, String receiver, Literal[] args, Class<?> resultType) {
        this.target = target;
        this.receiver = receiver;
        this.args = args;
        this.resultType = resultType;
        this.signature = target.getDeclaringClass().getName() + "."
                + (target instanceof Constructor ? "<init>" : target.getName())
                + Arrays.stream(target.getParameterTypes()).map(Types::name)
                        .collect(Collectors.joining(", ", "(", ")"));
    }

    /**
     * Resolves the call described by {@code f}.
     *
     * @param names static types of the names visible to this call
     * @param field JSON path of {@code f}, for errors
     * @param extraKeys keys besides the call keys that the caller handles itself
     */
    static Invocation parse(Fields f, Map<String, Class<?>> names, String field, Set<String> extraKeys)
            throws RequestException {
        Set<String> allowed = new HashSet<>(BASE_KEYS);
        allowed.addAll(extraKeys);
        f.rejectUnknown(allowed);
        List<Object> argJson = f.has("args") ? f.list("args") : Collections.emptyList();
        List<Class<?>> params = null;
        if (f.has("params")) {
            List<Object> raw = f.list("params");
            params = new ArrayList<>();
            for (int i = 0; i < raw.size(); i++) {
                String p = f.child("params") + "[" + i + "]";
                if (!(raw.get(i) instanceof String)) {
                    throw new RequestException("bad-request", p, p + " must be a type name string");
                }
                params.add(Types.forName((String) raw.get(i), p));
            }
            if (params.size() != argJson.size()) {
                throw new RequestException("bad-argument", f.child("args"), f.child("args") + " has "
                        + argJson.size() + " literals but params lists " + params.size() + " types");
            }
        }
        if (f.has("new")) {
            if (f.has("call") || f.has("static") || f.has("on")) {
                throw new RequestException("bad-request", field, field + " mixes \"new\" with call/static/on");
            }
            Class<?> type = Types.forName(f.string("new"), f.child("new"));
            if (Modifier.isAbstract(type.getModifiers()) || type.isInterface()) {
                throw new RequestException("bad-argument", f.child("new"), type.getName()
                        + " is abstract; construct a concrete harness subclass instead (see PROTOCOL.md, Harness classes)");
            }
            List<Executable> candidates = new ArrayList<>(Arrays.asList(type.getConstructors()));
            return resolve(candidates, params, argJson, null, type, names, f, field,
                    "public constructor of " + type.getName());
        }
        String method = f.string("call");
        if (f.has("static")) {
            if (f.has("on")) {
                throw new RequestException("bad-request", field, field + " has both \"static\" and \"on\"");
            }
            Class<?> owner = Types.forName(f.string("static"), f.child("static"));
            return resolve(methods(owner, method, true), params, argJson, null, owner, names, f, field,
                    "public static method " + owner.getName() + "." + method);
        }
        String on = f.optString("on", "subject");
        Class<?> receiverType = names.get(on);
        if (receiverType == null) {
            throw new RequestException("unknown-name", f.has("on") ? f.child("on") : field,
                    "no value named \"" + on + "\" is defined before " + field
                            + " (defined: " + String.join(", ", names.keySet()) + ")");
        }
        return resolve(methods(receiverType, method, false), params, argJson, on, receiverType, names, f, field,
                "public instance method " + Types.name(receiverType) + "." + method);
    }

    /** Runs the call; exceptions thrown by the called code propagate unwrapped. */
    Object invoke(Scope scope) throws Throwable {
        Object[] values = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            values[i] = args[i].evaluate(scope);
        }
        try {
            if (target instanceof Constructor) {
                return ((Constructor<?>) target).newInstance(values);
            }
            Object self = null;
            if (receiver != null) {
                self = scope.get(receiver);
                if (self == null) {
                    // What the Java call would do; the error rules decide whether it is err.
                    throw new NullPointerException("cannot call " + signature + ": receiver \"" + receiver
                            + "\" is null");
                }
            }
            return ((Method) target).invoke(self, values);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } catch (IllegalAccessException | IllegalArgumentException | InstantiationException e) {
            throw new InvocationFailure("cannot call " + signature + ": " + e, e);
        }
    }

    /** Whether this is an instance call whose receiver is null in {@code scope}. */
    boolean hasNullReceiver(Scope scope) {
        return receiver != null && scope.get(receiver) == null;
    }

    private static Invocation resolve(List<Executable> candidates, List<Class<?>> params, List<Object> argJson,
            String receiver, Class<?> owner, Map<String, Class<?>> names, Fields f, String field, String what)
            throws RequestException {
        if (candidates.isEmpty()) {
            throw new RequestException(receiver == null && f.has("new") ? "constructor-not-found" : "method-not-found",
                    f.has("new") ? f.child("new") : f.child("call"), "no " + what + " exists");
        }
        if (params != null) {
            for (Executable e : candidates) {
                if (Arrays.equals(e.getParameterTypes(), params.toArray(new Class<?>[0]))) {
                    return build(e, parseArgs(e, argJson, names, f), receiver, owner);
                }
            }
            throw new RequestException(f.has("new") ? "constructor-not-found" : "method-not-found", f.child("params"),
                    "no " + what + " with parameters " + params.stream().map(Types::name)
                            .collect(Collectors.joining(", ", "(", ")")) + "; available: " + overloads(candidates));
        }
        List<Executable> matching = new ArrayList<>();
        RequestException lastMismatch = null;
        Literal[] chosenArgs = null;
        for (Executable e : candidates) {
            if (e.getParameterCount() != argJson.size()) {
                continue;
            }
            try {
                Literal[] parsed = parseArgs(e, argJson, names, f);
                matching.add(e);
                chosenArgs = parsed;
            } catch (RequestException mismatch) {
                if (!mismatch.code.equals("bad-argument")) {
                    throw mismatch;
                }
                lastMismatch = mismatch;
            }
        }
        if (matching.size() == 1) {
            return build(matching.get(0), chosenArgs, receiver, owner);
        }
        if (matching.isEmpty()) {
            if (lastMismatch != null && candidates.stream().filter(e -> e.getParameterCount() == argJson.size()).count() == 1) {
                throw lastMismatch;
            }
            throw new RequestException(lastMismatch != null ? "bad-argument" : (f.has("new") ? "constructor-not-found" : "method-not-found"),
                    f.has("new") ? f.child("new") : f.child("call"), "no " + what + " accepts " + argJson.size()
                            + " argument(s) of the given types; available: " + overloads(candidates));
        }
        throw new RequestException("ambiguous-overload", field, "several overloads of " + what + " accept the given "
                + "arguments: " + overloads(matching) + "; add \"params\" to choose one");
    }

    private static Literal[] parseArgs(Executable e, List<Object> argJson, Map<String, Class<?>> names, Fields f)
            throws RequestException {
        Class<?>[] types = e.getParameterTypes();
        Literal[] parsed = new Literal[types.length];
        for (int i = 0; i < types.length; i++) {
            parsed[i] = Literal.parse(argJson.get(i), types[i], names, f.child("args") + "[" + i + "]");
        }
        return parsed;
    }

    private static Invocation build(Executable e, Literal[] args, String receiver, Class<?> owner) {
        Class<?> result = e instanceof Constructor ? owner : ((Method) e).getReturnType();
        return new Invocation(e, receiver, args, result);
    }

    /**
     * Public methods named {@code name} of {@code type}, static or instance as asked, without
     * bridge duplicates, each made callable through a public declaring type where possible.
     */
    static List<Executable> methods(Class<?> type, String name, boolean statics) {
        List<Executable> out = new ArrayList<>();
        List<Method> all = new ArrayList<>(Arrays.asList(type.getMethods()));
        if (type.isInterface()) {
            all.addAll(Arrays.asList(Object.class.getMethods()));
        }
        for (Method m : all) {
            if (!m.getName().equals(name) || m.isBridge() || Modifier.isStatic(m.getModifiers()) != statics) {
                continue;
            }
            boolean duplicate = out.stream().anyMatch(o -> Arrays.equals(o.getParameterTypes(), m.getParameterTypes()));
            if (!duplicate) {
                out.add(accessible(m));
            }
        }
        return out;
    }

    /** The same method as declared by a public type, so reflection may call it across modules. */
    private static Method accessible(Method m) {
        if (Modifier.isPublic(m.getDeclaringClass().getModifiers())) {
            return m;
        }
        List<Class<?>> queue = new ArrayList<>();
        queue.add(m.getDeclaringClass());
        for (int i = 0; i < queue.size(); i++) {
            Class<?> c = queue.get(i);
            if (Modifier.isPublic(c.getModifiers())) {
                try {
                    return c.getMethod(m.getName(), m.getParameterTypes());
                } catch (NoSuchMethodException notHere) {
                    // keep searching the supertypes
                }
            }
            if (c.getSuperclass() != null) {
                queue.add(c.getSuperclass());
            }
            queue.addAll(Arrays.asList(c.getInterfaces()));
        }
        try {
            m.setAccessible(true);
        } catch (RuntimeException denied) {
            // invoke() reports the IllegalAccessException with the signature
        }
        return m;
    }

    private static String overloads(List<Executable> candidates) {
        return candidates.stream()
                .map(e -> (e instanceof Constructor ? "<init>" : e.getName()) + Arrays.stream(e.getParameterTypes())
                        .map(Types::name).collect(Collectors.joining(", ", "(", ")")))
                .sorted().collect(Collectors.joining("; "));
    }
}
