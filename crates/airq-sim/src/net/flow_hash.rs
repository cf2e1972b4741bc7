//! The flow hash of a packet: its IPv4 five-tuple mixed with a per-run perturbation.
//!
//! Linux hashes the flow keys the dissector extracts (`__skb_get_hash` →
//! `__flow_hash_from_keys`) with a random seed (`hashrnd`) and FQ-CoDel / mac80211's
//! FQ take a bucket from the hash with `reciprocal_scale`. Older kernels used
//! `jhash_3words` there; we use the same family: Bob Jenkins' lookup3 (`hashword()` and
//! `hashlittle()` of lookup3.c, May 2006, public domain; Linux `include/linux/jhash.h`
//! is lookup3 too), written here from the published algorithm. The perturbation is
//! lookup3's `initval`, so a different seed gives an unrelated hash, as `hashrnd` does.

#![warn(missing_docs)]

/// An IPv4 flow: addresses, ports and IP protocol number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FiveTuple {
    /// Source address, as the 32-bit number of the dotted quad (10.0.0.1 = 0x0a000001).
    pub src: u32,
    /// Destination address, numbered like `src`.
    pub dst: u32,
    /// Source port (0 for protocols without ports, e.g. ICMP).
    pub src_port: u16,
    /// Destination port (0 without ports).
    pub dst_port: u16,
    /// IP protocol number (IANA): [`PROTO_TCP`], [`PROTO_UDP`], [`PROTO_ICMP`].
    pub protocol: u8,
}

/// IANA protocol number of ICMP.
pub const PROTO_ICMP: u8 = 1;
/// IANA protocol number of TCP.
pub const PROTO_TCP: u8 = 6;
/// IANA protocol number of UDP.
pub const PROTO_UDP: u8 = 17;

impl FiveTuple {
    /// The tuple of the opposite direction (replies, ACKs).
    pub const fn reversed(self) -> FiveTuple {
        FiveTuple {
            src: self.dst,
            dst: self.src,
            src_port: self.dst_port,
            dst_port: self.src_port,
            protocol: self.protocol,
        }
    }

    /// The tuple as the four 32-bit words that are hashed.
    fn words(&self) -> [u32; 4] {
        [
            self.src,
            self.dst,
            (u32::from(self.src_port) << 16) | u32::from(self.dst_port),
            u32::from(self.protocol),
        ]
    }
}

/// The 32-bit hash of a flow under `perturbation` (lookup3 `hashword` of the tuple's
/// words with `initval = perturbation`). Equal tuples hash equally; changing any field
/// or the perturbation changes about half of the bits.
pub fn flow_hash(t: &FiveTuple, perturbation: u32) -> u32 {
    hash_words(&t.words(), perturbation)
}

/// The bucket, 0 to `buckets − 1`, of a hash: Linux `reciprocal_scale()`, which takes
/// the top bits of `hash × buckets` instead of a modulo. With no buckets, 0.
pub fn flow_bucket(hash: u32, buckets: u32) -> u32 {
    ((u64::from(hash) * u64::from(buckets)) >> 32) as u32
}

/// lookup3 `mix()`: reversibly mixes three words.
fn mix(a: &mut u32, b: &mut u32, c: &mut u32) {
    *a = a.wrapping_sub(*c);
    *a ^= c.rotate_left(4);
    *c = c.wrapping_add(*b);
    *b = b.wrapping_sub(*a);
    *b ^= a.rotate_left(6);
    *a = a.wrapping_add(*c);
    *c = c.wrapping_sub(*b);
    *c ^= b.rotate_left(8);
    *b = b.wrapping_add(*a);
    *a = a.wrapping_sub(*c);
    *a ^= c.rotate_left(16);
    *c = c.wrapping_add(*b);
    *b = b.wrapping_sub(*a);
    *b ^= a.rotate_left(19);
    *a = a.wrapping_add(*c);
    *c = c.wrapping_sub(*b);
    *c ^= b.rotate_left(4);
    *b = b.wrapping_add(*a);
}

/// lookup3 `final()`: makes every bit of `c` depend on every bit of `a`, `b`, `c`.
fn finalize(a: &mut u32, b: &mut u32, c: &mut u32) {
    *c ^= *b;
    *c = c.wrapping_sub(b.rotate_left(14));
    *a ^= *c;
    *a = a.wrapping_sub(c.rotate_left(11));
    *b ^= *a;
    *b = b.wrapping_sub(a.rotate_left(25));
    *c ^= *b;
    *c = c.wrapping_sub(b.rotate_left(16));
    *a ^= *c;
    *a = a.wrapping_sub(c.rotate_left(4));
    *b ^= *a;
    *b = b.wrapping_sub(a.rotate_left(14));
    *c ^= *b;
    *c = c.wrapping_sub(b.rotate_left(24));
}

/// lookup3 `hashword()`: the hash of `k` (words), seeded with `initval`.
fn hash_words(k: &[u32], initval: u32) -> u32 {
    let init = 0xdead_beef_u32
        .wrapping_add((k.len() as u32) << 2)
        .wrapping_add(initval);
    let (mut a, mut b, mut c) = (init, init, init);
    let mut rest = k;
    while rest.len() > 3 {
        a = a.wrapping_add(rest[0]);
        b = b.wrapping_add(rest[1]);
        c = c.wrapping_add(rest[2]);
        mix(&mut a, &mut b, &mut c);
        rest = &rest[3..];
    }
    if rest.is_empty() {
        return c;
    }
    a = a.wrapping_add(rest[0]);
    b = b.wrapping_add(rest.get(1).copied().unwrap_or(0));
    c = c.wrapping_add(rest.get(2).copied().unwrap_or(0));
    finalize(&mut a, &mut b, &mut c);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// lookup3 `hashlittle()`: the hash of a byte string read as little-endian words (a
    /// short last block is zero-padded, which is what its masked reads amount to).
    fn hash_bytes(key: &[u8], initval: u32) -> u32 {
        let init = 0xdead_beef_u32
            .wrapping_add(key.len() as u32)
            .wrapping_add(initval);
        let (mut a, mut b, mut c) = (init, init, init);
        let word = |block: &[u8], i: usize| -> u32 {
            let mut w = [0u8; 4];
            for (j, byte) in block.iter().skip(4 * i).take(4).enumerate() {
                w[j] = *byte;
            }
            u32::from_le_bytes(w)
        };
        let mut rest = key;
        while rest.len() > 12 {
            a = a.wrapping_add(word(rest, 0));
            b = b.wrapping_add(word(rest, 1));
            c = c.wrapping_add(word(rest, 2));
            mix(&mut a, &mut b, &mut c);
            rest = &rest[12..];
        }
        if rest.is_empty() {
            return c;
        }
        a = a.wrapping_add(word(rest, 0));
        b = b.wrapping_add(word(rest, 1));
        c = c.wrapping_add(word(rest, 2));
        finalize(&mut a, &mut b, &mut c);
        c
    }

    #[test]
    fn mix_and_final_reproduce_lookup3_published_vectors() {
        // lookup3.c driver5: hashlittle("", 0, 0) and ("", 0, 0xdeadbeef), and the two
        // "Four score and seven years ago" lines (initval 0 and 1).
        assert_eq!(hash_bytes(b"", 0), 0xdead_beef);
        assert_eq!(hash_bytes(b"", 0xdead_beef), 0xbd5b_7dde);
        let four_score = b"Four score and seven years ago";
        assert_eq!(hash_bytes(four_score, 0), 0x1777_0551);
        assert_eq!(hash_bytes(four_score, 1), 0xcd62_8161);
    }

    #[test]
    fn hashword_agrees_with_hashlittle_on_whole_words() {
        // lookup3.c's own consistency check: on a little-endian machine hashword of
        // n words equals hashlittle of their 4n bytes.
        let words: Vec<u32> = (0..10u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
        for n in 0..=words.len() {
            let bytes: Vec<u8> = words[..n].iter().flat_map(|w| w.to_le_bytes()).collect();
            for initval in [0, 1, 0xdead_beef] {
                assert_eq!(
                    hash_words(&words[..n], initval),
                    hash_bytes(&bytes, initval)
                );
            }
        }
    }

    fn tuple(i: u32) -> FiveTuple {
        // Clients 10.0.0.x on consecutive ports to one server, as a simulation makes them.
        FiveTuple {
            src: 0x0a00_0000 | (i % 64),
            dst: 0xc0a8_0001,
            src_port: 10_000 + (i / 64) as u16,
            dst_port: 5201,
            protocol: PROTO_TCP,
        }
    }

    /// Pearson's chi-square of `tuples` flows over `buckets` buckets.
    fn chi_square(tuples: u32, buckets: u32, perturbation: u32) -> f64 {
        let mut counts = vec![0u32; buckets as usize];
        for i in 0..tuples {
            counts[flow_bucket(flow_hash(&tuple(i), perturbation), buckets) as usize] += 1;
        }
        let expected = f64::from(tuples) / f64::from(buckets);
        counts
            .iter()
            .map(|&n| (f64::from(n) - expected).powi(2) / expected)
            .sum()
    }

    #[test]
    fn ten_thousand_similar_flows_spread_evenly_over_1024_buckets() {
        // With 1023 degrees of freedom chi-square has mean 1023 and standard deviation
        // sqrt(2 × 1023) ≈ 45; accept within 4 standard deviations (p ≈ 6e-5 each
        // side for a uniform hash). Sequential tuples through an identity-like hash
        // would land in a handful of buckets and score in the hundreds of thousands.
        for perturbation in [0, 1, 0x1234_5678, 0xffff_ffff] {
            let x2 = chi_square(10_000, 1024, perturbation);
            assert!(
                (1023.0 - 4.0 * 45.2..1023.0 + 4.0 * 45.2).contains(&x2),
                "perturbation {perturbation:#x}: chi-square {x2:.0}"
            );
        }
    }

    #[test]
    fn one_flipped_input_bit_flips_half_the_output_bits() {
        let mut flipped_bits = 0u64;
        let mut trials = 0u64;
        for i in 0..200 {
            let base = tuple(i);
            let h = flow_hash(&base, 7);
            for bit in 0..104 {
                let mut t = base;
                match bit {
                    0..=31 => t.src ^= 1 << bit,
                    32..=63 => t.dst ^= 1 << (bit - 32),
                    64..=79 => t.src_port ^= 1 << (bit - 64),
                    80..=95 => t.dst_port ^= 1 << (bit - 80),
                    _ => t.protocol ^= 1 << (bit - 96),
                }
                flipped_bits += u64::from((flow_hash(&t, 7) ^ h).count_ones());
                trials += 1;
            }
        }
        let mean = flipped_bits as f64 / trials as f64;
        assert!((15.5..16.5).contains(&mean), "mean flipped bits {mean:.2}");
    }

    #[test]
    fn the_perturbation_changes_every_flow_hash() {
        let changed = (0..1000)
            .filter(|&i| flow_hash(&tuple(i), 1) != flow_hash(&tuple(i), 2))
            .count();
        assert_eq!(changed, 1000);
        // And the same inputs always hash the same.
        assert_eq!(flow_hash(&tuple(5), 3), flow_hash(&tuple(5), 3));
    }

    #[test]
    fn directions_and_protocols_are_different_flows() {
        let t = tuple(3);
        assert_ne!(flow_hash(&t, 0), flow_hash(&t.reversed(), 0));
        assert_eq!(t.reversed().reversed(), t);
        let udp = FiveTuple {
            protocol: PROTO_UDP,
            ..t
        };
        assert_ne!(flow_hash(&t, 0), flow_hash(&udp, 0));
        assert_eq!((PROTO_ICMP, PROTO_TCP, PROTO_UDP), (1, 6, 17));
    }

    #[test]
    fn buckets_are_in_range() {
        for h in [0, 1, 0x8000_0000, u32::MAX] {
            assert!(flow_bucket(h, 1024) < 1024);
            assert_eq!(flow_bucket(h, 1), 0);
            assert_eq!(flow_bucket(h, 0), 0);
        }
        assert_eq!(flow_bucket(u32::MAX, 1024), 1023);
        assert_eq!(flow_bucket(0x8000_0000, 1024), 512);
    }
}
