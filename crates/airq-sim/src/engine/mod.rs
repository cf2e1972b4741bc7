//! The engine: the event queue keyed by (time, insertion order) and the seeded random
//! streams. It knows nothing of WiFi.

pub mod event;
pub mod rng;
