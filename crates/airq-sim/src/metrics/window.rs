//! Measurements over a window that starts after a warm-up (iperf3's `--omit`, flent's
//! "omit" of the start): counters at the window's end minus their values at its start.
//! A transient at the start of a run (TCP's slow start, queues filling) otherwise weighs
//! on every summary of a short run. The time series are not windowed: they show the
//! whole run, warm-up included.

use super::{ChannelMetrics, FlowMetrics, Metrics, StationMetrics, TcpCounters};
use airq::Duration;

impl Metrics {
    /// Takes the time series out (the samples and the AP queue's), leaving them empty.
    pub(crate) fn take_series(&mut self) -> (Vec<super::Sample>, Vec<super::QueueDepth>) {
        (
            core::mem::take(&mut self.series),
            core::mem::take(&mut self.ap_queue),
        )
    }

    /// What happened after `start` was taken (a copy of these metrics at `from`): every
    /// counter less its value then; ping requests and replies of requests sent from
    /// `from` on. Fields the simulator restarts at the window's start instead
    /// (`delay_max`, VoIP summaries, page loads) are taken as they are. `duration` is
    /// the window's length and `start` its start.
    pub fn since(&self, start: &Metrics, from: Duration) -> Metrics {
        Metrics {
            stations: self
                .stations
                .iter()
                .zip(&start.stations)
                .map(|(now, then)| now.since(then))
                .collect(),
            flows: self
                .flows
                .iter()
                .zip(&start.flows)
                .map(|(now, then)| now.since(then, from))
                .collect(),
            series: self.series.clone(),
            ap_queue: self.ap_queue.clone(),
            channel: self.channel.since(&start.channel),
            events: self.events,
            stalls: self.stalls.clone(),
            starvation: self.starvation.clone(),
            start: from,
            duration: (self.start + self.duration).saturating_sub(from),
        }
    }
}

impl StationMetrics {
    fn since(&self, then: &StationMetrics) -> StationMetrics {
        let hist = |now: &[u64], then: &[u64]| -> Vec<u64> {
            now.iter()
                .enumerate()
                .map(|(i, n)| n - then.get(i).copied().unwrap_or(0))
                .collect()
        };
        let mut drops = self.drops;
        for (d, t) in drops.iter_mut().zip(then.drops) {
            *d -= t;
        }
        StationMetrics {
            rx_bytes_down: self.rx_bytes_down - then.rx_bytes_down,
            rx_bytes_up: self.rx_bytes_up - then.rx_bytes_up,
            rx_packets_down: self.rx_packets_down - then.rx_packets_down,
            rx_packets_up: self.rx_packets_up - then.rx_packets_up,
            airtime_down: self.airtime_down - then.airtime_down,
            airtime_up: self.airtime_up - then.airtime_up,
            ampdu_mpdus_down: hist(&self.ampdu_mpdus_down, &then.ampdu_mpdus_down),
            ampdu_mpdus_up: hist(&self.ampdu_mpdus_up, &then.ampdu_mpdus_up),
            mpdu_failures_down: self.mpdu_failures_down - then.mpdu_failures_down,
            mpdu_failures_up: self.mpdu_failures_up - then.mpdu_failures_up,
            collisions: self.collisions - then.collisions,
            drops,
            delay_sum: self.delay_sum - then.delay_sum,
            delay_max: self.delay_max,
            radio_down: self.radio_down.since(&then.radio_down),
            radio_up: self.radio_up.since(&then.radio_up),
        }
    }
}

impl FlowMetrics {
    fn since(&self, then: &FlowMetrics, from: Duration) -> FlowMetrics {
        FlowMetrics {
            station: self.station,
            rx_bytes: self.rx_bytes - then.rx_bytes,
            rx_packets: self.rx_packets - then.rx_packets,
            echo_requests: self
                .echo_requests
                .iter()
                .copied()
                .filter(|&t| t >= from)
                .collect(),
            rtt: self
                .rtt
                .iter()
                .copied()
                .filter(|s| s.at.saturating_sub(s.rtt) >= from)
                .collect(),
            voip: self.voip,
            tcp: self.tcp.map(|now| {
                let then = then.tcp.unwrap_or_default();
                TcpCounters {
                    connections: now.connections,
                    retransmits: now.retransmits - then.retransmits,
                    rto_timeouts: now.rto_timeouts - then.rto_timeouts,
                    tlp_probes: now.tlp_probes - then.tlp_probes,
                    ce_received: now.ce_received - then.ce_received,
                    ecn_reductions: now.ecn_reductions - then.ecn_reductions,
                }
            }),
            page_loads: self.page_loads.clone(),
        }
    }
}

impl ChannelMetrics {
    fn since(&self, then: &ChannelMetrics) -> ChannelMetrics {
        ChannelMetrics {
            busy: self.busy - then.busy,
            collision: self.collision - then.collision,
            beacon: self.beacon - then.beacon,
            exchanges: self.exchanges - then.exchanges,
            collisions: self.collisions - then.collisions,
        }
    }
}
