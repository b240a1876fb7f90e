package com.example.typestar;

import android.app.Activity;
import android.media.MediaScannerConnection;
import android.net.Uri;

/** Makes a saved picture visible in the gallery. */
public class ScannerActivity extends Activity implements MediaScannerConnection.MediaScannerConnectionClient {
    private MediaScannerConnection connection;

    public void publish(String path) {
        connection = new MediaScannerConnection(this, this);
        connection.connect();
        connection.scanFile(path, "image/jpeg"); // expect(definite): scanFile
    }

    @Override
    public void onMediaScannerConnected() {
    }

    @Override
    public void onScanCompleted(String path, Uri uri) {
        connection.disconnect();
    }
}
