import android.os.AsyncTask;

/** A download that runs once; AsyncTask refuses a second execute(). */
class DownloadTask extends AsyncTask<String, Void, Void> {
    @Override
    protected Void doInBackground(String... urls) {
        return null;
    }
}

class Screen {
    void downloadTwice() {
        DownloadTask task = new DownloadTask();
        task.execute("https://example.com/a.zip");
        task.execute("https://example.com/b.zip"); // expect: execute
    }
}
