package dev.typestar.harness.jdk;

import dev.typestar.agent.Callbacks;
import java.util.TimerTask;

/**
 * Harness for {@link java.util.Timer} experiments: a {@link TimerTask} whose {@link #run} is
 * reported as the harness callback {@code run}.
 */
public class ReportingTimerTask extends TimerTask {
    private final Callbacks.Reporter reporter = Callbacks.reporter();

    @Override
    public void run() {
        reporter.report("run");
    }
}
