package com.example.typestar;

import android.app.Activity;
import android.os.Bundle;

/** Starts a download when created and again whenever the URL changes. */
public class DownloadScreen extends Activity {
    private final DownloadTask task = new DownloadTask();

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        task.execute("https://example.com/a.zip");
    }

    /** Called by the settings screen. An AsyncTask runs only once. */
    public void setUrl(String url) {
        task.execute(url); // expect(definite): execute
    }
}
