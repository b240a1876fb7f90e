package com.example.typestar;

/** Uploads a note; the session is never opened, which only UploadSession's learned protocol tells. */
public final class NoteSender {
    public static void upload(String note) {
        UploadSession session = new UploadSession(); // learnClass: UploadSession
        session.send(note); // once learned(definite): send
        session.commit();
    }
}
