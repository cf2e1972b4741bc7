//! Transport: a model of Linux TCP, both ends.

pub mod tcp;
