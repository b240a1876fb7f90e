package dev.typestar.agent;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Typed, path-aware access to one JSON object of a request.
 *
 * <p>Every accessor names the full JSON path of a missing or mistyped field in the
 * {@code bad-request} error it throws (for example {@code callins.next.params[0]}), and
 * {@link #rejectUnknown} catches misspelled keys instead of silently ignoring them.
 */
final class Fields {
    final Map<String, Object> map;
    final String path;

    private Fields(Map<String, Object> map, String path) {
        this.map = map;
        this.path = path;
    }

    /** Wraps a value that must be a JSON object found at {@code path} ("" for the top level). */
    static Fields of(Object value, String path) throws RequestException {
        if (!(value instanceof Map)) {
            throw new RequestException("bad-request", path.isEmpty() ? null : path,
                    (path.isEmpty() ? "the message" : path) + " must be a JSON object, got " + kind(value));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) value;
        return new Fields(map, path);
    }

    /**
     * A mutable set of allowed keys (used instead of {@code Set.of}, which older Android
     * releases lack).
     */
    static Set<String> keys(String... keys) {
        return new LinkedHashSet<>(Arrays.asList(keys));
    }

    /** The JSON path of a child key of this object. */
    String child(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    boolean has(String key) {
        return map.containsKey(key);
    }

    Object raw(String key) {
        return map.get(key);
    }

    String string(String key) throws RequestException {
        Object v = required(key);
        if (!(v instanceof String)) {
            throw wrongType(key, "a string", v);
        }
        return (String) v;
    }

    String optString(String key, String fallback) throws RequestException {
        return has(key) ? string(key) : fallback;
    }

    long integer(String key) throws RequestException {
        Object v = required(key);
        if (!(v instanceof Long)) {
            throw wrongType(key, "an integer", v);
        }
        return (Long) v;
    }

    long optInteger(String key, long fallback, long min, long max) throws RequestException {
        if (!has(key)) {
            return fallback;
        }
        long v = integer(key);
        if (v < min || v > max) {
            throw new RequestException("bad-request", child(key),
                    child(key) + " must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }

    Fields object(String key) throws RequestException {
        return of(required(key), child(key));
    }

    List<Object> list(String key) throws RequestException {
        Object v = required(key);
        if (!(v instanceof List)) {
            throw wrongType(key, "an array", v);
        }
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) v;
        return list;
    }

    /** Fails on any key outside {@code allowed}, so typos in experiments are caught at load time. */
    void rejectUnknown(Set<String> allowed) throws RequestException {
        for (String key : map.keySet()) {
            if (!allowed.contains(key)) {
                throw new RequestException("bad-request", child(key),
                        "unknown field " + child(key) + " (allowed here: " + String.join(", ", allowed) + ")");
            }
        }
    }

    private Object required(String key) throws RequestException {
        if (!map.containsKey(key)) {
            throw new RequestException("bad-request", child(key), "missing field " + child(key));
        }
        return map.get(key);
    }

    private RequestException wrongType(String key, String expected, Object actual) {
        return new RequestException("bad-request", child(key),
                child(key) + " must be " + expected + ", got " + kind(actual));
    }

    /** A short JSON type name of a parsed value, for error messages. */
    static String kind(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String) {
            return "a string";
        }
        if (v instanceof Long) {
            return "an integer";
        }
        if (v instanceof Double) {
            return "a number";
        }
        if (v instanceof Boolean) {
            return "a boolean";
        }
        if (v instanceof List) {
            return "an array";
        }
        return "an object";
    }
}
