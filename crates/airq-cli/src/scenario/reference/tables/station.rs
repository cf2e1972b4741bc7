//! `[[station]]`.

use super::*;

pub(super) fn station() -> TableDoc {
    TableDoc {
        path: "station[]",
        about: "One station, or `count` identical ones. Rates are checked against IEEE \
                802.11-2020's rate tables (HT Clause 19, VHT Clause 21; HE 802.11ax-2021 \
                Clause 27); a key that does not apply to the standard is refused.",
        keys: vec![
            key(
                "name",
                Kind::String,
                "",
                "required",
                "one word, unique",
                "\"laptop\"",
                "Its name, or the base of `count` names.",
            ),
            key(
                "count",
                Kind::Integer,
                "",
                "1 (named <name>)",
                format!(
                    "1 or more; {} stations in all at most",
                    crate::scenario::station::MAX_STATIONS
                ),
                "3",
                "Identical stations named <name>1, <name>2, ...",
            ),
            key(
                "standard",
                Kind::Choice(STANDARDS),
                "",
                "required",
                "",
                "\"vht\"",
                "The PHY: dsss (802.11b, 2.4GHz), ofdm (802.11a/g), ht (802.11n), vht \
                 (802.11ac, 5GHz), he (802.11ax single-user).",
            ),
            key(
                "mcs",
                Kind::Integer,
                "",
                "required (ht, vht, he)",
                "HT 0 to 31, VHT 0 to 9, HE 0 to 11",
                "5",
                "MCS index (HT, VHT, HE).",
            ),
            key(
                "width",
                Kind::Integer,
                "MHz",
                "20",
                "HT 20, 40; VHT and HE 20, 40, 80, 160",
                "40",
                "Channel width (HT, VHT, HE).",
            ),
            key(
                "gi",
                Kind::String,
                "",
                "long (HT, VHT); 0.8 (HE)",
                "long, short (HT, VHT); 0.8, 1.6, 3.2 (HE, µs)",
                "\"short\"",
                "Guard interval (HT, VHT, HE).",
            ),
            key(
                "streams",
                Kind::Integer,
                "",
                "1 (VHT, HE); the MCS's (HT)",
                "1 to 8; HT: the MCS's own",
                "2",
                "Spatial streams (VHT, HE; an HT MCS implies them).",
            ),
            key(
                "rate_mbps",
                Kind::Number,
                "Mbit/s",
                "required (dsss, ofdm)",
                "dsss 1, 2, 5.5, 11; ofdm 6, 9, 12, 18, 24, 36, 48, 54",
                "54.0",
                "Legacy rate (DSSS, OFDM).",
            ),
            key(
                "preamble",
                Kind::String,
                "",
                "long",
                "long, short",
                "\"short\"",
                "DSSS preamble (dsss only).",
            ),
            key(
                "frame_error_rate",
                Kind::Number,
                "",
                "0",
                "0 to below 1",
                "0.1",
                "Probability that one MPDU is received in error, the same for every MPDU \
                 (not with distance_m or attenuation_db).",
            ),
            key(
                "distance_m",
                Kind::Number,
                "m",
                "none (fixed errors)",
                "above 0, at most 10000",
                "12.0",
                "Distance to the AP: the [bss] path_loss model gives the loss, and each \
                 MPDU's error probability follows the SNR of its PPDU (NIST OFDM model; \
                 802.11b DSSS/CCK model) at its rate and length.",
            ),
            key(
                "walls",
                Kind::Integer,
                "",
                "0",
                "0 to 100; with distance_m",
                "2",
                "Walls between the station and the AP, for the path_loss model.",
            ),
            key(
                "attenuation_db",
                Kind::NumberOrPairs,
                "dB",
                "none (fixed errors)",
                "0 to 250 dB; pairs of time 0 to 1e7 s, times increasing",
                "[[0.0, 40.0], [10.0, 60.0]]",
                "Attenuation between the station and the AP (with distance_m, added to its \
                 path loss): a number, or [time_s, dB] points evaluated at each PPDU (the \
                 first point's value before it, the last's after it), as a programmable \
                 attenuator in a rate-vs-range test. Gives the station the SNR error model.",
            ),
            key(
                "attenuation_change",
                Kind::Choice(ATTENUATION_CHANGES),
                "",
                "step",
                "",
                "\"ramp\"",
                "Between the points of an attenuation_db schedule: step holds each value \
                 until the next point, ramp goes linearly in dB.",
            ),
            key(
                "tx_power_dbm",
                Kind::Number,
                "dBm",
                number(DEFAULT_STATION_TX_POWER_DBM),
                "-30 to 40; with distance_m or attenuation_db",
                "18.0",
                "The station's transmit power (TGax scenarios: 15 dBm), for its uplink.",
            ),
            key(
                "rate_control",
                Kind::Choice(RATE_CONTROLS),
                "",
                "fixed",
                "minstrel_ht: ht or vht, at most 80 MHz and 4 streams",
                "\"minstrel_ht\"",
                "How each PPDU's rate is chosen, by the AP towards the station and by the \
                 station towards the AP: fixed at the station's rate, or Linux's \
                 Minstrel-HT (rc80211_minstrel_ht.c, Linux 6.15) over every MCS up to the \
                 station's (its mcs per stream, its width and narrower, long GI and its \
                 GI, its streams and fewer), with the multi-rate retry chain: a failed \
                 A-MPDU's MPDUs go again at the chain's lower rates. AQL then estimates \
                 with the last rate used.",
            ),
            key(
                "queue",
                Kind::Choice(STATION_QUEUES),
                "",
                "fifo",
                "fifo, fq_mac",
                "\"fq_mac\"",
                "The station's own queues for its uplink. fifo: one 1000-packet FIFO per \
                 AC (pfifo_fast under mq, an unmodified client), so its upload holds its \
                 download's ACKs and its ping replies. fq_mac: mac80211's FQ-CoDel per TID \
                 under noqueue, as a Linux client whose driver has wake_tx_queue (every \
                 mac80211 driver since Linux 6.2) runs it: 4096 flows, 8192 packets, \
                 quantum 300 B, CoDel 20 ms / 100 ms with ECN, a memory limit of 16 MiB \
                 for a VHT or HE station and 4 MiB for others (ieee80211_txq_setup_flows).",
            ),
            key(
                "qos",
                Kind::Boolean,
                "",
                "true",
                "true, false",
                "false",
                "A QoS (WMM) station. false: a legacy 802.11b/g client on the DCF (IEEE \
                 802.11-2020 10.3.3: DIFS, aCWmin to aCWmax, one queue); its frames both \
                 ways are best effort whatever their DSCP, as mac80211 sends a non-WMM \
                 station's, and never aggregated.",
            ),
            key(
                "weight",
                Kind::Integer,
                "µs",
                format!(
                    "ap.airtime.default_weight_us ({})",
                    AirtimeParams::default().default_weight_us
                ),
                format!("1 to {}", AirtimeParams::MAX_WEIGHT_US),
                "512",
                "Airtime weight per scheduler round (`iw ... station set ... \
                 airtime_weight`); the airtime scheduler only.",
            ),
            key(
                "group",
                Kind::String,
                "",
                "none",
                "the name of an [[ap.group]]",
                "\"g\"",
                "The airtime group the station belongs to.",
            ),
        ],
    }
}
