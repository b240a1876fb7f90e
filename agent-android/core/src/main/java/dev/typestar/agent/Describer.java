package dev.typestar.agent;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Answers {@code describe}: the public API surface of a class from which {@code typestar draft}
 * proposes an experiment — constructors, static factories, public instance methods, listener
 * setters with their listener interfaces' methods, and the constructors and methods a harness
 * subclass may call and override. Everything is sorted by name and parameter list, so output is deterministic.
 */
final class Describer {
    /** {@code setXxxListener}, {@code addXxxListener}, {@code registerXxx}. */
    private static final Pattern LISTENER_SETTER = Pattern.compile("(set|add)\\w*Listener|register\\w*");

    private Describer() {
    }

    /** The body of the {@code description} reply for {@code type}. */
    static Map<String, Object> describe(Class<?> type) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("class", classInfo(type));
        List<Object> constructors = new ArrayList<>();
        if (!type.isInterface() && !Modifier.isAbstract(type.getModifiers())) {
            for (Constructor<?> c : sorted(Arrays.asList(type.getConstructors()))) {
                constructors.add(signature(c));
            }
        }
        out.put("constructors", constructors);
        List<Object> subclassConstructors = new ArrayList<>();
        if (!type.isInterface() && !Modifier.isFinal(type.getModifiers())) {
            for (Constructor<?> c : sorted(Arrays.asList(type.getDeclaredConstructors()))) {
                int mod = c.getModifiers();
                if (Modifier.isPublic(mod) || Modifier.isProtected(mod)) {
                    Map<String, Object> sig = signature(c);
                    sig.put("protected", Modifier.isProtected(mod));
                    subclassConstructors.add(sig);
                }
            }
        }
        out.put("subclassConstructors", subclassConstructors);

        List<Object> factories = new ArrayList<>();
        List<Object> methods = new ArrayList<>();
        List<Object> listenerSetters = new ArrayList<>();
        List<Method> publicMethods = new ArrayList<>();
        for (Method m : type.getMethods()) {
            if (!m.isBridge() && !m.isSynthetic() && m.getDeclaringClass() != Object.class) {
                publicMethods.add(m);
            }
        }
        for (Method m : sorted(publicMethods)) {
            if (Modifier.isStatic(m.getModifiers())) {
                if (type.isAssignableFrom(m.getReturnType())) {
                    factories.add(signature(m));
                }
                continue;
            }
            methods.add(signature(m));
            Class<?>[] params = m.getParameterTypes();
            if (params.length == 1 && params[0].isInterface() && LISTENER_SETTER.matcher(m.getName()).matches()) {
                Map<String, Object> setter = signature(m);
                setter.put("interface", Types.name(params[0]));
                List<Object> callbacks = new ArrayList<>();
                for (Method cb : sorted(interfaceMethods(params[0]))) {
                    callbacks.add(signature(cb));
                }
                setter.put("callbacks", callbacks);
                listenerSetters.add(setter);
            }
        }
        out.put("factories", factories);
        out.put("methods", methods);
        out.put("listenerSetters", listenerSetters);
        List<Object> overridable = new ArrayList<>();
        for (Method m : sorted(overridable(type))) {
            Map<String, Object> sig = signature(m);
            sig.put("abstract", Modifier.isAbstract(m.getModifiers()));
            sig.put("protected", Modifier.isProtected(m.getModifiers()));
            overridable.add(sig);
        }
        out.put("overridable", overridable);
        return out;
    }

    private static Map<String, Object> classInfo(Class<?> type) {
        Map<String, Object> info = new LinkedHashMap<>();
        int mod = type.getModifiers();
        info.put("name", Types.name(type));
        info.put("kind", type.isInterface() ? "interface" : type.isEnum() ? "enum" : "class");
        info.put("abstract", Modifier.isAbstract(mod) && !type.isInterface());
        info.put("final", Modifier.isFinal(mod));
        info.put("public", Modifier.isPublic(mod));
        info.put("superclass", type.getSuperclass() == null ? null : Types.name(type.getSuperclass()));
        List<Object> interfaces = new ArrayList<>();
        for (Class<?> i : type.getInterfaces()) {
            interfaces.add(Types.name(i));
        }
        info.put("interfaces", interfaces);
        return info;
    }

    /** Non-static methods of an interface (the ones a listener proxy receives). */
    private static List<Method> interfaceMethods(Class<?> iface) {
        List<Method> out = new ArrayList<>();
        for (Method m : iface.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers())) {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * Methods a harness can override: for an interface all its instance methods; for a non-final
     * class the public or protected, non-final, non-static methods of it and its superclasses
     * below Object (the most derived declaration of each signature).
     */
    private static List<Method> overridable(Class<?> type) {
        if (type.isInterface()) {
            return interfaceMethods(type);
        }
        List<Method> out = new ArrayList<>();
        if (Modifier.isFinal(type.getModifiers())) {
            return out;
        }
        List<String> seen = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                int mod = m.getModifiers();
                String key = m.getName() + Arrays.toString(m.getParameterTypes());
                if (m.isBridge() || m.isSynthetic() || seen.contains(key)) {
                    continue;
                }
                seen.add(key);
                if ((Modifier.isPublic(mod) || Modifier.isProtected(mod)) && !Modifier.isFinal(mod)
                        && !Modifier.isStatic(mod)) {
                    out.add(m);
                }
            }
        }
        return out;
    }

    private static Map<String, Object> signature(Executable e) {
        Map<String, Object> sig = new LinkedHashMap<>();
        if (e instanceof Method) {
            sig.put("name", e.getName());
        }
        List<Object> params = new ArrayList<>();
        for (Class<?> p : e.getParameterTypes()) {
            params.add(Types.name(p));
        }
        sig.put("params", params);
        if (e instanceof Method) {
            sig.put("returns", Types.name(((Method) e).getReturnType()));
            sig.put("declaringClass", Types.name(e.getDeclaringClass()));
        }
        List<Object> exceptions = new ArrayList<>();
        for (Class<?> x : e.getExceptionTypes()) {
            exceptions.add(Types.name(x));
        }
        sig.put("throws", exceptions);
        return sig;
    }

    private static <T extends Executable> List<T> sorted(List<T> items) {
        List<T> copy = new ArrayList<>(items);
        copy.sort(Comparator.comparing((T e) -> e.getName())
                .thenComparing(e -> Arrays.toString(e.getParameterTypes())));
        return copy;
    }
}
