package dev.typestar.agent.subjects;

/**
 * A test subject with a listener interface: delivers callbacks synchronously inside callins or
 * later from another thread.
 */
public class Notifier {
    /** Its listener interface. */
    public interface Listener {
        void onEvent(String what);

        void onError(int code);

        boolean onAsk();

        void onNoise();
    }

    private Listener listener;
    private boolean lastAnswer;

    public void setListener(Listener listener) {
        this.listener = listener;
    }

    /** Calls onEvent synchronously. */
    public void fire() {
        listener.onEvent("now");
    }

    /** Calls onEvent twice synchronously. */
    public void fireTwice() {
        listener.onEvent("one");
        listener.onEvent("two");
    }

    /** Calls onEvent from another thread after {@code delayMs}. */
    public void fireLater(long delayMs) {
        Listener target = listener;
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(delayMs);
            } catch (InterruptedException e) {
                return;
            }
            target.onEvent("later");
        });
        t.setDaemon(true);
        t.start();
    }

    /** Calls onError synchronously. */
    public void fail() {
        listener.onError(7);
    }

    /** Calls onNoise, a method experiments leave unmapped. */
    public void noise() {
        listener.onNoise();
    }

    /** Asks the listener; throws if it said no, so the answer is observable. */
    public void ask() {
        lastAnswer = listener.onAsk();
        if (!lastAnswer) {
            throw new IllegalStateException("listener said no");
        }
    }
}
