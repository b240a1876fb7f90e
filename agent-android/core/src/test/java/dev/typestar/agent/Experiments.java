package dev.typestar.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/** The example experiments under agent-android/examples/ (directory given by -Dtypestar.examples). */
final class Experiments {
    static final String TIMER = read("java.util.Timer.json");
    static final String ITERATOR = read("java.util.ArrayList-iterator.json");
    static final String PUBLISHER = read("java.util.concurrent.SubmissionPublisher.json");
    static final String FUTURE = read("java.util.concurrent.CompletableFuture.json");

    private Experiments() {
    }

    static String read(String file) {
        String dir = System.getProperty("typestar.examples");
        if (dir == null) {
            throw new IllegalStateException("run the tests with -Dtypestar.examples=agent-android/examples");
        }
        try {
            return new String(Files.readAllBytes(Paths.get(dir, file)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read example " + file, e);
        }
    }
}
