//! Parameters of the FQ-MAC structure, with Linux's defaults (`include/net/fq_impl.h`
//! `fq_init`, `net/mac80211/tx.c` `ieee80211_txq_setup_flows`).

use crate::codel::{CodelParamError, CodelParams};
use crate::packet::Packet;
use core::fmt;

/// The longest packet the queues take, bytes ([`Packet::len_bytes`]); a longer one is
/// handed back by [`Fq::enqueue`](super::Fq::enqueue) as
/// [`FqError::PacketTooLong`](super::FqError::PacketTooLong). DRR charges a packet's
/// length to a flow's 32-bit deficit, which must hold its negative (2 GiB is far above
/// any 802.11 frame: an A-MPDU is at most 6.5 MB, IEEE 802.11-2020 Table 9-34 / 10.12).
pub const MAX_PACKET_BYTES: u32 = i32::MAX as u32;

/// How DRR++ charges a flow for a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantum {
    /// A flow may send this many bytes per round (Linux `fq->quantum`, default 300).
    Bytes(u32),
    /// A flow may send this many frames per round, whatever their size. Kan Yan's
    /// AQL design (seed "Airtime Based Queue Limit", §"frame-based quantum"): a station's
    /// small TCP ACKs then count like the big data packets flowing the other way.
    Frames(u32),
}

impl Quantum {
    /// Largest quantum accepted: keeps deficits far from `i32` overflow.
    pub const MAX: u32 = 1 << 20;

    /// The credit a flow gets per round.
    pub(crate) fn credit(self) -> i32 {
        match self {
            Quantum::Bytes(n) | Quantum::Frames(n) => n as i32,
        }
    }

    /// What a packet costs against the credit.
    pub(crate) fn cost<P: Packet>(self, packet: &P) -> i32 {
        match self {
            // At most MAX_PACKET_BYTES: `enqueue` refuses longer packets.
            Quantum::Bytes(_) => packet.len_bytes().min(MAX_PACKET_BYTES) as i32,
            Quantum::Frames(_) => 1,
        }
    }

    fn validate(self) -> Result<(), FqParamError> {
        match self {
            Quantum::Bytes(n) | Quantum::Frames(n) if n == 0 || n > Self::MAX => {
                Err(FqParamError::QuantumOutOfRange(self))
            }
            _ => Ok(()),
        }
    }
}

impl Default for Quantum {
    fn default() -> Self {
        Quantum::Bytes(300)
    }
}

impl fmt::Display for Quantum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Quantum::Bytes(n) => write!(f, "{n} bytes"),
            Quantum::Frames(n) => write!(f, "{n} frames"),
        }
    }
}

/// How the global limits find the fattest flow to drop from (`fattest.rs`). Both choose
/// the same flow; they differ only in cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FattestSearch {
    /// Linux ≥ 5.12 `fq_find_fattest_flow`: a scan of every flow holding packets at
    /// each drop round, O(flows with packets).
    Scan,
    /// A tournament tree over the flows, repaired at each search for the flows whose
    /// backlog changed since the last: O(log flows) per changed flow.
    #[default]
    Tree,
}

/// Parameters of an [`Fq`](super::Fq). The default is mac80211's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FqParams {
    /// Flow queues in the pool shared by every tin of the radio. mac80211: 4096
    /// (`fq_init(fq, 4096)` in `ieee80211_txq_setup_flows`).
    pub flows: u32,
    /// Global limit on queued packets over all tins (`fq->limit`, default 8192); at most
    /// [`FqParams::MAX_LIMIT_PACKETS`].
    pub limit_packets: u32,
    /// Global limit on queued memory, as [`Packet::truesize_bytes`] (`fq->memory_limit`,
    /// 16 MiB; mac80211 lowers it to 4 MiB on hardware without VHT).
    pub memory_limit_bytes: u64,
    /// DRR++ quantum of every tin unless a tin overrides it (`fq->quantum`, 300 bytes).
    pub quantum: Quantum,
    /// CoDel on every flow queue: mac80211's 20 ms / 100 ms / ECN.
    pub codel: CodelParams,
    /// How the fattest flow is found; not a behaviour, a cost (default the tree).
    pub fattest: FattestSearch,
}

impl Default for FqParams {
    fn default() -> Self {
        FqParams {
            flows: 4096,
            limit_packets: 8192,
            memory_limit_bytes: 16 << 20,
            quantum: Quantum::default(),
            codel: CodelParams::mac80211(),
            fattest: FattestSearch::Tree,
        }
    }
}

impl FqParams {
    /// Most flow queues accepted (flow indices stay far inside `u32`).
    pub const MAX_FLOWS: u32 = 1 << 24;

    /// Largest packet limit accepted: an enqueue counts its packet in before it enforces
    /// the limit (as Linux's `fq_tin_enqueue`), so the packet counters, `u32`, must hold
    /// one more than the limit.
    pub const MAX_LIMIT_PACKETS: u32 = u32::MAX - 1;

    /// mac80211's defaults for hardware without VHT: memory limit 4 MiB ("4 Mbytes is 64
    /// max-size aggregates in 802.11n", `ieee80211_txq_setup_flows`).
    pub fn mac80211_non_vht() -> Self {
        FqParams {
            memory_limit_bytes: 4 << 20,
            ..FqParams::default()
        }
    }

    /// Checks every field is in range.
    pub fn validate(&self) -> Result<(), FqParamError> {
        if self.flows == 0 || self.flows > Self::MAX_FLOWS {
            return Err(FqParamError::FlowsOutOfRange(self.flows));
        }
        if self.limit_packets == 0 {
            return Err(FqParamError::ZeroLimit);
        }
        if self.limit_packets > Self::MAX_LIMIT_PACKETS {
            return Err(FqParamError::LimitTooLarge(self.limit_packets));
        }
        if self.memory_limit_bytes == 0 {
            return Err(FqParamError::ZeroMemoryLimit);
        }
        self.quantum.validate()?;
        self.codel.validate().map_err(FqParamError::Codel)
    }
}

/// Why parameters were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FqParamError {
    /// `flows` is 0 or above [`FqParams::MAX_FLOWS`].
    FlowsOutOfRange(u32),
    /// `limit_packets` is 0.
    ZeroLimit,
    /// `limit_packets` is above [`FqParams::MAX_LIMIT_PACKETS`].
    LimitTooLarge(u32),
    /// `memory_limit_bytes` is 0.
    ZeroMemoryLimit,
    /// The quantum is 0 or above [`Quantum::MAX`].
    QuantumOutOfRange(Quantum),
    /// The CoDel parameters are inconsistent.
    Codel(CodelParamError),
    /// `flows` cannot change once the pool exists.
    FlowsChanged { from: u32, to: u32 },
}

impl fmt::Display for FqParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FqParamError::FlowsOutOfRange(n) => write!(
                f,
                "fq flows must be between 1 and {}, got {n}",
                FqParams::MAX_FLOWS
            ),
            FqParamError::ZeroLimit => f.write_str("fq limit_packets must be above zero"),
            FqParamError::LimitTooLarge(n) => write!(
                f,
                "fq limit_packets must be at most {}, got {n}",
                FqParams::MAX_LIMIT_PACKETS
            ),
            FqParamError::ZeroMemoryLimit => {
                f.write_str("fq memory_limit_bytes must be above zero")
            }
            FqParamError::QuantumOutOfRange(q) => write!(
                f,
                "fq quantum must be between 1 and {}, got {q}",
                Quantum::MAX
            ),
            FqParamError::Codel(e) => write!(f, "fq codel parameters: {e}"),
            FqParamError::FlowsChanged { from, to } => write!(
                f,
                "fq flows cannot change at run time (from {from} to {to})"
            ),
        }
    }
}
