//! FQ
