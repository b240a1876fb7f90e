package dev.typestar.agent;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Command-line entry point of the typestar agent on a host JVM.
 *
 * <pre>
 * java -cp typestar-agent.jar:SUBJECT_JARS dev.typestar.agent.Agent [--token T] [--port N]
 * </pre>
 *
 * <p>The session token comes from {@code --token} or the environment variable
 * {@code TYPESTAR_AGENT_TOKEN} (preferred: command lines are visible to other users). Without
 * {@code --port} the protocol runs over stdin/stdout; with it the agent listens on
 * 127.0.0.1:N (0 picks a free port), prints {@code {"type":"listening","port":P}} on stdout and
 * serves the first connection. Either way {@link System#out} is redirected to stderr so output
 * of the code under study cannot corrupt the protocol; stderr carries diagnostics only.
 */
public final class Agent {
    /** Exit status for a usage error. */
    private static final int EXIT_USAGE = 2;
    private static final String USAGE = "usage: java -cp typestar-agent.jar:... dev.typestar.agent.Agent"
            + " [--token TOKEN] [--port N] [--version]\n"
            + "  the token may also be given in the environment variable TYPESTAR_AGENT_TOKEN";

    private Agent() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        String token = System.getenv("TYPESTAR_AGENT_TOKEN");
        Integer port = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--token":
                    token = value(args, ++i);
                    break;
                case "--port":
                    try {
                        port = Integer.parseInt(value(args, ++i));
                    } catch (NumberFormatException e) {
                        usage("--port needs a number");
                    }
                    if (port < 0 || port > 65535) {
                        usage("--port must be between 0 and 65535");
                    }
                    break;
                case "--version":
                    System.out.println("typestar-agent " + Session.AGENT_VERSION + " (protocol " + Session.PROTOCOL + ")");
                    return;
                case "--help":
                    System.out.println(USAGE);
                    return;
                default:
                    usage("unknown argument " + args[i]);
            }
        }
        if (token == null || token.isEmpty()) {
            usage("no session token: pass --token or set TYPESTAR_AGENT_TOKEN");
        }
        PrintStream protocolOut = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);
        QueryRunner runner = new QueryRunner(new DedicatedThreadExecutor());
        int status;
        if (port == null) {
            status = new Session(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                    writer(protocolOut), token, runner).serve();
        } else {
            try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                protocolOut.println("{\"type\":\"listening\",\"port\":" + server.getLocalPort() + "}");
                try (Socket socket = server.accept()) {
                    status = new Session(new BufferedReader(new InputStreamReader(socket.getInputStream(),
                            StandardCharsets.UTF_8)), writer(socket.getOutputStream()), token, runner).serve();
                }
            }
        }
        System.exit(status); // the callin thread may be stuck in a hung call; do not wait for it
    }

    private static Writer writer(java.io.OutputStream stream) {
        return new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8));
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            usage(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void usage(String problem) {
        System.err.println("typestar-agent: " + problem);
        System.err.println(USAGE);
        System.exit(EXIT_USAGE);
    }
}
