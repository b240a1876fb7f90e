package dev.typestar.agent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where callbacks arrive, from whatever thread delivers them, tagged with the generation of the
 * object that produced them.
 *
 * <p>Callbacks of the open generation are queued FIFO for {@code wait} steps; callbacks of any
 * other generation (an earlier query's object, or the current object after its query ended) are
 * recorded as stale and never queued. Nothing is dropped silently: the query runner collects the
 * leftover queue, the stale list, callbacks no symbol maps to and failed listener reactions.
 */
final class CallbackBus {
    /** One stale callback kind: its symbol (or origin), the generation that produced it, how often. */
    static final class Stale {
        final String symbol;
        final long generation;
        int count;

        Stale(String symbol, long generation) {
            this.symbol = symbol;
            this.generation = generation;
        }
    }

    /** Generation whose callbacks are queued; 0 while no query is running. */
    private long open;
    private Map<String, String> harnessSymbols = Collections.emptyMap();
    private Set<String> errorSymbols = Collections.emptySet();
    private String firstError;
    private final ArrayDeque<String> queue = new ArrayDeque<>();
    /** Aggregated by (generation, symbol), so a runaway periodic callback cannot exhaust memory. */
    private final Map<String, Stale> stale = new LinkedHashMap<>();
    private final List<String> unmapped = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    /**
     * Opens {@code generation}: its callbacks are queued from now on.
     *
     * @param harnessSymbols harness-reported name to callback symbol
     * @param errorSymbols callback symbols that count as {@code err}
     */
    synchronized void open(long generation, Map<String, String> harnessSymbols, Set<String> errorSymbols) {
        this.open = generation;
        this.harnessSymbols = harnessSymbols;
        this.errorSymbols = errorSymbols;
        this.firstError = null;
        queue.clear();
        unmapped.clear();
        failures.clear();
    }

    /** Closes the open generation and returns the callbacks no {@code wait} consumed. */
    synchronized List<String> close() {
        open = 0;
        List<String> leftover = new ArrayList<>(queue);
        queue.clear();
        return leftover;
    }

    /**
     * Records a callback.
     *
     * @param symbol the callback symbol, or {@code null} if the experiment maps none to it
     * @param origin where it came from ({@code listener.method} or {@code harness:name}), for reports
     */
    synchronized void post(long generation, String symbol, String origin) {
        if (generation != open) {
            String name = symbol != null ? symbol : origin;
            stale.computeIfAbsent(generation + " " + name, k -> new Stale(name, generation)).count++;
            return;
        }
        if (symbol == null) {
            unmapped.add(origin);
            return;
        }
        if (firstError == null && errorSymbols.contains(symbol)) {
            firstError = symbol;
        }
        queue.addLast(symbol);
        notifyAll();
    }

    /** Records a callback reported by a harness through {@link Callbacks.Reporter}. */
    void postHarness(long generation, String name) {
        String symbol;
        synchronized (this) {
            symbol = harnessSymbols.get(name);
        }
        post(generation, symbol, "harness:" + name);
    }

    /** Records that a listener reaction of {@code generation} failed. */
    synchronized void fail(long generation, String description) {
        if (generation == open) {
            failures.add(description);
        }
    }

    /** Takes the oldest queued callback, waiting up to {@code timeoutMs}; {@code null} if none came. */
    synchronized String poll(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (queue.isEmpty()) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return null;
            }
            long ms = remaining / 1_000_000L;
            wait(ms, (int) (remaining % 1_000_000L));
        }
        return queue.pollFirst();
    }

    /** Takes the oldest queued callback without waiting; {@code null} if none is queued. */
    synchronized String pollNow() {
        return queue.pollFirst();
    }

    /** The first error callback received in the open generation, or {@code null}. */
    synchronized String firstError() {
        return firstError;
    }

    synchronized List<Stale> drainStale() {
        List<Stale> out = new ArrayList<>(stale.values());
        stale.clear();
        return out;
    }

    synchronized List<String> drainUnmapped() {
        List<String> out = new ArrayList<>(unmapped);
        unmapped.clear();
        return out;
    }

    synchronized List<String> drainFailures() {
        List<String> out = new ArrayList<>(failures);
        failures.clear();
        return out;
    }
}
