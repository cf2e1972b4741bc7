//! Helpers shared by airq-report's integration tests.

pub mod flent_tool;
