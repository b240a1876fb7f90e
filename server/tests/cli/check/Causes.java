import android.media.MediaPlayer;

// The notes name the calls that moved the player, not the query that left it where it was.
class Causes {
    void play(String url) throws java.io.IOException {
        MediaPlayer mp = new MediaPlayer();
        if (url.isEmpty()) {
            mp.setDataSource(url);
        }
        if (!mp.isPlaying()) {
            mp.start();
        }
    }
}
