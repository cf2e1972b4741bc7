//! Minstrel-HT's choice of rates to probe (`rc80211_minstrel_ht.c`, Linux 6.15, since
//! the v5.11 rework): after each statistics update three lists of up to five rates are
//! refilled — *inc*: per group in turn, the slowest rate faster than the current best;
//! *jump*: random rates (a walk of a random permutation table per group) faster than
//! the fastest chosen rate; *slow*: rates the jump walk met between the fastest and the
//! slowest chosen rates, unless they already succeed above 95 %. Each probe takes the
//! next rate of the list the sequence inc, jump, inc, jump, inc, slow names
//! (`minstrel_sample_seq`), so probing slower rates is rare and never of rates known to
//! work.

use super::groups::{group_of, rate_idx, RateIdx, MCS_GROUP_RATES};
use super::minstrel_ht::{frac, MinstrelHt};
use crate::engine::rng::RngStream;

/// Rates per list (`MINSTREL_SAMPLE_RATES`).
pub const SAMPLE_RATES: usize = 5;

/// Columns of the permutation table (`SAMPLE_COLUMNS`).
const SAMPLE_COLUMNS: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SampleType {
    Inc = 0,
    Jump = 1,
    Slow = 2,
}

/// `minstrel_sample_seq`.
const SAMPLE_SEQ: [SampleType; 6] = [
    SampleType::Inc,
    SampleType::Jump,
    SampleType::Inc,
    SampleType::Jump,
    SampleType::Inc,
    SampleType::Slow,
];

/// One list (`struct minstrel_sample_category`); 0 is an empty slot.
#[derive(Clone, Copy, Debug, Default)]
struct SampleCategory {
    sample_group: u8,
    rates: [RateIdx; SAMPLE_RATES],
}

/// The three lists and where the sequence is.
#[derive(Clone, Debug, Default)]
pub struct SampleLists {
    categories: [SampleCategory; 3],
    seq: u8,
}

impl SampleLists {
    /// The next rate to probe, taken out of its list (`minstrel_ht_get_sample_rate`);
    /// 0 if that list is empty. Without multi-rate retry only *inc* is used.
    pub fn next(&mut self, multi_rate: bool) -> RateIdx {
        let ty = if multi_rate {
            let s = SAMPLE_SEQ[usize::from(self.seq)];
            self.seq = (self.seq + 1) % SAMPLE_SEQ.len() as u8;
            s
        } else {
            SampleType::Inc
        };
        let rates = &mut self.categories[ty as usize].rates;
        for r in rates.iter_mut() {
            if *r != 0 {
                return std::mem::take(r);
            }
        }
        0
    }

    fn contains(&self, ty: SampleType, idx: RateIdx) -> bool {
        for &r in &self.categories[ty as usize].rates {
            if r == idx {
                return true;
            }
            if r == 0 {
                break;
            }
        }
        false
    }
}

/// Random permutations of the MCS indices, one per column (`sample_table`, drawn once
/// by `init_sample_table`).
#[derive(Clone, Debug)]
pub struct SampleTable([[u8; MCS_GROUP_RATES]; SAMPLE_COLUMNS]);

impl SampleTable {
    pub fn new(rng: &mut RngStream) -> SampleTable {
        let mut t = [[u8::MAX; MCS_GROUP_RATES]; SAMPLE_COLUMNS];
        for col in t.iter_mut() {
            for i in 0..MCS_GROUP_RATES {
                let rnd = rng.uniform_inclusive(255) as usize;
                let mut at = (i + rnd) % MCS_GROUP_RATES;
                while col[at] != u8::MAX {
                    at = (at + 1) % MCS_GROUP_RATES;
                }
                col[at] = i as u8;
            }
        }
        SampleTable(t)
    }
}

impl MinstrelHt {
    fn duration(&self, idx: RateIdx) -> u32 {
        self.table.duration_ns(idx)
    }

    /// `minstrel_ht_refill_sample_rates`.
    pub(super) fn refill_sample_rates(&mut self) {
        let prob_dur = self.duration(self.max_prob_rate);
        let tp_dur = self.duration(self.max_tp_rate[0]);
        let tp2_dur = self.duration(self.max_tp_rate[1]);
        let fast = tp_dur.min(tp2_dur).min(prob_dur);
        let slow = tp_dur.max(tp2_dur).max(prob_dur);

        let mut i = self.move_sample_rates(SampleType::Inc, fast, slow);
        while i < SAMPLE_RATES {
            let r = self.next_inc_rate(tp_dur);
            self.sample.categories[SampleType::Inc as usize].rates[i] = r;
            if r == 0 {
                break;
            }
            i += 1;
        }
        let mut i = self.move_sample_rates(SampleType::Jump, fast, slow);
        let mut j = self.move_sample_rates(SampleType::Slow, fast, slow);
        while i < SAMPLE_RATES {
            let r = self.next_jump_rate(fast, slow, &mut j);
            self.sample.categories[SampleType::Jump as usize].rates[i] = r;
            if r == 0 {
                break;
            }
            i += 1;
        }
    }

    /// `minstrel_ht_move_sample_rates`: drops the rates no longer in their list's
    /// range and packs the rest at the front; how many are left.
    fn move_sample_rates(&mut self, ty: SampleType, fast: u32, slow: u32) -> usize {
        let mut rates = self.sample.categories[ty as usize].rates;
        let mut j = 0;
        for i in 0..SAMPLE_RATES {
            let cur = rates[i];
            if cur == 0 {
                continue;
            }
            let d = self.duration(cur);
            let valid = match ty {
                SampleType::Slow => d > fast && d < slow,
                SampleType::Inc | SampleType::Jump => d < fast,
            };
            if !valid {
                rates[i] = 0;
                continue;
            }
            if i == j {
                // The kernel leaves j here without counting the rate kept in place.
                continue;
            }
            rates[j] = cur;
            j += 1;
            rates[i] = 0;
        }
        self.sample.categories[ty as usize].rates = rates;
        j
    }

    /// `minstrel_ht_group_min_rate_offset`: the slowest supported MCS of `group`
    /// faster than `max_duration`.
    fn group_min_rate_offset(&self, group: usize, max_duration: u32) -> Option<usize> {
        let supported = self.table.groups()[group].supported;
        (0..MCS_GROUP_RATES).find(|&i| {
            supported & (1 << i) != 0 && self.duration(rate_idx(group, i)) < max_duration
        })
    }

    /// `minstrel_ht_next_inc_rate`.
    fn next_inc_rate(&mut self, fast: u32) -> RateIdx {
        let n = self.groups.len();
        let cat = SampleType::Inc as usize;
        let mut group = usize::from(self.sample.categories[cat].sample_group);
        let mut found = 0;
        for _ in 0..n {
            group = (group + 1) % n;
            let Some(i) = self.group_min_rate_offset(group, fast) else {
                continue;
            };
            let index = rate_idx(group, i);
            if !self.sample.contains(SampleType::Inc, index) {
                found = index;
                break;
            }
        }
        self.sample.categories[cat].sample_group = group as u8;
        found
    }

    /// `minstrel_ht_next_group_sample_rate`: the next MCS of the group's walk of the
    /// permutation table at or above `offset`.
    fn next_group_sample_rate(&mut self, group: usize, offset: usize) -> Option<RateIdx> {
        let supported = self.table.groups()[group].supported;
        for _ in 0..MCS_GROUP_RATES {
            let mg = &mut self.groups[group];
            let idx =
                usize::from(self.sample_table.0[usize::from(mg.column)][usize::from(mg.index)]);
            mg.index += 1;
            if usize::from(mg.index) >= MCS_GROUP_RATES {
                mg.index = 0;
                mg.column += 1;
                if usize::from(mg.column) >= SAMPLE_COLUMNS {
                    mg.column = 0;
                }
            }
            if idx < offset || supported & (1 << idx) == 0 {
                continue;
            }
            return Some(rate_idx(group, idx));
        }
        None
    }

    /// `minstrel_ht_next_jump_rate`.
    fn next_jump_rate(&mut self, fast: u32, slow: u32, slow_ofs: &mut usize) -> RateIdx {
        let n = self.groups.len();
        let mut max_duration = if *slow_ofs >= SAMPLE_RATES {
            fast
        } else {
            slow
        };
        let cat = SampleType::Jump as usize;
        let mut group = usize::from(self.sample.categories[cat].sample_group);
        let mut found = 0;
        for _ in 0..n {
            group = (group + 1) % n;
            if self.table.groups()[group].supported == 0 {
                continue;
            }
            let Some(offset) = self.group_min_rate_offset(group, max_duration) else {
                continue;
            };
            let Some(index) = self.next_group_sample_rate(group, offset) else {
                continue;
            };
            let d = self.duration(index);
            let ty = if d < fast {
                SampleType::Jump
            } else {
                SampleType::Slow
            };
            if self.sample.contains(ty, index) {
                continue;
            }
            if ty == SampleType::Jump {
                found = index;
                break;
            }
            if *slow_ofs >= SAMPLE_RATES || d >= slow {
                continue;
            }
            // Slower rates that already work need no probing.
            if self.prob_avg(index) > frac(95, 100) {
                continue;
            }
            self.sample.categories[SampleType::Slow as usize].rates[*slow_ofs] = index;
            *slow_ofs += 1;
            if *slow_ofs >= SAMPLE_RATES {
                max_duration = fast;
            }
        }
        self.sample.categories[cat].sample_group = group as u8;
        debug_assert!(found == 0 || group_of(found) < n);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::RngRoot;

    #[test]
    fn the_sample_table_holds_permutations() {
        let t = SampleTable::new(&mut RngRoot::new(3).stream("minstrel", 0));
        for col in t.0 {
            let mut sorted = col;
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        }
    }

    #[test]
    fn the_sequence_is_inc_jump_inc_jump_inc_slow() {
        let mut lists = SampleLists::default();
        lists.categories[0].rates = [1, 2, 3, 0, 0];
        lists.categories[1].rates = [11, 12, 0, 0, 0];
        lists.categories[2].rates = [21, 0, 0, 0, 0];
        let got: Vec<_> = (0..7).map(|_| lists.next(true)).collect();
        assert_eq!(got, vec![1, 11, 2, 12, 3, 21, 0]);
    }
}
