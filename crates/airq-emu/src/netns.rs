//! The emulated hosts' network namespaces (`ip-netns(8)`): one for the server and one
//! per station, each named `airq-<pid>-<host>` after the process that owns it, so that
//! a later run can tell leftovers of a killed run (owner dead) from a live run's.
//! Setup shells out to `ip` from iproute2: a handful of commands per host at start,
//! nothing per packet, and `ip netns` keeps the bind mounts under /run/netns that
//! `ip netns exec` — how users run their own tools in a namespace — expects.

use std::io;
use std::process::{Command, Stdio};

/// Every namespace of ours starts so.
pub const PREFIX: &str = "airq-";

/// The namespace of `host` (`server`, `sta1`, ...) for the process `pid`.
pub fn name(pid: u32, host: &str) -> String {
    format!("{PREFIX}{pid}-{host}")
}

/// The owner's pid of one of our namespace names; `None` for another name.
pub fn owner(ns: &str) -> Option<u32> {
    let rest = ns.strip_prefix(PREFIX)?;
    let (pid, host) = rest.split_once('-')?;
    if host.is_empty() {
        return None;
    }
    pid.parse().ok()
}

/// Runs `ip ARGS`; an error carries the command and what it printed.
pub fn ip(args: &[&str]) -> io::Result<()> {
    let out = Command::new("ip")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            io::Error::new(e.kind(), format!("cannot run `ip`: {e} (install iproute2)"))
        })?;
    if out.status.success() {
        return Ok(());
    }
    Err(io::Error::other(format!(
        "`ip {}` failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr).trim()
    )))
}

/// The network namespaces `ip netns list` shows.
pub fn list() -> io::Result<Vec<String>> {
    let out = Command::new("ip")
        .args(["netns", "list"])
        .stdin(Stdio::null())
        .output()?;
    if !out.status.success() {
        return Err(io::Error::other(format!(
            "`ip netns list` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    // Each line is `NAME` or `NAME (id: N)`.
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect())
}

/// Whether process `pid` is alive.
pub fn alive(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// Deletes our namespaces whose owner is dead (a run killed by SIGKILL); returns their
/// names. Namespaces of live runs and every other namespace are left alone.
pub fn remove_leftovers() -> io::Result<Vec<String>> {
    let mut removed = Vec::new();
    for ns in list()? {
        match owner(&ns) {
            Some(pid) if !alive(pid) => {
                ip(&["netns", "delete", &ns])?;
                removed.push(ns);
            }
            _ => {}
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_their_owner() {
        assert_eq!(name(4242, "sta3"), "airq-4242-sta3");
        assert_eq!(owner("airq-4242-sta3"), Some(4242));
        assert_eq!(owner("airq-4242-"), None);
        assert_eq!(owner("airq-x-sta1"), None);
        assert_eq!(owner("blue"), None);
    }
}
