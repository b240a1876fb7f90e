package dev.typestar.agent;

import java.util.Map;

/** End-to-end tests of load: accepted experiments and every kind of rejected one, with the field named. */
public class LoadTest {
    private static final String NOTIFIER_BUILD = "\"build\": [{\"new\": \"dev.typestar.agent.subjects.Notifier\", \"as\": \"subject\"}]";

    private static Map<String, Object> load(AgentProcess agent, String experimentJson) throws Exception {
        return agent.request("load", "experiment", Json.parse(experimentJson));
    }

    @Test
    public void reportsTheAlphabetsOfTheSynchronousClosure() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> loaded = agent.load(Experiments.TIMER);
            Check.strings(loaded.get("inputs"), "schedule", "cancel", "purge", "wait");
            Check.strings(loaded.get("outputs"), "run", "quiet", "eps", "err");
            Check.equal(1L, Check.obj(loaded.get("variants")).get("schedule"));
            Check.equal(0L, Check.obj(loaded.get("variants")).get("cancel"));
        }
    }

    @Test
    public void missingClassAndMethodAreNamed() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Check.error(load(agent, "{\"build\": [{\"new\": \"no.such.Type\", \"as\": \"subject\"}]}"),
                    "class-not-found", "experiment.build[0].new");
            Map<String, Object> reply = load(agent, "{\"build\": [{\"new\": \"java.util.Timer\", \"as\": \"subject\"}],"
                    + " \"callins\": {\"go\": {\"call\": \"scheduel\"}}}");
            Check.error(reply, "method-not-found", "experiment.callins.go.call");
            Check.contains(reply.get("message"), "java.util.Timer.scheduel");
        }
    }

    @Test
    public void stepsOfAnotherPlatformAreLeftOut() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load("{\"setup\": [{\"static\": \"org.robolectric.shadows.Missing\", \"call\": \"reset\","
                    + " \"platform\": \"robolectric\"}], \"build\": [{\"new\": \"java.util.Timer\", \"as\": \"subject\"}]}");
            Check.error(load(agent, "{\"setup\": [{\"static\": \"no.such.Type\", \"call\": \"reset\","
                    + " \"platform\": \"jvm\"}], \"build\": [{\"new\": \"java.util.Timer\", \"as\": \"subject\"}]}"),
                    "class-not-found", "experiment.setup[0].static");
        }
    }

    @Test
    public void wrongArgumentTypesAreNamed() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> reply = load(agent, "{\"build\": [{\"new\": \"java.util.Timer\", \"as\": \"subject\"}],"
                    + " \"callins\": {\"go\": {\"call\": \"schedule\", \"params\": [\"java.util.TimerTask\", \"long\"],"
                    + " \"args\": [{\"lambda\": \"java.lang.Runnable\"}, 10]}}}");
            Check.error(reply, "bad-argument", "experiment.callins.go.args[0]");
            Check.contains(reply.get("message"), "java.util.TimerTask");
            reply = load(agent, "{\"build\": [{\"new\": \"java.util.ArrayList\", \"args\": [\"big\"], \"as\": \"subject\"}]}");
            Check.error(reply, "bad-argument", "experiment.build[0].new");
            Check.contains(reply.get("message"), "<init>(int); <init>(java.util.Collection)");
            Check.error(load(agent, "{\"build\": [{\"new\": \"java.util.ArrayList\", \"params\": [\"int\"], "
                    + "\"args\": [5000000000], \"as\": \"subject\"}]}"), "bad-argument", "experiment.build[0].args[0]");
        }
    }

    @Test
    public void ambiguousOverloadsNeedParams() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            String build = "\"build\": [{\"new\": \"java.util.ArrayList\", \"as\": \"subject\"}]";
            Map<String, Object> reply = load(agent, "{" + build + ", \"callins\": {\"rm\": {\"call\": \"remove\", \"args\": [0]}}}");
            Check.error(reply, "ambiguous-overload", "experiment.callins.rm");
            Check.contains(reply.get("message"), "remove(int)");
            agent.load("{" + build + ", \"callins\": {\"rm\": {\"call\": \"remove\", \"params\": [\"int\"], \"args\": [0]}}}");
        }
    }

    @Test
    public void typosAndReservedNamesAreRejected() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", \"callbaks\": {}}"), "bad-request", "experiment.callbaks");
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", \"callins\": {\"wait\": {\"call\": \"fire\"}}}"),
                    "bad-request", "experiment.callins.wait");
            Check.error(load(agent, "{\"build\": [{\"new\": \"java.util.Timer\"}]}"), "bad-request", "experiment.build");
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", \"callins\": {\"f\": {\"call\": \"fire\", \"on\": \"nobody\"}}}"),
                    "unknown-name", "experiment.callins.f.on");
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", \"timeouts\": {\"quiescenceMs\": -1}}"),
                    "bad-request", "experiment.timeouts.quiescenceMs");
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", \"timeouts\": {\"clock\": \"wall\"}}"),
                    "bad-request", "experiment.timeouts.clock");
        }
    }

    @Test
    public void callbackDeclarationsAreChecked() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            String listener = "\"listeners\": {\"l\": {\"interface\": \"dev.typestar.agent.subjects.Notifier$Listener\"}}";
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", " + listener
                    + ", \"callbacks\": {\"ev\": {\"listener\": \"l\", \"method\": \"onEvnt\"}}}"),
                    "method-not-found", "experiment.callbacks.ev.method");
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", " + listener
                    + ", \"callbacks\": {\"ev\": {\"listener\": \"m\", \"method\": \"onEvent\"}}}"),
                    "unknown-name", "experiment.callbacks.ev.listener");
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", \"listeners\": {\"l\": {\"interface\": \"java.util.TimerTask\"}}}"),
                    "bad-argument", "experiment.listeners.l.interface");
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", " + listener
                    + ", \"callbacks\": {\"ev\": {\"listener\": \"l\", \"method\": \"onEvent\"}},"
                    + " \"callins\": {\"ev\": {\"call\": \"fire\"}}}"), "bad-request", "experiment.callins.ev");
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", \"errors\": {\"callbacks\": [\"boom\"]}}"),
                    "unknown-symbol", "experiment.errors.callbacks[0]");
            Check.error(load(agent, "{" + NOTIFIER_BUILD + ", \"errors\": {\"exceptions\": [\"java.lang.String\"]}}"),
                    "bad-argument", "experiment.errors.exceptions[0]");
        }
    }

    @Test
    public void queriesNeedALoadedExperimentAndKnownSymbols() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Check.error(agent.query("wait"), "no-experiment", null);
            agent.load(Experiments.TIMER);
            Map<String, Object> reply = agent.query("schedule", "shedule");
            Check.error(reply, "unknown-symbol", "inputs[1]");
            Check.contains(reply.get("message"), "shedule");
            Check.error(agent.request("query", "inputs", Json.parse("[{\"symbol\": \"schedule\", \"variant\": 2}]")),
                    "unknown-symbol", "inputs[0]");
            Check.error(agent.request("query", "inputs", Json.parse("[7]")), "bad-request", "inputs[0]");
            Check.outputs(agent.query(), new String[0]);
        }
    }

    @Test
    public void failingSetupIsReported() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> reply = load(agent, "{\"setup\": [{\"new\": \"dev.typestar.agent.subjects.Misbehaving\", \"as\": \"m\"},"
                    + " {\"call\": \"refuse\", \"on\": \"m\"}], " + NOTIFIER_BUILD + "}");
            Check.error(reply, "setup-failed", "experiment.setup[1]");
            Check.contains(reply.get("message"), "refused");
            Check.error(agent.query("wait"), "no-experiment", null);
        }
    }
}
