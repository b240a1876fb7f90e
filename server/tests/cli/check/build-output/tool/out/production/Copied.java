package production;

import android.media.MediaPlayer;

// IntelliJ output holding class files: skipped.
class Copied {
    void play() {
        MediaPlayer player = new MediaPlayer();
        player.release();
        player.start();
    }
}
