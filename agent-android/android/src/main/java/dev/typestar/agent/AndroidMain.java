package dev.typestar.agent;

import android.net.LocalServerSocket;
import android.net.LocalSocket;
import android.os.Looper;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Entry point of the agent on an Android device, started from the adb shell with no app
 * installed:
 *
 * <pre>
 * CLASSPATH=/data/local/tmp/typestar/agent-HASH.dex.jar app_process /system/bin \
 *     dev.typestar.agent.AndroidMain --socket NAME &lt;&lt;&lt; TOKEN
 * </pre>
 *
 * <p>The session token is the first line of stdin: command lines are visible to every process of
 * the device, and abstract sockets are open to every app, so the token is the only guard. The main
 * thread becomes the main {@link Looper}: callins are posted to it and callbacks arrive on it, as
 * in an app. A second thread listens on the abstract socket {@code @NAME}, which the host reaches
 * through {@code adb forward tcp:N localabstract:NAME}, prints
 * {@code {"type":"listening","socket":"NAME"}} on stdout, serves one session and ends the process.
 */
public final class AndroidMain {
    /** Exit status for a usage error, as the host agent's. */
    private static final int EXIT_USAGE = 2;
    /** Exit status when the socket could not be served. */
    private static final int EXIT_IO = 4;
    private static final String USAGE = "usage: CLASSPATH=typestar-agent.dex.jar app_process /system/bin"
            + " dev.typestar.agent.AndroidMain --socket NAME\n"
            + "  the session token is the first line of stdin";

    private AndroidMain() {
    }

    @SuppressWarnings("deprecation") // Looper.prepareMainLooper: what a process without an app needs
    public static void main(String[] args) throws IOException {
        String socketName = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--socket") && i + 1 < args.length) {
                socketName = args[++i];
            } else if (args[i].equals("--version")) {
                System.out.println("typestar-agent " + Session.AGENT_VERSION + " (protocol " + Session.PROTOCOL + ")"
                        + " on " + AndroidPlatform.describeDevice());
                return;
            } else {
                usage("unknown argument " + args[i]);
            }
        }
        if (socketName == null) {
            usage("--socket NAME is required");
        }
        String token = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (token == null || token.trim().isEmpty()) {
            usage("no session token on stdin");
        }
        PrintStream protocolOut = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);
        Looper.prepareMainLooper();
        AndroidContext.install();
        QueryRunner runner = new QueryRunner(new LooperExecutor(Looper.getMainLooper()));
        LocalServerSocket server = new LocalServerSocket(socketName); // the abstract namespace
        protocolOut.println("{\"type\":\"listening\",\"socket\":\"" + socketName + "\"}");
        String sessionToken = token.trim();
        Thread session = new Thread(() -> System.exit(serve(server, sessionToken, runner)), "typestar-session");
        session.start();
        Looper.loop();
    }

    /** Serves the first connection; returns the exit status. The process ends with the session. */
    private static int serve(LocalServerSocket server, String token, QueryRunner runner) {
        try (LocalSocket socket = server.accept()) {
            server.close(); // one session per process: nobody else may connect now
            return new Session(
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8)),
                    new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8)),
                    token, runner, new AndroidPlatform()).serve();
        } catch (IOException e) {
            System.err.println("typestar-agent: the session socket failed: " + e);
            return EXIT_IO;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return EXIT_IO;
        }
    }

    private static void usage(String problem) {
        System.err.println("typestar-agent: " + problem);
        System.err.println(USAGE);
        System.exit(EXIT_USAGE);
    }
}
