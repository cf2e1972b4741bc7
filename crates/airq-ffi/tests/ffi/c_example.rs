//! `examples/c/driver.c` compiled with the system's C compiler (`$CC`, else `cc`)
//! against the static library cargo built for this test, run, and its output checked;
//! then run under valgrind and built with AddressSanitizer and UBSan, when those exist.
//! Without a C compiler (or valgrind, or the sanitizers' runtimes) each part is skipped
//! with a message, unless `AIRQ_REQUIRE_C_TOOLS` is set, as CI sets it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn require_tools() -> bool {
    std::env::var_os("AIRQ_REQUIRE_C_TOOLS").is_some()
}

/// Skips (returns false) or fails, as `require_tools` says.
fn tool_missing(what: &str) -> bool {
    assert!(
        !require_tools(),
        "{what}, and AIRQ_REQUIRE_C_TOOLS is set (install gcc and valgrind)"
    );
    eprintln!("skipped: {what}");
    false
}

fn compiler() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".to_string())
}

fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The static library cargo built for this test: in the test's own `deps` folder (where
/// `cargo test` leaves it), or beside it (where `cargo build` puts it).
fn static_lib() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let deps = exe.parent().expect("target/<profile>/deps/<test>");
    let candidates = [
        deps.join("libairq_ffi.a"),
        deps.parent()
            .map_or_else(PathBuf::new, |p| p.join("libairq_ffi.a")),
    ];
    let lib = candidates.iter().find(|p| p.exists());
    assert!(
        lib.is_some(),
        "libairq_ffi.a was not built: looked at {candidates:?}"
    );
    lib.expect("checked").clone()
}

/// Compiles the example with `extra` flags into `name`; `None` if the compiler refused
/// the flags (a missing sanitizer runtime), with its message.
fn compile(name: &str, extra: &[&str]) -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let output = Command::new(compiler())
        .args(["-std=c11", "-O1", "-g", "-Wall", "-Wextra", "-Werror"])
        .args(extra)
        .arg("-I")
        .arg(root.join("include"))
        .arg(root.join("../../examples/c/driver.c"))
        .arg(static_lib())
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&out)
        .output()
        .expect("run the C compiler");
    if output.status.success() {
        Ok(out)
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

fn stdout_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_ran(what: &str, output: &Output) -> String {
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}\n{}",
        output.status,
        stdout_of(output),
        String::from_utf8_lossy(&output.stderr)
    );
    stdout_of(output)
}

/// What the example must print: fair airtime, every packet back, the printers' text,
/// the error paths refused with their messages.
fn check_output(out: &str) {
    let shares: Vec<f64> = out
        .lines()
        .filter(|l| l.starts_with("airtime share station"))
        .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(shares.len(), 3, "{out}");
    for share in shares {
        assert!(
            (0.25..=0.42).contains(&share),
            "airtime share {share}:\n{out}"
        );
    }
    let packets = out
        .lines()
        .find(|l| l.starts_with("packets: "))
        .expect("the packet summary");
    assert!(packets.ends_with(" 0 leaked"), "{packets}");
    let dropped: u64 = packets
        .split(", ")
        .nth(2)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(dropped > 0, "the example exercises drops: {packets}");
    assert!(
        out.contains(&format!("refused as busy: {dropped}\n")),
        "every call from the drop callback refused:\n{out}"
    );
    for expected in [
        "R fq_flows_cnt 4096",
        "AC     AQL pending\nVO     0 us",
        "\ttx duration:\t",
        "Q limit[low/high]: VO: 5000/12000",
        "Weight: 256",
        "enqueue to tin 999: unknown tin: tin 999 does not exist",
        "enqueue to a null handle: null pointer: airq_fq is null",
        "TXQ for TID 16: invalid argument: tid must be 0-15, got 16",
        "fq passed as AQL: invalid handle",
        "freeing AQL twice: invalid handle: ",
    ] {
        assert!(out.contains(expected), "no {expected:?} in:\n{out}");
    }
}

#[test]
fn c_example_runs_clean_plain_under_valgrind_and_with_sanitizers() {
    if !runs(&compiler()) {
        tool_missing(&format!("no C compiler ({} --version failed)", compiler()));
        return;
    }
    let driver = compile("driver", &[]).unwrap_or_else(|e| panic!("driver.c: {e}"));
    let out = assert_ran("driver", &Command::new(&driver).output().unwrap());
    check_output(&out);

    if runs("valgrind") {
        let output = Command::new("valgrind")
            .args([
                "--quiet",
                "--error-exitcode=1",
                "--leak-check=full",
                "--errors-for-leak-kinds=definite,indirect,possible",
            ])
            .arg(&driver)
            .output()
            .unwrap();
        check_output(&assert_ran("driver under valgrind", &output));
    } else {
        tool_missing("no valgrind");
    }

    let sanitizers = [
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=undefined",
        "-fno-omit-frame-pointer",
    ];
    match compile("driver-asan", &sanitizers) {
        Ok(asan) => {
            let output = Command::new(&asan)
                .env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
                .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
                .output()
                .unwrap();
            check_output(&assert_ran("driver with ASan and UBSan", &output));
        }
        Err(e) => {
            tool_missing(&format!("the compiler cannot build with sanitizers: {e}"));
        }
    }
}
