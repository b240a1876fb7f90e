package dev.typestar.agent.subjects;

/** A test subject whose callins misbehave in every way the agent must survive. */
public class Misbehaving {
    /** Never returns, ignoring interrupts. */
    public void hang() {
        while (true) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException ignored) {
                // a real hang does not give up either
            }
        }
    }

    /** Recurses until the stack overflows. */
    public int overflow() {
        return overflow() + 1;
    }

    /** Asks for far more memory than any test heap has. */
    public long exhaustMemory() {
        long[][] blocks = new long[1024][];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = new long[64 * 1024 * 1024];
        }
        return blocks.length;
    }

    /** Throws an exception that experiments list as err. */
    public void refuse() {
        throw new IllegalStateException("refused");
    }

    /** Throws an exception that experiments do not list as err. */
    public void surprise() {
        throw new UnsupportedOperationException("surprise");
    }

    /** Writes to System.out, which must not reach the protocol stream. */
    public void chatter() {
        System.out.println("{\"type\":\"noise\"}");
    }

    /** Fine. */
    public void ok() {
    }
}
