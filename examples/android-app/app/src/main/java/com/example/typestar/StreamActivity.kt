package com.example.typestar

import android.app.Activity
import android.media.MediaPlayer
import android.os.Bundle

/** Streams a podcast episode, but starts before the player is prepared. */
class StreamActivity : Activity() {
    private val player = MediaPlayer()

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        player.setDataSource("https://example.com/episode.mp3")
        player.prepareAsync()
        player.start() // expect(definite): start
    }

    override fun onDestroy() {
        super.onDestroy()
        player.release()
    }
}
