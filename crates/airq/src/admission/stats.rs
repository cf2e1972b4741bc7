//! Counters of soft admission control for one radio, beside the per-flow ones each
//! [`AdmissionFlow`](super::AdmissionFlow) keeps (`demotions`, `promotions`,
//! `demoted_packets`), as sch_cake keeps per-tin counters next to its flows'.

/// What [`super::Admission`] did. Counters only grow, except the two "now" gauges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdmissionStats {
    /// Packets classified, of any class.
    pub admitted_packets: u64,
    /// Of those, packets marked VO or VI.
    pub priority_packets: u64,
    /// Packets marked VO or VI sent to the demotion class instead.
    pub demoted_packets: u64,
    pub demoted_bytes: u64,
    /// Flow demotions and promotions back.
    pub demotions: u64,
    pub promotions: u64,
    /// Flow buckets demoted now (`demotions - promotions`).
    pub flows_demoted: u64,
    /// Packets admitted and not yet dequeued or dropped, all buckets.
    pub backlog_packets: u64,
    /// Dequeues or drops reported for a bucket whose backlog held less (contract
    /// violations; the backlog was emptied).
    pub underflows: u64,
}
