package dev.typestar.agent;

import java.util.List;
import java.util.Map;

/** End-to-end tests of the describe request. */
public class DescribeTest {
    private static Map<String, Object> find(Object list, String name, String... params) {
        for (Object o : Check.list(list)) {
            Map<String, Object> m = Check.obj(o);
            if ((name == null || name.equals(m.get("name"))) && java.util.Arrays.asList(params).equals(m.get("params"))) {
                return m;
            }
        }
        throw new AssertionError("no " + name + java.util.Arrays.toString(params) + " in " + Json.write(list));
    }

    private static boolean hasName(Object list, String name) {
        return Check.list(list).stream().anyMatch(o -> name.equals(Check.obj(o).get("name")));
    }

    @Test
    public void describesArrayList() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> d = agent.request("describe", "class", "java.util.ArrayList");
            Check.equal("description", d.get("type"));
            Map<String, Object> cls = Check.obj(d.get("class"));
            Check.equal("java.util.ArrayList", cls.get("name"));
            Check.equal("class", cls.get("kind"));
            Check.equal(false, cls.get("final"));
            Check.equal("java.util.AbstractList", cls.get("superclass"));
            find(d.get("constructors"), null);
            find(d.get("constructors"), null, "int");
            find(d.get("constructors"), null, "java.util.Collection");
            Map<String, Object> add = find(d.get("methods"), "add", "int", "java.lang.Object");
            Check.equal("void", add.get("returns"));
            Check.equal("java.util.Iterator", find(d.get("methods"), "iterator").get("returns"));
            Check.equal("java.lang.Object[]", find(d.get("methods"), "toArray").get("returns"));
            Check.isTrue(!hasName(d.get("methods"), "wait"), "Object's methods are left out");
            Check.isTrue(!hasName(d.get("methods"), "copyOf"), "static methods are not instance methods");
            Check.equal(0, Check.list(d.get("listenerSetters")).size());
            Map<String, Object> removeRange = find(d.get("overridable"), "removeRange", "int", "int");
            Check.equal(true, removeRange.get("protected"));
            Check.equal(false, removeRange.get("abstract"));
        }
    }

    @Test
    public void describesTimer() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> d = agent.request("describe", "class", "java.util.Timer");
            find(d.get("constructors"), null, "java.lang.String", "boolean");
            find(d.get("methods"), "schedule", "java.util.TimerTask", "long");
            find(d.get("methods"), "cancel");
            Check.equal("int", find(d.get("methods"), "purge").get("returns"));
            find(d.get("overridable"), "cancel");
        }
    }

    @Test
    public void describesAbstractCallbackClass() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> d = agent.request("describe", "class", "java.util.TimerTask");
            Check.equal(true, Check.obj(d.get("class")).get("abstract"));
            Check.equal(0, Check.list(d.get("constructors")).size());
            Check.equal(true, find(d.get("subclassConstructors"), null).get("protected"));
            Check.equal(true, find(d.get("overridable"), "run").get("abstract"));
            Check.equal(false, find(d.get("overridable"), "cancel").get("abstract"));
        }
    }

    @Test
    public void findsFactoriesAndListenerSetters() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> d = agent.request("describe", "class", "java.util.concurrent.CompletableFuture");
            Check.equal("java.util.concurrent.CompletableFuture",
                    find(d.get("factories"), "completedFuture", "java.lang.Object").get("returns"));

            Map<String, Object> n = agent.request("describe", "class", "dev.typestar.agent.subjects.Notifier");
            Map<String, Object> setter = find(n.get("listenerSetters"), "setListener",
                    "dev.typestar.agent.subjects.Notifier$Listener");
            Check.equal("dev.typestar.agent.subjects.Notifier$Listener", setter.get("interface"));
            List<Object> callbacks = Check.list(setter.get("callbacks"));
            Check.equal(4, callbacks.size());
            Check.equal("boolean", find(callbacks, "onAsk").get("returns"));
            find(callbacks, "onError", "int");
        }
    }

    @Test
    public void unknownClassIsNamed() throws Exception {
        try (AgentProcess agent = AgentProcess.started()) {
            Map<String, Object> reply = agent.request("describe", "class", "java.util.Nonexistent");
            Check.error(reply, "class-not-found", "class");
            Check.contains(reply.get("message"), "java.util.Nonexistent");
        }
    }
}
