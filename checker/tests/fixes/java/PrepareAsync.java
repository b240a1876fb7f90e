import android.media.MediaPlayer;
import android.widget.Button;

// Each method is one case; PrepareAsync.fixed.java is this file with every offered fix applied.
class PrepareAsync {
    private MediaPlayer field = new MediaPlayer();

    // Offered: a local, started right after prepareAsync, nothing after.
    void local(String url) throws Exception {
        MediaPlayer player = new MediaPlayer();
        player.setDataSource(url);
        player.prepareAsync();
        player.start();
    }

    // Offered: what follows does not name the local.
    void localThenOtherWork(String url) throws Exception {
        MediaPlayer player = new MediaPlayer();
        player.setDataSource(url);
        player.prepareAsync();
        player.start();
        log("started");
    }

    // Not offered: the start is the last statement, but the other methods' wrong start() may
    // leave the field in MediaPlayer's error state, which the protocol does not model, so the
    // finding is only possible.
    void fieldLast(String url) throws Exception {
        field.reset();
        field.setDataSource(url);
        field.prepareAsync();
        field.start();
    }

    // Not offered: other code follows, and it may reach the field.
    void fieldThenOtherWork(String url) throws Exception {
        field.reset();
        field.setDataSource(url);
        field.prepareAsync();
        field.start();
        log("started");
    }

    // Not offered: the player is used after the start.
    void usedAfter(String url) throws Exception {
        MediaPlayer player = new MediaPlayer();
        player.setDataSource(url);
        player.prepareAsync();
        player.start();
        player.setVolume(1f, 1f);
    }

    // Not offered: another statement between prepareAsync and start.
    void somethingBetween(String url) throws Exception {
        MediaPlayer player = new MediaPlayer();
        player.setDataSource(url);
        player.prepareAsync();
        log("preparing");
        player.start();
    }

    // Not offered: a comment between them would be lost.
    void commentBetween(String url) throws Exception {
        MediaPlayer player = new MediaPlayer();
        player.setDataSource(url);
        player.prepareAsync();
        // start at once
        player.start();
    }

    // Not offered: the start is in another block than prepareAsync.
    void otherBlock(String url, boolean now) throws Exception {
        MediaPlayer player = new MediaPlayer();
        player.setDataSource(url);
        player.prepareAsync();
        if (now) {
            player.start();
        }
    }

    // Offered: inside a click listener.
    void inListener(Button button, String url) {
        button.setOnClickListener(v -> {
            MediaPlayer player = new MediaPlayer();
            try {
                player.setDataSource(url);
            } catch (Exception e) {
                return;
            }
            player.prepareAsync();
            player.start();
        });
    }

    void log(String message) {}
}
