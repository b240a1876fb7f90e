package dev.typestar.harness.android;

import android.app.DownloadManager;
import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.net.Uri;
import android.os.Build;
import dev.typestar.agent.Callbacks;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * DroidStar's DownloadManager client (DownloadManagerLP): enqueues downloads on the system's
 * {@link DownloadManager}, removes the oldest one still enqueued, and reports
 * {@code ACTION_DOWNLOAD_COMPLETE} as {@code onCompleted}. Unlike DroidStar's, it reports only
 * the downloads it enqueued itself, and {@link #close()} removes those still pending and
 * unregisters its receiver, so no download of an earlier query completes into a later one.
 */
public class DownloadHarness {
    private final Callbacks.Reporter reporter = Callbacks.reporter();
    private final Context context;
    private final DownloadManager manager;
    private final ArrayDeque<Long> queued = new ArrayDeque<>();
    private final Set<Long> mine = new HashSet<>();
    private final BroadcastReceiver receiver =
            new BroadcastReceiver() {
                @Override
                public void onReceive(Context context, Intent intent) {
                    long id = intent.getLongExtra(DownloadManager.EXTRA_DOWNLOAD_ID, -1);
                    if (mine.contains(id)) {
                        reporter.report("onCompleted");
                    }
                }
            };

    /** A client of the context's download manager, listening for completed downloads. */
    public DownloadHarness(Context context) {
        this.context = context;
        manager = context.getSystemService(DownloadManager.class);
        if (manager == null) {
            throw new IllegalStateException("no download manager on this system");
        }
        IntentFilter filter = new IntentFilter(DownloadManager.ACTION_DOWNLOAD_COMPLETE);
        if (Build.VERSION.SDK_INT >= 33) {
            context.registerReceiver(receiver, filter, Context.RECEIVER_EXPORTED);
        } else {
            context.registerReceiver(receiver, filter);
        }
    }

    /** DroidStar's {@code enque_valid} and {@code enque_unavailable}: a download of {@code url}. */
    public long enqueue(String url) {
        long id = manager.enqueue(new DownloadManager.Request(Uri.parse(url)));
        queued.add(id);
        mine.add(id);
        return id;
    }

    /** DroidStar's {@code remove}: the oldest download still enqueued; none is an error. */
    public int remove() {
        Long id = queued.poll();
        if (id == null) {
            throw new IllegalStateException("no download enqueued");
        }
        return manager.remove(id);
    }

    /** Removes the downloads still enqueued and stops listening. */
    public void close() {
        while (!queued.isEmpty()) {
            manager.remove(queued.poll());
        }
        context.unregisterReceiver(receiver);
    }
}
