package dev.typestar.harness.android;

import android.bluetooth.BluetoothAdapter;
import android.bluetooth.BluetoothDevice;
import android.bluetooth.BluetoothSocket;
import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.os.Build;
import android.os.SystemClock;
import dev.typestar.agent.Callbacks;
import java.io.IOException;
import java.util.UUID;

/**
 * DroidStar's BluetoothAdapter client (BluetoothAdapterLP) on the default adapter: its reset turns
 * the radio off and waits for it, within a bound; it reports the adapter's
 * {@code ACTION_STATE_CHANGED} to on or off as {@code onStateOn} and {@code onStateOff}, and
 * {@code ACTION_ACL_CONNECTED} as {@code onAclConnected}. {@link #connect()} is DroidStar's
 * {@code connect}: an RFCOMM socket to a paired peer, connected and closed. It finds the
 * channel through the Serial Port Profile's record (public API), where DroidStar called the
 * hidden {@code createRfcommSocket(3)} by reflection.
 */
public class BluetoothHarness {
    /** The Serial Port Profile's service UUID. */
    private static final UUID SERIAL_PORT =
            UUID.fromString("00001101-0000-1000-8000-00805F9B34FB");

    private final Callbacks.Reporter reporter = Callbacks.reporter();
    private final Context context;
    private final BluetoothAdapter adapter;
    private final String peer;
    private final BroadcastReceiver receiver =
            new BroadcastReceiver() {
                @Override
                public void onReceive(Context context, Intent intent) {
                    String action = intent.getAction();
                    if (BluetoothAdapter.ACTION_STATE_CHANGED.equals(action)) {
                        int state = intent.getIntExtra(BluetoothAdapter.EXTRA_STATE, -1);
                        if (state == BluetoothAdapter.STATE_ON) {
                            reporter.report("onStateOn");
                        } else if (state == BluetoothAdapter.STATE_OFF) {
                            reporter.report("onStateOff");
                        }
                    } else if (BluetoothDevice.ACTION_ACL_CONNECTED.equals(action)) {
                        reporter.report("onAclConnected");
                    }
                }
            };

    /**
     * DroidStar's reset, bounded: turns {@code adapter} off and waits at most {@code offMs} for it
     * (an error after that, where DroidStar waited forever), then listens; {@code peer} is the
     * address of a paired device for {@link #connect()}. {@code disable()} is deprecated since
     * API 33 (apps may no longer toggle the radio); it is DroidStar's input, and the shell's.
     */
    @SuppressWarnings("deprecation")
    public BluetoothHarness(Context context, BluetoothAdapter adapter, String peer, long offMs) {
        this.context = context;
        this.adapter = adapter;
        this.peer = peer;
        if (adapter.getState() != BluetoothAdapter.STATE_OFF && !adapter.disable()) {
            throw new IllegalStateException("the adapter refused to turn off");
        }
        long deadline = SystemClock.uptimeMillis() + offMs;
        while (adapter.getState() != BluetoothAdapter.STATE_OFF) {
            if (SystemClock.uptimeMillis() > deadline) {
                throw new IllegalStateException(
                        "the adapter is not off after " + offMs + " ms: state " + adapter.getState());
            }
            SystemClock.sleep(10);
        }
        IntentFilter filter = new IntentFilter(BluetoothAdapter.ACTION_STATE_CHANGED);
        filter.addAction(BluetoothDevice.ACTION_ACL_CONNECTED);
        if (Build.VERSION.SDK_INT >= 33) {
            context.registerReceiver(receiver, filter, Context.RECEIVER_EXPORTED);
        } else {
            context.registerReceiver(receiver, filter);
        }
    }

    /** Connects an RFCOMM socket to the peer and closes it; a failed connection throws. */
    public void connect() throws IOException {
        BluetoothDevice device = adapter.getRemoteDevice(peer);
        BluetoothSocket socket = device.createRfcommSocketToServiceRecord(SERIAL_PORT);
        try {
            adapter.cancelDiscovery();
            socket.connect();
        } finally {
            socket.close();
        }
    }

    /** Stops listening. */
    public void close() {
        context.unregisterReceiver(receiver);
    }
}
