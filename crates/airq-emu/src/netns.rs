//! The emulated hosts' network namespaces (`ip-netns(8)`): one for the server and one
//! per station, each named `airq-<pid>-<host>` after the process that owns it, so that
//! a later run can tell leftovers of a killed run (owner dead) from a live run's.
//! A namespace is made as iproute2's `ip netns add` makes one (`ip/ipnetns.c`,
//! `netns_add` and `netns_delete`), through system calls rather than by running `ip`:
//! /run/netns made a shared mount point (so that an unmount there reaches every mount
//! namespace), an empty file /run/netns/NAME, `unshare(CLONE_NEWNET)` in a thread of
//! its own, and that thread's namespace bind-mounted onto the file, which keeps the
//! namespace alive after the thread ends. So `ip netns exec NAME ...` — how users run
//! their own tools in a namespace — and `ip netns list` see ours as their own.
//! Deleting is `umount2(MNT_DETACH)` and unlink. Entering one is `setns(2)` on the
//! file's descriptor.

use rustix::mount::{MountPropagationFlags, UnmountFlags};
use rustix::thread::{LinkNameSpaceType, UnshareFlags};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::PathBuf;

/// Every namespace of ours starts so.
pub const PREFIX: &str = "airq-";

/// Where iproute2 keeps its named namespaces (`NETNS_RUN_DIR`, ip/ip_common.h).
pub const RUN_DIR: &str = "/run/netns";

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

/// The file that holds namespace `ns`.
pub fn path(ns: &str) -> PathBuf {
    PathBuf::from(RUN_DIR).join(ns)
}

/// An error that names what failed.
fn failed(what: &str, e: impl Into<io::Error>) -> io::Error {
    let e = e.into();
    io::Error::new(e.kind(), format!("{what}: {e}"))
}

/// Makes /run/netns a shared mount point, binding it onto itself first if it is not a
/// mount point (`mount --make-shared` fails with EINVAL then), as `ip netns add` does,
/// under the same lock on the directory that iproute2 takes.
fn share_run_dir() -> io::Result<()> {
    std::fs::DirBuilder::new()
        .mode(0o755)
        .create(RUN_DIR)
        .or_else(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => Ok(()),
            _ => Err(failed(&format!("cannot make {RUN_DIR}"), e)),
        })?;
    let dir = File::open(RUN_DIR).map_err(|e| failed(&format!("cannot open {RUN_DIR}"), e))?;
    // Concurrent `ip netns add`s (iproute2 6.x) take this lock too; without it two
    // could each bind the directory onto itself. A failure to lock is not fatal there.
    let _ = rustix::fs::flock(&dir, rustix::fs::FlockOperation::LockExclusive);
    let shared = MountPropagationFlags::SHARED | MountPropagationFlags::REC;
    let mut made_mount_point = false;
    loop {
        match rustix::mount::mount_change(RUN_DIR, shared) {
            Ok(()) => break,
            Err(rustix::io::Errno::INVAL) if !made_mount_point => {
                rustix::mount::mount_bind_recursive(RUN_DIR, RUN_DIR)
                    .map_err(|e| failed(&format!("mount --bind {RUN_DIR} {RUN_DIR}"), e))?;
                made_mount_point = true;
            }
            Err(e) => return Err(failed(&format!("mount --make-shared {RUN_DIR}"), e)),
        }
    }
    let _ = rustix::fs::flock(&dir, rustix::fs::FlockOperation::Unlock);
    Ok(())
}

/// Creates the network namespace `ns` as `ip netns add ns` does.
pub fn add(ns: &str) -> io::Result<()> {
    share_run_dir()?;
    let file = path(ns);
    OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o000)
        .open(&file)
        .map_err(|e| failed(&format!("cannot create {}", file.display()), e))?;
    // unshare(CLONE_NEWNET) moves only the calling thread: a thread of its own, which
    // ends after the bind mount has made the namespace outlive it.
    let bound = std::thread::scope(|s| {
        s.spawn(|| -> io::Result<()> {
            // SAFETY: CLONE_NEWNET does not unshare the file descriptor table, the
            // case `unshare_unsafe` warns of; this thread ends right after.
            unsafe { rustix::thread::unshare_unsafe(UnshareFlags::NEWNET) }
                .map_err(|e| failed("unshare(CLONE_NEWNET)", e))?;
            rustix::mount::mount_bind("/proc/thread-self/ns/net", &file)
                .map_err(|e| failed(&format!("bind mount onto {}", file.display()), e))
        })
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the namespace thread panicked")))
    });
    if let Err(e) = bound {
        let _ = std::fs::remove_file(&file);
        return Err(failed(&format!("network namespace {ns}"), e));
    }
    Ok(())
}

/// Deletes the network namespace `ns` as `ip netns delete ns` does: the namespace
/// itself goes when nothing else holds it (a process in it, an open descriptor).
pub fn delete(ns: &str) -> io::Result<()> {
    let file = path(ns);
    // As iproute2: the unmount may fail (not mounted, after a half-made add); the
    // unlink decides.
    let _ = rustix::mount::unmount(&file, UnmountFlags::DETACH);
    std::fs::remove_file(&file)
        .map_err(|e| failed(&format!("cannot delete network namespace {ns}"), e))
}

/// A descriptor of namespace `ns`, to enter it with [`enter`].
pub fn open(ns: &str) -> io::Result<OwnedFd> {
    let file = File::open(path(ns))
        .map_err(|e| failed(&format!("cannot open network namespace {ns}"), e))?;
    Ok(file.into())
}

/// Moves the calling thread into the network namespace `fd` (`setns(2)`). Only a raw
/// system call: safe between `fork` and `exec`.
pub fn enter(fd: BorrowedFd<'_>) -> io::Result<()> {
    rustix::thread::move_into_link_name_space(fd, Some(LinkNameSpaceType::Network))
        .map_err(io::Error::from)
}

/// Runs `f` in a thread that has entered the network namespace `fd`: sockets it opens
/// (netlink, TUN) and /proc/sys/net it writes are that namespace's. This thread stays
/// where it is.
pub fn run_in<T: Send>(fd: &OwnedFd, f: impl FnOnce() -> io::Result<T> + Send) -> io::Result<T> {
    let fd = fd.as_fd();
    std::thread::scope(|s| {
        s.spawn(move || {
            enter(fd).map_err(|e| failed("setns(CLONE_NEWNET)", e))?;
            f()
        })
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("a thread in a namespace panicked")))
    })
}

/// The named network namespaces (`ip netns list`): the entries of /run/netns; none if
/// it does not exist.
pub fn list() -> io::Result<Vec<String>> {
    let entries = match std::fs::read_dir(RUN_DIR) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(failed(&format!("cannot read {RUN_DIR}"), e)),
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| failed(&format!("cannot read {RUN_DIR}"), e))?;
        if let Some(name) = entry.file_name().to_str() {
            names.push(name.to_string());
        }
    }
    names.sort();
    Ok(names)
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
                // Another run starting now may have deleted it first.
                match delete(&ns) {
                    Err(e) if path(&ns).exists() => return Err(e),
                    _ => removed.push(ns),
                }
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

    #[test]
    fn namespaces_live_under_iproutes_directory() {
        assert_eq!(
            path("airq-1-server"),
            PathBuf::from("/run/netns/airq-1-server")
        );
    }
}
