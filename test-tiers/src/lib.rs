//! The named slow tiers of the test suites, and the one switch that runs them.
//!
//! A slow test is marked `#[ignore = "slow tier jvm: …"]`, so `cargo test` counts it as ignored.
//! It starts with `if !test_tiers::runs(Tier::Jvm) { return; }`, for runs that pass `--include-ignored`.
//! Then it is skipped outside CI unless `TYPESTAR_SLOW` asks for its tier.
//! A skip prints a `SKIPPED` line on the terminal, past the test harness's capture.
//! `TYPESTAR_SLOW=jvm cargo test -- --include-ignored` runs the `jvm` tier.
//! Opt-in tests (a device, Debian's `adb`) are named `opt_in_*`; CI passes `--skip opt_in_`.
//! `TYPESTAR_SLOW=1` (or `all`) runs every tier; `TYPESTAR_SLOW=jvm,robolectric` runs those two.
//! `TYPESTAR_SLOW=0` runs none, even in CI.
//! Without `TYPESTAR_SLOW`, a set `CI` variable runs every tier, as `.ci/run` and `.ci/test.sh` do.
//! A test whose tier runs needs its tools: [`require_tool`] fails it when one is missing.
//! [`memory`] measures the peak memory of a piece of work in a child process, for growth tests.

pub mod memory;

use std::io::Write;
use std::process::{Command, Stdio};

/// A group of slow tests, named by what makes them slow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// Learning on the host JVM: compiles and starts the Java agent, waits in real time.
    Jvm,
    /// Learning inside Robolectric: a sandbox per JVM and about 460 MB of Maven artifacts.
    Robolectric,
    /// The Android backend against fake adb servers whose devices run the host JVM agent.
    DeviceFake,
    /// Hostile input to the checker and the CLI: random bytes, deep nesting, huge files.
    Robustness,
    /// The incremental checker against a check from scratch after many random edits.
    RandomEdits,
    /// L#'s heuristics on the larger seeded random machines.
    RandomMachines,
    /// A real editor (headless Neovim) talking to `typestar lsp`.
    Editor,
}

impl Tier {
    /// Every tier, in the order the docs list them.
    pub const ALL: [Tier; 7] = [
        Tier::Jvm,
        Tier::Robolectric,
        Tier::DeviceFake,
        Tier::Robustness,
        Tier::RandomEdits,
        Tier::RandomMachines,
        Tier::Editor,
    ];

    /// The tier's name in `TYPESTAR_SLOW`.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Jvm => "jvm",
            Tier::Robolectric => "robolectric",
            Tier::DeviceFake => "device-fake",
            Tier::Robustness => "robustness",
            Tier::RandomEdits => "random-edits",
            Tier::RandomMachines => "random-machines",
            Tier::Editor => "editor",
        }
    }
}

/// Which tiers run, from the values of `TYPESTAR_SLOW` and `CI`.
/// An unknown tier name is an error that lists the known ones.
pub fn asked_tiers(slow: Option<&str>, ci: Option<&str>) -> Result<Vec<Tier>, String> {
    let slow = slow.map(str::trim).filter(|value| !value.is_empty());
    let Some(slow) = slow else {
        let in_ci = ci.is_some_and(|value| !value.is_empty());
        return Ok(if in_ci {
            Tier::ALL.to_vec()
        } else {
            Vec::new()
        });
    };
    match slow {
        "0" => return Ok(Vec::new()),
        "1" | "all" => return Ok(Tier::ALL.to_vec()),
        _ => {}
    }
    slow.split(',')
        .map(str::trim)
        .map(|name| {
            Tier::ALL
                .into_iter()
                .find(|tier| tier.name() == name)
                .ok_or_else(|| {
                    let known: Vec<&str> = Tier::ALL.iter().map(|tier| tier.name()).collect();
                    format!(
                        "TYPESTAR_SLOW names no tier `{name}`: write 1, all, 0, or some of {}",
                        known.join(", ")
                    )
                })
        })
        .collect()
}

/// Whether the tests of `tier` run in this process.
/// Panics on an unknown tier name in `TYPESTAR_SLOW`, naming the known ones.
pub fn asked(tier: Tier) -> bool {
    let slow = std::env::var("TYPESTAR_SLOW").ok();
    let ci = std::env::var("CI").ok();
    match asked_tiers(slow.as_deref(), ci.as_deref()) {
        Ok(tiers) => tiers.contains(&tier),
        Err(message) => panic!("{message}"),
    }
}

/// Whether the calling test runs; when its tier is not asked for, prints why it is skipped.
/// The line goes to the terminal directly, so the test harness does not capture it.
pub fn runs(tier: Tier) -> bool {
    let runs = asked(tier);
    if !runs {
        let current = std::thread::current();
        let test = current.name().unwrap_or("a slow test");
        let name = tier.name();
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: slow tier `{name}` (TYPESTAR_SLOW={name} or TYPESTAR_SLOW=1, with -- --include-ignored, runs it)"
        );
    }
    runs
}

/// Fails the calling test when `tool` does not start with `--version`.
/// `install` says how to get it.
pub fn require_tool(tool: &str, install: &str) {
    let started = Command::new(tool)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if let Err(error) = started {
        panic!("`{tool}` does not start ({error}): {install}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_switch_reads_names_numbers_and_ci() {
        assert_eq!(asked_tiers(None, None), Ok(vec![]));
        assert_eq!(asked_tiers(None, Some("")), Ok(vec![]));
        assert_eq!(asked_tiers(None, Some("true")), Ok(Tier::ALL.to_vec()));
        assert_eq!(asked_tiers(Some("0"), Some("true")), Ok(vec![]));
        assert_eq!(asked_tiers(Some("1"), None), Ok(Tier::ALL.to_vec()));
        assert_eq!(asked_tiers(Some("all"), None), Ok(Tier::ALL.to_vec()));
        assert_eq!(
            asked_tiers(Some("jvm, robolectric"), None),
            Ok(vec![Tier::Jvm, Tier::Robolectric])
        );
        assert_eq!(
            asked_tiers(Some("jvm,nvim"), None),
            Err(
                "TYPESTAR_SLOW names no tier `nvim`: write 1, all, 0, or some of \
                 jvm, robolectric, device-fake, robustness, random-edits, random-machines, editor"
                    .to_string()
            )
        );
    }

    #[test]
    #[should_panic(expected = "`typestar-no-such-tool` does not start")]
    fn a_missing_tool_fails_the_test() {
        require_tool("typestar-no-such-tool", "install it");
    }
}
