//! The set of flow queues holding packets (Linux `fq->flows_bitmap`): the global limit
//! scans it for the fattest flow, in index order so that ties resolve the same way on
//! every run.

use alloc::vec::Vec;

#[derive(Clone, Debug, Default)]
pub(super) struct Bitmap {
    words: Vec<u64>,
}

impl Bitmap {
    pub(super) fn with_len(bits: usize) -> Self {
        Bitmap {
            words: alloc::vec![0; bits.div_ceil(64)],
        }
    }

    /// Makes room for `bits` bits; new bits are clear.
    pub(super) fn grow(&mut self, bits: usize) {
        let words = bits.div_ceil(64);
        if words > self.words.len() {
            self.words.resize(words, 0);
        }
    }

    pub(super) fn set(&mut self, bit: usize) {
        self.words[bit / 64] |= 1 << (bit % 64);
    }

    pub(super) fn clear(&mut self, bit: usize) {
        self.words[bit / 64] &= !(1 << (bit % 64));
    }

    pub(super) fn contains(&self, bit: usize) -> bool {
        self.words[bit / 64] & (1 << (bit % 64)) != 0
    }

    /// Set bits in increasing order.
    pub(super) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            let mut w = word;
            core::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + bit)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn iterates_set_bits_in_order() {
        let mut b = Bitmap::with_len(200);
        for bit in [199, 0, 64, 63, 130] {
            b.set(bit);
        }
        b.clear(130);
        assert_eq!(b.iter().collect::<Vec<_>>(), [0, 63, 64, 199]);
        b.grow(300);
        b.set(299);
        assert!(b.contains(299) && !b.contains(298));
    }
}
