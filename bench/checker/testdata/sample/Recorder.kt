package com.example.bench

import android.media.MediaRecorder
import java.io.FileReader
import okhttp3.OkHttpClient
import okhttp3.Request

/** Bench smoke-test input: each function holds one protocol misuse in one block. */
class Recorder {
    fun recordTooShort(path: String) {
        val recorder = MediaRecorder()
        recorder.setAudioSource(MediaRecorder.AudioSource.MIC)
        recorder.setOutputFormat(MediaRecorder.OutputFormat.THREE_GPP)
        recorder.setAudioEncoder(MediaRecorder.AudioEncoder.AMR_NB)
        recorder.setOutputFile(path)
        recorder.prepare()
        recorder.start()
        recorder.stop()
    }

    fun startReleased() {
        val recorder = MediaRecorder()
        recorder.release()
        recorder.start()
    }

    fun readClosed(path: String) {
        val reader = FileReader(path)
        reader.close()
        reader.read()
    }

    fun callTwice(client: OkHttpClient, request: Request) {
        val call = client.newCall(request)
        call.execute()
        call.execute()
    }
}
