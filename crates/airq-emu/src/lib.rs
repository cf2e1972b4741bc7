//! Emulation (issue 17): real Linux hosts — a server and the stations, each in a network
//! namespace of its own with a TUN interface — behind an emulated BSS. The AP is this
//! process: every packet a host sends enters the simulator's model of the BSS (the
//! scenario's AP configuration: qdisc, FQ-MAC, scheduler, AQL, driver; the stations'
//! own queues; EDCA contention, A-MPDUs, BlockAck, retries, rates — airq-sim's
//! `bss::Simulation` with external hosts) at the time it was sent, and is written to
//! its destination's interface at the real time the model delivers it. The clock is
//! real: the loop measures how late it runs each event ([`lateness`]).
//!
//! Linux only; needs root (network namespaces, /dev/net/tun). The namespaces,
//! interfaces and addresses are made by system calls and rtnetlink ([`netns`],
//! [`rtnetlink`]); iproute2's `tc` and `ss` are run in them (queue drops, listening
//! servers), and users reach them with `ip netns exec`.

pub mod air_capture;
pub mod flow_map;
pub mod http;
pub mod irtt;
pub mod lateness;
pub mod netns;
pub mod network;
pub mod radiotap;
pub mod realtime;
pub mod rtnetlink;
pub mod signals;
pub mod tun;

/// Whether this process runs as root, which emulation needs.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}
