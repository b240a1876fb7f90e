package dev.typestar.agent;

/**
 * The agent could not perform a reflective call at run time for a reason of its own making
 * (receiver is null, access denied, runtime argument type mismatch), as opposed to the called
 * code throwing. Reported as a {@code crash} naming the step, never as an {@code err} output.
 */
final class InvocationFailure extends Exception {
    private static final long serialVersionUID = 1L;

    InvocationFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
