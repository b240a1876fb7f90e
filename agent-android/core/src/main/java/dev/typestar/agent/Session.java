package dev.typestar.agent;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One client connection speaking protocol version {@value #PROTOCOL} (PROTOCOL.md): the
 * handshake, then requests answered strictly in order, one JSON object per line each way.
 *
 * <p>Before authentication every problem closes the connection; afterwards a bad request gets
 * an {@code error} reply and the session keeps serving, except for a wrong or missing token,
 * which closes it.
 */
final class Session {
    static final long PROTOCOL = 1;
    static final String AGENT_VERSION = "0.1.0";
    /** Longest request line accepted, in characters. */
    static final int MAX_LINE_CHARS = 16 * 1024 * 1024;

    /** Exit status when the session ended normally (shutdown or end of input). */
    static final int EXIT_OK = 0;
    /** Exit status when the handshake or a token check failed. */
    static final int EXIT_AUTH = 3;

    private final Reader in;
    private final Writer out;
    private final byte[] token;
    private final QueryRunner runner;
    private final Platform platform;

    Session(Reader in, Writer out, String token, QueryRunner runner) {
        this(in, out, token, runner, Platform.HOST);
    }

    Session(Reader in, Writer out, String token, QueryRunner runner, Platform platform) {
        this.in = in;
        this.out = out;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.runner = runner;
        this.platform = platform;
    }

    /** A line read from the client, or why it could not be read. */
    private static final class Line {
        final String text;
        final boolean tooLong;

        Line(String text, boolean tooLong) {
            this.text = text;
            this.tooLong = tooLong;
        }
    }

    /** Serves until shutdown, end of input or an authentication failure; returns the exit status. */
    int serve() throws IOException, InterruptedException {
        send(hello());
        if (!handshake()) {
            return EXIT_AUTH;
        }
        while (true) {
            Line line = readLine();
            if (line == null) {
                runner.tearDown(new ArrayList<>());
                return EXIT_OK;
            }
            if (line.tooLong) {
                send(error(null, new RequestException("line-too-long", null,
                        "request line longer than " + MAX_LINE_CHARS + " characters"), false));
                continue;
            }
            if (line.text.trim().isEmpty()) {
                continue;
            }
            Integer exit = handle(line.text);
            if (exit != null) {
                return exit;
            }
        }
    }

    private Map<String, Object> hello() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "hello");
        m.put("protocol", PROTOCOL);
        m.put("agent", "typestar-agent");
        m.put("agentVersion", AGENT_VERSION);
        m.put("java", System.getProperty("java.version"));
        m.put("vm", System.getProperty("java.vm.name"));
        m.put("os", System.getProperty("os.name"));
        Map<String, Object> about = platform.about();
        if (about != null) {
            m.put("platform", about);
        }
        return m;
    }

    private boolean handshake() throws IOException {
        Line line = readLine();
        if (line == null) {
            return false;
        }
        try {
            if (line.tooLong) {
                throw new RequestException("line-too-long", null, "auth line too long");
            }
            Fields f = Fields.of(parse(line.text), "");
            String type = f.string("type");
            if (!type.equals("auth")) {
                throw new RequestException("not-authenticated", "type",
                        "the first message must be {\"type\": \"auth\", ...}, got type \"" + type + "\"");
            }
            f.rejectUnknown(Fields.keys("type", "protocol", "token"));
            long protocol = f.integer("protocol");
            if (protocol != PROTOCOL) {
                throw new RequestException("unsupported-protocol", "protocol",
                        "this agent speaks protocol " + PROTOCOL + ", the client asked for " + protocol);
            }
            checkToken(f);
        } catch (RequestException e) {
            send(error(null, e, true));
            return false;
        }
        Map<String, Object> ready = new LinkedHashMap<>();
        ready.put("type", "ready");
        ready.put("protocol", PROTOCOL);
        send(ready);
        return true;
    }

    /** Handles one request line; returns an exit status if the session must end. */
    private Integer handle(String text) throws IOException, InterruptedException {
        Object id = null;
        try {
            Fields f = Fields.of(parse(text), "");
            id = f.raw("id");
            if (id instanceof Map || id instanceof List) {
                id = null;
                throw new RequestException("bad-request", "id", "id must be a string, number or null");
            }
            try {
                checkToken(f);
            } catch (RequestException e) {
                send(error(id, e, true));
                return EXIT_AUTH;
            }
            String type = f.string("type");
            switch (type) {
                case "describe":
                    f.rejectUnknown(Fields.keys("type", "id", "token", "class"));
                    Class<?> described = Types.forName(f.string("class"), "class");
                    Map<String, Object> description = Describer.describe(described);
                    Map<String, Object> implementation = platform.implementation(described);
                    if (implementation != null) {
                        description.put("implementation", implementation);
                    }
                    send(reply("description", id, description));
                    return null;
                case "load":
                    f.rejectUnknown(Fields.keys("type", "id", "token", "experiment"));
                    Experiment experiment = Experiment.parse(f.object("experiment"), platform.name());
                    send(reply("loaded", id, runner.load(experiment)));
                    return null;
                case "query":
                    f.rejectUnknown(Fields.keys("type", "id", "token", "inputs"));
                    List<QueryRunner.Input> inputs = runner.parseInputs(f.list("inputs"));
                    send(reply("result", id, runner.query(inputs)));
                    return null;
                case "reset":
                    f.rejectUnknown(Fields.keys("type", "id", "token"));
                    send(reply("started", id, runner.reset()));
                    return null;
                case "step":
                    f.rejectUnknown(Fields.keys("type", "id", "token", "input", "inputs"));
                    if (f.has("input") == f.has("inputs")) {
                        throw new RequestException("bad-request", "input",
                                "a step needs exactly one of input (one input) or inputs (several, back to back)");
                    }
                    List<QueryRunner.Input> steps = f.has("input")
                            ? List.of(runner.parseInput(f.raw("input"), "input"))
                            : runner.parseInputs(f.list("inputs"));
                    send(reply("stepped", id, runner.step(steps)));
                    return null;
                case "shutdown":
                    f.rejectUnknown(Fields.keys("type", "id", "token"));
                    List<String> warnings = new ArrayList<>();
                    Map<String, Object> hang = runner.tearDown(warnings);
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("warnings", warnings);
                    body.put("failure", hang);
                    send(reply("bye", id, body));
                    return EXIT_OK;
                default:
                    throw new RequestException("unknown-type", "type", "unknown message type \"" + type
                            + "\" (expected describe, load, query, reset, step or shutdown)");
            }
        } catch (RequestException e) {
            send(error(id, e, false));
        } catch (RuntimeException | LinkageError | OutOfMemoryError | StackOverflowError e) {
            send(error(id, new RequestException("internal", null, "the agent failed while handling the request: "
                    + e), false));
        }
        return null;
    }

    private void checkToken(Fields f) throws RequestException {
        Object given = f.raw("token");
        if (!(given instanceof String)) {
            throw new RequestException("bad-token", "token", "missing session token; the connection is closed");
        }
        if (!MessageDigest.isEqual(token, ((String) given).getBytes(StandardCharsets.UTF_8))) {
            throw new RequestException("bad-token", "token", "wrong session token; the connection is closed");
        }
    }

    private static Object parse(String text) throws RequestException {
        try {
            return Json.parse(text);
        } catch (Json.ParseException e) {
            throw new RequestException("malformed-json", null, "malformed JSON: " + e.getMessage());
        }
    }

    private static Map<String, Object> reply(String type, Object id, Map<String, Object> body) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        m.put("id", id);
        m.putAll(body);
        return m;
    }

    private Map<String, Object> error(Object id, RequestException e, boolean fatal) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "error");
        m.put("id", id);
        m.put("code", e.code);
        m.put("field", e.field);
        m.put("message", e.getMessage());
        m.put("fatal", fatal);
        m.put("restartRequired", runner.restartRequired());
        return m;
    }

    private void send(Map<String, Object> message) throws IOException {
        out.write(Json.write(message));
        out.write('\n');
        out.flush();
    }

    /** Reads one line (without its terminator); {@code null} at end of input. */
    private Line readLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        boolean tooLong = false;
        while (true) {
            int c = in.read();
            if (c == -1) {
                return sb.length() == 0 && !tooLong ? null : new Line(sb.toString(), tooLong);
            }
            if (c == '\n') {
                int n = sb.length();
                if (n > 0 && sb.charAt(n - 1) == '\r') {
                    sb.setLength(n - 1);
                }
                return new Line(sb.toString(), tooLong);
            }
            if (sb.length() >= MAX_LINE_CHARS) {
                tooLong = true;
                sb.setLength(0);
            }
            if (!tooLong) {
                sb.append((char) c);
            }
        }
    }
}
