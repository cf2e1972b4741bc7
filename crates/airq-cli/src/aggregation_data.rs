//! What the aggregation options of the seed's §4.1 and §4.3 did in a run
//! (`[ap.aggregate_sizing]`, `[ap.just_in_time]`, `[ap.qos_aggregate]`), read from the
//! AP's counters for the results file. `None` when all were off, so results without
//! them are unchanged.

use crate::results::{
    AggregateSizingSummary, AggregationSummary, JustInTimeSummary, QosAggregateSummary,
};
use airq_sim::ap::ApTx;

/// The results' `aggregation` of a run whose AP is `ap`.
pub fn aggregation_data(ap: &ApTx) -> Option<AggregationSummary> {
    let (sizing, jit) = ap.aggregation_stats();
    let qos = ap.qos_aggregate_stats();
    if sizing.is_none() && jit.is_none() && qos.is_none() {
        return None;
    }
    Some(AggregationSummary {
        sizing: sizing.map(|s| AggregateSizingSummary {
            aggregates: s.aggregates,
            capped: s.capped,
            mean_cap_us: s.cap_sum_us.checked_div(s.aggregates).unwrap_or(0),
        }),
        just_in_time: jit.map(|j| JustInTimeSummary {
            scheduled: j.scheduled,
            late: j.late,
        }),
        qos_aggregate: qos.map(|q| QosAggregateSummary {
            combined_aggregates: q.combined_aggregates,
            vo_frames_combined: q.vo_frames_combined,
            vo_txops_saved: q.vo_txops_saved,
            own_txop_occupancy: q.own_txop_occupancy,
            own_txop_contention: q.own_txop_contention,
            own_txop_waited: q.own_txop_waited,
        }),
    })
}
