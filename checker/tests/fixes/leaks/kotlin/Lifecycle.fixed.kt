import android.app.Activity
import android.hardware.Camera

// Each class is one case; Lifecycle.fixed.kt is this file with every offered fix applied.

// Offered: onPause is overridden, and the release goes at its end (a safe call: the
// property may be null).
class PausingActivity : Activity() {
    private var camera: Camera? = null

    override fun onResume() {
        super.onResume()
        camera = Camera.open()
    }

    override fun onPause() {
        super.onPause()
        camera?.release()
    }
}

// Offered: onPause is not overridden, so it is added.
class ResumingActivity : Activity() {
    private lateinit var camera: Camera

    override fun onResume() {
        super.onResume()
        camera = Camera.open()
    }

    override fun onPause() {
        super.onPause()
        camera.release()
    }
}

// Not offered: onDestroy releases it already, so where to release it is a choice.
class DestroyingActivity : Activity() {
    private var camera: Camera? = null

    override fun onResume() {
        super.onResume()
        camera = Camera.open()
    }

    override fun onDestroy() {
        camera?.release()
        super.onDestroy()
    }
}
