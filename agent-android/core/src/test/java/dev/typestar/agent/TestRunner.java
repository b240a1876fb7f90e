package dev.typestar.agent;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A dependency-free test runner: runs every {@link Test} method of the classes named on the
 * command line (a fresh instance per test, each under a time limit), prints one line per test
 * and finally {@code N passed, N failed}; exits non-zero if any test failed.
 */
public final class TestRunner {
    private static final long TEST_TIMEOUT_MS = 30_000;

    private TestRunner() {
    }

    public static void main(String[] args) throws Exception {
        String filter = System.getenv("TEST_FILTER");
        int passed = 0;
        int failed = 0;
        for (String className : args) {
            Class<?> type = Class.forName(className);
            List<Method> tests = new ArrayList<>();
            for (Method m : type.getMethods()) {
                if (m.isAnnotationPresent(Test.class)) {
                    tests.add(m);
                }
            }
            tests.sort(Comparator.comparing(Method::getName));
            for (Method m : tests) {
                String name = type.getSimpleName() + "." + m.getName();
                if (filter != null && !name.contains(filter)) {
                    continue;
                }
                long start = System.nanoTime();
                Throwable problem = run(type, m);
                long ms = (System.nanoTime() - start) / 1_000_000;
                if (problem == null) {
                    passed++;
                    System.out.println("PASS " + name + " (" + ms + " ms)");
                } else {
                    failed++;
                    System.out.println("FAIL " + name + " (" + ms + " ms): " + problem);
                    StackTraceElement[] trace = problem.getStackTrace();
                    Arrays.stream(trace).limit(8).forEach(f -> System.out.println("    at " + f));
                }
            }
        }
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 && passed > 0 ? 0 : 1);
    }

    private static Throwable run(Class<?> type, Method m) throws InterruptedException {
        AtomicReference<Throwable> problem = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                Object instance = type.getDeclaredConstructor().newInstance();
                try {
                    m.invoke(instance);
                } finally {
                    if (instance instanceof AutoCloseable) {
                        ((AutoCloseable) instance).close();
                    }
                }
            } catch (InvocationTargetException e) {
                problem.set(e.getCause());
            } catch (Throwable e) {
                problem.set(e);
            }
        }, "test-" + m.getName());
        t.setDaemon(true);
        t.start();
        t.join(TEST_TIMEOUT_MS);
        if (t.isAlive()) {
            return new AssertionError("timed out after " + TEST_TIMEOUT_MS + " ms");
        }
        return problem.get();
    }
}
