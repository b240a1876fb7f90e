package dev.typestar.harness.jdk;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.typestar.agent.StepClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Harness for HTTP client experiments (OkHttp's {@code Call}, Volley, Universal Image Loader): an
 * HTTP server on {@code 127.0.0.1} (a free port), started by the constructor in an experiment's
 * setup step. {@code GET /index.html} answers 200 with a short page, {@code GET /image.png} 200
 * with a 1×1 PNG image; any other path answers 404. Every
 * answer is delayed by {@code delayMs}, so a request is reliably still in flight for that long
 * (a {@code cancel} right after an {@code enqueue} happens before the response).
 *
 * <p>{@code new LocalHttpServer(delayMs, true)} measures the delay on the agent's {@link StepClock},
 * which runs only while the code under study runs or a {@code wait} waits: the answer then comes
 * during a {@code wait} (or a call that blocks for it), and a {@code cancel} any number of callins
 * after the request still comes before it. On the wall clock the callins' settle times count, and
 * a {@code cancel} a few callins later can race with the answer.
 */
public class LocalHttpServer implements AutoCloseable {
    /** The path that answers 200. */
    public static final String FOUND = "/index.html";
    /** The path that answers 200 with an image. */
    public static final String IMAGE = "/image.png";
    /** A 1×1 transparent PNG. */
    private static final byte[] PNG = Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==");

    private final HttpServer server;
    private final ExecutorService threads;
    private final long delayMs;
    private final boolean onStepClock;

    /** Starts the server on 127.0.0.1 with a free port; answers are delayed by {@code delayMs}. */
    public LocalHttpServer(long delayMs) throws IOException {
        this(delayMs, false);
    }

    /**
     * Starts the server on 127.0.0.1 with a free port; answers are delayed by {@code delayMs},
     * on the agent's {@link StepClock} if {@code onStepClock}, else on the wall clock.
     */
    public LocalHttpServer(long delayMs, boolean onStepClock) throws IOException {
        this.delayMs = delayMs;
        this.onStepClock = onStepClock;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "typestar-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext("/", this::answer);
        server.start();
    }

    /** The port the server listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The URL of {@code path} (which starts with {@code /}) on this server. */
    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    private void answer(HttpExchange exchange) throws IOException {
        try {
            if (onStepClock) {
                StepClock.sleep(delayMs);
            } else {
                Thread.sleep(delayMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String path = exchange.getRequestURI().getPath();
        boolean found = FOUND.equals(path) || IMAGE.equals(path);
        byte[] body;
        if (IMAGE.equals(path)) {
            body = PNG;
            exchange.getResponseHeaders().set("Content-Type", "image/png");
        } else {
            body = (found ? "<html><body>typestar</body></html>\n" : "not found\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        }
        try {
            exchange.sendResponseHeaders(found ? 200 : 404, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } catch (IOException clientGone) {
            // the client canceled the call and closed the connection
        } finally {
            exchange.close();
        }
    }

    /** Stops the server. */
    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
