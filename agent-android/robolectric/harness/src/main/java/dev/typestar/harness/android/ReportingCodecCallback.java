package dev.typestar.harness.android;

import android.media.MediaCodec;
import android.media.MediaFormat;
import dev.typestar.agent.Callbacks;

/**
 * A {@link MediaCodec.Callback} for a codec in asynchronous mode (an abstract class, which a
 * listener proxy cannot implement): reports {@code onInputBufferAvailable},
 * {@code onOutputBufferAvailable} and {@code onError} as harness callbacks. It keeps the last
 * input buffer the codec handed out, for {@link #queueEos(MediaCodec)}, and gives every output
 * buffer back at once, as an app that drains its codec does.
 */
public class ReportingCodecCallback extends MediaCodec.Callback {
    private final Callbacks.Reporter reporter = Callbacks.reporter();
    /** The input buffer handed out last and not queued yet, or -1. */
    private int input = -1;

    /**
     * Queues the handed-out input buffer, empty, with the end-of-stream flag: the reference's
     * {@code queueInputBuffer(index, 0, 0, 0, BUFFER_FLAG_END_OF_STREAM)}. With no buffer handed
     * out it passes -1, which the codec refuses.
     */
    public void queueEos(MediaCodec codec) {
        int index = input;
        input = -1;
        codec.queueInputBuffer(index, 0, 0, 0, MediaCodec.BUFFER_FLAG_END_OF_STREAM);
    }

    @Override
    public void onInputBufferAvailable(MediaCodec codec, int index) {
        input = index;
        reporter.report("onInputBufferAvailable");
    }

    @Override
    public void onOutputBufferAvailable(MediaCodec codec, int index, MediaCodec.BufferInfo info) {
        codec.releaseOutputBuffer(index, false);
        reporter.report("onOutputBufferAvailable");
    }

    @Override
    public void onError(MediaCodec codec, MediaCodec.CodecException e) {
        reporter.report("onError");
    }

    @Override
    public void onOutputFormatChanged(MediaCodec codec, MediaFormat format) {
    }
}
