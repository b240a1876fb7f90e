package com.example.typestar;

import android.app.Activity;
import android.media.MediaPlayer;
import android.os.Bundle;

/** Plays a jingle while visible. */
public class PlayerActivity extends Activity {
    private MediaPlayer player;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        player = MediaPlayer.create(this, R.raw.jingle);
    }

    @Override
    protected void onResume() {
        super.onResume();
        // After onStop() released the player, coming back to the activity starts a dead player.
        player.start(); // expect(possible): start
    }

    @Override
    protected void onPause() {
        super.onPause();
        player.pause();
    }

    @Override
    protected void onStop() {
        super.onStop();
        player.release();
    }
}
