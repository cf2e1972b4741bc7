//! Per-station state found by [`StationId`] in O(1), as mac80211 reaches a station's
//! state through its `sta` pointer: a table indexed by the identifier holds each
//! station's slot in a dense arena. Slots are stable while the station is registered
//! (others may keep them, e.g. a TXQ its station's slot) and reused after it leaves.

use crate::ids::StationId;
use alloc::vec::Vec;

/// No slot: the station is not registered.
const NO_SLOT: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub(crate) struct StationTable<T> {
    /// `StationId.0` → slot in `entries`, or `NO_SLOT`.
    slot_of: Vec<u32>,
    entries: Vec<Option<T>>,
    /// Slots of stations that left, reused last-freed first.
    free: Vec<u32>,
}

/// Why [`StationTable::insert`] refused a station.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InsertError {
    /// Above [`StationId::MAX`].
    IdTooLarge,
    /// Already registered.
    Duplicate,
}

impl<T> StationTable<T> {
    pub(crate) fn new() -> Self {
        StationTable {
            slot_of: Vec::new(),
            entries: Vec::new(),
            free: Vec::new(),
        }
    }

    /// Registers a station and returns its slot.
    pub(crate) fn insert(&mut self, id: StationId, value: T) -> Result<u32, InsertError> {
        if id.0 > StationId::MAX {
            return Err(InsertError::IdTooLarge);
        }
        if self.slot(id).is_some() {
            return Err(InsertError::Duplicate);
        }
        let slot = match self.free.pop() {
            Some(slot) => {
                self.entries[slot as usize] = Some(value);
                slot
            }
            None => {
                self.entries.push(Some(value));
                self.entries.len() as u32 - 1
            }
        };
        let index = id.0 as usize;
        if self.slot_of.len() <= index {
            self.slot_of.resize(index + 1, NO_SLOT);
        }
        self.slot_of[index] = slot;
        Ok(slot)
    }

    /// Unregisters a station, returning its state.
    pub(crate) fn remove(&mut self, id: StationId) -> Option<T> {
        let slot = self.slot(id)?;
        self.slot_of[id.0 as usize] = NO_SLOT;
        self.free.push(slot);
        self.entries[slot as usize].take()
    }

    #[inline]
    pub(crate) fn slot(&self, id: StationId) -> Option<u32> {
        match self.slot_of.get(id.0 as usize) {
            Some(&slot) if slot != NO_SLOT => Some(slot),
            _ => None,
        }
    }

    #[inline]
    pub(crate) fn get(&self, id: StationId) -> Option<&T> {
        self.entries[self.slot(id)? as usize].as_ref()
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, id: StationId) -> Option<&mut T> {
        let slot = self.slot(id)?;
        self.entries[slot as usize].as_mut()
    }

    /// The state in a slot the caller holds for a registered station.
    #[inline]
    pub(crate) fn at(&self, slot: u32) -> &T {
        self.entries[slot as usize]
            .as_ref()
            .expect("slot of a registered station")
    }

    #[inline]
    pub(crate) fn at_mut(&mut self, slot: u32) -> &mut T {
        self.entries[slot as usize]
            .as_mut()
            .expect("slot of a registered station")
    }

    /// Registered stations.
    pub(crate) fn len(&self) -> usize {
        self.entries.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_find_remove_and_reuse_slots() {
        let mut t = StationTable::new();
        assert_eq!(t.insert(StationId(7), 'a'), Ok(0));
        assert_eq!(t.insert(StationId(2), 'b'), Ok(1));
        assert_eq!(t.insert(StationId(7), 'c'), Err(InsertError::Duplicate));
        assert_eq!(
            t.insert(StationId(StationId::MAX + 1), 'c'),
            Err(InsertError::IdTooLarge)
        );
        assert_eq!(t.get(StationId(2)), Some(&'b'));
        assert_eq!(t.get(StationId(3)), None);
        assert_eq!(t.get(StationId(1 << 30)), None);
        assert_eq!(t.remove(StationId(7)), Some('a'));
        assert_eq!(t.get(StationId(7)), None);
        assert_eq!(t.len(), 1);
        assert_eq!(t.insert(StationId(9), 'd'), Ok(0), "freed slot reused");
        *t.get_mut(StationId(9)).unwrap() = 'e';
        assert_eq!(*t.at(0), 'e');
        assert_eq!(*t.at_mut(1), 'b', "stable slot of station 2");
    }
}
