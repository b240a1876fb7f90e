//! `typestar devices`: the Android devices the adb servers see, with their model, API level
//! and whether a typestar agent runs there.
//! It also holds the adb options `typestar learn --backend android` shares with it.

use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use learner::backend::android::{
    self, AndroidConfig, DeviceDisagreement, DeviceInfo, DeviceUse, Recheck,
};

use super::failure::Failure;

/// Where to find adb servers.
#[derive(Args, Debug, Default)]
pub struct AdbArgs {
    /// An adb server to find devices on, `host:port` (repeatable; default 127.0.0.1 at
    /// $ANDROID_ADB_SERVER_PORT, else 5037). A device farm's adb server works the same way.
    #[arg(long = "adb-server", value_name = "HOST:PORT")]
    pub servers: Vec<String>,
    /// The adb program that starts the local adb server when none runs (default adb).
    #[arg(long = "adb", value_name = "PROGRAM")]
    pub program: Option<String>,
}

impl AdbArgs {
    /// The backend's configuration for these servers.
    pub fn config(&self) -> AndroidConfig {
        let servers = if self.servers.is_empty() {
            vec![android::default_server()]
        } else {
            self.servers.clone()
        };
        AndroidConfig {
            servers,
            adb_program: self.program.clone().unwrap_or_else(|| "adb".to_owned()),
            ..AndroidConfig::default()
        }
    }
}

/// Arguments of `typestar devices`.
#[derive(Args, Debug)]
pub struct DevicesArgs {
    #[command(flatten)]
    adb: AdbArgs,
}

/// Lists the devices as a table on standard output.
pub fn run(args: DevicesArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let devices = runtime
        .block_on(android::list_devices(&args.adb.config()))
        .context(Failure::ListDevices)?;
    super::emit(format_args!("{}", table(&devices)));
    Ok(ExitCode::SUCCESS)
}

/// The devices as a Markdown table.
fn table(devices: &[DeviceInfo]) -> String {
    if devices.is_empty() {
        return "no devices\n".to_owned();
    }
    let mut text = "| serial | adb server | state | model | API | agent |\n\
                    | --- | --- | --- | --- | --- | --- |\n"
        .to_owned();
    for device in devices {
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            device.serial,
            device.server,
            device.state,
            device.model,
            device.api.map_or("-".to_owned(), |it| it.to_string()),
            if device.agent_running { "running" } else { "-" },
        ));
    }
    text
}

/// What each device did in a learning run, and where devices disagreed, for the report.
pub fn describe_run(uses: &[DeviceUse], disagreements: &[DeviceDisagreement]) -> String {
    let mut text = "\nDevices (runs each served):\n".to_owned();
    for device in uses {
        text.push_str(&format!(
            "- {} ({}): {} runs{}\n",
            device.serial,
            device.server,
            device.runs,
            if device.gone { ", gone at the end" } else { "" }
        ));
    }
    text.push_str(&format!(
        "Devices that answered the same inputs differently (non-determinism across devices, \
         never merged): {}\n",
        disagreements.len()
    ));
    for disagreement in disagreements {
        let (first, first_outputs) = &disagreement.first;
        let (second, second_outputs) = &disagreement.second;
        text.push_str(&format!(
            "- {}: {first} answered {}, {second} answered {}{}\n",
            disagreement.inputs.join(" "),
            first_outputs.join(" "),
            second_outputs.join(" "),
            describe_recheck(&disagreement.again)
        ));
    }
    text
}

/// What running a disagreement once more on both devices showed, for its report line.
fn describe_recheck(again: &Recheck) -> String {
    match again {
        Recheck::NotRun => String::new(),
        Recheck::Reproduced => {
            "; run once more, each device answered as before: the devices differ".to_owned()
        }
        Recheck::OneOff { again } => {
            let answers: Vec<String> = again
                .iter()
                .map(|(serial, outputs)| format!("{serial} answered {}", outputs.join(" ")))
                .collect();
            format!("; run once more, {}: a one-off", answers.join(", "))
        }
        Recheck::Unreachable(why) => format!("; not run again: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn used(serial: &str, runs: u64, gone: bool) -> DeviceUse {
        DeviceUse {
            serial: serial.to_owned(),
            server: "farm:5037".to_owned(),
            runs,
            gone,
        }
    }

    #[test]
    fn the_report_names_both_devices_and_traces_of_a_disagreement() {
        let disagreement = DeviceDisagreement {
            inputs: vec!["prepare".to_owned(), "start".to_owned()],
            first: ("A".to_owned(), vec!["eps".to_owned(), "eps".to_owned()]),
            second: ("B".to_owned(), vec!["eps".to_owned(), "err".to_owned()]),
            again: Recheck::Reproduced,
        };
        let text = describe_run(&[used("A", 12, false), used("B", 7, true)], &[disagreement]);
        assert_eq!(
            text,
            "\nDevices (runs each served):\n\
             - A (farm:5037): 12 runs\n\
             - B (farm:5037): 7 runs, gone at the end\n\
             Devices that answered the same inputs differently (non-determinism across \
             devices, never merged): 1\n\
             - prepare start: A answered eps eps, B answered eps err; run once more, each \
             device answered as before: the devices differ\n"
        );
    }
}
