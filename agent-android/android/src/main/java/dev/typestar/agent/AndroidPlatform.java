package dev.typestar.agent;

import android.os.Build;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The device the agent runs on, for the client's provenance and for {@code typestar devices}:
 * {@code {"name":"android","sdk":34,"release":"14","model":"Pixel 7","device":"panther"}}. The
 * class under study is the device's own code, so {@code describe} adds nothing.
 */
final class AndroidPlatform implements Platform {
    @Override
    public Map<String, Object> about() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "android");
        m.put("sdk", (long) Build.VERSION.SDK_INT);
        m.put("release", Build.VERSION.RELEASE);
        m.put("model", Build.MODEL);
        m.put("device", Build.DEVICE);
        return m;
    }

    @Override
    public Map<String, Object> implementation(Class<?> type) {
        return null;
    }

    /** One line for {@code --version}. */
    static String describeDevice() {
        return "Android " + Build.VERSION.RELEASE + " (API " + Build.VERSION.SDK_INT + ", " + Build.MODEL + ")";
    }
}
