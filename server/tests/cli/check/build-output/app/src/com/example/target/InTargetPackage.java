package com.example.target;

import android.media.MediaPlayer;

// A package named target: checked.
class InTargetPackage {
    void play() {
        MediaPlayer player = new MediaPlayer();
        player.release();
        player.start();
    }
}
