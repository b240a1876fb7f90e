package dev.typestar.agent;

import org.junit.runner.JUnitCore;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;

/**
 * Entry point of the agent inside Robolectric, speaking the protocol on stdin and stdout as the
 * host agent does:
 *
 * <pre>
 * TYPESTAR_AGENT_TOKEN=T java -Drobolectric.enabledSdks=34 -Drobolectric.offline=true \
 *     -Drobolectric.dependency.dir=SDK_JARS -cp AGENT:ROBOLECTRIC:ANDROID_ALL dev.typestar.agent.RobolectricMain
 * </pre>
 *
 * <p>It runs one JUnit "test", {@link RobolectricAgentTest}, whose body serves the session on the
 * sandbox's main thread; the JVM ends with the session. {@code System.out} goes to stderr before
 * Robolectric starts, so nothing but protocol lines reaches stdout.
 */
public final class RobolectricMain {
    /** Exit status when the sandbox could not be set up (missing SDK jar, bad class path). */
    static final int EXIT_SANDBOX = 5;

    private RobolectricMain() {
    }

    public static void main(String[] args) {
        System.setOut(System.err);
        Result result = new JUnitCore().run(RobolectricAgentTest.class);
        // Reached only if the session never started: a served session ends the JVM itself.
        for (Failure failure : result.getFailures()) {
            System.err.println("typestar robolectric agent: the sandbox failed: " + failure.getTrace());
        }
        System.err.println("typestar robolectric agent: no session was served (" + result.getRunCount()
                + " run, " + result.getFailureCount() + " failed); is -Drobolectric.enabledSdks set to a"
                + " level whose android-all-instrumented jar is in robolectric.dependency.dir?");
        System.exit(EXIT_SANDBOX);
    }
}
