package dev.typestar.fake;

/** A valve as one device's build has it: closing a closed valve throws. */
public final class Valve {
    private boolean open;

    /** Opens the valve; it must be closed. */
    public void open() {
        if (open) {
            throw new IllegalStateException("already open");
        }
        open = true;
    }

    /** Closes the valve; it must be open. */
    public void close() {
        if (!open) {
            throw new IllegalStateException("already closed");
        }
        open = false;
    }
}
