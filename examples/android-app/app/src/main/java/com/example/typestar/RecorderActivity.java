package com.example.typestar;

import android.app.Activity;
import android.media.MediaRecorder;
import android.os.Bundle;
import android.view.View;

/** Records a voice memo: one button starts, the next click stops. */
public class RecorderActivity extends Activity {
    private MediaRecorder recorder;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        findViewById(R.id.record).setOnClickListener(this::onRecordClicked);
        findViewById(R.id.stop).setOnClickListener(v -> onStopClicked());
    }

    private void onRecordClicked(View view) {
        recorder = new MediaRecorder();
        recorder.setAudioSource(MediaRecorder.AudioSource.MIC);
        recorder.setOutputFormat(MediaRecorder.OutputFormat.THREE_GPP);
        recorder.setAudioEncoder(MediaRecorder.AudioEncoder.AMR_NB);
        recorder.setOutputFile(getFilesDir() + "/memo.3gp");
        try {
            recorder.prepare();
        } catch (java.io.IOException e) {
            return;
        }
        recorder.start();
    }

    // A double tap reaches stop() before the recorder has produced any data.
    private void onStopClicked() {
        recorder.stop(); // expect(possible): stop
        recorder.release();
        recorder = null;
    }
}
