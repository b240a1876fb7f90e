import android.media.MediaPlayer;

// Not offered anywhere in this file: a listener is registered already, and a second one would
// replace it.
class ListenerRegistered {
    void play(String url) throws Exception {
        MediaPlayer player = new MediaPlayer();
        player.setOnPreparedListener(mp -> log("prepared"));
        player.setDataSource(url);
        player.prepareAsync();
        player.start();
    }

    void log(String message) {}
}
