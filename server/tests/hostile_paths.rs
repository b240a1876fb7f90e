//! `typestar` on what a user's tree may hold: symbolic link loops, FIFOs, sockets, devices,
//! huge files, files nested too deeply to check fully, and a reader that closes the pipe.
//! Each case builds its tree in a fresh temporary folder.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const A_JAVA: &str = "import android.media.MediaPlayer;\nclass A { void f() { MediaPlayer p = new MediaPlayer(); p.release(); p.start(); } }\n";

/// A fresh empty folder for one case.
fn scratch(case: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("typestar-hostile-{}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir
}

/// Runs `typestar` in `dir` with `args`, giving up after 60 s (a hang fails the test).
fn typestar(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_typestar"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("typestar runs");
    for _ in 0..600 {
        if child.try_wait().expect("waits").is_some() {
            return child.wait_with_output().expect("output");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("typestar {args:?} did not end within 60 s");
}

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(made.success());
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Checks `output`'s stdout against the golden `tests/hostile/NAME.out` (`UPDATE_EXPECT=1`
/// rewrites it).
fn golden(name: &str, output: &Output) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/hostile/{name}.out"));
    expect_test::expect_file![file].assert_eq(&stdout(output));
}

#[test]
fn symlink_loops_are_walked_once() {
    let dir = scratch("loops");
    std::fs::write(dir.join("A.java"), A_JAVA).expect("write");
    symlink(".", dir.join("a")).expect("link");
    symlink(".", dir.join("b")).expect("link");
    std::fs::create_dir(dir.join("sub")).expect("mkdir");
    symlink("..", dir.join("sub/up")).expect("link");
    let output = typestar(&dir, &["check", "."]);
    assert!(
        stdout(&output).contains("1 file(s) checked: 1 finding(s)"),
        "{}",
        stdout(&output)
    );
    // The same in the library folder: each file read once, no duplicate class.
    let ts = dir.join(".typestar");
    std::fs::create_dir(&ts).expect("mkdir");
    std::fs::write(
        ts.join("minimal.typestate"),
        "typestate com.example.Nothing\nstate S initial\n",
    )
    .expect("write");
    symlink(".", ts.join("a")).expect("link");
    symlink(".", ts.join("b")).expect("link");
    let output = typestar(&dir, &["check", "A.java"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn special_files_are_refused_by_name_without_blocking() {
    let dir = scratch("special");
    std::fs::write(dir.join("A.java"), A_JAVA).expect("write");
    mkfifo(&dir.join("F.java"));
    let _socket = std::os::unix::net::UnixListener::bind(dir.join("S.kt")).expect("socket");
    symlink("/dev/zero", dir.join("Z.java")).expect("link");
    for (name, args) in [
        ("special-files-walked", &["check", "."][..]),
        (
            "special-files-named",
            &["check", "F.java", "Z.java", "A.java"],
        ),
    ] {
        let output = typestar(&dir, args);
        assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
        golden(name, &output);
    }
    // A FIFO in the library folder is refused by name too.
    std::fs::create_dir(dir.join(".typestar")).expect("mkdir");
    mkfifo(&dir.join(".typestar/X.typestate"));
    let output = typestar(&dir, &["check", "A.java"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("X.typestate: not a regular file"));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn huge_files_are_refused_before_reading() {
    let dir = scratch("huge");
    std::fs::write(dir.join("A.java"), A_JAVA).expect("write");
    // Sparse: no disk space, but reading it whole would take a gibibyte of memory.
    let big = std::fs::File::create(dir.join("Big.java")).expect("create");
    big.set_len(1 << 30).expect("sparse file");
    let output = typestar(&dir, &["check", "."]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    golden("huge-file", &output);
    let big = std::fs::File::create(dir.join("big.typestate")).expect("create");
    big.set_len(1 << 30).expect("sparse file");
    let output = typestar(&dir, &["show", "big.typestate"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("larger than the limit"));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Files nested past the checker's limits are reported by name and place, the other files
/// are still checked, and the exit status says that something was not checked fully.
#[test]
fn files_not_checked_fully_are_errors() {
    let dir = scratch("deep");
    std::fs::write(dir.join("A.java"), A_JAVA).expect("write");
    let nested = format!(
        "import android.media.MediaPlayer;\n{}{}\n",
        "class N { ".repeat(1_000),
        "}".repeat(1_000)
    );
    std::fs::write(dir.join("Nested.java"), nested).expect("write");
    let templates = format!(
        "import android.media.MediaPlayer\nval s = {}\"\n",
        "\"${".repeat(600)
    );
    std::fs::write(dir.join("Templates.kt"), templates).expect("write");
    let output = typestar(&dir, &["check", "."]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    golden("nested-too-deep", &output);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_typestar"))
        .arg("library")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("typestar runs");
    // The reader is gone before `typestar` has loaded the library: its first write meets a
    // closed pipe, as under `typestar library | head -n 0`.
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("ends");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(output.status.code(), Some(0));
}
