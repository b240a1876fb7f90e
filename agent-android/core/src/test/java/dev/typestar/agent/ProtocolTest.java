package dev.typestar.agent;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** End-to-end tests of the handshake, framing and request-level errors over a real agent process. */
public class ProtocolTest {
    @Test
    public void helloAnnouncesVersions() throws Exception {
        try (AgentProcess agent = AgentProcess.raw()) {
            Map<String, Object> hello = agent.read();
            Check.equal("hello", hello.get("type"));
            Check.equal(1L, hello.get("protocol"));
            Check.equal("typestar-agent", hello.get("agent"));
            Check.equal(Session.AGENT_VERSION, hello.get("agentVersion"));
            Check.equal(System.getProperty("java.version"), hello.get("java"));
        }
    }

    @Test
    public void wrongTokenIsRejectedAndClosesTheConnection() throws Exception {
        try (AgentProcess agent = AgentProcess.raw()) {
            agent.read();
            agent.sendLine("{\"type\":\"auth\",\"protocol\":1,\"token\":\"guess\"}");
            Map<String, Object> reply = agent.read();
            Check.error(reply, "bad-token", "token");
            Check.equal(true, reply.get("fatal"));
            Check.isTrue(agent.closesOutput(), "connection closed");
            Check.equal(Session.EXIT_AUTH, agent.exitCode());
        }
    }

    @Test
    public void firstMessageMustBeAuth() throws Exception {
        try (AgentProcess agent = AgentProcess.raw()) {
            agent.read();
            agent.sendLine("{\"type\":\"describe\",\"token\":\"" + AgentProcess.TOKEN + "\",\"class\":\"java.util.Timer\"}");
            Check.error(agent.read(), "not-authenticated", "type");
            Check.equal(Session.EXIT_AUTH, agent.exitCode());
        }
    }

    @Test
    public void unsupportedProtocolVersionIsRefused() throws Exception {
        try (AgentProcess agent = AgentProcess.raw()) {
            agent.read();
            agent.sendLine("{\"type\":\"auth\",\"protocol\":2,\"token\":\"" + AgentProcess.TOKEN + "\"}");
            Check.error(agent.read(), "unsupported-protocol", "protocol");
            Check.equal(Session.EXIT_AUTH, agent.exitCode());
        }
    }

    @Test
    public void malformedAuthClosesTheConnection() throws Exception {
        try (AgentProcess agent = AgentProcess.raw()) {
            agent.read();
            agent.sendLine("{\"type\":\"auth\",");
            Check.error(agent.read(), "malformed-json", null);
            Check.equal(Session.EXIT_AUTH, agent.exitCode());
        }
    }

    @Test
    public void everyRequestMustCarryTheToken() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.sendLine("{\"type\":\"describe\",\"id\":9,\"class\":\"java.util.Timer\"}");
            Map<String, Object> reply = agent.read();
            Check.error(reply, "bad-token", "token");
            Check.equal(9L, reply.get("id"));
            Check.equal(Session.EXIT_AUTH, agent.exitCode());
        }
    }

    @Test
    public void wrongTokenOnALaterRequestClosesTheConnection() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.sendLine("{\"type\":\"shutdown\",\"id\":\"x\",\"token\":\"nope\"}");
            Map<String, Object> reply = agent.read();
            Check.error(reply, "bad-token", "token");
            Check.equal("x", reply.get("id"));
            Check.equal(Session.EXIT_AUTH, agent.exitCode());
        }
    }

    @Test
    public void malformedJsonGetsAnErrorAndTheAgentKeepsServing() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.sendLine("{\"type\": \"query\", oops}");
            Map<String, Object> reply = agent.read();
            Check.error(reply, "malformed-json", null);
            Check.contains(reply.get("message"), "offset 18");
            Check.equal(false, reply.get("fatal"));
            agent.sendLine("[1, 2]");
            Check.error(agent.read(), "bad-request", null);
            agent.sendLine("");
            Check.equal("description", agent.request("describe", "class", "java.lang.Runnable").get("type"));
        }
    }

    @Test
    public void unknownTypeAndMissingFieldsAreNamed() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Check.error(agent.request("frobnicate"), "unknown-type", "type");
            Check.error(agent.request("describe"), "bad-request", "class");
            Check.error(agent.request("describe", "class", 3L), "bad-request", "class");
            Check.error(agent.request("describe", "class", "java.util.Timer", "colour", "red"), "bad-request", "colour");
            Check.error(agent.request("query", "inputs", "wait"), "bad-request", "inputs");
        }
    }

    @Test
    public void shutdownSaysByeAndExits() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> bye = agent.request("shutdown");
            Check.equal("bye", bye.get("type"));
            Check.equal(0, agent.exitCode());
        }
    }

    @Test
    public void endOfInputEndsTheAgent() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.closeInput();
            Check.equal(0, agent.exitCode());
        }
    }

    @Test
    public void outputOfTheSubjectCannotCorruptTheProtocol() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load("{\"build\": [{\"new\": \"dev.typestar.agent.subjects.Misbehaving\", \"as\": \"subject\"}],"
                    + " \"callins\": {\"chatter\": {\"call\": \"chatter\"}}}");
            Check.outputs(agent.query("chatter", "chatter"), "eps", "eps");
            Check.equal("bye", agent.request("shutdown").get("type"));
            Check.contains(agent.stderr(), "{\"type\":\"noise\"}");
        }
    }

    @Test
    public void servesOneClientOnALoopbackPort() throws Exception {
        try (AgentProcess agent = AgentProcess.raw("--port", "0")) {
            Map<String, Object> listening = agent.read();
            Check.equal("listening", listening.get("type"));
            int port = ((Long) listening.get("port")).intValue();
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                Writer out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
                Check.equal("hello", Check.obj(Json.parse(in.readLine())).get("type"));
                out.write("{\"type\":\"auth\",\"protocol\":1,\"token\":\"" + AgentProcess.TOKEN + "\"}\n");
                out.flush();
                Check.equal("ready", Check.obj(Json.parse(in.readLine())).get("type"));
                out.write("{\"type\":\"shutdown\",\"id\":1,\"token\":\"" + AgentProcess.TOKEN + "\"}\n");
                out.flush();
                Check.equal("bye", Check.obj(Json.parse(in.readLine())).get("type"));
            }
            Check.equal(0, agent.exitCode());
        }
    }

    @Test
    public void refusesToStartWithoutAToken() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(System.getProperty("java.home") + "/bin/java", "-cp",
                System.getProperty("java.class.path"), "dev.typestar.agent.Agent").redirectErrorStream(true);
        pb.environment().remove("TYPESTAR_AGENT_TOKEN");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Check.equal(2, p.waitFor());
        Check.contains(output, "no session token");
    }
}
