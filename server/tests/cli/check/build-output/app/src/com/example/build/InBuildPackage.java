package com.example.build;

import android.media.MediaPlayer;

// A package named build (no Gradle file beside it): checked.
class InBuildPackage {
    void play() {
        MediaPlayer player = new MediaPlayer();
        player.release();
        player.start();
    }
}
