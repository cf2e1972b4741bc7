//! The radio side of the loop: which nodes contend, the medium's accesses, and what an
//! exchange carries and costs.

use super::{Event, OnAir, Simulation};
use crate::ap::ApTx;
use crate::mac::exchange::{collided_airtime, exchange_airtime};
use crate::mac::medium::{Access, EdcafId};
use crate::mac::txpath::TxPath;
use crate::metrics::StationMetrics;
use crate::net::packet::NodeId;
use crate::phy::noise::db_to_ratio;
use crate::phy::per::ChunkErrors;
use crate::station::StationTx;
use airq::{Ac, Instant};

impl Simulation {
    pub(super) fn tx_path(&mut self, node: NodeId) -> &mut dyn TxPath {
        tx_path(&mut self.ap, &mut self.stations, node)
    }

    /// Activates or deactivates `node`'s data EDCAFs by whether it has frames.
    pub(super) fn update_access(&mut self, node: NodeId) {
        for ac in Ac::ALL {
            let has = self.tx_path(node).has_frames(ac);
            let id = EdcafId::new(node, Access::Data(ac));
            if has {
                self.medium.activate(id, self.now);
            } else {
                self.medium.deactivate(id);
            }
        }
    }

    /// (Re)schedules the medium's next access after a change.
    pub(super) fn schedule_contention(&mut self) {
        let next = self.medium.next_access().map(|t| t.max(self.now));
        if next != self.contend_at {
            self.contend_gen += 1;
            self.contend_at = next;
            if let Some(t) = next {
                self.events.schedule(t, Event::Contend(self.contend_gen));
            }
        }
    }

    pub(super) fn start_exchange(&mut self) {
        let now = self.now;
        let mut winners = std::mem::take(&mut self.winners);
        let mut internal = std::mem::take(&mut self.internal);
        self.medium.start(now, &mut winners, &mut internal);
        for &id in &winners {
            match id.access() {
                Access::Beacon => {
                    self.medium.deactivate(id);
                    let bss = &self.scenario.bss;
                    let airtime = bss.beacon_rate.ppdu_duration(bss.beacon_bytes, bss.band);
                    self.on_air.push(OnAir {
                        edcaf: id,
                        ppdu: None,
                        airtime,
                    });
                }
                Access::Data(ac) => {
                    let node = id.node();
                    let ppdu = tx_path(&mut self.ap, &mut self.stations, node).next_ppdu(
                        ac,
                        now,
                        &mut self.out,
                    );
                    self.drain_out();
                    match ppdu {
                        Some(ppdu) => {
                            let airtime = exchange_airtime(&self.scenario.bss, &ppdu);
                            self.on_air.push(OnAir {
                                edcaf: id,
                                ppdu: Some(ppdu),
                                airtime,
                            });
                        }
                        None => self.medium.deactivate(id),
                    }
                }
            }
        }
        for &id in &internal {
            self.update_access(id.node());
        }
        self.winners = winners;
        self.internal = internal;
        if self.on_air.is_empty() {
            self.medium.end(now, false);
            return;
        }
        self.collision = self.on_air.len() > 1;
        let bss = &self.scenario.bss;
        let busy = if self.collision {
            // Everyone transmits what it started with: its RTS, or the whole PPDU.
            self.on_air
                .iter_mut()
                .map(|a| {
                    let on_air = match &a.ppdu {
                        Some(p) => collided_airtime(bss, p),
                        None => a.airtime,
                    };
                    a.airtime = on_air;
                    on_air
                })
                .max()
                .expect("someone transmits")
        } else {
            self.on_air[0].airtime
        };
        self.events.schedule(now + busy, Event::ExchangeEnd);
    }

    pub(super) fn end_exchange(&mut self) {
        let now = self.now;
        let collision = self.collision;
        let mut on_air = std::mem::take(&mut self.on_air);
        let mut senders = std::mem::take(&mut self.senders);
        senders.clear();
        let span = on_air.iter().map(|a| a.airtime).max().unwrap_or_default();
        let channel = &mut self.metrics.channel;
        channel.exchanges += 1;
        if collision {
            channel.collisions += 1;
            channel.collision += span;
        } else {
            channel.busy += span;
        }
        for a in on_air.drain(..) {
            let Some(mut ppdu) = a.ppdu else {
                self.metrics.channel.beacon += a.airtime;
                continue;
            };
            let station = match (ppdu.src, ppdu.dst) {
                (NodeId::Sta(s), _) | (_, NodeId::Sta(s)) => s,
                (NodeId::Ap, NodeId::Ap) => unreachable!("the AP does not send to itself"),
            };
            let uplink = ppdu.src != NodeId::Ap;
            let link = &self.scenario.stations[station.index()];
            // With a channel, the SNR of the PPDU as it started decides each MPDU's error
            // probability by its length; without, the link's fixed probability.
            let snr_db = link.channel.as_ref().map(|channel| {
                let bss = &self.scenario.bss;
                let start = Instant::from_nanos(now.as_nanos() - span.as_nanos());
                channel.snr_db(&bss.radio, bss.band, &ppdu.rate, uplink, start)
            });
            let errors = snr_db.map(|snr| ChunkErrors::new(&ppdu.rate, db_to_ratio(snr)));
            let fixed = link.mpdu_error;
            let mut received = 0;
            for mpdu in &mut ppdu.mpdus {
                let error = errors.map_or(fixed, |e| e.mpdu_error(mpdu.mpdu_bytes()));
                mpdu.ok = !collision && !self.error_rngs[station.index()].chance(error);
                received += usize::from(mpdu.ok);
            }
            self.real_on_air(&ppdu, now - a.airtime, snr_db);
            let m = &mut self.metrics.stations[station.index()];
            let failures = (ppdu.mpdus.len() - received) as u64;
            let mpdus = ppdu.mpdus.len();
            let radio = if uplink {
                &mut m.radio_up
            } else {
                &mut m.radio_down
            };
            radio.record(&ppdu.rate, mpdus, snr_db);
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
            let tid = ppdu.tid;
            let outcome = tx_path(&mut self.ap, &mut self.stations, node).tx_done(
                ppdu,
                a.airtime,
                now,
                &mut self.out,
            );
            debug_assert_eq!(outcome.acked as usize, received, "the MAC's report");
            if outcome.resets_cw() {
                self.medium.succeeded(a.edcaf);
            } else {
                self.medium.failed(a.edcaf);
            }
            self.receive_at_recipient(node, dst, tid);
            self.drain_out();
            // The AP charges the airtime of what it received (mac80211's
            // `ieee80211_sta_register_airtime`, called by ath9k's `ath_rx_count_airtime`
            // for frames that passed `ath9k_rx_skb_preprocess`, which drops those with
            // CRC errors): not a collided PPDU, nor one whose every MPDU was lost.
            if uplink && !collision && received > 0 {
                let result = self.ap.register_rx_airtime(station, tid, a.airtime, now);
                debug_assert!(result.is_ok(), "stations are the AP's");
            }
            senders.push(node);
        }
        self.on_air = on_air;
        self.medium.end(now, collision);
        self.deliver_released();
        // The senders top up their saturated sources (whose packets just left) and
        // contend again for what they hold.
        for &node in &senders {
            self.refill(node);
            self.update_access(node);
        }
        self.senders = senders;
    }
}

/// The transmit path of `node`.
fn tx_path<'a>(
    ap: &'a mut ApTx,
    stations: &'a mut [StationTx],
    node: NodeId,
) -> &'a mut dyn TxPath {
    match node {
        NodeId::Ap => ap,
        NodeId::Sta(s) => &mut stations[s.index()],
    }
}
