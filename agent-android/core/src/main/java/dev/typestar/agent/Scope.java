package dev.typestar.agent;

import java.util.HashMap;
import java.util.Map;

/**
 * Named values visible to reflective calls: the experiment's setup results (shared by all
 * generations), then per generation the subject, listener proxies and build-step results, and
 * inside a listener reaction the callback's arguments {@code arg0, arg1, ...}. Literals
 * ({@code {"ref": name}}) and receivers ({@code "on": name}) read from it; names are checked
 * statically at load time, so a lookup never misses.
 */
final class Scope {
    private final Scope parent;
    private final Map<String, Object> values = new HashMap<>();

    /** A scope whose lookups fall back to {@code parent} (may be {@code null}). */
    Scope(Scope parent) {
        this.parent = parent;
    }

    Object get(String name) {
        if (values.containsKey(name) || parent == null) {
            return values.get(name);
        }
        return parent.get(name);
    }

    void put(String name, Object value) {
        values.put(name, value);
    }
}
