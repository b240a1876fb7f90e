package dev.typestar.agent;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.LooperMode;

/**
 * The one "test" of the Robolectric agent: its body serves an agent session inside the sandbox,
 * on the main thread of the paused main looper, then ends the JVM with the session's status (as
 * the host agent does: a call stuck on another thread must not keep it alive). The SDK level
 * comes from {@code -Drobolectric.enabledSdks}. Its own bytecode names no android type, so JUnit
 * can load it outside the sandbox.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = Config.ALL_SDKS)
@LooperMode(LooperMode.Mode.PAUSED)
public class RobolectricAgentTest {
    @Test
    public void serve() throws Exception {
        String token = System.getenv("TYPESTAR_AGENT_TOKEN");
        if (token == null || token.isEmpty()) {
            System.err.println("typestar robolectric agent: no session token: set TYPESTAR_AGENT_TOKEN");
            Runtime.getRuntime().halt(2);
        }
        RobolectricExecutor executor = new RobolectricExecutor();
        Session session = new Session(
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                new BufferedWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                        StandardCharsets.UTF_8)),
                token, new QueryRunner(executor), new RobolectricPlatform());
        int status = session.serve();
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }
}
