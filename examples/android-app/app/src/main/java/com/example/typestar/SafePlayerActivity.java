package com.example.typestar;

import android.app.Activity;
import android.media.MediaPlayer;
import android.os.Bundle;
import java.io.IOException;

/** Streams a track the right way: start() runs only once the player is prepared. */
public class SafePlayerActivity extends Activity {
    private MediaPlayer player;

    @Override
    protected void onStart() {
        super.onStart();
        player = new MediaPlayer();
        try {
            player.setDataSource("https://example.com/track.mp3");
        } catch (IOException e) {
            player.release();
            player = null;
            return;
        }
        player.setOnPreparedListener(mp -> mp.start());
        player.prepareAsync();
    }

    @Override
    protected void onStop() {
        super.onStop();
        if (player != null) {
            player.release();
            player = null;
        }
    }
}
