//! Applications: the traffic a scenario asks for (ping, UDP, VoIP, bulk TCP, web) and
//! how their quality is rated (the ITU-T G.107 E-model, RFC 3550 jitter).

pub mod emodel;
pub mod traffic;
pub mod voip_stats;
