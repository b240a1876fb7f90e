package dev.typestar.harness.android;

import android.os.AsyncTask;
import dev.typestar.agent.Callbacks;

/**
 * DroidStar's AsyncTask object (AsyncTaskLP): the background work sleeps 200 ms of real time;
 * reports the main-thread hooks as harness callbacks. Object type arguments: the agent passes
 * execute's varargs as an Object[], which a String-typed doInBackground bridge would fail to cast.
 */
@SuppressWarnings("deprecation") // AsyncTask, deprecated in API 30, is the class under study
public class ReportingAsyncTask extends AsyncTask<Object, Void, Object> {
    private final Callbacks.Reporter reporter = Callbacks.reporter();

    @Override
    protected void onPreExecute() {
        reporter.report("onPreExecute");
    }

    @Override
    protected Object doInBackground(Object... args) {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return args.length > 0 ? args[0] : null;
    }

    @Override
    protected void onPostExecute(Object result) {
        reporter.report("onPostExecute");
    }

    @Override
    protected void onCancelled(Object result) {
        reporter.report("onCancelled");
    }
}
