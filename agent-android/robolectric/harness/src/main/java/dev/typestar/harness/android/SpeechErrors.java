package dev.typestar.harness.android;

import android.speech.SpeechRecognizer;

/**
 * DroidStar's reading of {@code RecognitionListener.onError} codes (SpeechRecognizerLP): no match,
 * speech timeout, network timeout and network errors end a listening session as results do
 * ({@code finished}); any other code is an error. Experiments tell the two apart with
 * {@code when = { static = "dev.typestar.harness.android.SpeechErrors", call = "endsListening", ... }}.
 */
public final class SpeechErrors {
    private SpeechErrors() {
    }

    /** Whether {@code code} ends listening the way results do, in DroidStar's reading. */
    public static boolean endsListening(int code) {
        return code == SpeechRecognizer.ERROR_NO_MATCH || code == SpeechRecognizer.ERROR_SPEECH_TIMEOUT
                || code == SpeechRecognizer.ERROR_NETWORK_TIMEOUT || code == SpeechRecognizer.ERROR_NETWORK;
    }
}
