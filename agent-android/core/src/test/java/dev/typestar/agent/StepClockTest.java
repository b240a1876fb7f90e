package dev.typestar.agent;

import dev.typestar.harness.jdk.LocalHttpServer;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The step clock stands still between the agent's steps, so a delay measured on it ends only while
 * a step runs or a wait waits: a test server's answer cannot race with callins however long the
 * agent settles between them.
 */
public class StepClockTest {
    @Test
    public void aSleepOnTheStepClockEndsOnlyWhileTheClockRuns() throws Exception {
        CompletableFuture<Void> slept = CompletableFuture.runAsync(() -> {
            try {
                StepClock.sleep(50);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(300);
        Check.isTrue(!slept.isDone(), "a 50 ms sleep ended while the clock stood still for 300 ms");
        long before = StepClock.nanos();
        StepClock.start();
        try {
            slept.get(5, TimeUnit.SECONDS);
        } finally {
            StepClock.stop();
        }
        Check.isTrue(StepClock.nanos() - before >= 50_000_000L, "the clock ran 50 ms before the sleep ended");
    }

    @Test
    public void aServerOnTheStepClockAnswersOnlyWhileTheClockRuns() throws Exception {
        try (LocalHttpServer server = new LocalHttpServer(100, true)) {
            CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> get(server.url(LocalHttpServer.FOUND)));
            try {
                status.get(500, TimeUnit.MILLISECONDS);
                Check.isTrue(false, "the server answered while the step clock stood still");
            } catch (TimeoutException expected) {
                // still waiting for the clock
            }
            StepClock.start();
            try {
                Check.equal(200, status.get(5, TimeUnit.SECONDS));
            } finally {
                StepClock.stop();
            }
        }
    }

    private static int get(String url) {
        try {
            HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
            try (InputStream body = connection.getInputStream()) {
                body.readAllBytes();
            }
            return connection.getResponseCode();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
