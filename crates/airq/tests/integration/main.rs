//! Integration tests of the airq library (one binary per crate, STYLE.md rule 7).

mod airtime_differential;
mod airtime_properties;
mod fq_properties;
