package dev.typestar.agent;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An argument literal of an experiment, type-checked at load time against the parameter it
 * feeds and evaluated at run time in the {@link Scope} of one object generation.
 *
 * <p>JSON forms (see PROTOCOL.md, "Argument literals"): {@code null}, booleans, numbers and
 * strings converted to the parameter type; arrays for array parameters; and the typed objects
 * {@code {"int": 1}} (likewise long, short, byte, char, float, double), {@code {"ref": name}},
 * {@code {"new": class, "params": [...], "args": [...]}}, {@code {"class": name}},
 * {@code {"lambda": interface}}, {@code {"enum": class, "value": constant}},
 * {@code {"static": class, "field": name}} and {@code {"array": type, "items": [...]}}.
 */
abstract class Literal {
    private static final Set<String> NUMERIC_FORMS =
            Fields.keys("int", "long", "short", "byte", "char", "float", "double");

    /** Static type of the value; {@code null} only for the null literal. */
    final Class<?> type;

    private Literal(Class<?> type) {
        this.type = type;
    }

    /** Produces the argument value for one invocation. */
    abstract Object evaluate(Scope scope) throws Throwable;

    /** A literal whose value is fixed at load time. */
    private static final class Constant extends Literal {
        private final Object value;

        Constant(Class<?> type, Object value) {
            super(type);
            this.value = value;
        }

        @Override
        Object evaluate(Scope scope) {
            return value;
        }
    }

    /** A named value of the current generation (subject, listener, step result). */
    private static final class Ref extends Literal {
        private final String name;

        Ref(Class<?> type, String name) {
            super(type);
            this.name = name;
        }

        @Override
        Object evaluate(Scope scope) {
            return scope.get(name);
        }
    }

    /** A fresh object per evaluation, built by a constructor. */
    private static final class New extends Literal {
        private final Invocation constructor;

        New(Invocation constructor) {
            super(constructor.resultType);
            this.constructor = constructor;
        }

        @Override
        Object evaluate(Scope scope) throws Throwable {
            return constructor.invoke(scope);
        }
    }

    /** A fresh no-op implementation of an interface per evaluation. */
    private static final class Lambda extends Literal {
        Lambda(Class<?> iface) {
            super(iface);
        }

        @Override
        Object evaluate(Scope scope) {
            return ListenerProxy.noOp(type);
        }
    }

    /** An array whose elements are evaluated per evaluation. */
    private static final class ArrayOf extends Literal {
        private final Literal[] items;

        ArrayOf(Class<?> arrayType, Literal[] items) {
            super(arrayType);
            this.items = items;
        }

        @Override
        Object evaluate(Scope scope) throws Throwable {
            Object array = Array.newInstance(type.getComponentType(), items.length);
            for (int i = 0; i < items.length; i++) {
                Array.set(array, i, items[i].evaluate(scope));
            }
            return array;
        }
    }

    /**
     * Parses {@code json} as an argument for a parameter of type {@code expected}.
     *
     * @param names static types of the names visible at this point
     * @param field JSON path used in errors
     */
    static Literal parse(Object json, Class<?> expected, Map<String, Class<?>> names, String field)
            throws RequestException {
        Literal literal = parseUntyped(json, expected, names, field);
        if (!Types.assignable(expected, literal.type)) {
            throw mismatch(field, expected, literal.type == null ? "null" : Types.name(literal.type));
        }
        return literal;
    }

    private static Literal parseUntyped(Object json, Class<?> expected, Map<String, Class<?>> names,
            String field) throws RequestException {
        Class<?> want = Types.boxed(expected);
        if (json == null) {
            return new Constant(null, null);
        }
        if (json instanceof Boolean) {
            return new Constant(Boolean.class, json);
        }
        if (json instanceof String) {
            String s = (String) json;
            if (want == Character.class) {
                if (s.length() != 1) {
                    throw new RequestException("bad-argument", field,
                            field + " must be a one-character string for a char parameter, got \"" + s + "\"");
                }
                return new Constant(Character.class, s.charAt(0));
            }
            return new Constant(String.class, s);
        }
        if (json instanceof Long) {
            return integral((Long) json, want, field);
        }
        if (json instanceof Double) {
            double d = (Double) json;
            if (want == Float.class) {
                return new Constant(Float.class, (float) d);
            }
            return new Constant(Double.class, d);
        }
        if (json instanceof List) {
            if (!expected.isArray()) {
                throw new RequestException("bad-argument", field, field + " is a JSON array but the parameter type is "
                        + Types.name(expected) + " (use {\"array\": type, \"items\": [...]} for Object parameters)");
            }
            return array(expected, (List<?>) json, names, field);
        }
        return typed(Fields.of(json, field), names, field);
    }

    private static Literal integral(long v, Class<?> want, String field) throws RequestException {
        if (want == Long.class) {
            return new Constant(Long.class, v);
        }
        if (want == Double.class) {
            return new Constant(Double.class, (double) v);
        }
        if (want == Float.class) {
            return new Constant(Float.class, (float) v);
        }
        if (want == Short.class) {
            checkRange(v, Short.MIN_VALUE, Short.MAX_VALUE, "short", field);
            return new Constant(Short.class, (short) v);
        }
        if (want == Byte.class) {
            checkRange(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte", field);
            return new Constant(Byte.class, (byte) v);
        }
        if (want == Integer.class) {
            checkRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "int", field);
            return new Constant(Integer.class, (int) v);
        }
        // Object, Number, Comparable...: box as Java source would (int if it fits).
        if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            return new Constant(Integer.class, (int) v);
        }
        return new Constant(Long.class, v);
    }

    private static Literal array(Class<?> arrayType, List<?> items, Map<String, Class<?>> names, String field)
            throws RequestException {
        Literal[] parsed = new Literal[items.size()];
        for (int i = 0; i < parsed.length; i++) {
            parsed[i] = parse(items.get(i), arrayType.getComponentType(), names, field + "[" + i + "]");
        }
        return new ArrayOf(arrayType, parsed);
    }

    private static Literal typed(Fields f, Map<String, Class<?>> names, String field) throws RequestException {
        for (String form : NUMERIC_FORMS) {
            if (f.has(form)) {
                f.rejectUnknown(Fields.keys(form));
                return numeric(form, f.raw(form), f.child(form));
            }
        }
        if (f.has("ref")) {
            f.rejectUnknown(Fields.keys("ref"));
            String name = f.string("ref");
            if (!names.containsKey(name)) {
                throw new RequestException("unknown-name", f.child("ref"), "no value named \"" + name
                        + "\" is defined before " + field + " (defined: " + String.join(", ", names.keySet()) + ")");
            }
            return new Ref(names.get(name), name);
        }
        if (f.has("new")) {
            return new New(Invocation.parse(f, names, field, Fields.keys()));
        }
        if (f.has("class")) {
            f.rejectUnknown(Fields.keys("class"));
            return new Constant(Class.class, Types.forName(f.string("class"), f.child("class")));
        }
        if (f.has("lambda")) {
            f.rejectUnknown(Fields.keys("lambda"));
            Class<?> iface = Types.forName(f.string("lambda"), f.child("lambda"));
            if (!iface.isInterface()) {
                throw new RequestException("bad-argument", f.child("lambda"),
                        f.child("lambda") + " must name an interface, " + iface.getName() + " is not one");
            }
            return new Lambda(iface);
        }
        if (f.has("enum")) {
            f.rejectUnknown(Fields.keys("enum", "value"));
            Class<?> enumType = Types.forName(f.string("enum"), f.child("enum"));
            if (!enumType.isEnum()) {
                throw new RequestException("bad-argument", f.child("enum"), enumType.getName() + " is not an enum");
            }
            String constant = f.string("value");
            for (Object c : enumType.getEnumConstants()) {
                if (((Enum<?>) c).name().equals(constant)) {
                    return new Constant(enumType, c);
                }
            }
            throw new RequestException("bad-argument", f.child("value"),
                    "enum " + enumType.getName() + " has no constant " + constant);
        }
        if (f.has("static")) {
            f.rejectUnknown(Fields.keys("static", "field"));
            return staticField(f);
        }
        if (f.has("array")) {
            f.rejectUnknown(Fields.keys("array", "items"));
            Class<?> component = Types.forName(f.string("array"), f.child("array"));
            Class<?> arrayType = Array.newInstance(component, 0).getClass();
            return array(arrayType, f.list("items"), names, f.child("items"));
        }
        throw new RequestException("bad-argument", field, "unknown literal form at " + field
                + " (expected one of int, long, short, byte, char, float, double, ref, new, class, lambda, "
                + "enum, static, array)");
    }

    private static Literal numeric(String form, Object value, String field) throws RequestException {
        if (form.equals("char")) {
            if (!(value instanceof String) || ((String) value).length() != 1) {
                throw new RequestException("bad-argument", field, field + " must be a one-character string");
            }
            return new Constant(Character.class, ((String) value).charAt(0));
        }
        if (form.equals("float") || form.equals("double")) {
            if (!(value instanceof Number)) {
                throw new RequestException("bad-argument", field, field + " must be a number");
            }
            double d = ((Number) value).doubleValue();
            return form.equals("float") ? new Constant(Float.class, (float) d) : new Constant(Double.class, d);
        }
        if (!(value instanceof Long)) {
            throw new RequestException("bad-argument", field, field + " must be an integer");
        }
        long v = (Long) value;
        switch (form) {
            case "long":
                return new Constant(Long.class, v);
            case "int":
                checkRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "int", field);
                return new Constant(Integer.class, (int) v);
            case "short":
                checkRange(v, Short.MIN_VALUE, Short.MAX_VALUE, "short", field);
                return new Constant(Short.class, (short) v);
            default:
                checkRange(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte", field);
                return new Constant(Byte.class, (byte) v);
        }
    }

    private static Literal staticField(Fields f) throws RequestException {
        Class<?> owner = Types.forName(f.string("static"), f.child("static"));
        String name = f.string("field");
        try {
            Field field = owner.getField(name);
            if (!Modifier.isStatic(field.getModifiers())) {
                throw new RequestException("bad-argument", f.child("field"),
                        owner.getName() + "." + name + " is not a static field");
            }
            return new Constant(field.getType(), field.get(null));
        } catch (NoSuchFieldException e) {
            throw new RequestException("field-not-found", f.child("field"),
                    owner.getName() + " has no public field " + name);
        } catch (IllegalAccessException | RuntimeException | LinkageError e) {
            throw new RequestException("bad-argument", f.child("field"),
                    "cannot read " + owner.getName() + "." + name + ": " + e);
        }
    }

    private static void checkRange(long v, long min, long max, String typeName, String field)
            throws RequestException {
        if (v < min || v > max) {
            throw new RequestException("bad-argument", field, field + " = " + v + " does not fit in " + typeName);
        }
    }

    private static RequestException mismatch(String field, Class<?> expected, String actual) {
        return new RequestException("bad-argument", field,
                field + " has type " + actual + " but the parameter type is " + Types.name(expected));
    }
}
