//! Human-readable statistics in the formats Linux tools print, so that people who know
//! `iw` and mac80211's debugfs read airq's numbers without a legend (reference:
//! `net/mac80211/debugfs.c` `aqm_read`, `debugfs_sta.c` `sta_aqm_read`,
//! `sta_airtime_read`; iw `station.c`). Formatting only: the caller writes the text
//! wherever it wants.
//!
//! One deliberate difference: the kernel's phy `aqm` prints `fq_overlimit` and
//! `fq_overmemory` with their values swapped (its arguments are passed in the wrong
//! order); we print each under its own name.

use crate::admission::{AdmissionParams, AdmissionStats};
use crate::aggregate::{AggregateSizingStats, JustInTimeStats, QosAggregateStats};
use crate::airtime::StationAirtimeStats;
use crate::aql::{Aql, AqlError};
use crate::fq::{FqParams, FqStats, Quantum, TinStats};
use crate::ids::{Ac, StationId, Tid};
use core::fmt;

/// The phy-wide `aqm` debugfs file: `access name value` rows.
pub struct PhyAqm<'a> {
    pub stats: &'a FqStats,
    pub params: &'a FqParams,
}

impl fmt::Display for PhyAqm<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, p) = (self.stats, self.params);
        let quantum = match p.quantum {
            Quantum::Bytes(n) | Quantum::Frames(n) => n,
        };
        writeln!(f, "access name value")?;
        writeln!(f, "R fq_flows_cnt {}", s.max_flows)?;
        writeln!(f, "R fq_backlog {}", s.backlog_packets)?;
        writeln!(f, "R fq_overlimit {}", s.overlimit)?;
        writeln!(f, "R fq_overmemory {}", s.overmemory)?;
        writeln!(f, "R fq_collisions {}", s.collisions)?;
        writeln!(f, "R fq_memory_usage {}", s.memory_usage_bytes)?;
        writeln!(f, "RW fq_memory_limit {}", p.memory_limit_bytes)?;
        writeln!(f, "RW fq_limit {}", p.limit_packets)?;
        writeln!(f, "RW fq_quantum {quantum}")
    }
}

/// A station's `aqm` debugfs file: one row per TXQ (TID) with its FQ-CoDel counters.
pub struct StationAqm<'a> {
    pub tids: &'a [(Tid, TinStats)],
}

impl fmt::Display for StationAqm<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "tid ac backlog-bytes backlog-packets new-flows drops marks overlimit collisions tx-bytes tx-packets"
        )?;
        for (tid, s) in self.tids {
            write!(f, "{} {}", tid.get(), tid.ac().index())?;
            write_txq_counters(f, " ", s)?;
        }
        Ok(())
    }
}

/// Dynamic aggregate sizing's counters ([`crate::aggregate::sizing`]; not in Linux), as
/// `access name value` rows like the phy `aqm` file's, with the mean cap given.
pub struct AggregateSizingReport<'a>(pub &'a AggregateSizingStats);

impl fmt::Display for AggregateSizingReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        writeln!(f, "access name value")?;
        writeln!(f, "R aggregates_sized {}", s.aggregates)?;
        writeln!(f, "R aggregates_capped {}", s.capped)?;
        let mean_us = s.cap_sum_us.checked_div(s.aggregates).unwrap_or(0);
        writeln!(f, "R mean_cap_us {mean_us}")
    }
}

/// Just-in-time aggregates' counters ([`crate::aggregate::just_in_time`]; not in Linux),
/// as `access name value` rows.
pub struct JustInTimeReport<'a>(pub &'a JustInTimeStats);

impl fmt::Display for JustInTimeReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "access name value")?;
        writeln!(f, "R jit_builds_scheduled {}", self.0.scheduled)?;
        writeln!(f, "R jit_builds_late {}", self.0.late)
    }
}

/// Combined QoS aggregates' counters ([`crate::aggregate::qos_aggregate`]; not in
/// Linux), as `access name value` rows.
pub struct QosAggregateReport<'a>(pub &'a QosAggregateStats);

impl fmt::Display for QosAggregateReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        writeln!(f, "access name value")?;
        writeln!(f, "R qos_combined_aggregates {}", s.combined_aggregates)?;
        writeln!(f, "R qos_vo_frames_combined {}", s.vo_frames_combined)?;
        writeln!(f, "R qos_vo_txops_saved {}", s.vo_txops_saved)?;
        writeln!(f, "R qos_own_txop_occupancy {}", s.own_txop_occupancy)?;
        writeln!(f, "R qos_own_txop_contention {}", s.own_txop_contention)?;
        writeln!(f, "R qos_own_txop_waited {}", s.own_txop_waited)
    }
}

/// A station's `airtime` debugfs file.
pub struct StationAirtime<'a>(pub &'a StationAirtimeStats);

impl fmt::Display for StationAirtime<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        writeln!(f, "RX: {} us", s.rx_airtime_us.iter().sum::<u64>())?;
        writeln!(f, "TX: {} us", s.tx_airtime_us.iter().sum::<u64>())?;
        writeln!(f, "Weight: {}", s.weight_us)?;
        write!(f, "Deficit:")?;
        for ac in Ac::ALL {
            write!(f, " {ac}: {} us", s.deficit_us[ac.index()])?;
        }
        writeln!(f)
    }
}

/// The airtime and TXQ part of `iw dev … station dump -v` for one station.
pub struct IwStation<'a> {
    pub airtime: &'a StationAirtimeStats,
    pub tids: &'a [(Tid, TinStats)],
}

impl fmt::Display for IwStation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.airtime;
        writeln!(
            f,
            "\ttx duration:\t{} us",
            a.tx_airtime_us.iter().sum::<u64>()
        )?;
        writeln!(
            f,
            "\trx duration:\t{} us",
            a.rx_airtime_us.iter().sum::<u64>()
        )?;
        writeln!(f, "\tairtime weight: {}", a.weight_us)?;
        writeln!(
            f,
            "\tTID\tqsz-byt\tqsz-pkt\tflows\tdrops\tmarks\toverlmt\thashcol\ttx-bytes\ttx-packets"
        )?;
        for (tid, s) in self.tids {
            write!(f, "\t{}", tid.get())?;
            write_txq_counters(f, "\t", s)?;
        }
        Ok(())
    }
}

/// A TXQ's FQ-CoDel counters in the order both debugfs `aqm` and iw print them (backlog
/// bytes and packets, flows, drops, marks, overlimit, collisions, tx bytes and packets),
/// each after `sep`, then the end of the line.
fn write_txq_counters(f: &mut fmt::Formatter<'_>, sep: &str, s: &TinStats) -> fmt::Result {
    let counters = [
        s.backlog_bytes,
        u64::from(s.backlog_packets),
        s.flows,
        s.codel.drop_count,
        s.codel.ecn_mark,
        s.overlimit,
        s.collisions,
        s.tx_bytes,
        s.tx_packets,
    ];
    for value in counters {
        write!(f, "{sep}{value}")?;
    }
    writeln!(f)
}

/// The phy `aql_pending` debugfs file: airtime pending below the MAC per AC.
pub struct PhyAqlPending<'a>(pub &'a Aql);

impl fmt::Display for PhyAqlPending<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "AC     AQL pending")?;
        for ac in Ac::ALL {
            writeln!(f, "{ac}     {} us", self.0.ac_pending_us(ac))?;
        }
        writeln!(f, "total  {} us", self.0.total_pending_us())
    }
}

/// A station's `aql` debugfs file: pending airtime and limits per AC.
pub struct StationAql<'a> {
    pub aql: &'a Aql,
    pub station: StationId,
}

impl StationAql<'_> {
    /// Checks the station is known to AQL, so that formatting cannot fail on it.
    pub fn new(aql: &Aql, station: StationId) -> Result<StationAql<'_>, AqlError> {
        aql.station_pending_us(station, Ac::Be)?;
        Ok(StationAql { aql, station })
    }
}

impl fmt::Display for StationAql<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (aql, id) = (self.aql, self.station);
        write!(f, "Q depth:")?;
        for ac in Ac::ALL {
            let pending = aql.station_pending_us(id, ac).map_err(|_| fmt::Error)?;
            write!(f, " {ac}: {pending} us")?;
        }
        write!(f, "\nQ limit[low/high]:")?;
        for ac in Ac::ALL {
            let l = aql.station_limits(id, ac).map_err(|_| fmt::Error)?;
            write!(f, " {ac}: {}/{}", l.aql_limit_low_us, l.aql_limit_high_us)?;
        }
        writeln!(f)
    }
}

/// Soft admission control's counters and parameters ([`crate::admission`]), as a phy
/// debugfs file in `aqm`'s `access name value` form. The kernel has no such file (it has
/// no admission control); the names are ours.
pub struct PhyAdmission<'a> {
    pub stats: &'a AdmissionStats,
    pub params: &'a AdmissionParams,
}

impl fmt::Display for PhyAdmission<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, p) = (self.stats, self.params);
        writeln!(f, "access name value")?;
        writeln!(f, "R admitted_packets {}", s.admitted_packets)?;
        writeln!(f, "R priority_packets {}", s.priority_packets)?;
        writeln!(f, "R demoted_packets {}", s.demoted_packets)?;
        writeln!(f, "R demoted_bytes {}", s.demoted_bytes)?;
        writeln!(f, "R demotions {}", s.demotions)?;
        writeln!(f, "R promotions {}", s.promotions)?;
        writeln!(f, "R flows_demoted {}", s.flows_demoted)?;
        writeln!(f, "R backlog_packets {}", s.backlog_packets)?;
        writeln!(f, "R underflows {}", s.underflows)?;
        writeln!(f, "RW target_us {}", p.target.as_micros())?;
        writeln!(f, "RW interval_us {}", p.interval.as_micros())?;
        writeln!(f, "RW promote_after_us {}", p.promote_after.as_micros())?;
        writeln!(f, "RW mtu_bytes {}", p.mtu_bytes)?;
        writeln!(f, "RW demote_to {}", p.demote_to)?;
        writeln!(f, "RW flows {}", p.flows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codel::CodelStats;
    use crate::ids::StationId;
    use alloc::format;

    fn tin() -> TinStats {
        TinStats {
            backlog_bytes: 3000,
            backlog_packets: 2,
            flows: 5,
            collisions: 1,
            overlimit: 3,
            tx_bytes: 150_000,
            tx_packets: 100,
            codel: CodelStats {
                drop_count: 7,
                ecn_mark: 4,
                ..CodelStats::default()
            },
            ..TinStats::default()
        }
    }

    #[test]
    fn just_in_time_rows() {
        let stats = JustInTimeStats {
            scheduled: 9,
            late: 2,
        };
        assert_eq!(
            format!("{}", JustInTimeReport(&stats)),
            "access name value\nR jit_builds_scheduled 9\nR jit_builds_late 2\n"
        );
    }

    #[test]
    fn aggregate_sizing_rows() {
        let stats = AggregateSizingStats {
            aggregates: 4,
            capped: 3,
            cap_sum_us: 7000,
        };
        assert_eq!(
            format!("{}", AggregateSizingReport(&stats)),
            "access name value\nR aggregates_sized 4\nR aggregates_capped 3\nR mean_cap_us 1750\n"
        );
        let none = AggregateSizingStats::default();
        assert!(format!("{}", AggregateSizingReport(&none)).ends_with("mean_cap_us 0\n"));
    }

    #[test]
    fn qos_aggregate_rows() {
        let stats = QosAggregateStats {
            combined_aggregates: 5,
            vo_frames_combined: 6,
            vo_txops_saved: 5,
            own_txop_occupancy: 1,
            own_txop_contention: 2,
            own_txop_waited: 3,
        };
        assert_eq!(
            format!("{}", QosAggregateReport(&stats)),
            "access name value\nR qos_combined_aggregates 5\nR qos_vo_frames_combined 6\n\
             R qos_vo_txops_saved 5\nR qos_own_txop_occupancy 1\nR qos_own_txop_contention 2\n\
             R qos_own_txop_waited 3\n"
        );
    }

    #[test]
    fn phy_aqm_matches_debugfs_rows() {
        let stats = FqStats {
            max_flows: 4096,
            backlog_packets: 12,
            overlimit: 2,
            overmemory: 1,
            collisions: 3,
            memory_usage_bytes: 18_000,
            ..FqStats::default()
        };
        let text = format!(
            "{}",
            PhyAqm {
                stats: &stats,
                params: &FqParams::default()
            }
        );
        assert_eq!(
            text,
            "access name value\nR fq_flows_cnt 4096\nR fq_backlog 12\nR fq_overlimit 2\n\
             R fq_overmemory 1\nR fq_collisions 3\nR fq_memory_usage 18000\n\
             RW fq_memory_limit 16777216\nRW fq_limit 8192\nRW fq_quantum 300\n"
        );
    }

    #[test]
    fn station_aqm_rows() {
        let tids = [(Tid::new(0).unwrap(), tin())];
        let text = format!("{}", StationAqm { tids: &tids });
        assert_eq!(
            text.lines().nth(1),
            Some("0 2 3000 2 5 7 4 3 1 150000 100"),
            "tid 0 is AC 2 (BE)"
        );
    }

    #[test]
    fn airtime_and_iw_station() {
        let a = StationAirtimeStats {
            station: StationId(1),
            weight_us: 256,
            tx_airtime_us: [10, 20, 30, 40],
            rx_airtime_us: [1, 2, 3, 4],
            deficit_us: [256, 256, -100, 256],
            refills: [0; 4],
        };
        assert_eq!(
            format!("{}", StationAirtime(&a)),
            "RX: 10 us\nTX: 100 us\nWeight: 256\nDeficit: VO: 256 us VI: 256 us BE: -100 us BK: 256 us\n"
        );
        let tids = [(Tid::new(6).unwrap(), tin())];
        let iw = format!(
            "{}",
            IwStation {
                airtime: &a,
                tids: &tids
            }
        );
        assert!(iw
            .starts_with("\ttx duration:\t100 us\n\trx duration:\t10 us\n\tairtime weight: 256\n"));
        assert!(iw.ends_with("\t6\t3000\t2\t5\t7\t4\t3\t1\t150000\t100\n"));
    }

    #[test]
    fn phy_admission_rows() {
        let stats = AdmissionStats {
            admitted_packets: 100,
            priority_packets: 60,
            demoted_packets: 40,
            demoted_bytes: 60_000,
            demotions: 2,
            promotions: 1,
            flows_demoted: 1,
            backlog_packets: 5,
            underflows: 0,
        };
        let text = format!(
            "{}",
            PhyAdmission {
                stats: &stats,
                params: &AdmissionParams::default()
            }
        );
        assert_eq!(
            text,
            "access name value\nR admitted_packets 100\nR priority_packets 60\n\
             R demoted_packets 40\nR demoted_bytes 60000\nR demotions 2\nR promotions 1\n\
             R flows_demoted 1\nR backlog_packets 5\nR underflows 0\nRW target_us 5000\n\
             RW interval_us 100000\nRW promote_after_us 1000000\nRW mtu_bytes 1514\n\
             RW demote_to BE\nRW flows 1024\n"
        );
    }

    #[test]
    fn aql_files() {
        let mut aql = Aql::new(crate::aql::AqlParams::default()).unwrap();
        aql.register_station(StationId(3)).unwrap();
        aql.charge(StationId(3), Ac::Be, 1200).unwrap();
        aql.charge(StationId(3), Ac::Vo, 80).unwrap();
        assert_eq!(
            format!("{}", PhyAqlPending(&aql)),
            "AC     AQL pending\nVO     80 us\nVI     0 us\nBE     1200 us\nBK     0 us\ntotal  1280 us\n"
        );
        let sta = StationAql::new(&aql, StationId(3)).unwrap();
        assert_eq!(
            format!("{sta}"),
            "Q depth: VO: 80 us VI: 0 us BE: 1200 us BK: 0 us\n\
             Q limit[low/high]: VO: 5000/12000 VI: 5000/12000 BE: 5000/12000 BK: 5000/12000\n"
        );
        assert!(StationAql::new(&aql, StationId(4)).is_err());
    }
}
