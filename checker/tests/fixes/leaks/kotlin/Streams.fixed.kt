import java.io.FileInputStream
import java.io.InputStream

// Each function is one case; Streams.fixed.kt is this file with every offered fix applied.
class Streams {
    // Offered: never closed; the rest of the function is read through use {}.
    fun neverClosed(path: String): Int {
        FileInputStream(path).use { input ->
            val first = input.read()
            return first
        }
    }

    // Offered: a failed read skips the close at the end; use {} closes it instead.
    fun closedAtTheEnd(path: String): Int {
        FileInputStream(path).use { input ->
            val first = input.read()
            return first
        }
    }

    // Not offered: a var, which use {} cannot give another stream.
    fun reassigned(a: String, b: String) {
        var input: InputStream = FileInputStream(a)
        input.read()
        input.close()
        input = FileInputStream(b)
    }

    // Not offered: a break out of the loop, which a use {} lambda cannot pass.
    fun inLoop(paths: List<String>) {
        for (path in paths) {
            val input = FileInputStream(path)
            if (input.read() < 0) break
        }
    }
}
