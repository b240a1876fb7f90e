package com.example.generated;

import android.media.MediaPlayer;

// Gradle build output beside app/build.gradle: skipped.
class Generated {
    void play() {
        MediaPlayer player = new MediaPlayer();
        player.release();
        player.start();
    }
}
