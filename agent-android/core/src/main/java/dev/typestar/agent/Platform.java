package dev.typestar.agent;

import java.util.Map;

/**
 * What the agent runs on beyond the JVM, for the client's provenance: reported in {@code hello}
 * ({@code platform}) and in {@code describe} ({@code implementation}). The host JVM adds nothing;
 * the Robolectric entry point (agent-android/robolectric/) names the SDK level and the shadows
 * that stand in for a class.
 */
interface Platform {
    /** The host JVM: nothing beyond what {@code hello} already says. */
    Platform HOST = new Platform() {
        @Override
        public Map<String, Object> about() {
            return null;
        }

        @Override
        public Map<String, Object> implementation(Class<?> type) {
            return null;
        }
    };

    /** The {@code platform} object of {@code hello}, or {@code null} to leave it out. */
    Map<String, Object> about();

    /**
     * The name a step's {@code "platform"} is compared with (PROTOCOL.md §5.1): {@code about}'s
     * {@code name}, or {@code "jvm"} on the host JVM.
     */
    default String name() {
        Map<String, Object> about = about();
        return about == null ? "jvm" : String.valueOf(about.get("name"));
    }

    /** The {@code implementation} object of {@code describe} for {@code type}, or {@code null}. */
    Map<String, Object> implementation(Class<?> type);
}
