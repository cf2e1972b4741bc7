//! The emulated hosts' network: a namespace for the server and one per station, each
//! with a TUN interface whose other end is this process, addressed as the simulator
//! addresses them (server 10.0.0.1, station `i` 10.0.1.(i + 1), one /16 so that every
//! host reaches every other through its interface), and in IPv6 the same addresses
//! behind fd00::/96 (one /64). The [`Network`] is the guard of
//! everything it made: dropping it ends the processes it started, closes the TUN
//! devices (which removes them) and deletes the namespaces — on a normal exit, an
//! error, or a SIGINT/SIGTERM that unwinds the caller.

use crate::netns;
use crate::rtnetlink::{self, Rtnetlink};
use crate::tun::Tun;
use airq::StationId;
use airq_sim::bss::Host;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

/// The server's address, 10.0.0.1, as the simulator numbers it.
pub const SERVER_ADDRESS: [u8; 4] = [10, 0, 0, 1];

/// The address of station `i` (from 0): 10.0.1.(i + 1).
pub fn station_address(station: StationId) -> [u8; 4] {
    [10, 0, 1, station.0 as u8 + 1]
}

/// The address of `host`, dotted.
pub fn address_of(host: Host) -> String {
    let a = match host {
        Host::Server => SERVER_ADDRESS,
        Host::Station(s) => station_address(s),
    };
    format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3])
}

/// The host that has the address `a`, if any of `stations` stations does.
pub fn host_of(a: u32, stations: usize) -> Option<Host> {
    let b = a.to_be_bytes();
    match b {
        [10, 0, 0, 1] => Some(Host::Server),
        [10, 0, 1, n] if n >= 1 && usize::from(n) <= stations => {
            Some(Host::Station(StationId(u32::from(n) - 1)))
        }
        _ => None,
    }
}

/// The IPv6 prefix of the hosts' addresses: fd00::/96 (a unique local address, RFC
/// 4193) followed by the host's IPv4 address (server fd00::a00:1, station `i`
/// fd00::a00:1xx), so that either address names the same host, and a capture's MAC
/// addresses (made of the IPv4 address) are the same for both.
pub const IPV6_PREFIX: [u8; 12] = [0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// The IPv6 address of `host`, as `ip` writes it.
pub fn address6_of(host: Host) -> String {
    let a = match host {
        Host::Server => SERVER_ADDRESS,
        Host::Station(s) => station_address(s),
    };
    let hi = u16::from_be_bytes([a[0], a[1]]);
    let lo = u16::from_be_bytes([a[2], a[3]]);
    format!("fd00::{hi:x}:{lo:x}")
}

/// The host an IPv4 or IPv6 packet `packet` is addressed to, if any of `stations`
/// stations or the server has its destination address.
pub fn destination_host(packet: &[u8], stations: usize) -> Option<Host> {
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(packet.get(at..at + 4)?.try_into().ok()?))
    };
    match packet.first()? >> 4 {
        4 => host_of(word(16)?, stations),
        6 if packet.get(24..36)? == IPV6_PREFIX => host_of(word(36)?, stations),
        _ => None,
    }
}

/// The most stations one /24 of addresses gives.
pub const MAX_STATIONS: usize = 254;

/// The interface name inside every namespace.
pub const INTERFACE: &str = "wlan0";

/// The emulated hosts' namespaces, interfaces and the processes started in them.
pub struct Network {
    pid: u32,
    /// The server's, then each station's.
    namespaces: Vec<String>,
    /// Descriptors of the namespaces, to enter them; shared with the commands made.
    namespace_fds: Vec<Arc<OwnedFd>>,
    tuns: Vec<Tun>,
    children: Vec<Child>,
}

impl Network {
    /// Makes the namespaces and interfaces for a server and `stations` stations,
    /// named after this process. Leftovers of killed runs are removed first.
    pub fn create(stations: usize) -> io::Result<Network> {
        if stations == 0 || stations > MAX_STATIONS {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("emulation takes 1 to {MAX_STATIONS} stations, not {stations}"),
            ));
        }
        netns::remove_leftovers()?;
        let mut net = Network {
            pid: std::process::id(),
            namespaces: Vec::new(),
            namespace_fds: Vec::new(),
            tuns: Vec::new(),
            children: Vec::new(),
        };
        for i in 0..=stations {
            let host = match i {
                0 => Host::Server,
                i => Host::Station(StationId(i as u32 - 1)),
            };
            net.add_host(host)?;
        }
        Ok(net)
    }

    /// The short name of `host`: `server`, `sta1`, ... (stations from 1, as users count).
    pub fn host_name(host: Host) -> String {
        match host {
            Host::Server => "server".to_string(),
            Host::Station(s) => format!("sta{}", s.0 + 1),
        }
    }

    fn index(host: Host) -> usize {
        match host {
            Host::Server => 0,
            Host::Station(s) => 1 + s.index(),
        }
    }

    fn add_host(&mut self, host: Host) -> io::Result<()> {
        let ns = netns::name(self.pid, &Self::host_name(host));
        netns::add(&ns)?;
        self.namespaces.push(ns.clone());
        let fd = Arc::new(netns::open(&ns)?);
        self.namespace_fds.push(Arc::clone(&fd));
        // Made inside the namespace (a TUN device belongs to the namespace of the
        // thread that opens /dev/net/tun), so it never appears in ours; its
        // descriptor is this process's all the same.
        let (v4, v6) = (address_of(host), address6_of(host));
        let tun = netns::run_in(&fd, || {
            let tun = Tun::create(INTERFACE)
                .map_err(|e| io::Error::new(e.kind(), format!("TUN device {INTERFACE}: {e}")))?;
            let mut rtnl = Rtnetlink::open()?;
            let lo = rtnetlink::index_of("lo")?;
            let wlan = rtnetlink::index_of(INTERFACE)?;
            let step = |what: String, r: io::Result<()>| {
                r.map_err(|e| io::Error::new(e.kind(), format!("{what}: {e}")))
            };
            step("ip link set dev lo up".into(), rtnl.set_up(lo))?;
            let a4 = v4.parse().map_err(io::Error::other)?;
            step(
                format!("ip addr add {v4}/16 dev {INTERFACE}"),
                rtnl.add_address(wlan, a4, 16, false),
            )?;
            // IPv6 too, without duplicate address detection (the address is ours
            // alone).
            let a6 = v6.parse().map_err(io::Error::other)?;
            step(
                format!("ip -6 addr add {v6}/64 dev {INTERFACE} nodad"),
                rtnl.add_address(wlan, a6, 64, true),
            )?;
            step(format!("ip link set dev {INTERFACE} up"), rtnl.set_up(wlan))?;
            Ok(tun)
        })
        .map_err(|e| io::Error::new(e.kind(), format!("namespace {ns}: {e}")))?;
        self.tuns.push(tun);
        Ok(())
    }

    /// The namespace of `host`.
    pub fn namespace(&self, host: Host) -> &str {
        &self.namespaces[Self::index(host)]
    }

    /// Every namespace: the server's, then the stations'.
    pub fn namespaces(&self) -> &[String] {
        &self.namespaces
    }

    /// The TUN devices: the server's, then the stations'.
    pub fn tuns(&self) -> &[Tun] {
        &self.tuns
    }

    /// The TUN device of `host`.
    pub fn tun(&self, host: Host) -> &Tun {
        &self.tuns[Self::index(host)]
    }

    /// A command that runs `program ARGS` in `host`'s network namespace: the child
    /// enters it (`setns(2)`) between fork and exec. Unlike `ip netns exec` it keeps
    /// this process's mount namespace, so /sys shows this namespace's interfaces, not
    /// the host's: read interface counters with [`Network::tx_dropped`].
    pub fn command(&self, host: Host, program: &str, args: &[&str]) -> Command {
        let fd = Arc::clone(&self.namespace_fds[Self::index(host)]);
        let mut c = Command::new(program);
        c.args(args).stdin(Stdio::null());
        // SAFETY: the closure makes one system call (setns), which is
        // async-signal-safe, and allocates nothing; `fd` is kept open by the Arc the
        // command owns.
        unsafe {
            c.pre_exec(move || netns::enter(fd.as_fd()));
        }
        c
    }

    /// Runs `f` in a thread inside `host`'s network namespace.
    pub fn run_in<T: Send>(
        &self,
        host: Host,
        f: impl FnOnce() -> io::Result<T> + Send,
    ) -> io::Result<T> {
        netns::run_in(&self.namespace_fds[Self::index(host)], f)
    }

    /// Sets the sysctl `key` (dotted, `net.ipv4.tcp_congestion_control`) of `host`'s
    /// network namespace to `value`, as `sysctl -w` run there would: a write to
    /// /proc/sys/net/..., which shows the namespace of the thread that opens it.
    pub fn set_sysctl(&self, host: Host, key: &str, value: &str) -> io::Result<()> {
        if !key.starts_with("net.") || key.contains('/') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("`{key}` is not a network namespace's sysctl"),
            ));
        }
        let file = format!("/proc/sys/{}", key.replace('.', "/"));
        self.run_in(host, || std::fs::write(&file, value))
            .map_err(|e| io::Error::new(e.kind(), format!("sysctl {key}={value}: {e}")))
    }

    /// Packets `host`'s interface dropped for want of room in the TUN device's ring
    /// (its `tx_dropped`).
    pub fn tx_dropped(&self, host: Host) -> io::Result<u64> {
        self.run_in(host, || {
            let index = rtnetlink::index_of(INTERFACE)?;
            Ok(Rtnetlink::open()?.stats64(index)?.tx_dropped)
        })
    }

    /// Starts `program ARGS` in `host`'s namespace in the background; it is killed
    /// when the network goes.
    pub fn spawn(&mut self, host: Host, program: &str, args: &[&str]) -> io::Result<u32> {
        let child = self
            .command(host, program, args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| io::Error::new(e.kind(), format!("cannot start {program}: {e}")))?;
        let pid = child.id();
        self.children.push(child);
        Ok(pid)
    }

    /// Removes everything now; errors are reported, every step is tried.
    pub fn teardown(&mut self) -> Vec<String> {
        let mut errors = Vec::new();
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
        self.children.clear();
        self.tuns.clear();
        self.namespace_fds.clear();
        for ns in self.namespaces.drain(..).rev() {
            if let Err(e) = netns::delete(&ns) {
                errors.push(e.to_string());
            }
        }
        errors
    }
}

impl Drop for Network {
    fn drop(&mut self) {
        for e in self.teardown() {
            eprintln!("airq emulate: cleanup: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_map_to_hosts_and_back() {
        assert_eq!(address_of(Host::Server), "10.0.0.1");
        assert_eq!(address_of(Host::Station(StationId(2))), "10.0.1.3");
        assert_eq!(host_of(0x0a00_0001, 3), Some(Host::Server));
        assert_eq!(host_of(0x0a00_0103, 3), Some(Host::Station(StationId(2))));
        assert_eq!(host_of(0x0a00_0104, 3), None);
        assert_eq!(host_of(0x0a00_0100, 3), None);
        assert_eq!(host_of(0x0808_0808, 3), None);
    }

    #[test]
    fn ipv6_addresses_carry_the_ipv4_ones() {
        assert_eq!(address6_of(Host::Server), "fd00::a00:1");
        assert_eq!(address6_of(Host::Station(StationId(2))), "fd00::a00:103");
        let mut v6 = vec![0x60; 40];
        v6[24..36].copy_from_slice(&IPV6_PREFIX);
        v6[36..40].copy_from_slice(&[10, 0, 1, 3]);
        assert_eq!(destination_host(&v6, 3), Some(Host::Station(StationId(2))));
        v6[24] = 0xff; // multicast
        assert_eq!(destination_host(&v6, 3), None);
        let mut v4 = vec![0x45; 20];
        v4[16..20].copy_from_slice(&[10, 0, 0, 1]);
        assert_eq!(destination_host(&v4, 3), Some(Host::Server));
        assert_eq!(destination_host(&[], 3), None);
    }
}
