import android.app.Activity;
import android.hardware.Camera;

// Each class is one case; Lifecycle.fixed.java is this file with every offered fix applied.

// Offered: onPause is overridden, and the release goes at its end.
class PausingActivity extends Activity {
    private Camera camera;

    @Override
    protected void onResume() {
        super.onResume();
        camera = Camera.open();
    }

    @Override
    protected void onPause() {
        super.onPause();
        if (camera != null) {
            camera.release();
        }
    }
}

// Offered: onPause is not overridden, so it is added.
class ResumingActivity extends Activity {
    private Camera camera;

    @Override
    protected void onResume() {
        super.onResume();
        camera = Camera.open();
    }

    @Override
    public void onPause() {
        super.onPause();
        if (camera != null) {
            camera.release();
        }
    }
}

// Not offered: onDestroy releases it already, so where to release it is a choice.
class DestroyingActivity extends Activity {
    private Camera camera;

    @Override
    protected void onResume() {
        super.onResume();
        camera = Camera.open();
    }

    @Override
    protected void onDestroy() {
        camera.release();
        super.onDestroy();
    }
}

// Offered in onDestroy only: the camera is used after onPause without being opened again,
// so a release in onPause would make that use fail (the check of the fixed text sees it).
class ReusingActivity extends Activity {
    private Camera camera;

    @Override
    protected void onCreate(android.os.Bundle state) {
        super.onCreate(state);
        camera = Camera.open();
    }

    @Override
    protected void onResume() {
        super.onResume();
        camera.startPreview();
    }

    @Override
    public void onDestroy() {
        super.onDestroy();
        if (camera != null) {
            camera.release();
        }
    }
}
