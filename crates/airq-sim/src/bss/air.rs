//! The air: the medium the nodes' EDCA functions contend for, the exchange on it, the
//! frame errors that decide each MPDU's fate.
//! It takes the nodes' transmit paths and the time as inputs and returns what an
//! exchange did as a value ([`ExchangeReport`]: the senders, the packets delivered in
//! order, the PPDUs aired); it never calls the hosts, so an exchange's end is MAC work
//! only and its deliveries reach the hosts afterwards.

use super::nodes::Nodes;
use super::BssScenario;
use crate::engine::rng::RngStream;
use crate::mac::block_ack_req::BlockAckReq;
use crate::mac::exchange::{
    block_ack_req_airtime, block_ack_req_duration, collided_airtime, exchange_airtime, lead, Lead,
};
use crate::mac::frame::{Mpdu, Ppdu};
use crate::mac::link::BssConfig;
use crate::mac::medium::{Access, EdcafId, Medium};
use crate::mac::txpath::{Dropped, TxPath};
use crate::metrics::{Metrics, StationMetrics};
use crate::net::packet::{NodeId, SimPacket};
use crate::phy::noise::db_to_ratio;
use crate::phy::per::{header_error, ChunkErrors};
use airq::phy::{mac_frame, Rate};
use airq::{Ac, Duration, Instant, StationId, Tid};

/// What is on the air during an exchange.
struct OnAir {
    edcaf: EdcafId,
    frame: Frame,
    /// The exchange's airtime for this transmitter.
    airtime: Duration,
}

/// What a transmitter sends.
enum Frame {
    Beacon,
    Data(Ppdu),
    BlockAckReq(BlockAckReq),
}

/// A PPDU as it was received, for a capture of the air: its MPDUs received without
/// error.
pub(super) struct AiredPpdu {
    pub started: Instant,
    pub rate: Rate,
    pub tid: Tid,
    pub aggregate: bool,
    pub snr_db: Option<f64>,
    pub mpdus: Vec<Mpdu>,
}

/// What an exchange that ended did. Its buffers go back to the air with
/// [`Air::recycle`] once used.
#[derive(Default)]
pub(super) struct ExchangeReport {
    /// The nodes whose transmissions ended, in the order they started.
    pub senders: Vec<NodeId>,
    /// Packets the recipients' reordering buffers let go, in order, for their hosts.
    pub delivered: Vec<SimPacket>,
    /// The PPDUs aired, when [`Air::end_exchange`] was asked to record them.
    pub aired: Vec<AiredPpdu>,
    /// Packets the transmitters dropped, with why.
    pub dropped: Dropped,
}

/// The medium, the exchange on it, and the receivers' state.
pub(super) struct Air {
    medium: Medium,
    on_air: Vec<OnAir>,
    collision: bool,
    /// The medium's next access as last scheduled, and that schedule's generation.
    contend_gen: u64,
    contend_at: Option<Instant>,
    /// Since when no exchange is on the air and no EDCA function contends.
    idle_since: Option<Instant>,
    /// Each station's frame-error draws (both directions of its link).
    error_rngs: Vec<RngStream>,
    winners: Vec<EdcafId>,
    internal: Vec<EdcafId>,
    spare: ExchangeReport,
    /// What the winners' transmit paths dropped taking their frames, until
    /// [`Air::take_dropped`].
    dropped: Dropped,
}

impl Air {
    pub fn new(medium: Medium, error_rngs: Vec<RngStream>) -> Air {
        Air {
            medium,
            on_air: Vec::new(),
            collision: false,
            contend_gen: 0,
            contend_at: None,
            idle_since: None,
            error_rngs,
            winners: Vec::new(),
            internal: Vec::new(),
            spare: ExchangeReport::default(),
            dropped: Vec::new(),
        }
    }

    /// What the transmit paths dropped taking the frames of the exchange last started.
    pub fn take_dropped(&mut self) -> Dropped {
        std::mem::take(&mut self.dropped)
    }

    /// Activates or deactivates `node`'s data EDCA functions by whether it has frames.
    pub fn update_access(&mut self, nodes: &Nodes, node: NodeId, now: Instant) {
        for ac in Ac::ALL {
            let id = EdcafId::new(node, Access::Data(ac));
            if nodes.has_frames(node, ac) {
                self.medium.activate(id, now);
            } else {
                self.medium.deactivate(id);
            }
        }
    }

    /// The AP's beacon function contends from `now`.
    pub fn queue_beacon(&mut self, now: Instant) {
        self.medium
            .activate(EdcafId::new(NodeId::Ap, Access::Beacon), now);
    }

    /// The medium's next access if it moved since the last call: when, and the
    /// generation that a [`Air::is_current`] check of the wake-up will accept.
    pub fn reschedule(&mut self, now: Instant) -> Option<(Instant, u64)> {
        let next = self.medium.next_access().map(|t| t.max(now));
        if next == self.contend_at {
            return None;
        }
        self.contend_gen += 1;
        self.contend_at = next;
        next.map(|t| (t, self.contend_gen))
    }

    /// Whether a wake-up of generation `gen` is the medium's current next access; if so
    /// it is consumed.
    pub fn is_current(&mut self, gen: u64) -> bool {
        let current = gen == self.contend_gen;
        if current {
            self.contend_at = None;
        }
        current
    }

    /// Notes whether the medium is idle at `now`: the instant it went idle if it just
    /// did.
    pub fn watch_idle(&mut self, now: Instant) -> Option<Instant> {
        let idle = self.on_air.is_empty() && self.contend_at.is_none();
        match (idle, self.idle_since) {
            (true, None) => {
                self.idle_since = Some(now);
                self.idle_since
            }
            (false, Some(_)) => {
                self.idle_since = None;
                None
            }
            _ => None,
        }
    }

    /// Since when the medium has been idle, if it is.
    pub fn idle_since(&self) -> Option<Instant> {
        self.idle_since
    }

    /// The medium's access at `now`: the winners' PPDUs (and the beacon) go on the air.
    /// Returns when the exchange ends, `None` if nobody had anything to send.
    pub fn start_exchange(
        &mut self,
        now: Instant,
        bss: &BssConfig,
        nodes: &mut Nodes,
    ) -> Option<Instant> {
        let mut winners = std::mem::take(&mut self.winners);
        let mut internal = std::mem::take(&mut self.internal);
        self.medium.start(now, &mut winners, &mut internal);
        for &id in &winners {
            match id.access() {
                Access::Beacon => {
                    self.medium.deactivate(id);
                    let airtime = bss.beacon_rate.ppdu_duration(bss.beacon_bytes, bss.band);
                    self.on_air.push(OnAir {
                        edcaf: id,
                        frame: Frame::Beacon,
                        airtime,
                    });
                }
                Access::Data(ac) => {
                    let node = id.node();
                    let (frame, airtime) = match nodes.block_ack_req(node, ac) {
                        Some(bar) => (Frame::BlockAckReq(bar), block_ack_req_airtime(bss)),
                        None => match next_ppdu(nodes.tx_path(node), ac, now, &mut self.dropped) {
                            Some(ppdu) => {
                                let airtime = exchange_airtime(bss, &ppdu);
                                (Frame::Data(ppdu), airtime)
                            }
                            None => {
                                self.medium.deactivate(id);
                                continue;
                            }
                        },
                    };
                    self.on_air.push(OnAir {
                        edcaf: id,
                        frame,
                        airtime,
                    });
                }
            }
        }
        for &id in &internal {
            self.update_access(nodes, id.node(), now);
        }
        self.winners = winners;
        self.internal = internal;
        if self.on_air.is_empty() {
            self.medium.end(now, false);
            return None;
        }
        self.collision = self.on_air.len() > 1;
        let busy = if self.collision {
            // Everyone transmits what it started with: its RTS, or the whole PPDU or
            // BlockAckReq.
            self.on_air
                .iter_mut()
                .map(|a| {
                    match &a.frame {
                        Frame::Data(p) => a.airtime = collided_airtime(bss, p),
                        Frame::BlockAckReq(_) => a.airtime = block_ack_req_duration(bss),
                        Frame::Beacon => {}
                    }
                    a.airtime
                })
                .max()
                .expect("someone transmits")
        } else {
            self.on_air[0].airtime
        };
        Some(now + busy)
    }

    /// The exchange on the air ends at `now`: each MPDU is received or not, each
    /// transmitter's MAC learns the outcome, the recipients reorder what arrived, and
    /// the channel and station counters in `metrics` are updated. The rest of what
    /// happened is returned.
    pub fn end_exchange(
        &mut self,
        now: Instant,
        scenario: &BssScenario,
        nodes: &mut Nodes,
        metrics: &mut Metrics,
        record: bool,
    ) -> ExchangeReport {
        let collision = self.collision;
        let mut report = std::mem::take(&mut self.spare);
        let span = self
            .on_air
            .iter()
            .map(|a| a.airtime)
            .max()
            .unwrap_or_default();
        let channel = &mut metrics.channel;
        channel.exchanges += 1;
        if collision {
            channel.collisions += 1;
            channel.collision += span;
        } else {
            channel.busy += span;
        }
        let mut on_air = std::mem::take(&mut self.on_air);
        for a in on_air.drain(..) {
            let exchange_start = Instant::from_nanos(now.as_nanos() - span.as_nanos());
            let mut ppdu = match a.frame {
                Frame::Beacon => {
                    metrics.channel.beacon += a.airtime;
                    continue;
                }
                Frame::BlockAckReq(bar) => {
                    let ok = !collision
                        && !self.control_exchange_lost(scenario, bar.src, bar.dst, exchange_start);
                    self.account_control(metrics, bar.src, bar.dst, a.airtime, collision);
                    if ok {
                        self.medium.succeeded(a.edcaf);
                    } else {
                        self.medium.failed(a.edcaf);
                    }
                    nodes.block_ack_req_done(bar, ok, &mut report.delivered);
                    report.senders.push(bar.src);
                    continue;
                }
                Frame::Data(ppdu) => ppdu,
            };
            let station = station_of(ppdu.src, ppdu.dst);
            let uplink = ppdu.src != NodeId::Ap;
            let link = &scenario.stations[station.index()];
            // With a channel, the SNR of the PPDU as it started decides each MPDU's error
            // probability by its length; without, the link's fixed probability.
            let snr_db = link.channel.as_ref().map(|channel| {
                let bss = &scenario.bss;
                channel.snr_db(&bss.radio, bss.band, &ppdu.rate, uplink, exchange_start)
            });
            let errors = snr_db.map(|snr| ChunkErrors::new(&ppdu.rate, db_to_ratio(snr)));
            let fixed = link.mpdu_error;
            // With a channel, a PHY header in error loses the whole PPDU.
            let rng = &mut self.error_rngs[station.index()];
            let header_lost = !collision
                && snr_db.is_some_and(|snr| rng.chance(header_error(&ppdu.rate, db_to_ratio(snr))));
            let mut received = 0;
            for mpdu in &mut ppdu.mpdus {
                let error = errors.map_or(fixed, |e| e.mpdu_error(mpdu.mpdu_bytes()));
                mpdu.ok = !collision && !header_lost && !rng.chance(error);
                received += usize::from(mpdu.ok);
            }
            if record {
                report.aired.push(AiredPpdu {
                    started: now - a.airtime,
                    rate: ppdu.rate,
                    tid: ppdu.tid,
                    aggregate: ppdu.aggregate,
                    snr_db,
                    mpdus: ppdu.mpdus.iter().filter(|m| m.ok).cloned().collect(),
                });
            }
            let m = &mut metrics.stations[station.index()];
            let failures = (ppdu.mpdus.len() - received) as u64;
            let mpdus = ppdu.mpdus.len();
            let radio = if uplink {
                &mut m.radio_up
            } else {
                &mut m.radio_down
            };
            let rts = matches!(lead(&scenario.bss, &ppdu), Lead::Rts { .. });
            radio.record(&ppdu.rate, mpdus, rts, snr_db);
            if uplink {
                m.airtime_up += a.airtime;
                m.mpdu_failures_up += failures;
                StationMetrics::count_ppdu(&mut m.ampdu_mpdus_up, mpdus);
            } else {
                m.airtime_down += a.airtime;
                m.mpdu_failures_down += failures;
                StationMetrics::count_ppdu(&mut m.ampdu_mpdus_down, mpdus);
            }
            if collision {
                m.collisions += 1;
            }
            let (node, dst) = (ppdu.src, ppdu.dst);
            let (tid, aggregate) = (ppdu.tid, ppdu.aggregate);
            // The recipient's Ack or BlockAck may be lost (with a channel): it has what
            // it received, and the originator, which hears nothing, sends it all again.
            let response_lost = received > 0 && self.response_lost(scenario, &ppdu, exchange_start);
            if response_lost {
                let mut copies: Vec<(u64, SimPacket)> = Vec::new();
                for mpdu in ppdu.mpdus.iter_mut().filter(|m| m.ok) {
                    mpdu.ok = false;
                    mpdu.received = true;
                    copies.push((mpdu.seq, mpdu.packet.clone()));
                }
                nodes.receive(
                    (node, dst, tid),
                    &mut copies,
                    &mut report.delivered,
                    &mut report.dropped,
                );
            }
            let (outcome, mut out) = nodes.tx_path(node).tx_done(ppdu, a.airtime, now);
            debug_assert_eq!(
                outcome.acked as usize,
                if response_lost { 0 } else { received },
                "the MAC's report"
            );
            if outcome.resets_cw() {
                self.medium.succeeded(a.edcaf);
            } else {
                self.medium.failed(a.edcaf);
            }
            nodes.receive(
                (node, dst, tid),
                &mut out.acked,
                &mut report.delivered,
                &mut report.dropped,
            );
            nodes.gave_up(
                (node, dst),
                aggregate,
                &mut out.given_up,
                &mut report.delivered,
            );
            report.dropped.append(&mut out.dropped);
            // The AP charges the airtime of what it received (mac80211's
            // `ieee80211_sta_register_airtime`, called by ath9k's `ath_rx_count_airtime`
            // for frames that passed `ath9k_rx_skb_preprocess`, which drops those with
            // CRC errors): not a collided PPDU, nor one whose every MPDU was lost.
            if uplink && !collision && received > 0 {
                let result = nodes.ap.register_rx_airtime(station, tid, a.airtime, now);
                debug_assert!(result.is_ok(), "stations are the AP's");
            }
            report.senders.push(node);
        }
        self.on_air = on_air;
        self.medium.end(now, collision);
        report
    }

    /// Whether the Ack or BlockAck answering `ppdu` is lost: with a channel model, by
    /// the error rate of the response frame at its control rate and the SNR of the
    /// way back; without one never (the link's fixed error probability is a data
    /// MPDU's).
    fn response_lost(&mut self, scenario: &BssScenario, ppdu: &Ppdu, start: Instant) -> bool {
        let station = station_of(ppdu.src, ppdu.dst);
        let Some(channel) = &scenario.stations[station.index()].channel else {
            return false;
        };
        let bss = &scenario.bss;
        let rate = bss.control_rate(&ppdu.rate);
        let bytes = if ppdu.aggregate {
            mac_frame::BLOCK_ACK_COMPRESSED_BYTES
        } else {
            mac_frame::ACK_BYTES
        };
        let back = ppdu.src == NodeId::Ap; // the response goes up when the data went down
        let snr = channel.snr_db(&bss.radio, bss.band, &rate, back, start);
        let error = ChunkErrors::new(&rate, db_to_ratio(snr)).mpdu_error(bytes);
        self.error_rngs[station.index()].chance(error)
    }

    /// Whether a BlockAckReq exchange from `src` to `dst` fails by errors: with a
    /// channel model, the BlockAckReq at the lowest basic rate and its BlockAck at the
    /// response rate; without one never.
    fn control_exchange_lost(
        &mut self,
        scenario: &BssScenario,
        src: NodeId,
        dst: NodeId,
        start: Instant,
    ) -> bool {
        let station = station_of(src, dst);
        let Some(channel) = &scenario.stations[station.index()].channel else {
            return false;
        };
        let bss = &scenario.bss;
        let uplink = src != NodeId::Ap;
        let (bar_rate, ba_rate) = (
            bss.basic_rates.lowest(),
            bss.control_rate(&bss.basic_rates.lowest()),
        );
        let there = channel.snr_db(&bss.radio, bss.band, &bar_rate, uplink, start);
        let back = channel.snr_db(&bss.radio, bss.band, &ba_rate, !uplink, start);
        let rng = &mut self.error_rngs[station.index()];
        rng.chance(
            ChunkErrors::new(&bar_rate, db_to_ratio(there))
                .mpdu_error(mac_frame::BLOCK_ACK_REQ_COMPRESSED_BYTES),
        ) || rng.chance(
            ChunkErrors::new(&ba_rate, db_to_ratio(back))
                .mpdu_error(mac_frame::BLOCK_ACK_COMPRESSED_BYTES),
        )
    }

    /// Counts a control exchange's airtime for its station, each way as its sender.
    fn account_control(
        &self,
        metrics: &mut Metrics,
        src: NodeId,
        dst: NodeId,
        airtime: Duration,
        collision: bool,
    ) {
        let m = &mut metrics.stations[station_of(src, dst).index()];
        if src == NodeId::Ap {
            m.airtime_down += airtime;
        } else {
            m.airtime_up += airtime;
        }
        if collision {
            m.collisions += 1;
        }
    }

    /// Takes back the buffers of a report the hosts have done with.
    pub fn recycle(&mut self, mut report: ExchangeReport) {
        report.senders.clear();
        report.delivered.clear();
        report.aired.clear();
        report.dropped.clear();
        self.spare = report;
    }
}

/// The station at the other end of an exchange from the AP.
fn station_of(src: NodeId, dst: NodeId) -> StationId {
    match (src, dst) {
        (NodeId::Sta(s), _) | (_, NodeId::Sta(s)) => s,
        (NodeId::Ap, NodeId::Ap) => unreachable!("the AP does not send to itself"),
    }
}

/// The PPDU `path` sends for `ac` at `now`, and what it dropped taking its frames, into
/// `dropped`.
fn next_ppdu(path: &mut dyn TxPath, ac: Ac, now: Instant, dropped: &mut Dropped) -> Option<Ppdu> {
    let ppdu = path.next_ppdu(ac, now);
    path.take_dropped(dropped);
    ppdu
}
