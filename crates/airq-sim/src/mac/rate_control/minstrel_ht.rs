//! Minstrel-HT as Linux implements it (`net/mac80211/rc80211_minstrel_ht.c` and `.h`,
//! followed as of Linux 6.15, i.e. the v5.11 rework: sample-rate lists, 50 ms updates,
//! the noise-filtered average): per-rate attempt and success counts of each update
//! interval, a success probability filtered across intervals, a throughput estimate of
//! each rate from its airtime with per-frame overhead shared by the average A-MPDU, the
//! four best-throughput rates and the best-probability rate, and from them the
//! multi-rate retry chain (MRR) the hardware walks, each stage with as many tries as fit
//! a 6 ms segment. Every 20 ms one frame probes a rate from the sample lists
//! ([`super::sample`]).
//!
//! Integer arithmetic throughout, in the kernel's fixed point (probabilities scaled by
//! 2^12, `MINSTREL_FRAC`); no clock is read: the caller passes `now`.
//!
//! Every stage after the first goes behind an RTS/CTS exchange, "to increase chances of
//! getting through" (`minstrel_ht_set_rate` sets `IEEE80211_TX_RC_USE_RTS_CTS` on them,
//! and gives them the tries that fit the segment with the RTS/CTS overhead,
//! `retry_count_rtscts`); the first stage goes without (Linux also protects a
//! multi-stream stage in dynamic SM power save, which is not modelled).
//!
//! What the simulator does differently, and why: one PPDU is one attempt, so a stage's
//! tries are consumed by PPDUs that carry the failed MPDUs again ([`super::RateControl`]);
//! there are no CCK/OFDM legacy groups.

use super::groups::{
    group_of, mcs_of, rate_idx, RateIdx, RateTable, AVG_PKT_BYTES, MCS_GROUP_RATES,
};
use super::sample::{SampleLists, SampleTable};
use crate::engine::rng::RngStream;
use airq::{Duration, Instant};

/// `MINSTREL_SCALE`: probabilities are fractions of 2^12.
pub const SCALE: u32 = 12;

/// `MINSTREL_FRAC(val, div)`.
pub const fn frac(val: u32, div: u32) -> u32 {
    (val << SCALE) / div
}

/// `MINSTREL_TRUNC`.
const fn trunc(val: u32) -> u32 {
    val >> SCALE
}

/// Best-throughput rates kept (`MAX_THR_RATES`).
pub const MAX_THR_RATES: usize = 4;

/// `EWMA_LEVEL` / `EWMA_DIV`: the old value's weight in the A-MPDU length average.
const EWMA_LEVEL: i64 = 96;
const EWMA_DIV: i64 = 128;

/// The noise filter's coefficients (`MINSTREL_AVG_COEFF1..3`, period 16, scaled 2^12).
const AVG_COEFF2: i32 = 0x1499;
const AVG_COEFF3: i32 = -0x92e;
const AVG_COEFF1: i32 = (1 << SCALE) - AVG_COEFF2 - AVG_COEFF3;

/// Parameters, with mac80211's defaults (`minstrel_ht_alloc`, `rc80211_minstrel_ht.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinstrelHtParams {
    /// Statistics are folded and the rates chosen again this often (`HZ / 20`: 50 ms).
    pub update_interval: Duration,
    /// One probe at most this often (`MINSTREL_SAMPLE_INTERVAL`, `HZ / 50`: 20 ms).
    pub sample_interval: Duration,
    /// Stages of the retry chain (the hardware's `max_rates`: 4 for ath9k and mt76).
    pub max_rates: u8,
    /// Tries per stage at most (`max_retry`: 7 unless the driver says).
    pub max_retry: u8,
    /// The airtime one stage may take, µs (`segment_size`, 6000).
    pub segment_size_us: u32,
    /// The contention windows of the retry-count estimate (`cw_min` 15, `cw_max` 1023).
    pub cw_min: u32,
    pub cw_max: u32,
}

impl Default for MinstrelHtParams {
    fn default() -> Self {
        MinstrelHtParams {
            update_interval: Duration::from_millis(50),
            sample_interval: Duration::from_millis(20),
            max_rates: 4,
            max_retry: 7,
            segment_size_us: 6000,
            cw_min: 15,
            cw_max: 1023,
        }
    }
}

/// One rate's counters (`struct minstrel_rate_stats`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RateStats {
    attempts: u32,
    last_attempts: u32,
    success: u32,
    last_success: u32,
    pub(super) att_hist: u64,
    succ_hist: u64,
    /// The filtered success probability, and its previous value (the filter's state).
    pub(super) prob_avg: u32,
    prob_avg_1: u32,
    retry_count: u8,
    /// The tries that fit the segment behind RTS/CTS (`retry_count_rtscts`).
    retry_count_rtscts: u8,
    retry_updated: bool,
}

/// One group's state (`struct minstrel_mcs_group_data`).
#[derive(Clone, Debug)]
pub(super) struct GroupData {
    /// Where the group's walk of the sample table is.
    pub(super) index: u8,
    pub(super) column: u8,
    max_group_tp_rate: [RateIdx; MAX_THR_RATES],
    pub(super) max_group_prob_rate: RateIdx,
    pub(super) rates: [RateStats; MCS_GROUP_RATES],
}

/// What the algorithm did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MinstrelHtStats {
    /// MPDUs reported (`total_packets`).
    pub mpdus: u64,
    /// Of which in probes (`sample_packets`).
    pub probe_mpdus: u64,
    /// Probing PPDUs.
    pub probes: u64,
    /// Statistics updates (every `update_interval` with traffic).
    pub updates: u64,
}

/// One stage of the retry chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MrrStage {
    pub rate: RateIdx,
    pub tries: u8,
    /// Each try goes behind an RTS/CTS exchange (every stage but the first).
    pub rts: bool,
}

/// The state of one transmitter's rate control towards one receiver.
#[derive(Clone, Debug)]
pub struct MinstrelHt {
    params: MinstrelHtParams,
    pub(super) table: RateTable,
    pub(super) groups: Vec<GroupData>,
    /// MPDUs and PPDUs since the last update, and the average A-MPDU length (scaled).
    ampdu_len: u32,
    ampdu_packets: u32,
    avg_ampdu_len: u32,
    pub(super) max_tp_rate: [RateIdx; MAX_THR_RATES],
    pub(super) max_prob_rate: RateIdx,
    last_stats_update: Instant,
    sample_time: Instant,
    pub(super) sample: SampleLists,
    pub(super) sample_table: SampleTable,
    /// A frame's overhead beyond its data, µs: preamble and FCS of an empty frame at 6
    /// Mbit/s, SIFS, its Ack and SIFS (`mi->overhead`, 108 µs).
    overhead_us: u32,
    /// The same behind RTS/CTS: two more Ack-sized frames, each with its SIFS
    /// (`mi->overhead_rtscts = mi->overhead + 2 * ack_dur`, 108 + 2 × 60 = 228 µs).
    overhead_rtscts_us: u32,
    chain: [MrrStage; 4],
    chain_len: usize,
    stats: MinstrelHtStats,
}

impl MinstrelHt {
    /// The state of a new association (`minstrel_ht_update_caps`): no statistics, the
    /// chain on the lowest rate, the sample table drawn from `rng` (the kernel draws it
    /// once at boot with `get_random_bytes`).
    pub fn new(params: MinstrelHtParams, table: RateTable, rng: &mut RngStream) -> MinstrelHt {
        let groups = table
            .groups()
            .iter()
            .enumerate()
            .map(|(g, _)| GroupData {
                index: 0,
                column: 0,
                max_group_tp_rate: [rate_idx(g, 0); MAX_THR_RATES],
                max_group_prob_rate: rate_idx(g, 0),
                rates: [RateStats::default(); MCS_GROUP_RATES],
            })
            .collect();
        let mut mi = MinstrelHt {
            params,
            table,
            groups,
            ampdu_len: 0,
            ampdu_packets: 0,
            avg_ampdu_len: frac(1, 1),
            max_tp_rate: [0; MAX_THR_RATES],
            max_prob_rate: 0,
            last_stats_update: Instant::ZERO,
            sample_time: Instant::ZERO,
            sample: SampleLists::default(),
            sample_table: SampleTable::new(rng),
            overhead_us: OVERHEAD_US,
            overhead_rtscts_us: OVERHEAD_US + 2 * 60,
            chain: [MrrStage {
                rate: 0,
                tries: 0,
                rts: false,
            }; 4],
            chain_len: 0,
            stats: MinstrelHtStats::default(),
        };
        mi.update_stats(Instant::ZERO);
        mi.update_rates();
        mi
    }

    pub fn params(&self) -> &MinstrelHtParams {
        &self.params
    }

    pub fn stats(&self) -> &MinstrelHtStats {
        &self.stats
    }

    pub fn table(&self) -> &RateTable {
        &self.table
    }

    /// The retry chain now: max-throughput, second and third best, max-probability.
    pub fn chain(&self) -> &[MrrStage] {
        &self.chain[..self.chain_len]
    }

    /// The best-throughput rate.
    pub fn max_tp_rate(&self) -> RateIdx {
        self.max_tp_rate[0]
    }

    pub fn max_prob_rate(&self) -> RateIdx {
        self.max_prob_rate
    }

    /// The filtered success probability of a rate, scaled 2^12.
    pub fn prob_avg(&self, idx: RateIdx) -> u32 {
        self.groups[group_of(idx)].rates[mcs_of(idx)].prob_avg
    }

    /// A rate to probe if one is due at `now` (`minstrel_ht_get_rate`): at most one per
    /// `sample_interval`, and none if the sample lists are empty.
    pub fn probe_rate(&mut self, now: Instant) -> Option<RateIdx> {
        if now < self.sample_time {
            return None;
        }
        self.sample_time = now + self.params.sample_interval;
        let multi_rate = self.params.max_rates > 1;
        let idx = self.sample.next(multi_rate);
        (idx != 0).then_some(idx)
    }

    /// The outcome of one PPDU at `idx` (`minstrel_ht_tx_status`, one try at one rate):
    /// `mpdus` sent, `acked` received; updates statistics and the chain when due.
    pub fn tx_status(&mut self, idx: RateIdx, mpdus: u32, acked: u32, probe: bool, now: Instant) {
        self.stats.mpdus += u64::from(mpdus);
        if probe {
            self.stats.probe_mpdus += u64::from(mpdus);
            self.stats.probes += 1;
        }
        self.ampdu_packets += 1;
        self.ampdu_len += mpdus;
        let r = &mut self.groups[group_of(idx)].rates[mcs_of(idx)];
        r.success += acked;
        r.attempts += mpdus;

        let mut update = false;
        if self.params.max_rates > 1 {
            // Sudden death of spatial multiplexing: fall back to fewer streams.
            let p = self.groups[group_of(self.max_prob_rate)].rates[mcs_of(self.max_prob_rate)];
            if p.attempts > 30 && p.success < p.attempts / 4 {
                self.downgrade_prob_rate();
                update = true;
            }
        }
        if now > self.last_stats_update + self.params.update_interval {
            update = true;
            self.update_stats(now);
        }
        if update {
            self.update_rates();
        }
    }

    /// `minstrel_downgrade_prob_rate`: the max-probability rate of the lowest group
    /// with no more streams.
    fn downgrade_prob_rate(&mut self) {
        let orig = group_of(self.max_prob_rate);
        let streams = self.table.groups()[orig].streams;
        for g in (0..orig).rev() {
            let group = &self.table.groups()[g];
            if group.supported == 0 || group.streams > streams {
                continue;
            }
            self.max_prob_rate = self.groups[g].max_group_prob_rate;
        }
    }

    /// `minstrel_ht_avg_ampdu_len`: MPDUs per PPDU, at least 1.
    fn avg_ampdu_len(&self) -> u32 {
        if self.avg_ampdu_len != 0 {
            return trunc(self.avg_ampdu_len);
        }
        guessed_ampdu_len(self.table.duration_ns(self.max_tp_rate[0]))
    }

    /// `minstrel_ht_get_expected_throughput`: what the best-throughput rate carries at
    /// its success probability, kbit/s (the kernel's unit: packets per second of 1200
    /// bytes, × 8 / 1024). mac80211 hands it to `sta_update_codel_params`.
    pub fn expected_throughput_kbps(&self) -> u32 {
        let idx = self.max_tp_rate[0];
        tp_avg_kbps(self.tp_avg(idx, self.prob_avg(idx)))
    }

    /// `minstrel_ht_get_tp_avg`: the expected throughput of a rate at probability
    /// `prob` (scaled), in the kernel's units (packets per 10 ms, ×2^12... as it
    /// compares them, only the order matters); 0 below 10 %, the probability capped at
    /// 90 % for collisions.
    pub(super) fn tp_avg(&self, idx: RateIdx, prob: u32) -> u32 {
        tp_avg(
            self.table.duration_ns(idx),
            self.overhead_us,
            self.avg_ampdu_len(),
            prob,
        )
    }

    /// `minstrel_ht_sort_best_tp_rates`: inserts `index` into the sorted `list`.
    fn sort_best_tp_rates(&self, index: RateIdx, list: &mut [RateIdx; MAX_THR_RATES]) {
        let cur_prob = self.prob_avg(index);
        let cur_tp = self.tp_avg(index, cur_prob);
        let mut j = MAX_THR_RATES;
        while j > 0 {
            let tmp_prob = self.prob_avg(list[j - 1]);
            let tmp_tp = self.tp_avg(list[j - 1], tmp_prob);
            if cur_tp < tmp_tp || (cur_tp == tmp_tp && cur_prob <= tmp_prob) {
                break;
            }
            j -= 1;
        }
        if j < MAX_THR_RATES - 1 {
            list.copy_within(j..MAX_THR_RATES - 1, j + 1);
        }
        if j < MAX_THR_RATES {
            list[j] = index;
        }
    }

    /// `minstrel_ht_set_best_prob_rate`: the most reliable rate at least 18 % slower
    /// than the best two, preferring throughput among those above 75 %.
    fn set_best_prob_rate(&mut self, dest: &mut RateIdx, index: RateIdx) {
        let d = |i| self.table.duration_ns(i);
        let min_dur = d(self.max_tp_rate[0]).max(d(self.max_tp_rate[1]));
        if u64::from(d(index)) <= u64::from(min_dur) * 19 / 16 {
            return;
        }
        let g = group_of(index);
        let cur_prob = self.prob_avg(index);
        let tmp_prob = self.prob_avg(*dest);
        let tmp_tp = self.tp_avg(*dest, tmp_prob);
        let gpr = self.groups[g].max_group_prob_rate;
        let gpr_prob = self.prob_avg(gpr);
        if cur_prob > frac(75, 100) {
            let cur_tp = self.tp_avg(index, cur_prob);
            if cur_tp > tmp_tp {
                *dest = index;
            }
            if cur_tp > self.tp_avg(gpr, gpr_prob) {
                self.groups[g].max_group_prob_rate = index;
            }
        } else {
            if cur_prob > tmp_prob {
                *dest = index;
            }
            if cur_prob > gpr_prob {
                self.groups[g].max_group_prob_rate = index;
            }
        }
    }

    /// `minstrel_ht_update_stats`: folds the interval's counts into each rate's
    /// probability and chooses the rates again.
    fn update_stats(&mut self, now: Instant) {
        self.stats.updates += 1;
        if self.ampdu_packets > 0 {
            let cur = frac(self.ampdu_len, self.ampdu_packets);
            self.avg_ampdu_len = ewma(self.avg_ampdu_len, cur, EWMA_LEVEL);
            self.ampdu_len = 0;
            self.ampdu_packets = 0;
        }
        let first = rate_idx(0, 0);
        let mut tmp_max_prob = first;
        let mut tmp_tp = [first; MAX_THR_RATES];
        for g in 0..self.groups.len() {
            let supported = self.table.groups()[g].supported;
            if supported == 0 {
                continue;
            }
            let mut tmp_group_tp = [rate_idx(g, 0); MAX_THR_RATES];
            let mut last_prob = 0;
            for i in (0..MCS_GROUP_RATES).rev() {
                if supported & (1 << i) == 0 {
                    continue;
                }
                let index = rate_idx(g, i);
                let mrs = &mut self.groups[g].rates[i];
                mrs.retry_updated = false;
                calc_rate_stats(mrs);
                // A rate never tried is as good as the best faster rate tried.
                if mrs.att_hist > 0 {
                    last_prob = last_prob.max(mrs.prob_avg);
                } else {
                    mrs.prob_avg = mrs.prob_avg.max(last_prob);
                }
                let cur_prob = mrs.prob_avg;
                if self.tp_avg(index, cur_prob) == 0 {
                    continue;
                }
                self.sort_best_tp_rates(index, &mut tmp_tp);
                self.sort_best_tp_rates(index, &mut tmp_group_tp);
            }
            self.groups[g].max_group_tp_rate = tmp_group_tp;
        }
        self.max_tp_rate = tmp_tp;
        for g in 0..self.groups.len() {
            let supported = self.table.groups()[g].supported;
            if supported == 0 {
                continue;
            }
            self.groups[g].max_group_prob_rate = rate_idx(g, 0);
            for i in 0..MCS_GROUP_RATES {
                if supported & (1 << i) != 0 {
                    self.set_best_prob_rate(&mut tmp_max_prob, rate_idx(g, i));
                }
            }
        }
        self.max_prob_rate = tmp_max_prob;
        self.refill_sample_rates();
        self.last_stats_update = now;
        self.sample_time = now;
    }

    /// `minstrel_calc_retransmit`: tries of a rate that fit `segment_size` with the
    /// contention of each retry (9 µs slots, CW doubling from `cw_min`), 2 to
    /// `max_retry`; 1 below 10 %. Beside them, the tries that fit with the RTS/CTS
    /// overhead, counted over the same tries (so never more).
    fn calc_retransmit(&mut self, idx: RateIdx) {
        let p = self.params;
        let ampdu_len = self.avg_ampdu_len();
        let tx_time_data = self.table.duration_ns(idx) * ampdu_len / 1000;
        let (overhead, overhead_rtscts) = (self.overhead_us, self.overhead_rtscts_us);
        let mrs = &mut self.groups[group_of(idx)].rates[mcs_of(idx)];
        if mrs.prob_avg < frac(1, 10) {
            mrs.retry_count = 1;
            mrs.retry_count_rtscts = 1;
            return;
        }
        mrs.retry_count = 2;
        mrs.retry_count_rtscts = 2;
        mrs.retry_updated = true;
        const T_SLOT: u32 = 9;
        let mut cw = p.cw_min;
        let mut ctime = (T_SLOT * cw) >> 1;
        cw = ((cw << 1) | 1).min(p.cw_max);
        ctime += (T_SLOT * cw) >> 1;
        cw = ((cw << 1) | 1).min(p.cw_max);
        let mut tx_time = ctime + 2 * (overhead + tx_time_data);
        let mut tx_time_rtscts = ctime + 2 * (overhead_rtscts + tx_time_data);
        loop {
            let ctime = (T_SLOT * cw) >> 1;
            cw = ((cw << 1) | 1).min(p.cw_max);
            tx_time += ctime + overhead + tx_time_data;
            tx_time_rtscts += ctime + overhead_rtscts + tx_time_data;
            if tx_time_rtscts < p.segment_size_us {
                mrs.retry_count_rtscts += 1;
            }
            if tx_time >= p.segment_size_us {
                break;
            }
            mrs.retry_count += 1;
            if mrs.retry_count >= p.max_retry {
                break;
            }
        }
    }

    /// `minstrel_ht_set_rate`: stage `offset` of the chain, 2 tries below 20 %; a
    /// fallback stage (`offset` > 0) behind RTS/CTS, with the tries that fit with it.
    fn stage(&mut self, offset: usize, idx: RateIdx) -> MrrStage {
        if !self.groups[group_of(idx)].rates[mcs_of(idx)].retry_updated {
            self.calc_retransmit(idx);
        }
        let mrs = self.groups[group_of(idx)].rates[mcs_of(idx)];
        let rts = offset > 0;
        let tries = if mrs.prob_avg < frac(20, 100) || mrs.retry_count == 0 {
            2
        } else if rts {
            mrs.retry_count_rtscts
        } else {
            mrs.retry_count
        };
        MrrStage {
            rate: idx,
            tries,
            rts,
        }
    }

    /// `minstrel_ht_update_rates`: the chain is the best-throughput rates, the last
    /// stage kept for the max-probability rate.
    fn update_rates(&mut self) {
        let max_rates = usize::from(self.params.max_rates).clamp(1, 4);
        let mut i = 0;
        self.chain[i] = self.stage(i, self.max_tp_rate[0]);
        i += 1;
        while i + 1 < max_rates {
            self.chain[i] = self.stage(i, self.max_tp_rate[i]);
            i += 1;
        }
        if i < max_rates {
            self.chain[i] = self.stage(i, self.max_prob_rate);
            i += 1;
        }
        self.chain_len = i;
    }
}

/// `minstrel_ewma`.
/// A frame's overhead beyond its data, µs: preamble and FCS of an empty frame at 6
/// Mbit/s, SIFS, its Ack and SIFS (`mi->overhead`).
pub(super) const OVERHEAD_US: u32 = 108;

/// `minstrel_ht_get_tp_avg` of a rate whose average packet's data takes `duration_ns`,
/// sent `ampdu_len` to a PPDU that shares `overhead_us`, at success probability `prob`
/// (scaled).
pub(super) fn tp_avg(duration_ns: u32, overhead_us: u32, ampdu_len: u32, prob: u32) -> u32 {
    if prob < frac(10, 100) {
        return 0;
    }
    let nsecs = u64::from(1000 * overhead_us / ampdu_len.max(1)) + u64::from(duration_ns);
    let prob = u64::from(prob.min(frac(90, 100)));
    trunc((100 * (prob * 1_000_000 / nsecs)) as u32)
}

/// `minstrel_ht_get_expected_throughput`'s conversion of a `tp_avg` to kbit/s: × 10
/// packets per second, × `AVG_PKT_SIZE` × 8 / 1024.
pub(super) fn tp_avg_kbps(tp: u32) -> u32 {
    (u64::from(tp) * 10 * AVG_PKT_BYTES * 8 / 1024) as u32
}

/// `minstrel_ht_avg_ampdu_len`'s guess before any A-MPDU was counted, from the data
/// time of an average packet at the best rate.
pub(super) fn guessed_ampdu_len(duration_ns: u32) -> u32 {
    match duration_ns {
        d if d > 400_000 => 2,
        d if d > 250_000 => 4,
        d if d > 150_000 => 8,
        _ => 16,
    }
}

fn ewma(old: u32, new: u32, weight: i64) -> u32 {
    let (old, new) = (i64::from(old), i64::from(new));
    (old + (EWMA_DIV - weight) * (new - old) / EWMA_DIV) as u32
}

/// `minstrel_filter_avg_add`: a second-order low-pass (period 16 updates) of the
/// success probability; the first sample taken as is.
fn filter_avg_add(prev_1: &mut u32, prev_2: &mut u32, input: u32) -> u32 {
    let input = input.max(1) as i32;
    let out_1 = *prev_1 as i32;
    let out_2 = *prev_2 as i32;
    let val = if out_1 == 0 {
        *prev_2 = input as u32;
        *prev_1 = input as u32;
        return input as u32;
    } else {
        let v = (AVG_COEFF1 * input + AVG_COEFF2 * out_1 + AVG_COEFF3 * out_2) >> SCALE;
        v.clamp(1, 1 << SCALE)
    };
    *prev_2 = out_1 as u32;
    *prev_1 = val as u32;
    val as u32
}

/// `minstrel_ht_calc_rate_stats`: this interval's and the last one's counts give the
/// current probability, filtered into `prob_avg`.
fn calc_rate_stats(mrs: &mut RateStats) {
    if mrs.attempts > 0 {
        let cur = frac(
            mrs.success + mrs.last_success,
            mrs.attempts + mrs.last_attempts,
        );
        filter_avg_add(&mut mrs.prob_avg, &mut mrs.prob_avg_1, cur);
        mrs.att_hist += u64::from(mrs.attempts);
        mrs.succ_hist += u64::from(mrs.success);
    }
    mrs.last_success = mrs.success;
    mrs.last_attempts = mrs.attempts;
    mrs.success = 0;
    mrs.attempts = 0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::RngRoot;
    use airq::phy::{ChannelWidth, GuardInterval, Rate};

    fn minstrel(max_mcs: u8) -> MinstrelHt {
        let rate = Rate::ht(max_mcs, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
        let mut rng = RngRoot::new(1).stream("minstrel", 0);
        MinstrelHt::new(
            MinstrelHtParams::default(),
            RateTable::new(&rate).unwrap(),
            &mut rng,
        )
    }

    /// The filter's coefficients sum to one and a constant input is its fixed point.
    #[test]
    fn the_noise_filter_settles_on_a_constant() {
        assert_eq!(AVG_COEFF1 + AVG_COEFF2 + AVG_COEFF3, 1 << SCALE);
        let (mut p1, mut p2) = (0, 0);
        assert_eq!(filter_avg_add(&mut p1, &mut p2, frac(1, 2)), frac(1, 2));
        for _ in 0..10 {
            filter_avg_add(&mut p1, &mut p2, frac(1, 2));
        }
        assert!(p1.abs_diff(frac(1, 2)) <= 2, "{p1}");
        // A step from 100 % to 0 % (an input of 0 counts as 1): 1173 + 5273 × 4096 −
        // 2350 × 4096 over 4096 is 2923 (71 %), then 1413 (34 %), 142, and the floor.
        let (mut p1, mut p2) = (frac(1, 1), frac(1, 1));
        let steps: Vec<u32> = (0..5)
            .map(|_| filter_avg_add(&mut p1, &mut p2, 0))
            .collect();
        assert_eq!(steps, vec![2923, 1413, 142, 1, 1]);
    }

    /// `minstrel_ewma` with the kernel's 96/128.
    #[test]
    fn ewma_keeps_three_quarters() {
        assert_eq!(ewma(1000, 2000, EWMA_LEVEL), 1250);
        assert_eq!(ewma(2000, 1000, EWMA_LEVEL), 1750);
    }

    /// A fresh association starts on the lowest rate of the first group.
    #[test]
    fn a_new_station_starts_at_the_lowest_rate() {
        let mi = minstrel(7);
        assert_eq!(mi.max_tp_rate(), rate_idx(0, 0));
        assert_eq!(mi.chain().len(), 4);
        assert!(mi.chain().iter().all(|s| s.rate == 0 && s.tries == 2));
    }

    /// Throughput estimate: MCS 7 at 100 % beats MCS 0 at 100 % by its airtime ratio
    /// with the 108 µs overhead shared by the A-MPDU.
    #[test]
    fn throughput_follows_airtime_and_overhead() {
        let mut mi = minstrel(7);
        mi.avg_ampdu_len = frac(16, 1);
        let tp7 = mi.tp_avg(rate_idx(0, 7), frac(1, 1));
        let tp0 = mi.tp_avg(rate_idx(0, 0), frac(1, 1));
        // 0.9 * 1e6 / (108000/16 + 147750) and / (6750 + 1477000), ×100 / 4096 ... the
        // ratio is the airtime ratio.
        let ratio = f64::from(tp7) / f64::from(tp0);
        let expect = (6750.0 + 1_477_000.0) / (6750.0 + 147_750.0);
        assert!(
            (ratio - expect).abs() / expect < 0.02,
            "{ratio} vs {expect}"
        );
        assert_eq!(mi.tp_avg(rate_idx(0, 7), frac(9, 100)), 0, "below 10 %");
    }

    /// Feeding perfect success on MCS 0–5 and failure above: after an update the best
    /// rate is MCS 5, the max-probability rate a slower one, and the chain holds them.
    #[test]
    fn an_update_picks_the_best_rates() {
        let mut mi = minstrel(7);
        let mut now = Instant::ZERO;
        for _ in 0..20 {
            now += Duration::from_millis(10);
            for m in 0..8 {
                let acked = if m <= 5 { 16 } else { 0 };
                mi.tx_status(rate_idx(0, m), 16, acked, false, now);
            }
        }
        assert_eq!(mi.max_tp_rate(), rate_idx(0, 5));
        assert_eq!(mi.max_tp_rate[1], rate_idx(0, 4));
        assert!(mcs_of(mi.max_prob_rate()) < 5);
        let chain = mi.chain();
        assert_eq!(chain[0].rate, rate_idx(0, 5));
        assert_eq!(chain[3].rate, mi.max_prob_rate());
        assert!(
            chain.iter().all(|s| (2..=7).contains(&s.tries)),
            "{chain:?}"
        );
    }

    /// `minstrel_calc_retransmit` at MCS 7: the tries whose airtime and contention fit
    /// the 6 ms segment.
    #[test]
    fn tries_fit_the_segment() {
        let mut mi = minstrel(7);
        mi.avg_ampdu_len = frac(16, 1);
        let idx = rate_idx(0, 7);
        mi.groups[0].rates[7].prob_avg = frac(1, 1);
        mi.calc_retransmit(idx);
        // data 147.75 µs × 16 = 2364 µs; + 108 overhead: 2 tries = 4944 + 67 + 139.
        // third: + 283 + 2472 > 6000: stays at 2.
        assert_eq!(mi.groups[0].rates[7].retry_count, 2);
        // One MPDU: 256 µs a try; with the contention before each (67, 139, 283, 571,
        // 1147, then CW 1023: 4603 µs) the 3rd try ends at 1257 µs, the 4th at 2084, the
        // 5th at 3487 and a 6th would end at 8346, past the segment.
        mi.avg_ampdu_len = frac(1, 1);
        mi.calc_retransmit(idx);
        assert_eq!(mi.groups[0].rates[7].retry_count, 5);
        // Behind RTS/CTS a try costs 228 µs of overhead instead of 108: with one MPDU
        // (375 µs a try) the 5th still ends at 4082 µs; the same 5 tries.
        assert_eq!(mi.groups[0].rates[7].retry_count_rtscts, 5);
        // Four MPDUs (591 µs of data): 699 µs a try, 819 behind RTS/CTS. The 5th try
        // ends at 206 + 2 · 699 + 283 + 699 + 571 + 699 + 1147 + 699 = 5702 µs, within
        // the segment; behind RTS/CTS at 206 + 2 · 819 + 283 + 819 + 571 + 819 + 1147 +
        // 819 = 6302 µs, past it: 5 tries, 4 behind RTS/CTS.
        mi.avg_ampdu_len = frac(4, 1);
        mi.calc_retransmit(idx);
        assert_eq!(mi.groups[0].rates[7].retry_count, 5);
        assert_eq!(mi.groups[0].rates[7].retry_count_rtscts, 4);
    }

    /// `minstrel_ht_set_rate`: the first stage goes without RTS/CTS and with the plain
    /// tries, every later one behind RTS/CTS with the tries that fit with it.
    #[test]
    fn fallback_stages_go_behind_rts_cts() {
        let mut mi = minstrel(7);
        mi.avg_ampdu_len = frac(4, 1);
        for m in 0..8 {
            mi.groups[0].rates[m].prob_avg = frac(1, 1);
            mi.groups[0].rates[m].retry_updated = false;
        }
        mi.max_tp_rate = [
            rate_idx(0, 7),
            rate_idx(0, 6),
            rate_idx(0, 5),
            rate_idx(0, 4),
        ];
        mi.max_prob_rate = rate_idx(0, 3);
        mi.update_rates();
        let chain = mi.chain().to_vec();
        assert_eq!(chain.len(), 4);
        assert!(
            !chain[0].rts && chain[1..].iter().all(|s| s.rts),
            "{chain:?}"
        );
        for (i, stage) in chain.iter().enumerate() {
            let mrs = mi.groups[0].rates[mcs_of(stage.rate)];
            let want = if i == 0 {
                mrs.retry_count
            } else {
                mrs.retry_count_rtscts
            };
            assert_eq!(stage.tries, want, "stage {i}");
        }
        // MCS 7's 4-MPDU tries (above): 5 plain, 4 behind RTS/CTS.
        assert_eq!(chain[0].tries, 5);
    }
}
