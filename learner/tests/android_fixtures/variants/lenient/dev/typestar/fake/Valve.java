package dev.typestar.fake;

/** A valve as another device's build has it: closing a closed valve does nothing. */
public final class Valve {
    private boolean open;

    /** Opens the valve; it must be closed. */
    public void open() {
        if (open) {
            throw new IllegalStateException("already open");
        }
        open = true;
    }

    /** Closes the valve, open or not. */
    public void close() {
        open = false;
    }
}
