//! The experiments of the classes that behave truly only on devices, through the Android
//! backend end to end against a fake adb server: MediaPlayer, MediaRecorder, MediaCodec,
//! BluetoothAdapter, DownloadManager, FileObserver and MediaScannerConnection of DroidStar's
//! Table 1, and Camera and AudioRecord.
//! Each is learned on two fake devices whose `app_process` runs the agent inside Robolectric:
//! the experiment as shipped, the agent pushed and started with its token on stdin, forwarded,
//! the fixtures served over `adb reverse`, one worker per device sharing the queries.
//! The machine learned is Robolectric's simulation, pinned in `tests/robolectric/`; those of the
//! Table 1 classes are the files the Robolectric backend's own tests pin, so both paths agree.
//! What this cannot check (a device's native code, and the experiments' `platform = "android"`
//! steps, which an agent inside Robolectric leaves out) is listed in `learner/ANDROID.md`.
//! Slow tiers `device-fake` and `robolectric`: each fake device runs a Robolectric JVM.

mod adb_support;
mod robolectric_support;

/// For `robolectric_support`, which reads it from the crate root.
use adb_support::jvm_support;

use adb_support::{config, experiment, robolectric_agent, scratch, server_running};
use learner::backend::android::learn_on_devices;
use learner::{Details, End, NoProgress};
use robolectric_support::assert_machine;
use test_tiers::Tier;

/// Each experiment, with the golden of the machine it learns inside Robolectric.
const CASES: &[(&str, &str)] = &[
    ("android.media.MediaPlayer.toml", "MediaPlayer-shadow"),
    ("android.media.MediaRecorder.toml", "MediaRecorder-shadow"),
    ("android.media.MediaCodec.toml", "MediaCodec-shadow"),
    (
        "android.bluetooth.BluetoothAdapter.toml",
        "BluetoothAdapter-shadow",
    ),
    ("android.app.DownloadManager.toml", "DownloadManager-shadow"),
    ("android.os.FileObserver.toml", "FileObserver-shadow"),
    (
        "android.media.MediaScannerConnection.toml",
        "MediaScannerConnection-shadow",
    ),
    ("android.hardware.Camera.toml", "Camera-shadow"),
    ("android.media.AudioRecord.toml", "AudioRecord-shadow"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tiers robolectric and device-fake: TYPESTAR_SLOW=robolectric,device-fake cargo test -- --include-ignored"]
async fn device_only_classes_learn_on_fake_devices() {
    if !test_tiers::runs(Tier::DeviceFake) || !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let robolectric = robolectric_support::config();
    let agent = robolectric_agent(
        robolectric
            .agent_command(&[])
            .unwrap_or_else(|error| panic!("{error}")),
    );
    let dir = scratch("device_only");
    let serials = ["phone-1", "phone-2"];
    let adb = server_running(&dir, &serials, 34, &agent);
    let mut config = config(&[&adb]);
    // Each fake device starts a Robolectric sandbox: tens of seconds on a busy machine.
    config.start_ms = 900_000;
    config.jvm = robolectric.jvm.clone();
    for (file, golden) in CASES {
        let run = learn_on_devices(experiment(file), &config, &mut NoProgress)
            .await
            .unwrap_or_else(|error| panic!("{file}: {error}"));
        assert!(
            matches!(run.outcome.end, End::Learned),
            "{file}: learning did not finish: {:?}",
            run.outcome.end
        );
        let Details::Devices {
            uses,
            disagreements,
        } = &run.details
        else {
            panic!("{file}: not a run on devices: {:?}", run.details)
        };
        assert!(disagreements.is_empty(), "{file}: {disagreements:?}");
        for serial in serials {
            let served = uses.iter().find(|it| it.serial == serial);
            assert!(
                served.is_some_and(|it| it.runs > 0),
                "{file}: {serial} ran nothing: {uses:?}"
            );
        }
        let learned = run.typestate.as_ref().expect("a typestate");
        let platform = learned.provenance.platform.clone().unwrap_or_default();
        assert!(platform.contains("phone-1"), "{file}: {platform}");
        assert_machine(learned, &format!("{golden}.typestate-body"));
    }
    // MediaPlayer's medium came from the host, over a reverse set on each device.
    let requests = adb.requests();
    for serial in serials {
        assert!(
            requests
                .iter()
                .any(|it| it.starts_with(&format!("{serial}|"))
                    && it.contains("reverse:forward:tcp:18096;tcp:")),
            "{serial}: {requests:?}"
        );
    }
}
