//! What the aggregation options of the seed's §4.1 did in a run (`[ap.aggregate_sizing]`,
//! `[ap.just_in_time]`), read from the AP's counters for the results file. `None` when
//! both were off, so results without them are unchanged.

use crate::results::{AggregateSizingSummary, AggregationSummary, JustInTimeSummary};
use airq_sim::ap::ApTx;

/// The results' `aggregation` of a run whose AP is `ap`.
pub fn aggregation_data(ap: &ApTx) -> Option<AggregationSummary> {
    let (sizing, jit) = ap.aggregation_stats();
    if sizing.is_none() && jit.is_none() {
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
    })
}
