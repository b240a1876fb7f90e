package dev.typestar.agent;

import java.util.HashMap;
import java.util.Map;

/**
 * Java type names as they appear on the wire, and the few type rules literals need.
 *
 * <p>Wire form: primitives by keyword ({@code int}), classes by binary name
 * ({@code java.util.Map$Entry}), arrays as element name plus {@code []}
 * ({@code java.lang.String[]}, {@code int[][]}). {@link #forName} also accepts JVM descriptors
 * such as {@code [Ljava.lang.String;} so names copied from {@link Class#getName} work.
 */
final class Types {
    private static final Map<String, Class<?>> PRIMITIVES = new HashMap<>();
    private static final Map<Class<?>, Class<?>> BOXES = new HashMap<>();
    /** Primitive widening conversions (JLS 5.1.2): target -> the sources that widen to it. */
    private static final Map<Class<?>, String> WIDENING = new HashMap<>();

    static {
        Class<?>[][] pairs = {
            {boolean.class, Boolean.class}, {byte.class, Byte.class}, {short.class, Short.class},
            {char.class, Character.class}, {int.class, Integer.class}, {long.class, Long.class},
            {float.class, Float.class}, {double.class, Double.class}, {void.class, Void.class},
        };
        for (Class<?>[] p : pairs) {
            PRIMITIVES.put(p[0].getName(), p[0]);
            BOXES.put(p[0], p[1]);
        }
        WIDENING.put(short.class, " byte ");
        WIDENING.put(int.class, " byte short char ");
        WIDENING.put(long.class, " byte short char int ");
        WIDENING.put(float.class, " byte short char int long ");
        WIDENING.put(double.class, " byte short char int long float ");
    }

    private Types() {
    }

    /** The class loader used for every class an experiment or describe request names. */
    static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : Types.class.getClassLoader();
    }

    /** Resolves a wire type name; {@code field} names the request field for the error. */
    static Class<?> forName(String name, String field) throws RequestException {
        String trimmed = name.trim();
        if (trimmed.endsWith("[]")) {
            Class<?> element = forName(trimmed.substring(0, trimmed.length() - 2), field);
            if (element == void.class) {
                throw new RequestException("bad-request", field, "void[] is not a type");
            }
            return java.lang.reflect.Array.newInstance(element, 0).getClass();
        }
        Class<?> primitive = PRIMITIVES.get(trimmed);
        if (primitive != null) {
            return primitive;
        }
        try {
            return Class.forName(trimmed, false, loader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new RequestException("class-not-found", field,
                    "class " + trimmed + " not found on the agent's class path"
                            + (e instanceof LinkageError ? " (" + e + ")" : ""));
        }
    }

    /** The wire name of a type (inverse of {@link #forName}). */
    static String name(Class<?> type) {
        if (type.isArray()) {
            return name(type.getComponentType()) + "[]";
        }
        return type.getName();
    }

    /** The wrapper class of a primitive type, or the type itself. */
    static Class<?> boxed(Class<?> type) {
        return type.isPrimitive() ? BOXES.get(type) : type;
    }

    /**
     * Whether a value of static type {@code from} may be passed where {@code to} is expected,
     * by reference widening, boxing, or unboxing plus primitive widening (what reflection applies).
     */
    static boolean assignable(Class<?> to, Class<?> from) {
        if (from == null) { // the null literal
            return !to.isPrimitive();
        }
        if (boxed(to).isAssignableFrom(boxed(from))) {
            return true;
        }
        if (!to.isPrimitive()) {
            return false;
        }
        Class<?> source = unboxed(from);
        String widening = WIDENING.get(to);
        return source != null && widening != null && widening.contains(" " + source.getName() + " ");
    }

    private static Class<?> unboxed(Class<?> type) {
        if (type.isPrimitive()) {
            return type;
        }
        for (Map.Entry<Class<?>, Class<?>> e : BOXES.entrySet()) {
            if (e.getValue() == type) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The zero value a method of this return type gives back when a proxy has nothing to say. */
    static Object defaultValue(Class<?> type) {
        if (!type.isPrimitive() || type == void.class) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return '\0';
        }
        if (type == byte.class) {
            return (byte) 0;
        }
        if (type == short.class) {
            return (short) 0;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == float.class) {
            return 0f;
        }
        return 0d;
    }
}
