package dev.typestar.agent;

import java.util.Map;

/** End-to-end tests of incremental runs (reset and step requests) and of callin {@code expect} and {@code expectNot} rules. */
public class IncrementalTest {
    private static final String EXPECTING_ITERATOR = "{\"build\": ["
            + "  {\"new\": \"java.util.ArrayList\", \"as\": \"list\"},"
            + "  {\"call\": \"add\", \"on\": \"list\", \"args\": [\"a\"]},"
            + "  {\"call\": \"iterator\", \"on\": \"list\", \"as\": \"subject\"}],"
            + " \"callins\": {\"hasNextTrue\": {\"call\": \"hasNext\", \"expect\": true},"
            + "   \"hasNextFalse\": {\"call\": \"hasNext\", \"expect\": false},"
            + "   \"next\": {\"call\": \"next\"}},"
            + " \"errors\": {\"exceptions\": [\"java.util.NoSuchElementException\"]},"
            + " \"timeouts\": {\"quiescenceMs\": 20}}";

    private static Map<String, Object> step(AgentProcess agent, Object input) throws Exception {
        Map<String, Object> reply = agent.request("step", "input", input);
        Check.equal("stepped", reply.get("type"), "step reply " + Json.write(reply));
        return reply;
    }

    @Test
    public void stepsGiveTheOutputsOfTheWholeQuery() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(Experiments.TIMER);
            Map<String, Object> started = agent.request("reset");
            Check.equal("started", started.get("type"));
            Check.equal("ok", started.get("status"));
            Check.equal("eps", step(agent, "schedule").get("output"));
            Map<String, Object> waited = step(agent, "wait");
            Check.equal("run", waited.get("output"));
            Check.equal(1L, waited.get("position"));
            Check.equal("quiet", step(agent, "wait").get("output"));
            Check.equal("eps", step(agent, "cancel").get("output"));
            Map<String, Object> failed = step(agent, Json.parse("{\"symbol\": \"schedule\", \"variant\": 1}"));
            Check.equal("err", failed.get("output"));
            Check.equal("java.lang.IllegalStateException", Check.obj(failed.get("err")).get("exception"));
            Check.equal("err", step(agent, "purge").get("output"));
        }
    }

    @Test
    public void oneStepRequestRunsSeveralInputsBackToBack() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(Experiments.TIMER);
            agent.request("reset");
            Map<String, Object> first = agent.request("step", "inputs", Json.parse("[\"schedule\", \"wait\"]"));
            Check.equal("ok", first.get("status"), "reply " + Json.write(first));
            Check.equal(0L, first.get("position"));
            Check.equal(java.util.Arrays.asList("eps", "run"), first.get("outputs"));
            Check.equal("run", first.get("output"));
            Check.equal(2, ((java.util.List<?>) Check.obj(first.get("timings")).get("stepsMs")).size());
            Map<String, Object> second = agent.request("step", "inputs",
                    Json.parse("[\"cancel\", {\"symbol\": \"schedule\", \"variant\": 1}, \"purge\"]"));
            Check.equal(2L, second.get("position"));
            Check.equal(java.util.Arrays.asList("eps", "err", "err"), second.get("outputs"));
            Check.equal("java.lang.IllegalStateException", Check.obj(second.get("err")).get("exception"));
            Check.error(agent.request("step", "inputs", Json.parse("[\"cancel\", \"stop\"]")),
                    "unknown-symbol", "inputs[1]");
        }
    }

    @Test
    public void resetStartsAFreshObjectAndReportsLeftoverCallbacks() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(Experiments.TIMER);
            agent.request("reset");
            step(agent, Json.parse("{\"symbol\": \"schedule\", \"variant\": 1}"));
            Thread.sleep(100);
            Map<String, Object> again = agent.request("reset");
            Check.strings(again.get("leftover"), "run");
            Check.equal(2L, again.get("generation"));
            Check.equal("quiet", step(agent, "wait").get("output"));
            Check.outputs(agent.query("schedule", "wait"), "eps", "run");
        }
    }

    @Test
    public void stepWithoutARunIsRefused() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(Experiments.TIMER);
            Check.error(agent.request("step", "input", "cancel"), "no-run", null);
            agent.request("reset");
            Check.error(agent.request("step", "input", "stop"), "unknown-symbol", "input");
            agent.query("cancel");
            Check.error(agent.request("step", "input", "cancel"), "no-run", null);
        }
    }

    @Test
    public void expectRefinesACallinByItsResult() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(EXPECTING_ITERATOR);
            Check.outputs(agent.query("hasNextTrue", "hasNextTrue", "next", "hasNextFalse", "hasNextFalse"),
                    "eps", "eps", "eps", "eps", "eps");
            Map<String, Object> r = agent.query("hasNextFalse", "next");
            Check.outputs(r, "err", "err");
            Map<String, Object> err = Check.obj(r.get("err"));
            Check.equal("true", err.get("returned"));
            Check.equal("false", err.get("expected"));
        }
    }

    @Test
    public void expectNotRefinesACallinByAValueItMustNotReturn() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(EXPECTING_ITERATOR.replace("\"hasNextFalse\": {\"call\": \"hasNext\", \"expect\": false}",
                    "\"hasNextFalse\": {\"call\": \"hasNext\", \"expectNot\": true}"));
            Check.outputs(agent.query("hasNextTrue", "next", "hasNextFalse"), "eps", "eps", "eps");
            Map<String, Object> r = agent.query("hasNextFalse");
            Check.outputs(r, "err");
            Map<String, Object> err = Check.obj(r.get("err"));
            Check.equal("true", err.get("returned"));
            Check.equal("not true", err.get("expected"));
        }
    }

    @Test
    public void expectAndExpectNotTogetherAreRejectedAtLoad() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> reply = agent.request("load", "experiment", Json.parse(EXPECTING_ITERATOR
                    .replace("\"expect\": false}", "\"expect\": false, \"expectNot\": true}")));
            Check.error(reply, "bad-request", "experiment.callins.hasNextFalse.expectNot");
        }
    }

    @Test
    public void expectOnAVoidMethodIsRejectedAtLoad() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> reply = agent.request("load", "experiment", Json.parse(Experiments.TIMER
                    .replace("\"cancel\": {\"call\": \"cancel\"}", "\"cancel\": {\"call\": \"cancel\", \"expect\": 1}")));
            Check.error(reply, "bad-argument", "experiment.callins.cancel.expect");
        }
    }
}
