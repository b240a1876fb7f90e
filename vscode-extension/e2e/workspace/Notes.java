/** For the stand-in server, which learns nothing: the command must send this document and the cursor on the class. */
class Notes {
    void upload(UploadSession session) { // learnClass: UploadSession
        session.send("a note");
    }
}
