package generated;

import android.media.MediaPlayer;

// Maven build output beside lib/pom.xml: skipped.
class Generated {
    void play() {
        MediaPlayer player = new MediaPlayer();
        player.release();
        player.start();
    }
}
