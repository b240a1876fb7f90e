package dev.typestar.agent;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Drives a real agent subprocess over its stdio protocol, as the Rust client will: spawns
 * {@code java dev.typestar.agent.Agent} on the test class path, sends lines, reads replies with
 * a time limit, and kills the process on {@link #close}.
 */
final class AgentProcess implements AutoCloseable {
    static final String TOKEN = "test-token-4f1c";
    private static final long REPLY_TIMEOUT_MS = 15_000;

    private final Process process;
    private final Writer stdin;
    private final File stderr;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private static final String EOF = "\0eof";
    private int nextId = 1;

    private AgentProcess(List<String> extraArgs) throws IOException {
        stderr = File.createTempFile("typestar-agent", ".stderr");
        stderr.deleteOnExit();
        List<String> command = new ArrayList<>(Arrays.asList(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), "dev.typestar.agent.Agent"));
        command.addAll(extraArgs);
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(stderr);
        pb.environment().put("TYPESTAR_AGENT_TOKEN", TOKEN);
        process = pb.start();
        stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the process was killed; EOF below tells the test
            }
            lines.add(EOF);
        }, "agent-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts an agent with extra command-line arguments, without handshaking. */
    static AgentProcess raw(String... args) throws IOException {
        return new AgentProcess(Arrays.asList(args));
    }

    /** Starts an agent and completes the handshake (hello read, auth sent, ready read). */
    static AgentProcess started() throws Exception {
        AgentProcess agent = raw();
        Check.equal("hello", agent.read().get("type"));
        agent.sendLine("{\"type\":\"auth\",\"protocol\":1,\"token\":\"" + TOKEN + "\"}");
        Check.equal("ready", agent.read().get("type"));
        return agent;
    }

    void sendLine(String line) throws IOException {
        stdin.write(line);
        stdin.write('\n');
        stdin.flush();
    }

    /** Reads the next reply as a JSON object; fails on timeout or end of output. */
    Map<String, Object> read() throws Exception {
        String line = lines.poll(REPLY_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new AssertionError("no reply within " + REPLY_TIMEOUT_MS + " ms; stderr: " + stderr());
        }
        if (line.equals(EOF)) {
            throw new AssertionError("agent closed its output; stderr: " + stderr());
        }
        return Check.obj(Json.parse(line));
    }

    /** Whether the agent closes its output within the reply timeout (no further line arrives). */
    boolean closesOutput() throws InterruptedException {
        String line = lines.poll(REPLY_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        return EOF.equals(line);
    }

    /** Sends a request with the token and a fresh id; returns the reply, checking the id is echoed. */
    Map<String, Object> request(String type, Object... keyValues) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        long id = nextId++;
        m.put("id", id);
        m.put("token", TOKEN);
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        sendLine(Json.write(m));
        Map<String, Object> reply = read();
        Check.equal(id, reply.get("id"), "reply id of " + Json.write(reply));
        return reply;
    }

    /** Loads an experiment given as JSON text and asserts it was accepted. */
    Map<String, Object> load(String experimentJson) throws Exception {
        Map<String, Object> reply = request("load", "experiment", Json.parse(experimentJson));
        Check.equal("loaded", reply.get("type"), "load reply " + Json.write(reply));
        return reply;
    }

    /** Runs a query given as input symbols. */
    Map<String, Object> query(String... inputs) throws Exception {
        return request("query", "inputs", new ArrayList<Object>(Arrays.asList(inputs)));
    }

    /** Closes the agent's standard input (end of input). */
    void closeInput() throws IOException {
        stdin.close();
    }

    /** Waits for the process to exit and returns its status. */
    int exitCode() throws InterruptedException {
        if (!process.waitFor(REPLY_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            throw new AssertionError("agent did not exit");
        }
        return process.exitValue();
    }

    String stderr() {
        try {
            return new String(Files.readAllBytes(stderr.toPath()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
