package com.example.out;

import android.media.MediaPlayer;

// A package named out (no class files in it): checked.
class InOutPackage {
    void play() {
        MediaPlayer player = new MediaPlayer();
        player.release();
        player.start();
    }
}
