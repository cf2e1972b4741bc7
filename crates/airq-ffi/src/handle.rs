//! Opaque handles: a boxed component behind a pointer C holds, checked on every call.
//!
//! A handle is valid while its address is in the registry of live handles, under its
//! kind: [`acquire`] looks it up before dereferencing anything, so a null, freed or
//! foreign pointer, or a scheduler passed where an AQL handle is expected, is an error
//! and never a read of freed memory. The registry is one mutex over a map, taken once
//! per call (uncontended: a few tens of nanoseconds).
//!
//! A call holds its handle exclusively through a [`Guard`]: a `busy` flag set under the
//! registry's lock, so that a second call on the same handle — re-entered from the drop
//! callback, or from another thread despite the single-context rule — fails with
//! `AIRQ_ERR_BUSY`, and freeing cannot race a call. A guard dropped by a panic poisons
//! its handle: the component may be half-updated, so only freeing it is allowed after.

use crate::status::{Error, Result, AIRQ_ERR_BUSY, AIRQ_ERR_INVALID_HANDLE, AIRQ_ERR_POISONED};
use std::cell::UnsafeCell;
use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The kinds of handle, so that one is never taken for another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Fq,
    Sched,
    Aql,
}

/// A component that lives behind a handle.
pub(crate) trait Component {
    const KIND: Kind;
    /// The C type's name, for messages ("airq_fq").
    const NAME: &'static str;
}

/// Live handles: address → kind.
static LIVE: Mutex<BTreeMap<usize, Kind>> = Mutex::new(BTreeMap::new());

fn live() -> MutexGuard<'static, BTreeMap<usize, Kind>> {
    // Nothing panics while holding the lock; if something did, the map is still whole.
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What a C handle points to.
pub(crate) struct Handle<T> {
    busy: AtomicBool,
    poisoned: AtomicBool,
    inner: UnsafeCell<T>,
}

/// Boxes `value`, registers it and returns the pointer C will hold.
pub(crate) fn create<T: Component>(value: T) -> *mut Handle<T> {
    let ptr = Box::into_raw(Box::new(Handle {
        busy: AtomicBool::new(false),
        poisoned: AtomicBool::new(false),
        inner: UnsafeCell::new(value),
    }));
    live().insert(ptr as usize, T::KIND);
    ptr
}

/// Checks `ptr` is a live, idle handle of `T`'s kind under the registry's lock (held by
/// the caller) and marks it busy.
fn take<'a, T: Component>(
    live: &BTreeMap<usize, Kind>,
    ptr: *const Handle<T>,
) -> Result<&'a Handle<T>> {
    if ptr.is_null() {
        return Err(Error::null(T::NAME));
    }
    if live.get(&(ptr as usize)) != Some(&T::KIND) {
        return Err(Error::new(
            AIRQ_ERR_INVALID_HANDLE,
            format_args!(
                "{ptr:p} is not a live {} handle (freed, or never created)",
                T::NAME
            ),
        ));
    }
    // SAFETY: the registry holds exactly the addresses `create` boxed and `destroy` has
    // not yet freed, with their kind; it is locked, so none is being freed now.
    let handle = unsafe { &*ptr };
    if handle
        .busy
        .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        return Err(Error::new(
            AIRQ_ERR_BUSY,
            format_args!(
                "{} {ptr:p} is in use by another call (a drop callback may not call back \
                 into the handle that called it; handles are not thread-safe)",
                T::NAME
            ),
        ));
    }
    Ok(handle)
}

/// Exclusive use of a handle's component for one call.
pub(crate) struct Guard<'a, T> {
    handle: &'a Handle<T>,
}

/// Takes exclusive use of the component behind `ptr` for the rest of the call.
pub(crate) fn acquire<'a, T: Component>(ptr: *const Handle<T>) -> Result<Guard<'a, T>> {
    let live = live();
    let handle = take(&live, ptr)?;
    drop(live);
    let guard = Guard { handle };
    if handle.poisoned.load(Ordering::Relaxed) {
        return Err(Error::new(
            AIRQ_ERR_POISONED,
            format_args!(
                "{} {ptr:p}: a panic interrupted an earlier call; only freeing it is allowed",
                T::NAME
            ),
        ));
    }
    Ok(guard)
}

/// Unregisters and frees the handle `ptr`, returning its component. A null pointer is
/// `Ok(None)`, as `free(NULL)` does nothing.
pub(crate) fn destroy<T: Component>(ptr: *mut Handle<T>) -> Result<Option<T>> {
    if ptr.is_null() {
        return Ok(None);
    }
    let mut live = live();
    take(&live, ptr)?;
    live.remove(&(ptr as usize));
    drop(live);
    // SAFETY: `ptr` came from `Box::into_raw` in `create` (it was registered), it is no
    // longer registered, and no call holds it (it was idle): this is the only owner.
    let handle = unsafe { Box::from_raw(ptr) };
    Ok(Some(handle.inner.into_inner()))
}

impl<T> Deref for Guard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the busy flag makes this guard the only access to the component.
        unsafe { &*self.handle.inner.get() }
    }
}

impl<T> DerefMut for Guard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`, and `&mut self` keeps this the only reference.
        unsafe { &mut *self.handle.inner.get() }
    }
}

impl<T> Drop for Guard<'_, T> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.handle.poisoned.store(true, Ordering::Relaxed);
        }
        self.handle.busy.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{entry, AIRQ_ERR_PANIC, AIRQ_ERR_POISONED, AIRQ_OK};

    struct Counter(u32);

    impl Component for Counter {
        const KIND: Kind = Kind::Fq;
        const NAME: &'static str = "counter";
    }

    #[test]
    fn a_panic_poisons_the_handle_until_it_is_freed() {
        let ptr = create(Counter(0));
        let panicked = entry(|| {
            let mut c = acquire(ptr)?;
            c.0 += 1;
            panic!("half-way");
        });
        assert_eq!(panicked, AIRQ_ERR_PANIC);
        let again = entry(|| acquire(ptr).map(|_| AIRQ_OK));
        assert_eq!(again, AIRQ_ERR_POISONED);
        let freed = destroy(ptr).ok().flatten().map(|c| c.0);
        assert_eq!(freed, Some(1));
        assert!(acquire(ptr).is_err(), "gone from the registry");
    }

    #[test]
    fn a_held_handle_is_busy() {
        let ptr = create(Counter(0));
        let guard = acquire(ptr).ok();
        assert!(guard.is_some());
        assert!(matches!(acquire(ptr), Err(e) if e.status == crate::status::AIRQ_ERR_BUSY));
        assert!(destroy(ptr).is_err(), "not freed while in use");
        drop(guard);
        assert!(destroy(ptr).is_ok());
    }
}
