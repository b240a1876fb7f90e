package dev.typestar.agent;

import java.util.Arrays;
import java.util.Map;

/** End-to-end tests of the watchdog and of crashes: the agent reports them and never dies silently. */
public class RobustnessTest {
    private static final String MISBEHAVING = "{\"build\": [{\"new\": \"dev.typestar.agent.subjects.Misbehaving\", \"as\": \"subject\"}BUILD],"
            + " \"callins\": {\"ok\": {\"call\": \"ok\"}, \"hang\": {\"call\": \"hang\"}, \"overflow\": {\"call\": \"overflow\"},"
            + "   \"exhaustMemory\": {\"call\": \"exhaustMemory\"}},"
            + " TEARDOWN \"timeouts\": {\"quiescenceMs\": 50, \"callinMs\": WATCHDOG, \"stepMs\": WATCHDOG}}";

    /** The Misbehaving experiment; a short watchdog for hang tests, a long one where hangs are not expected. */
    private static String misbehaving(String extraBuild, String teardown, long watchdogMs) {
        return MISBEHAVING.replace("BUILD", extraBuild).replace("TEARDOWN", teardown)
                .replace("WATCHDOG", Long.toString(watchdogMs));
    }

    @Test
    public void hangingCallinTripsTheWatchdogAndAsksForARestart() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(misbehaving("", "", 300));
            Map<String, Object> r = agent.query("ok", "hang", "ok");
            Check.equal("hang", r.get("status"));
            Check.equal(Arrays.asList("eps"), r.get("outputs"));
            Check.equal(true, r.get("restartRequired"));
            Map<String, Object> failure = Check.obj(r.get("failure"));
            Check.equal("callin", failure.get("phase"));
            Check.equal(1L, failure.get("position"));
            Check.equal("hang", failure.get("symbol"));
            Check.equal(300L, failure.get("timeoutMs"));

            Map<String, Object> refused = agent.query("ok");
            Check.error(refused, "restart-required", null);
            Check.equal(true, refused.get("restartRequired"));
            Check.error(agent.request("load", "experiment", Json.parse(misbehaving("", "", 5000))), "restart-required", null);
            Check.equal("description", agent.request("describe", "class", "java.util.Timer").get("type"));
            Check.equal("bye", agent.request("shutdown").get("type"));
            Check.equal(0, agent.exitCode());
        }
    }

    @Test
    public void hangingBuildStepTripsTheWatchdog() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(misbehaving(", {\"call\": \"hang\"}", "", 300));
            Map<String, Object> r = agent.query("ok");
            Check.equal("hang", r.get("status"));
            Map<String, Object> failure = Check.obj(r.get("failure"));
            Check.equal("build", failure.get("phase"));
            Check.equal(1L, failure.get("step"));
            Check.equal(0, Check.list(r.get("outputs")).size());
        }
    }

    @Test
    public void stackOverflowIsACrashAndTheAgentKeepsServing() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(misbehaving("", "", 5000));
            Map<String, Object> r = agent.query("ok", "overflow", "ok");
            Check.equal("crash", r.get("status"));
            Check.equal(false, r.get("restartRequired"));
            Map<String, Object> failure = Check.obj(r.get("failure"));
            Check.equal("java.lang.StackOverflowError", failure.get("throwable"));
            Check.equal("overflow", failure.get("symbol"));
            Check.outputs(agent.query("ok", "ok"), "eps", "eps");
        }
    }

    @Test
    public void outOfMemoryIsACrashAndTheAgentKeepsServing() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(misbehaving("", "", 5000));
            Map<String, Object> r = agent.query("exhaustMemory");
            Check.equal("crash", r.get("status"));
            Check.equal("java.lang.OutOfMemoryError", Check.obj(r.get("failure")).get("throwable"));
            Check.outputs(agent.query("ok"), "eps");
        }
    }

    @Test
    public void throwingBuildStepIsACrashOfTheBuildPhase() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(misbehaving(", {\"call\": \"refuse\"}", "", 5000));
            Map<String, Object> r = agent.query("ok");
            Check.equal("crash", r.get("status"));
            Map<String, Object> failure = Check.obj(r.get("failure"));
            Check.equal("build", failure.get("phase"));
            Check.equal("java.lang.IllegalStateException", failure.get("throwable"));
            Check.contains(failure.get("call"), "Misbehaving.refuse()");
        }
    }

    @Test
    public void failingTeardownIsAWarningOnTheNextQuery() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(misbehaving("", "\"teardown\": [{\"call\": \"refuse\"}],", 5000));
            Check.outputs(agent.query("ok"), "eps");
            Map<String, Object> r = agent.query("ok");
            Check.outputs(r, "eps");
            Check.equal(1, Check.list(r.get("warnings")).size());
            Check.contains(Check.list(r.get("warnings")).get(0), "refused");
        }
    }

    @Test
    public void failingListenerReactionIsACrashOfTheCallbackPhase() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(QueryTest.notifier(", \"reactions\": {\"onEvent\": {\"new\": \"dev.typestar.agent.subjects.Misbehaving\"}}"
                    + ", \"returns\": {\"onAsk\": true}").replace("DRAIN", "0"));
            Check.outputs(agent.query("ask"), "eps");
            agent.load(QueryTest.notifier(", \"reactions\": {\"onEvent\": {\"static\": \"java.lang.Integer\", \"call\": \"parseInt\","
                    + " \"args\": [\"not a number\"]}}").replace("DRAIN", "0"));
            Map<String, Object> r = agent.query("fire", "wait");
            Check.equal("crash", r.get("status"));
            Map<String, Object> failure = Check.obj(r.get("failure"));
            Check.equal("callback", failure.get("phase"));
            Check.contains(failure.get("message"), "NumberFormatException");
        }
    }
}
