package dev.typestar.agent;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Assertions for the agent's tests, with messages that show both sides. */
final class Check {
    private Check() {
    }

    static void equal(Object expected, Object actual) {
        equal(expected, actual, "");
    }

    static void equal(Object expected, Object actual, String context) {
        if (!Objects.equals(expected, actual)) {
            throw new AssertionError((context.isEmpty() ? "" : context + ": ") + "expected " + show(expected)
                    + " but got " + show(actual));
        }
    }

    static void isTrue(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    /** Asserts that a JSON array equals the given strings. */
    static void strings(Object actual, String... expected) {
        equal(Arrays.asList(expected), actual);
    }

    /** Asserts that {@code text} contains {@code part}. */
    static void contains(Object text, String part) {
        if (!(text instanceof String) || !((String) text).contains(part)) {
            throw new AssertionError("expected text containing " + show(part) + " but got " + show(text));
        }
    }

    /** Asserts that the reply is an error with this code (and field, unless {@code null}). */
    static void error(Map<String, Object> reply, String code, String field) {
        equal("error", reply.get("type"), "reply " + Json.write(reply));
        equal(code, reply.get("code"), "reply " + Json.write(reply));
        if (field != null) {
            equal(field, reply.get("field"), "reply " + Json.write(reply));
        }
    }

    /** Asserts that a query result has status ok and these outputs. */
    static void outputs(Map<String, Object> reply, String... expected) {
        equal("result", reply.get("type"), "reply " + Json.write(reply));
        equal("ok", reply.get("status"), "reply " + Json.write(reply));
        equal(Arrays.asList(expected), reply.get("outputs"), "reply " + Json.write(reply));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> obj(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object value) {
        return (List<Object>) value;
    }

    private static String show(Object v) {
        return v instanceof String ? "\"" + v + "\"" : v instanceof Map || v instanceof List ? Json.write(v) : String.valueOf(v);
    }
}
