package dev.typestar.agent;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** End-to-end tests of query semantics on JDK subjects and test subjects. */
public class QueryTest {
    /**
     * Notifier with listener "l"; onEvent is "event", onError is "error" (an error callback).
     * fireSoon calls back after 30 ms on a thread of its own; the 500 ms quiescence timeout
     * leaves a wide margin because a loaded CI machine can start that thread late.
     */
    static String notifier(String extra) {
        return "{\"listeners\": {\"l\": {\"interface\": \"dev.typestar.agent.subjects.Notifier$Listener\"" + extra + "}},"
                + " \"build\": [{\"new\": \"dev.typestar.agent.subjects.Notifier\", \"as\": \"subject\"},"
                + "            {\"call\": \"setListener\", \"args\": [{\"ref\": \"l\"}]}],"
                + " \"callins\": {\"fire\": {\"call\": \"fire\"}, \"fireTwice\": {\"call\": \"fireTwice\"},"
                + "   \"fireSoon\": {\"call\": \"fireLater\", \"args\": [30]},"
                + "   \"fail\": {\"call\": \"fail\"}, \"noise\": {\"call\": \"noise\"}, \"ask\": {\"call\": \"ask\"}},"
                + " \"callbacks\": {\"event\": {\"listener\": \"l\", \"method\": \"onEvent\"},"
                + "   \"error\": {\"listener\": \"l\", \"method\": \"onError\"}},"
                + " \"errors\": {\"exceptions\": [\"java.lang.IllegalStateException\"], \"callbacks\": [\"error\"]},"
                + " \"timeouts\": {\"quiescenceMs\": 500, \"callinMs\": 1000, \"drainMs\": DRAIN}}";
    }

    private static String notifier() {
        return notifier("").replace("DRAIN", "0");
    }

    private static Map<String, Object> err(Map<String, Object> result) {
        return Check.obj(result.get("err"));
    }

    @Test
    public void timerScheduleThenWaitDeliversRun() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(Experiments.TIMER);
            Map<String, Object> r = agent.query("schedule", "wait", "wait");
            Check.outputs(r, "eps", "run", "quiet");
            Check.equal(null, r.get("err"));
            List<Object> steps = Check.list(Check.obj(r.get("timings")).get("stepsMs"));
            Check.equal(3, steps.size());
            Check.isTrue(((Double) steps.get(2)) >= 90.0, "quiet waits t_max: " + steps);
            Check.outputs(agent.request("query", "inputs", Json.parse("[{\"symbol\": \"schedule\", \"variant\": 1}, \"wait\"]")),
                    "eps", "run");
        }
    }

    @Test
    public void timerCancelThenScheduleIsErrAndErrIsAbsorbing() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(Experiments.TIMER);
            Map<String, Object> r = agent.query("cancel", "schedule", "wait", "purge");
            Check.outputs(r, "eps", "err", "err", "err");
            Map<String, Object> err = err(r);
            Check.equal(1L, err.get("position"));
            Check.equal("schedule", err.get("symbol"));
            Check.equal("java.lang.IllegalStateException", err.get("exception"));
            Check.equal("Timer already cancelled.", err.get("message"));
            Check.equal(0.0, Check.list(Check.obj(r.get("timings")).get("stepsMs")).get(2), "steps after err do not run");
            Check.outputs(agent.query("schedule", "schedule"), "eps", "err");
        }
    }

    @Test
    public void everyQueryGetsAFreshObjectOfANewGeneration() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(Experiments.ITERATOR);
            Map<String, Object> first = agent.query("next", "next");
            Check.outputs(first, "eps", "eps");
            Map<String, Object> second = agent.query("next", "next", "next");
            Check.outputs(second, "eps", "eps", "err");
            Check.equal((Long) first.get("generation") + 1, second.get("generation"));
            Check.equal("java.util.NoSuchElementException", err(second).get("exception"));
        }
    }

    @Test
    public void iteratorBuiltByAStepChain() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(Experiments.ITERATOR);
            Check.outputs(agent.query("remove"), "err");
            Check.outputs(agent.query("next", "remove", "remove"), "eps", "eps", "err");
            Map<String, Object> r = agent.query("hasNext", "next", "modify", "next");
            Check.outputs(r, "eps", "eps", "eps", "err");
            Check.equal("java.util.ConcurrentModificationException", err(r).get("exception"));
        }
    }

    @Test
    public void submissionPublisherWithASubscriberProxy() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(Experiments.PUBLISHER);
            Check.outputs(agent.query("subscribe", "wait", "submit", "wait", "close", "wait", "wait"),
                    "eps", "onSubscribe", "eps", "onNext", "eps", "onComplete", "quiet");
            Check.outputs(agent.query("close", "submit"), "eps", "err");
            Check.outputs(agent.query("subscribe", "subscribe", "wait", "wait"), "eps", "eps", "onSubscribe", "onError");
        }
    }

    @Test
    public void completableFutureCallbacksInsideCallinsAreQueued() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(Experiments.FUTURE);
            Check.outputs(agent.query("thenAccept", "complete", "wait", "wait"), "eps", "eps", "accept", "quiet");
            Check.outputs(agent.query("complete", "thenAccept", "wait"), "eps", "eps", "accept");
            Map<String, Object> r = agent.query("fail", "getNow");
            Check.outputs(r, "eps", "err");
            Check.equal("java.util.concurrent.CompletionException", err(r).get("exception"));
            Check.contains(err(r).get("message"), "boom");
            Check.outputs(agent.query("wait"), "quiet");
        }
    }

    @Test
    public void callbacksAreConsumedFifoAndLeftoversReported() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(notifier());
            Check.outputs(agent.query("fireTwice", "wait", "wait", "wait"), "eps", "event", "event", "quiet");
            Map<String, Object> r = agent.query("fire", "fireTwice");
            Check.outputs(r, "eps", "eps");
            Check.strings(r.get("leftover"), "event", "event", "event");
        }
    }

    @Test
    public void drainCollectsLateCallbacksAsLeftovers() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(notifier("").replace("DRAIN", "1000"));
            Map<String, Object> r = agent.query("fireSoon");
            Check.outputs(r, "eps");
            Check.strings(r.get("leftover"), "event");
            Check.equal(0, Check.list(r.get("stale")).size());
        }
    }

    @Test
    public void errorCallbackTurnsTheStepIntoErr() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(notifier());
            Map<String, Object> r = agent.query("fire", "fail", "wait", "fire");
            Check.outputs(r, "eps", "err", "err", "err");
            Check.equal(1L, err(r).get("position"));
            Check.equal("error", err(r).get("callback"));
            Check.equal(null, err(r).get("exception"));
        }
    }

    @Test
    public void unmappedListenerCallsAreReported() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(notifier());
            Map<String, Object> r = agent.query("noise", "wait");
            Check.outputs(r, "eps", "quiet");
            Check.strings(r.get("unmapped"), "l.onNoise");
        }
    }

    @Test
    public void listenerReturnValuesAreConfigurable() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(notifier());
            Check.outputs(agent.query("ask"), "err");
            agent.load(notifier(", \"returns\": {\"onAsk\": true}").replace("DRAIN", "0"));
            Check.outputs(agent.query("ask"), "eps");
        }
    }

    @Test
    public void staleCallbacksFromAnEarlierObjectNeverLeak() throws Exception {
        String timer = "{\"build\": [{\"new\": \"java.util.Timer\", \"params\": [\"boolean\"], \"args\": [true], \"as\": \"subject\"},"
                + " {\"new\": \"dev.typestar.harness.jdk.ReportingTimerTask\", \"as\": \"task\"}],"
                + " \"callins\": {\"scheduleLate\": {\"call\": \"schedule\", \"params\": [\"java.util.TimerTask\", \"long\"],"
                + "   \"args\": [{\"ref\": \"task\"}, 150]}},"
                + " \"callbacks\": {\"run\": {\"harness\": \"run\"}}, \"timeouts\": {\"quiescenceMs\": 100}}";
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(timer); // no teardown: the old timer stays alive and fires into the next query
            Map<String, Object> first = agent.query("scheduleLate");
            Check.outputs(first, "eps");
            Map<String, Object> second = agent.query("wait", "wait", "wait");
            Check.outputs(second, "quiet", "quiet", "quiet");
            List<Object> stale = Check.list(second.get("stale"));
            Check.equal(1, stale.size(), "stale " + Json.write(stale));
            Map<String, Object> s = Check.obj(stale.get(0));
            Check.equal("run", s.get("symbol"));
            Check.equal(first.get("generation"), s.get("generation"));
            Check.equal(1L, s.get("count"));

            Check.outputs(agent.query("scheduleLate"), "eps"); // fires after this query ended...
            Thread.sleep(300);
            Map<String, Object> later = agent.query();
            Check.equal(1, Check.list(later.get("stale")).size(), "...and is reported by the next query, not dropped");
        }
    }

    @Test
    public void unlistedExceptionEndsTheQueryAsUnexpected() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load("{\"build\": [{\"new\": \"dev.typestar.agent.subjects.Misbehaving\", \"as\": \"subject\"}],"
                    + " \"callins\": {\"ok\": {\"call\": \"ok\"}, \"refuse\": {\"call\": \"refuse\"}, \"surprise\": {\"call\": \"surprise\"}},"
                    + " \"errors\": {\"exceptions\": [\"java.lang.IllegalStateException\"]}}");
            Check.outputs(agent.query("ok", "refuse", "surprise"), "eps", "err", "err");
            Map<String, Object> r = agent.query("ok", "surprise", "ok");
            Check.equal("unexpected", r.get("status"));
            Check.equal(Arrays.asList("eps"), r.get("outputs"));
            Map<String, Object> failure = Check.obj(r.get("failure"));
            Check.equal("callin", failure.get("phase"));
            Check.equal(1L, failure.get("position"));
            Check.equal("surprise", failure.get("symbol"));
            Check.equal("java.lang.UnsupportedOperationException", failure.get("throwable"));
            Check.contains(Check.list(failure.get("stack")).get(0), "Misbehaving.surprise");
            Check.outputs(agent.query("ok"), "eps");
        }
    }

    /** A list created by a callin, which binds it as the subject; an iterator bound by another. */
    private static final String CREATED_BY_CALLINS = "{\"build\": [],"
            + " \"teardown\": [{\"call\": \"clear\"}],"
            + " \"callins\": {\"make\": {\"new\": \"java.util.ArrayList\", \"params\": [], \"as\": \"subject\"},"
            + "   \"add\": {\"call\": \"add\", \"params\": [\"java.lang.Object\"], \"args\": [\"x\"]},"
            + "   \"next\": {\"call\": \"next\", \"on\": \"it\"},"
            + "   \"iter\": {\"call\": \"iterator\", \"as\": \"it\"}},"
            + " \"errors\": {\"exceptions\": [\"java.lang.NullPointerException\", \"java.util.NoSuchElementException\"]},"
            + " \"timeouts\": {\"quiescenceMs\": 20}}";

    @Test
    public void callinsBindTheirResultsAndCallsOnNullThrowNullPointerException() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            agent.load(CREATED_BY_CALLINS);
            Map<String, Object> r = agent.query("add");
            Check.outputs(r, "err");
            Check.equal("java.lang.NullPointerException", err(r).get("exception"));
            Check.outputs(agent.query("make", "add", "iter", "next", "next"), "eps", "eps", "eps", "eps", "err");
            Check.outputs(agent.query("make", "next"), "eps", "err");
            r = agent.query("make", "add", "add");
            Check.outputs(r, "eps", "eps", "eps");
            Check.equal(0, Check.list(r.get("warnings")).size(), "teardown skips steps on names never bound: " + r);
            Check.outputs(agent.query("iter"), "err");
        }
    }

    @Test
    public void whenRefinesACallbackByItsArguments() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            String experiment = notifier("").replace("DRAIN", "0").replace(
                    "\"callbacks\": {\"event\": {\"listener\": \"l\", \"method\": \"onEvent\"},",
                    "\"callbacks\": {\"now\": {\"listener\": \"l\", \"method\": \"onEvent\","
                            + " \"when\": {\"call\": \"equals\", \"on\": \"arg0\", \"args\": [\"now\"], \"expect\": true}},"
                            + " \"later\": {\"listener\": \"l\", \"method\": \"onEvent\","
                            + " \"when\": {\"call\": \"length\", \"on\": \"arg0\", \"expect\": 5}},");
            agent.load(experiment);
            Check.outputs(agent.query("fire", "wait", "fireSoon", "wait"), "eps", "now", "eps", "later");
            Map<String, Object> r = agent.query("fireTwice", "wait");
            Check.outputs(r, "eps", "quiet");
            Check.strings(r.get("unmapped"), "l.onEvent", "l.onEvent");
            Map<String, Object> bad = agent.request("load", "experiment", Json.parse(experiment.replace(
                    ", \"when\": {\"call\": \"length\", \"on\": \"arg0\", \"expect\": 5}", "")));
            Check.error(bad, "bad-request", "experiment.callbacks.later");
        }
    }

    @Test
    public void settleLetsCallbacksCausedByACallinArriveWithinIt() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            // A wide settle margin over fireSoon's 30 ms: a loaded CI machine once ran the
            // callback more than 90 ms late.
            agent.load(notifier("").replace("\"drainMs\": DRAIN", "\"drainMs\": 0, \"settleMs\": 1000"));
            Map<String, Object> r = agent.query("fireSoon");
            Check.outputs(r, "eps");
            Check.strings(r.get("leftover"), "event");
            Object took = Check.list(Check.obj(r.get("timings")).get("stepsMs")).get(0);
            Check.isTrue(((Double) took) >= 1000.0, "a callin step lasts its settle time: " + took);
        }
    }
}
