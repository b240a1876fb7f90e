package dev.typestar.harness.android;

import android.content.Context;
import android.os.FileObserver;
import dev.typestar.agent.Callbacks;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.reflect.Field;

/**
 * DroidStar's FileObserver object (FileObserverLP): an observer of all events on the file
 * {@code file-observer-testfile} in the context's files folder, which exists and is not watched
 * yet. {@link #modify()} and {@link #delete()} are DroidStar's environment inputs. It reports
 * {@code MODIFY} as {@code onModify} and the file's deletion as {@code onDelete}: a device reports
 * it as {@code DELETE_SELF}; Robolectric's shadow watches the folder and reports {@code DELETE}
 * with the file's name.
 */
public class ReportingFileObserver extends FileObserver {
    private static final String NAME = "file-observer-testfile";

    private final Callbacks.Reporter reporter = Callbacks.reporter();
    private final File file;

    /** DroidStar's reset: the file deleted and made again, and a new observer not started. */
    public ReportingFileObserver(Context context) throws IOException {
        this(new File(context.getFilesDir(), NAME));
    }

    /** FileObserver(File, int) is API 29; the deprecated path form runs on API 26 too. */
    @SuppressWarnings("deprecation")
    private ReportingFileObserver(File file) throws IOException {
        super(prepared(file).getPath(), ALL_EVENTS);
        this.file = file;
    }

    private static File prepared(File file) throws IOException {
        File parent = file.getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs()) {
            throw new IOException("cannot create " + parent);
        }
        if (file.exists() && !file.delete()) {
            throw new IOException("cannot delete " + file);
        }
        write(file);
        return file;
    }

    /**
     * Writes "hi" over the file's start, creating it if it is gone. One write and no truncation,
     * so one {@code MODIFY}; DroidStar's overwrite truncated first and saw two.
     */
    public void modify() throws IOException {
        write(file);
    }

    /** Deletes the file; deleting a file that is gone does nothing, as in DroidStar. */
    public void delete() {
        file.delete();
    }

    /**
     * Stops watching for good. Inside Robolectric it also closes the shadow's {@code WatchService},
     * which ShadowFileObserver opens per observer and never closes: each holds an inotify
     * instance, and Linux allows 128 per user. A device has no such field, and nothing to close.
     */
    public void close() throws IOException {
        stopWatching();
        try {
            Field data = FileObserver.class.getDeclaredField("__robo_data__");
            data.setAccessible(true);
            Object shadow = data.get(this);
            Field service = shadow.getClass().getDeclaredField("watchService");
            service.setAccessible(true);
            ((Closeable) service.get(shadow)).close();
        } catch (NoSuchFieldException notRobolectric) {
            // A device's FileObserver shares one inotify instance per process.
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot close the simulated WatchService", e);
        }
    }

    private static void write(File file) throws IOException {
        try (RandomAccessFile out = new RandomAccessFile(file, "rw")) {
            out.write(new byte[] {'h', 'i'});
        }
    }

    @Override
    public void onEvent(int event, String path) {
        int kind = event & ALL_EVENTS;
        if (kind == MODIFY) {
            reporter.report("onModify");
        } else if (kind == DELETE_SELF || (kind == DELETE && file.getName().equals(path))) {
            reporter.report("onDelete");
        }
    }
}
