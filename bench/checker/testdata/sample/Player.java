package com.example.bench;

import android.media.MediaPlayer;
import android.os.AsyncTask;
import java.io.FileInputStream;
import java.io.IOException;

/** Bench smoke-test input: each method holds one protocol misuse in one block. */
public class Player {
    private MediaPlayer player;

    void restart() {
        MediaPlayer mp = new MediaPlayer();
        mp.release();
        mp.start();
    }

    void playAsync(String path) throws IOException {
        player = new MediaPlayer();
        player.setDataSource(path);
        player.prepareAsync();
        player.start();
    }

    void readClosed(String path) throws IOException {
        FileInputStream in = new FileInputStream(path);
        in.close();
        in.read();
    }

    void twice(AsyncTask<Void, Void, Void> task) {
        task.execute();
        task.execute();
    }

    void fine() {
        MediaPlayer mp = MediaPlayer.create(null, 0);
        mp.start();
        mp.stop();
        mp.release();
    }
}
