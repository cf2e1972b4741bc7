//! The real-time loop: the simulator's BSS driven by the wall clock. Packets the hosts
//! send are read from their TUN devices and injected into the model at the time they
//! were read; events run when the monotonic clock reaches them (each one's lateness
//! recorded); packets the model delivers are written to their host's TUN device at once.
//! Between, the loop sleeps in `ppoll(2)` until the next event or a readable device,
//! with a nanosecond timeout and the thread's timer slack at 1 ns (`PR_SET_TIMERSLACK`,
//! prctl(2)), as the kernel's default 50 µs slack would be lateness of its own.

use crate::air_capture::AirCapture;
use crate::flow_map::FlowMap;
use crate::lateness::Lateness;
use crate::network::destination_host;
use crate::tun::{Tun, READ_BUFFER_BYTES};
use airq::{Instant, StationId};
use airq_sim::bss::{AirFrame, Delivered, Host, Simulation};
use airq_sim::metrics::Metrics;
use airq_sim::net::real_packet::parse_ip;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

/// The longest sleep, so that a stop is noticed.
const MAX_SLEEP_NS: u64 = 20_000_000;

/// What a run of the loop did.
#[derive(Clone, Debug, Default)]
pub struct LoopReport {
    /// Of every event the model ran.
    pub lateness: Lateness,
    /// Of every packet written to a host: written minus due.
    pub delivery_lateness: Lateness,
    pub read_packets: u64,
    pub read_bytes: u64,
    pub delivered_packets: u64,
    /// Packets the model could not carry: neither IPv4 nor IPv6, to an address
    /// outside the BSS (the hosts' IPv6 router solicitations, to a multicast group), or
    /// from a host to itself.
    pub not_carried: u64,
    /// Writes to a host that failed.
    pub write_errors: u64,
    /// What the model measured at the end of the measured span (`measure_until`),
    /// after its warm-up ([`Simulation::measured`]); `None` if the loop stopped before.
    pub measured: Option<Metrics>,
    /// The CoDel parameters FQ-MAC judged each station's TXQs by then (`None` without
    /// FQ-MAC), as [`airq_sim::ap::ApTx::station_codel`].
    pub station_codel: Vec<Option<airq::codel::CodelParams>>,
    /// Whether the loop's thread ran at a real-time priority (SCHED_FIFO).
    pub realtime_priority: bool,
}

/// The loop's clock: the model's time is the monotonic time since the start.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: std::time::Instant,
}

impl Clock {
    pub fn start() -> Clock {
        Clock {
            start: std::time::Instant::now(),
        }
    }

    pub fn now(&self) -> Instant {
        Instant::from_nanos(self.start.elapsed().as_nanos() as u64)
    }
}

/// Sets this thread's timer slack to 1 ns, so that a sleep ends when asked.
fn tight_timer_slack() {
    // SAFETY: PR_SET_TIMERSLACK takes an integer argument; no pointers.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong);
    }
}

/// Puts this thread in SCHED_FIFO at priority 10 (sched(7)), so that the builds and
/// tools beside it on a small machine do not preempt the clock; the loop sleeps between
/// events, and the kernel's real-time throttling (`sched_rt_runtime_us`) keeps 5% of
/// the CPU for the rest even if it did not. False if refused (not root).
fn realtime_priority() -> bool {
    let param = libc::sched_param { sched_priority: 10 };
    // SAFETY: `param` is valid for the call; pid 0 is the calling thread.
    unsafe { libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) == 0 }
}

/// When the loop stops and what it measures.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// The measurements are taken at this time ([`LoopReport::measured`]); the loop
    /// goes on serving the hosts (the tools' last exchanges) until stopped.
    pub measure_until: Instant,
    /// The loop stops here at the latest.
    pub until: Instant,
}

/// Runs `sim` against the real clock `clock` with the hosts of `tuns` (the server's,
/// then each station's), until `span.until` or until `stop` is set (or a signal),
/// writing every wireless hop to `capture` if there is one.
pub fn run(
    sim: &mut Simulation,
    tuns: &[Tun],
    flows: &FlowMap,
    clock: Clock,
    span: Span,
    stop: &AtomicBool,
    mut capture: Option<&mut AirCapture>,
) -> io::Result<LoopReport> {
    let until = span.until;
    if capture.is_some() {
        sim.record_air();
    }
    let mut air: Vec<AirFrame> = Vec::new();
    tight_timer_slack();
    let realtime_priority = realtime_priority();
    let stations = tuns.len() - 1;
    let mut report = LoopReport {
        realtime_priority,
        ..LoopReport::default()
    };
    let mut buf = vec![0u8; READ_BUFFER_BYTES];
    let mut delivered: Vec<Delivered> = Vec::new();
    let mut fds: Vec<libc::pollfd> = tuns
        .iter()
        .map(|t| libc::pollfd {
            fd: t.raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    loop {
        let now = clock.now();
        if now >= until || stop.load(Ordering::Relaxed) || crate::signals::stop_requested() {
            break;
        }
        if report.measured.is_none() && now >= span.measure_until {
            sim.run_until(span.measure_until);
            report.measured = Some(sim.measured());
            let stations = sim.metrics().stations.len() as u32;
            report.station_codel = (0..stations)
                .map(|s| sim.ap().station_codel(airq::StationId(s)))
                .collect();
        }
        // The events that are due, each timed against the clock.
        while let Some(t) = sim.next_event_at() {
            if t > now {
                break;
            }
            sim.step(now);
            let late = clock.now().saturating_duration_since(t).as_nanos();
            report.lateness.record(t.as_nanos(), late);
        }
        deliver(sim, tuns, &clock, &mut delivered, &mut report);
        capture_air(sim, capture.as_deref_mut(), &mut air)?;
        // What the hosts sent.
        let mut read_any = false;
        for (i, tun) in tuns.iter().enumerate() {
            while let Some(n) = tun.read(&mut buf)? {
                read_any = true;
                report.read_packets += 1;
                report.read_bytes += n as u64;
                let from = match i {
                    0 => Host::Server,
                    i => Host::Station(StationId(i as u32 - 1)),
                };
                let Ok(fields) = parse_ip(&buf[..n]) else {
                    report.not_carried += 1;
                    continue;
                };
                let to = destination_host(&buf[..n], stations);
                let Some(to) = to.filter(|&to| to != from) else {
                    report.not_carried += 1;
                    continue;
                };
                let (flow, payload_bytes) = flows.classify(from, to, &fields);
                let fields = airq_sim::net::real_packet::Ipv4Fields {
                    payload_bytes,
                    ..fields
                };
                let at = clock.now();
                sim.inject(at, from, to, flow, &fields, buf[..n].into())
                    .map_err(|e| io::Error::other(format!("the model refused a packet: {e}")))?;
            }
        }
        if read_any {
            // The model may have something to do at once (the AP's dequeue).
            continue;
        }
        let wait_ns = match sim.next_event_at() {
            Some(t) => t.saturating_duration_since(clock.now()).as_nanos(),
            None => MAX_SLEEP_NS,
        }
        .min(MAX_SLEEP_NS);
        if wait_ns == 0 {
            continue;
        }
        let timeout = libc::timespec {
            tv_sec: (wait_ns / 1_000_000_000) as libc::time_t,
            tv_nsec: (wait_ns % 1_000_000_000) as libc::c_long,
        };
        // SAFETY: `fds` is a valid array of its length; the timeout outlives the call.
        let r = unsafe {
            libc::ppoll(
                fds.as_mut_ptr(),
                fds.len() as libc::nfds_t,
                &timeout,
                std::ptr::null(),
            )
        };
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
    sim.run_until(clock.now().min(until).max(sim.now()));
    deliver(sim, tuns, &clock, &mut delivered, &mut report);
    capture_air(sim, capture, &mut air)?;
    Ok(report)
}

/// Writes the wireless hops that ended since the last call to `capture`.
fn capture_air(
    sim: &mut Simulation,
    capture: Option<&mut AirCapture>,
    air: &mut Vec<AirFrame>,
) -> io::Result<()> {
    if let Some(c) = capture {
        sim.take_air(air);
        c.write(air)?;
        air.clear();
    }
    Ok(())
}

/// Writes what the model delivered to the hosts' devices.
fn deliver(
    sim: &mut Simulation,
    tuns: &[Tun],
    clock: &Clock,
    delivered: &mut Vec<Delivered>,
    report: &mut LoopReport,
) {
    sim.take_delivered(delivered);
    for d in delivered.drain(..) {
        let i = match d.to {
            Host::Server => 0,
            Host::Station(s) => 1 + s.index(),
        };
        match tuns[i].write(&d.packet.bytes) {
            Ok(()) => report.delivered_packets += 1,
            Err(_) => report.write_errors += 1,
        }
        let late = clock.now().saturating_duration_since(d.at).as_nanos();
        report.delivery_lateness.record(d.at.as_nanos(), late);
    }
}

/// Runs the loop over `network`'s devices in a thread of its own while `tools` runs in
/// this one (it gets the network, to start the hosts' programs and run them), until
/// `span.until` or until `tools` returns, whichever is first — or, with `hold_to_end`,
/// until `span.until` or a signal whatever `tools` did. The air goes to `capture` if
/// there is one.
pub fn run_beside<R: Send>(
    sim: &mut Simulation,
    network: &mut crate::network::Network,
    flows: &FlowMap,
    span: Span,
    hold_to_end: bool,
    capture: Option<&mut AirCapture>,
    tools: impl FnOnce(&mut crate::network::Network, Clock) -> R + Send,
) -> io::Result<(LoopReport, R)> {
    let stop = AtomicBool::new(false);
    let clock = Clock::start();
    // The devices stay in the network; the loop borrows their descriptors through
    // duplicates, so that the tools may borrow the network mutably meanwhile.
    let tuns: Vec<Tun> = network
        .tuns()
        .iter()
        .map(Tun::try_clone)
        .collect::<io::Result<_>>()?;
    std::thread::scope(|scope| {
        let looping = scope.spawn(|| run(sim, &tuns, flows, clock, span, &stop, capture));
        let r = tools(network, clock);
        if !hold_to_end {
            stop.store(true, Ordering::Relaxed);
        }
        let report = looping
            .join()
            .map_err(|_| io::Error::other("the real-time loop panicked"))??;
        Ok((report, r))
    })
}
