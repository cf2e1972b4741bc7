//! The run itself, `[bss]` and `[wired]`.

use super::*;

pub(super) fn top_level() -> TableDoc {
    TableDoc {
        path: "",
        about: "The run: its name, length, seeds; the tables below.",
        keys: vec![
            key(
                "name",
                Kind::String,
                "",
                "required",
                "1 to 64 letters, digits, - _ .",
                "\"my-test\"",
                "Names the results files (<name>-<variant>-seed<N>.json.gz).",
            ),
            key(
                "description",
                Kind::String,
                "",
                "\"\"",
                "any",
                "\"one slow station\"",
                "One line, shown by `airq list scenarios`.",
            ),
            key(
                "duration",
                Kind::Number,
                "s",
                "required",
                "above 0, at most 1e7",
                "30.0",
                "Simulated time (--duration overrides it).",
            ),
            key(
                "step",
                Kind::Number,
                "s",
                "0.2",
                "above 0, at most duration; at most 1e6 steps and 1e8 values (steps x 3 x (stations + flows))",
                "0.5",
                "Step of the time series (flent's default).",
            ),
            key(
                "omit",
                Kind::Number,
                "s",
                "0",
                "0 to below duration",
                "5.0",
                "Warm-up left out of every summary, kept in the time series (iperf3's \
                 --omit; --omit overrides it).",
            ),
            key(
                "seed",
                Kind::Integer,
                "",
                "1",
                "0 to 2^64-1",
                "7",
                "Root seed, split into named streams (--seed overrides it).",
            ),
            key(
                "seeds",
                Kind::Integer,
                "",
                "1",
                "1 to 1000",
                "5",
                "Repetitions: every variant runs under seeds seed to seed+seeds-1; tables \
                 show mean ± 95% confidence interval (--seeds overrides it).",
            ),
            key(
                "bss",
                Kind::Table,
                "",
                "[bss]'s defaults",
                "[bss] keys",
                "{ band = \"2.4GHz\" }",
                "BSS-wide radio settings: see [bss].",
            ),
            key(
                "ap",
                Kind::Table,
                "",
                "[ap]'s defaults",
                "[ap] keys",
                "{ preset = \"fifo\" }",
                "The AP's transmit path: see [ap].",
            ),
            key(
                "wired",
                Kind::Table,
                "",
                "[wired]'s defaults",
                "[wired] keys",
                "{ delay_ms = 10.0 }",
                "The link between the server and the AP: see [wired].",
            ),
            key(
                "station",
                Kind::Tables,
                "",
                "required",
                "one or more [[station]]",
                "[{ name = \"a\", standard = \"ht\", mcs = 7 }]",
                "The stations: see [[station]].",
            ),
            key(
                "traffic",
                Kind::Tables,
                "",
                "required",
                "one or more [[traffic]]",
                "[{ test = \"udp_flood\" }]",
                "The tests run: see [[traffic]].",
            ),
            key(
                "variant",
                Kind::Tables,
                "",
                "none",
                "[[variant]]s",
                "[{ name = \"v\", preset = \"fifo\" }]",
                "Named AP configurations `compare` runs side by side: see [[variant]].",
            ),
        ],
    }
}

pub(super) fn bss() -> TableDoc {
    let ofdm = BssConfig::ofdm(Band::Ghz5);
    let radio = ofdm.radio;
    TableDoc {
        path: "bss",
        about: "BSS-wide radio settings.",
        keys: vec![
            key(
                "band",
                Kind::Choice(BANDS),
                "",
                "5GHz",
                "",
                "\"2.4GHz\"",
                "The frequency band; it decides which standards stations may use.",
            ),
            key(
                "timing",
                Kind::Choice(TIMINGS),
                "",
                "from the stations",
                "",
                "\"ofdm\"",
                "MAC timing: ofdm (9 µs slot, aCWmin 15; 11a/g/n/ac/ax) or dsss (802.11b: \
                 20 µs slot, aCWmin 31; 2.4GHz only). Unset, the stations decide: in \
                 2.4GHz dsss if every station is 802.11b, ofdm with the 20 µs long slot if \
                 some are (the short slot needs every station's support; see protection), \
                 else ofdm; check and run say what was derived and the results keep it \
                 (bss_timing). The basic rates are hostapd's (2.4GHz 1, \
                 2, 5.5, 11 Mbit/s; 5/6GHz 6, 12, 24) and an Ack, BlockAck, RTS or CTS goes \
                 at the highest basic rate not above the data frame's, in its modulation \
                 class (IEEE 802.11-2020 10.6.6.5).",
            ),
            key(
                "basic_rates_mbps",
                Kind::Numbers,
                "Mbit/s",
                "hostapd's: 2.4GHz 1, 2, 5.5, 11; 5/6GHz 6, 12, 24",
                "1, 2, 5.5, 11 (2.4GHz only), 6, 9, 12, 18, 24, 36, 48, 54; at least one",
                "[6, 12, 24]",
                "The BSS basic rate set (BSSBasicRateSet): an Ack, BlockAck, RTS or CTS goes \
                 at the highest of its rates not above the data frame's, in its modulation \
                 class, else at the highest mandatory rate of that class not above it \
                 (IEEE 802.11-2020 10.6.6.5); beacons at its lowest.",
            ),
            key(
                "rts_cts",
                Kind::Boolean,
                "",
                "false",
                "true, false",
                "true",
                "RTS/CTS before every data PPDU (IEEE 802.11-2020 10.3.2.8; the RTS \
                 threshold at 0). The RTS goes at mac80211's rts_cts_rate_idx: before an \
                 HT/VHT/HE PPDU the band's first rate (1 Mbit/s long preamble in 2.4GHz, 6 \
                 Mbit/s in 5/6GHz), before a legacy one the fastest basic rate not above \
                 it. Minstrel-HT sends its fallback stages behind RTS/CTS either way.",
            ),
            key(
                "protection",
                Kind::Choice(PROTECTIONS),
                "",
                "auto",
                "",
                "\"off\"",
                "ERP protection of OFDM frames for 802.11b stations (IEEE 802.11-2020 \
                 10.26.2): before every OFDM, HT, VHT or HE PPDU (never a DSSS one) a \
                 CTS-to-self, or RTS/CTS, at a DSSS rate with the long preamble: 1 Mbit/s \
                 before an HT/VHT/HE PPDU (mac80211's rts_cts_rate_idx 0), the fastest DSSS \
                 basic rate not above the data rate before an 11a/g one (rate.c \
                 rate_fixup_ratelist). auto: cts_to_self in a 2.4GHz BSS with 802.11b and \
                 OFDM-based stations (hostapd's Use_Protection with a non-ERP station; \
                 mac80211's use_cts_prot, ath9k's CTS-to-self), else off; with rts_cts, \
                 RTS/CTS. cts_to_self and rts_cts: 2.4GHz only. check and run say it and \
                 the results keep it (bss_protection).",
            ),
            key(
                "ap_edca",
                Kind::Choice(AP_EDCAS),
                "",
                "ap",
                "",
                "\"station\"",
                "The EDCA parameters the AP contends with. ap: its own, the defaults of \
                 dot11QAPEDCATable (IEEE 802.11-2020 Annex C) that hostapd gives the AP's \
                 queues (tx_queue_data0..3: VO AIFSN 1 CW 3-7, VI AIFSN 1 CW 7-15, BE \
                 AIFSN 3 CW 15-63, BK AIFSN 7 CW 15-1023; with dsss timing 7-15, 15-31, \
                 31-127, 31-1023), while the stations use the set it advertises (Table \
                 9-155: AIFSN 2 for VI and VO, BE's CWmax 1023). station: the AP uses the \
                 stations' set, as ns-3's AP and models of the DCF (Bianchi) do. TXOP \
                 limits are the same either way.",
            ),
            key(
                "beacons",
                Kind::Boolean,
                "",
                "true",
                "true, false",
                "false",
                "Beacons every 100 TU (102.4 ms) at the lowest basic rate.",
            ),
            key(
                "retry_limit",
                Kind::Integer,
                "",
                format!(
                    "{} alone ({} with rts_cts), {} in an A-MPDU",
                    ofdm.retry_limit,
                    airq_sim::mac::link::DOT11_LONG_RETRY_LIMIT,
                    ofdm.ampdu_retry_limit
                ),
                "1 to 255",
                "4",
                "Transmissions of an MPDU, the first included, before it is dropped; set, \
                 one limit for every MPDU. Unset: dot11ShortRetryLimit 7 for an MPDU sent \
                 alone, dot11LongRetryLimit 4 behind RTS/CTS (cfg80211's wiphy defaults, \
                 net/wireless/core.c), 1 + ath9k's ATH_MAX_SW_RETRIES = 31 for an A-MPDU \
                 subframe.",
            ),
            key(
                "max_aggregate_airtime_us",
                Kind::Integer,
                "µs",
                ofdm.max_aggregate_airtime.as_micros().to_string(),
                "1 or more",
                "2000",
                "Cap on the airtime of one A-MPDU (ath9k ATH_AMPDU_LIMIT_MAX).",
            ),
            key(
                "station_queue_packets",
                Kind::Integer,
                "packets",
                STATION_QUEUE_PACKETS.to_string(),
                "1 or more",
                "100",
                "Packets each of a station's four AC queues holds, tail drop (Linux: the mq qdisc, one child per AC netdev queue, each limited by txqueuelen; net/mac80211/iface.c).",
            ),
            key(
                "path_loss",
                Kind::Choice(PATH_LOSS_MODELS),
                "",
                "tgax_residential",
                "",
                "\"tgax_enterprise\"",
                "Path loss of stations placed by distance_m: the TGax indoor models (IEEE \
                 802.11-14/0980r16): residential, free space to 5 m then 35 dB per decade, \
                 5 dB per wall; enterprise, free space to 10 m, 7 dB per wall. Evaluated at \
                 frequency_mhz (default 2437, 5180 or 5975 MHz by band).",
            ),
            key(
                "noise_figure_db",
                Kind::Number,
                "dB",
                number(radio.noise_figure_db),
                "0 to 30",
                "5.0",
                "Every receiver's noise figure, above thermal noise kTB over the channel \
                 width (22 MHz for DSSS): -94 dBm at 20 MHz with 7 dB (TGax evaluation \
                 methodology, ns-3's default). Stations with a channel only.",
            ),
            key(
                "ap_tx_power_dbm",
                Kind::Number,
                "dBm",
                number(radio.ap_tx_power_dbm),
                "-30 to 40",
                "23.0",
                "The AP's transmit power (TGax scenarios: 20 dBm). Stations with a channel \
                 only.",
            ),
            key(
                "frequency_mhz",
                Kind::Integer,
                "MHz",
                "by band: 2437, 5180, 5975".to_string(),
                "a 20 MHz channel's centre in the band: 2412 to 2472 in steps of 5, or \
                 2484 (2.4GHz); 5160 to 5885 in steps of 5 (5GHz); 5955 to 7115 in steps \
                 of 20 (6GHz)",
                "5745",
                "The channel's centre frequency (IEEE 802.11-2020 Annex E; 802.11ax-2021 \
                 27.3.23.2): the path loss of stations placed by distance_m is evaluated at \
                 it, and captures (--pcap) carry it in the radiotap Channel field. Default: \
                 channel 6, 36 or 5 (6 GHz) by band.",
            ),
        ],
    }
}

pub(super) fn wired() -> TableDoc {
    let link = WiredLink::default();
    TableDoc {
        path: "wired",
        about: "The link between the server and the AP.",
        keys: vec![
            key(
                "rate_mbps",
                Kind::Number,
                "Mbit/s",
                number(link.rate_bps as f64 / 1e6),
                "above 0, at most 1e6 (1 Tbit/s)",
                "100.0",
                "Rate of the link; each direction queues at most Linux's txqueuelen (1000 \
                 packets) waiting to be sent, and drops beyond it (counted as wire_queue).",
            ),
            key(
                "delay_ms",
                Kind::Number,
                "ms",
                ms(link.delay),
                "0 to 10000",
                "5.0",
                "One-way propagation delay.",
            ),
            key(
                "extra_delay_ms",
                Kind::Number,
                "ms",
                "0",
                "0 to 10000",
                "20.0",
                "Added one-way delay (a netem delay on the server, as flent testbeds add).",
            ),
        ],
    }
}
