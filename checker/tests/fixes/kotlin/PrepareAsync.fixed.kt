import android.media.MediaPlayer

// Each function is one case; PrepareAsync.fixed.kt is this file with every offered fix applied.
class PrepareAsync {
    // Offered: a local, started right after prepareAsync, nothing after.
    fun local(url: String) {
        val player = MediaPlayer()
        player.setDataSource(url)
        player.setOnPreparedListener { it.start() }
        player.prepareAsync()
    }

    // Not offered: the player is used after the start.
    fun usedAfter(url: String) {
        val player = MediaPlayer()
        player.setDataSource(url)
        player.prepareAsync()
        player.start()
        player.setVolume(1f, 1f)
    }

    // Not offered: a safe call.
    fun safeCall(url: String) {
        val player: MediaPlayer? = MediaPlayer()
        player?.setDataSource(url)
        player?.prepareAsync()
        player?.start()
    }
}
