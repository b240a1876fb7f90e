package com.example.typestar;

/**
 * The app's own protocol class: open, send any number of chunks, then commit once.
 * typestar knows nothing of it until it is learned from the editor (README.md, "Learning a class of the app").
 */
public final class UploadSession {
    private enum Phase { NEW, OPEN, COMMITTED }

    private Phase phase = Phase.NEW;
    private final StringBuilder sent = new StringBuilder();

    public void open() {
        if (phase != Phase.NEW) {
            throw new IllegalStateException("the session is already open");
        }
        phase = Phase.OPEN;
    }

    public void send(String chunk) {
        if (phase != Phase.OPEN) {
            throw new IllegalStateException("send() needs an open session");
        }
        sent.append(chunk);
    }

    public void commit() {
        if (phase != Phase.OPEN) {
            throw new IllegalStateException("commit() needs an open session");
        }
        phase = Phase.COMMITTED;
    }
}
