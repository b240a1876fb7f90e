package dev.typestar.agent;

import android.content.Context;
import android.content.ContextWrapper;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * A {@link Context} for classes that need one, in a process started by {@code app_process}, which
 * has no application: the system context of a fresh {@code ActivityThread}, as shell tools obtain
 * it, presented as the shell's package. Experiments pass it with the literal
 * {@code {"static": "dev.typestar.agent.AndroidContext", "field": "CONTEXT"}}.
 *
 * <p>Every hidden API the entry point uses is in this class, reached by reflection.
 */
public final class AndroidContext {
    /** The package the shell user (uid 2000) runs as, for permission checks. */
    static final String SHELL_PACKAGE = "com.android.shell";

    /** The context, or {@code null} if this device refused the hidden calls (see stderr). */
    public static volatile Context CONTEXT;

    private AndroidContext() {
    }

    /** Creates the context; must run on the main looper's thread after it is prepared. */
    static void install() {
        try {
            Class<?> activityThread = Class.forName("android.app.ActivityThread");
            Constructor<?> constructor = activityThread.getDeclaredConstructor();
            constructor.setAccessible(true);
            Object thread = constructor.newInstance();
            Field current = activityThread.getDeclaredField("sCurrentActivityThread");
            current.setAccessible(true);
            current.set(null, thread);
            Method systemContext = activityThread.getDeclaredMethod("getSystemContext");
            Context base = (Context) systemContext.invoke(thread);
            CONTEXT = new ContextWrapper(base) {
                @Override
                public String getPackageName() {
                    return SHELL_PACKAGE;
                }

                @Override
                public String getOpPackageName() {
                    return SHELL_PACKAGE;
                }
            };
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.err.println("typestar-agent: no Context on this device (" + e + "); classes that need one fail");
        }
    }
}
