//! `examples/c/driver.c` and `examples/c/groups.c` compiled with the system's C compiler
//! (`$CC`, else `cc`) against the static library cargo built for this test, run, and
//! their output checked; then run under valgrind and built with AddressSanitizer and
//! UBSan, when those exist.
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

/// Compiles `examples/c/<source>` with `extra` flags into `name`; `None` if the
/// compiler refused the flags (a missing sanitizer runtime), with its message.
fn compile(source: &str, name: &str, extra: &[&str]) -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let output = Command::new(compiler())
        .args(["-std=c11", "-O1", "-g", "-Wall", "-Wextra", "-Werror"])
        .args(extra)
        .arg("-I")
        .arg(root.join("include"))
        .arg(root.join("../../examples/c").join(source))
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
    runs_clean("driver.c", "driver", check_output);
}

/// What `groups.c` must print: the guest network's shares, every error code with its
/// message, the teardown.
fn check_groups(out: &str) {
    let shares = |prefix: &str| -> Vec<f64> {
        let line = out
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in:\n{out}"));
        // The shares: the words with a decimal point.
        line.split(' ')
            .filter(|w| w.contains('.'))
            .map(|w| w.trim_end_matches(',').parse::<f64>().unwrap())
            .collect()
    };
    let near = |what: &str, got: f64, want: f64| {
        assert!(
            (got - want).abs() <= 0.02,
            "{what}: {got}, not {want}:\n{out}"
        );
    };
    // Groups of equal weight, busy: half each; the guests a quarter each.
    let busy = shares("all busy:");
    assert_eq!(busy.len(), 4, "{out}");
    for (what, got, want) in [
        ("guest group", busy[0], 0.5),
        ("guest 1", busy[1], 0.25),
        ("guest 2", busy[2], 0.25),
        ("home", busy[3], 0.5),
    ] {
        near(what, got, want);
    }
    // Alone and limited: half of wall time, a quarter each; sharing: all of it.
    let limited = shares("home idle, guest limited:");
    assert_eq!(limited.len(), 3, "{out}");
    near("limited guest group", limited[0], 0.5);
    near("limited guest 1", limited[1], 0.25);
    near("limited guest 2", limited[2], 0.25);
    near(
        "sharing guest group",
        shares("home idle, guest sharing:")[0],
        1.0,
    );
    for expected in [
        "guest group 0: station 2 in group 0, 2 members, weight 256 us, mode limit, nominal share 500000 ppm",
        "next timeout with no limited group: empty\n",
        "remove a group with stations: group not empty: group 0 still has",
        "group inside itself: bad group nesting: group 0 cannot be nested in itself",
        "guest inside home inside guest: bad group nesting:",
        "unknown group: unknown group: group 99 does not exist",
        "weight 0: invalid argument: airtime weight must be between 1 and 65535 us, got 0",
        "mode 7: invalid argument: mode must be AIRQ_GROUP_SHARE (0) or AIRQ_GROUP_LIMIT (1), got 7",
        "null out-pointer: null pointer: group is null",
        "station 9 into a group: unknown station: station 9 is not registered",
        "guest weight 768 us: nominal share 750000 ppm",
        "return a removed TXQ: unknown TXQ: TXQ 2 does not exist",
        "remove it twice: unknown TXQ: TXQ 2 does not exist",
        "a removed group's stats: unknown group: group 0 does not exist",
        "groups removed, scheduler freed",
    ] {
        assert!(out.contains(expected), "no {expected:?} in:\n{out}");
    }
}

#[test]
fn c_groups_example_runs_clean_plain_under_valgrind_and_with_sanitizers() {
    runs_clean("groups.c", "groups", check_groups);
}

/// Compiles `source`, runs it plain, under valgrind and with the sanitizers, and checks
/// each run's output with `check`.
fn runs_clean(source: &str, name: &str, check: fn(&str)) {
    if !runs(&compiler()) {
        tool_missing(&format!("no C compiler ({} --version failed)", compiler()));
        return;
    }
    let program = compile(source, name, &[]).unwrap_or_else(|e| panic!("{source}: {e}"));
    let out = assert_ran(name, &Command::new(&program).output().unwrap());
    check(&out);

    if runs("valgrind") {
        let output = Command::new("valgrind")
            .args([
                "--quiet",
                "--error-exitcode=1",
                "--leak-check=full",
                "--errors-for-leak-kinds=definite,indirect,possible",
            ])
            .arg(&program)
            .output()
            .unwrap();
        check(&assert_ran(&format!("{name} under valgrind"), &output));
    } else {
        tool_missing("no valgrind");
    }

    let sanitizers = [
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=undefined",
        "-fno-omit-frame-pointer",
    ];
    match compile(source, &format!("{name}-asan"), &sanitizers) {
        Ok(asan) => {
            let output = Command::new(&asan)
                .env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
                .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
                .output()
                .unwrap();
            check(&assert_ran(&format!("{name} with ASan and UBSan"), &output));
        }
        Err(e) => {
            tool_missing(&format!("the compiler cannot build with sanitizers: {e}"));
        }
    }
}
