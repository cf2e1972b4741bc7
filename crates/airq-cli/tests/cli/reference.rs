//! What `airq` generates about itself: the scenario-key reference (`list keys`, as text
//! and as Markdown), the shell completion scripts and the man page.

use super::{airq, stdout};
use predicates::str::contains;

#[test]
fn list_keys_prints_every_table_and_key() {
    let text = stdout(&airq().args(["list", "keys"]).assert().success());
    for key in [
        "ap.fq_codel.target_ms",
        "station[].mcs",
        "traffic[].interval_ms",
        "variant[].set",
        "ap.group[].parent",
    ] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(key)),
            "{key}"
        );
    }
    assert!(text.lines().all(|l| l.chars().count() <= 100));
    let markdown = stdout(
        &airq()
            .args(["list", "keys", "--markdown"])
            .assert()
            .success(),
    );
    assert!(markdown.starts_with("# Scenario keys\n"));
    assert!(
        markdown.contains("| `ap.fq_mac.target_ms` | number | 20 |"),
        "{markdown}"
    );
    airq()
        .args(["list", "tests", "--markdown"])
        .assert()
        .failure()
        .stderr(contains("--markdown is for `airq list keys`"));
}

#[test]
fn completions_of_every_shell_name_the_commands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&airq().args(["completions", shell]).assert().success());
        assert!(script.contains("compare"), "{shell}: {script}");
    }
    airq()
        .args(["completions", "tcsh"])
        .assert()
        .failure()
        .stderr(contains("possible values"));
}

#[test]
fn the_man_page_has_a_title_and_every_command() {
    let page = stdout(&airq().arg("man").assert().success());
    assert!(page.contains("\n.TH airq 1"), "{page}");
    assert!(page.contains("sweep"), "{page}");
}

/// `airq help scenario` is the key reference; `airq help CMD` a command's help.
#[test]
fn help_names_the_scenario_keys_and_each_command() {
    let keys = stdout(&airq().args(["help", "scenario"]).assert().success());
    assert!(
        keys.starts_with("Scenario keys") && keys.contains("target_ms"),
        "{keys}"
    );
    let sweep = stdout(&airq().args(["help", "sweep"]).assert().success());
    assert!(sweep.contains("Usage: airq sweep"), "{sweep}");
    airq()
        .args(["help", "nope"])
        .assert()
        .failure()
        .stderr(contains("no command `nope`"));
}
