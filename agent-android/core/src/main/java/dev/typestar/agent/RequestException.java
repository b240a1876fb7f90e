package dev.typestar.agent;

/**
 * A request the agent cannot honour, turned into an {@code error} reply.
 *
 * <p>{@link #code} is a stable machine-readable identifier (see PROTOCOL.md, "Error codes"),
 * {@link #field} the JSON path of the offending field or query position (or {@code null}),
 * and the message a sentence for humans naming what was wrong.
 */
final class RequestException extends Exception {
    private static final long serialVersionUID = 1L;

    final String code;
    final String field;

    RequestException(String code, String field, String message) {
        super(message);
        this.code = code;
        this.field = field;
    }
}
