//! What soft admission control did in a run (`[ap.admission]`, seed netdev 2.2 §4.3),
//! read from the AP's counters for the results file: totals, per station and per flow,
//! whole run. `None` when it was off, so results without it are unchanged.

use crate::results::{AdmissionCounts, AdmissionSummary};
use airq::StationId;
use airq_sim::ap::{AdmissionCounters, ApTx};

/// The results' `admission` of a run whose AP is `ap`, with `stations` stations and
/// `flows` flows.
pub fn admission_data(ap: &ApTx, stations: usize, flows: usize) -> Option<AdmissionSummary> {
    let (stats, _) = ap.admission_stats()?;
    let counts = |c: Option<AdmissionCounters>| {
        let c = c.unwrap_or_default();
        AdmissionCounts {
            demoted_packets: c.demoted_packets,
            demotions: c.demotions,
            promotions: c.promotions,
            first_demotion_s: c.first_demotion.map(|t| t.as_nanos() as f64 / 1e9),
        }
    };
    Some(AdmissionSummary {
        priority_packets: stats.priority_packets,
        demoted_packets: stats.demoted_packets,
        demotions: stats.demotions,
        promotions: stats.promotions,
        flows_demoted_at_end: stats.flows_demoted,
        stations: (0..stations as u32)
            .map(|s| counts(ap.admission_station(StationId(s))))
            .collect(),
        flows: (0..flows as u32)
            .map(|f| counts(ap.admission_flow(f)))
            .collect(),
    })
}
