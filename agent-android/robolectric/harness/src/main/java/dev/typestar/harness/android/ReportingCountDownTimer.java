package dev.typestar.harness.android;

import android.os.CountDownTimer;
import dev.typestar.agent.Callbacks;

/**
 * DroidStar's CountDownTimer object (CountDownTimerLP): 1100 ms in the future, a tick every
 * 1000 ms; reports {@code onFinish} and {@code onTick} as harness callbacks.
 */
public class ReportingCountDownTimer extends CountDownTimer {
    private final Callbacks.Reporter reporter = Callbacks.reporter();

    public ReportingCountDownTimer() {
        super(1100, 1000);
    }

    @Override
    public void onTick(long millisUntilFinished) {
        reporter.report("onTick");
    }

    @Override
    public void onFinish() {
        reporter.report("onFinish");
    }
}
