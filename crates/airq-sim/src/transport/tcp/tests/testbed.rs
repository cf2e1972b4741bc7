//! A deterministic dumbbell for the TCP tests: each flow's client (the data sender)
//! reaches its server through one shared bottleneck — a queue (tail-drop FIFO or
//! FQ-CoDel from `airq::Fq`), a link of fixed rate, then a fixed one-way delay; the
//! servers' ACKs come back over the same delay, unqueued. Optional random loss of data
//! segments before the queue, and a per-test drop filter. Events run in (time, insertion)
//! order (`crate::engine::event::EventQueue`), randomness comes from `RngRoot`.

pub(super) use super::bottleneck::QueueSpec;
use super::bottleneck::{Pkt, Queue};
use crate::engine::event::EventQueue;
use crate::engine::rng::{RngRoot, RngStream};
use crate::transport::tcp::{Outgoing, Segment, TcpConfig, TcpEndpoint};
use airq::{Duration, Ecn, Instant, Packet};

/// The path.
#[derive(Clone, Copy, Debug)]
pub(super) struct PathSpec {
    pub(super) rate_bps: u64,
    /// One-way propagation delay, each way.
    pub(super) delay: Duration,
    pub(super) queue: QueueSpec,
    /// Probability that a data segment is lost before the queue.
    pub(super) loss: f64,
}

/// Decides whether to drop a client segment: (segment, now, client cwnd) → drop?
pub(super) type DropFilter = Box<dyn FnMut(&Segment, Instant, u32) -> bool>;

enum Event {
    /// A segment reaches an endpoint (`to_server`: the data direction).
    Arrive {
        flow: usize,
        to_server: bool,
        pkt: Pkt,
    },
    /// The bottleneck finished serialising a packet.
    LinkDone,
    /// An endpoint's timer may be due.
    Timer { flow: usize, server: bool },
}

/// One connection of the dumbbell.
pub(super) struct Flow {
    pub(super) client: TcpEndpoint,
    pub(super) server: TcpEndpoint,
    /// When the client's cwnd or ssthresh changed: (time, cwnd, ssthresh).
    pub(super) trace: Vec<(Instant, u32, u32)>,
    timer_at: [Option<Instant>; 2],
    loss: RngStream,
    /// Client segments sent, in order: (time, segment).
    pub(super) sent_log: Vec<(Instant, Segment)>,
    pub(super) log_segments: bool,
}

/// The test bed.
pub(super) struct Testbed {
    pub(super) path: PathSpec,
    pub(super) flows: Vec<Flow>,
    events: EventQueue<Event>,
    queue: Queue,
    link_busy: bool,
    pub(super) now: Instant,
    pub(super) drop_filter: Option<DropFilter>,
    /// IP bytes the bottleneck has sent.
    pub(super) link_bytes: u64,
    pub(super) queue_drops: u64,
    pub(super) random_drops: u64,
    pub(super) filter_drops: u64,
    pub(super) ce_marks: u64,
    events_run: u64,
    root: RngRoot,
    /// Check every endpoint's accounting before each event.
    pub(super) check_invariants: bool,
}

impl Testbed {
    pub(super) fn new(path: PathSpec, seed: u64) -> Testbed {
        let queue = Queue::new(path.queue);
        Testbed {
            path,
            flows: Vec::new(),
            events: EventQueue::default(),
            queue,
            link_busy: false,
            now: Instant::ZERO,
            drop_filter: None,
            link_bytes: 0,
            queue_drops: 0,
            random_drops: 0,
            filter_drops: 0,
            ce_marks: 0,
            events_run: 0,
            root: RngRoot::new(seed),
            check_invariants: false,
        }
    }

    /// Adds a flow whose client connects at `start` and writes `bytes` (`u64::MAX`:
    /// bulk); returns its index.
    pub(super) fn add_flow(
        &mut self,
        client: &TcpConfig,
        server: &TcpConfig,
        start: Instant,
        bytes: u64,
    ) -> usize {
        let flow = self.flows.len();
        let mut f = Flow {
            client: TcpEndpoint::client(client),
            server: TcpEndpoint::server(server),
            trace: Vec::new(),
            timer_at: [None; 2],
            loss: self.root.stream("tcp-test-loss", flow as u64),
            sent_log: Vec::new(),
            log_segments: false,
        };
        let mut out = Vec::new();
        f.client.connect(start, &mut out);
        f.client.write(bytes, start, &mut out);
        self.flows.push(f);
        self.now = self.now.max(Instant::ZERO);
        self.send_from_client(flow, start, out);
        self.arm(flow, false);
        flow
    }

    /// Lets a test act on an endpoint at the current time (write, close); what it sends
    /// goes on the path.
    pub(super) fn act(
        &mut self,
        flow: usize,
        server: bool,
        f: impl FnOnce(&mut TcpEndpoint, Instant, &mut Vec<Outgoing>),
    ) {
        let now = self.now;
        let mut out = Vec::new();
        let fl = &mut self.flows[flow];
        f(
            if server {
                &mut fl.server
            } else {
                &mut fl.client
            },
            now,
            &mut out,
        );
        if server {
            self.send_from_server(flow, out);
        } else {
            self.send_from_client(flow, now, out);
        }
        self.arm(flow, server);
    }

    /// Runs every event up to and including `until`.
    pub(super) fn run_until(&mut self, until: Instant) {
        while let Some(at) = self.events.peek_time() {
            if at > until {
                break;
            }
            let (at, event) = self.events.pop().expect("peeked");
            self.now = at;
            self.events_run += 1;
            assert!(self.events_run < 50_000_000, "livelock: too many events");
            if self.check_invariants {
                self.assert_invariants();
            }
            match event {
                Event::Arrive {
                    flow,
                    to_server,
                    pkt,
                } => self.arrive(flow, to_server, pkt),
                Event::LinkDone => {
                    self.link_busy = false;
                    self.start_link();
                }
                Event::Timer { flow, server } => self.timer(flow, server),
            }
        }
        self.now = until;
    }

    fn arrive(&mut self, flow: usize, to_server: bool, pkt: Pkt) {
        let now = self.now;
        let ce = pkt.ecn == Ecn::Ce;
        let mut out = Vec::new();
        let f = &mut self.flows[flow];
        if to_server {
            f.server.on_segment(now, &pkt.segment, ce, &mut out);
            self.send_from_server(flow, out);
            self.arm(flow, true);
        } else {
            f.client.on_segment(now, &pkt.segment, ce, &mut out);
            self.send_from_client(flow, now, out);
            self.arm(flow, false);
        }
    }

    fn timer(&mut self, flow: usize, server: bool) {
        let now = self.now;
        let f = &mut self.flows[flow];
        if f.timer_at[usize::from(server)] == Some(now) {
            f.timer_at[usize::from(server)] = None;
        }
        let ep = if server { &mut f.server } else { &mut f.client };
        if ep.next_timer().is_some_and(|t| t <= now) {
            let mut out = Vec::new();
            ep.on_timer(now, &mut out);
            if server {
                self.send_from_server(flow, out);
            } else {
                self.send_from_client(flow, now, out);
            }
        }
        self.arm(flow, server);
    }

    /// Makes sure a timer event exists for the endpoint's next timer.
    fn arm(&mut self, flow: usize, server: bool) {
        let f = &mut self.flows[flow];
        let ep = if server { &f.server } else { &f.client };
        if !server {
            let (c, s) = (ep.cwnd(), ep.ssthresh());
            if f.trace.last().is_none_or(|&(_, lc, ls)| (lc, ls) != (c, s)) {
                f.trace.push((self.now, c, s));
            }
        }
        let Some(at) = ep.next_timer() else { return };
        let slot = &mut f.timer_at[usize::from(server)];
        if slot.is_none_or(|s| at < s) {
            *slot = Some(at);
            self.events
                .schedule(at.max(self.now), Event::Timer { flow, server });
        }
    }

    /// Server → client: the reverse path, delay only.
    fn send_from_server(&mut self, flow: usize, out: Vec<Outgoing>) {
        for o in out {
            let pkt = Pkt {
                flow,
                segment: o.segment,
                ecn: if o.ect { Ecn::Ect0 } else { Ecn::NotEct },
                enqueue_time: self.now,
            };
            self.events.schedule(
                self.now + self.path.delay,
                Event::Arrive {
                    flow,
                    to_server: false,
                    pkt,
                },
            );
        }
    }

    /// Client → server: random loss, the drop filter, the queue.
    fn send_from_client(&mut self, flow: usize, now: Instant, out: Vec<Outgoing>) {
        for o in out {
            let f = &mut self.flows[flow];
            if f.log_segments {
                f.sent_log.push((now, o.segment));
            }
            if o.segment.len > 0 && f.loss.chance(self.path.loss) {
                self.random_drops += 1;
                continue;
            }
            let cwnd = f.client.cwnd();
            if let Some(filter) = self.drop_filter.as_mut() {
                if filter(&o.segment, now, cwnd) {
                    self.filter_drops += 1;
                    continue;
                }
            }
            let pkt = Pkt {
                flow,
                segment: o.segment,
                ecn: if o.ect { Ecn::Ect0 } else { Ecn::NotEct },
                enqueue_time: now,
            };
            self.enqueue(pkt);
        }
        self.start_link();
    }

    fn enqueue(&mut self, pkt: Pkt) {
        self.queue_drops += self.queue.enqueue(pkt, self.now);
    }

    /// Starts sending the next queued packet if the link is idle.
    fn start_link(&mut self) {
        if self.link_busy {
            return;
        }
        let now = self.now;
        let (pkt, drops) = self.queue.dequeue(now);
        self.queue_drops += drops;
        let Some(pkt) = pkt else { return };
        if pkt.ecn == Ecn::Ce {
            self.ce_marks += 1;
        }
        let bits = u64::from(pkt.len_bytes()) * 8;
        let tx = Duration::from_nanos(bits * 1_000_000_000 / self.path.rate_bps);
        self.link_bytes += u64::from(pkt.len_bytes());
        self.link_busy = true;
        self.events.schedule(now + tx, Event::LinkDone);
        let flow = pkt.flow;
        self.events.schedule(
            now + tx + self.path.delay,
            Event::Arrive {
                flow,
                to_server: true,
                pkt,
            },
        );
    }

    /// Checks every endpoint's accounting.
    pub(super) fn assert_invariants(&self) {
        for f in &self.flows {
            f.client.assert_invariants();
            f.server.assert_invariants();
        }
        self.queue.assert_invariants();
    }
}

/// The default Linux host configuration with a congestion control.
pub(super) fn linux(cc: crate::transport::tcp::CongestionControl) -> TcpConfig {
    TcpConfig {
        cc,
        ..TcpConfig::default()
    }
}

/// A FIFO bottleneck path: rate, RTT (split evenly), packet limit, no random loss.
pub(super) fn fifo_path(rate_mbps: u64, rtt_ms: u64, limit: usize) -> PathSpec {
    PathSpec {
        rate_bps: rate_mbps * 1_000_000,
        delay: Duration::from_millis(rtt_ms / 2),
        queue: QueueSpec::Fifo {
            limit_packets: limit,
        },
        loss: 0.0,
    }
}

/// A default Linux host: CUBIC.
pub(super) fn cubic() -> TcpConfig {
    linux(crate::transport::tcp::CongestionControl::Cubic)
}
