import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;

// Each method is one case; Streams.fixed.java is this file with every offered fix applied.
class Streams {
    // Offered: never closed; the rest of the method goes into the try.
    int neverClosed(String path) throws IOException {
        try (InputStream in = new FileInputStream(path)) {
            int first = in.read();

            return first;
        }
    }

    // Offered: a failed read skips the close at the end; the try closes it instead.
    int closedAtTheEnd(String path) throws IOException {
        try (InputStream in = new FileInputStream(path)) {
            int first = in.read();
            return first;
        }
    }

    // Offered: in a nested block, whose rest alone goes into the try.
    void nested(String path, boolean read) throws IOException {
        if (read) {
            try (InputStream in = new FileInputStream(path)) {
                in.read();
            }
        }
        log("done");
    }

    // Not offered: closed on one branch only, so the close is not one plain statement.
    void closedOnOneBranch(String path, boolean done) throws IOException {
        InputStream in = new FileInputStream(path);
        if (done) {
            in.close();
        }
    }

    // Not offered: the name is given another stream, which a try's resource cannot be.
    void reassigned(String a, String b) throws IOException {
        InputStream in = new FileInputStream(a);
        in.read();
        in.close();
        in = new FileInputStream(b);
    }

    void log(String message) {}
}
