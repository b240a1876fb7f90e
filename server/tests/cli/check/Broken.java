import java.io.FileInputStream;

class Broken {
    void read() throws Exception {
        FileInputStream in = new FileInputStream("a");
        in.close();
        in.read();
        int x = ;   // a syntax error the checker reads around
    }
}
