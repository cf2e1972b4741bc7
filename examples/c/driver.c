/*
 * driver.c — a tiny WiFi driver loop on airq's C API (crates/airq-ffi/include/airq.h).
 *
 * Three stations at very different PHY rates share one simulated radio for one second:
 *   station 1  VHT MCS 9, 2 streams, 80 MHz  (867 Mbit/s): two bulk flows + voice (VO)
 *   station 2  HT MCS 7, 20 MHz              (65 Mbit/s):  one ECN-capable bulk flow
 *   station 3  HT MCS 0, 20 MHz              (6.5 Mbit/s): one bulk flow + sparse pings
 * Every bulk flow offers more than its station can carry, so all three are backlogged.
 *
 * The loop is mac80211's: packets go into the FQ-MAC queues (airq_fq, one tin per
 * TXQ); for each AC the driver starts a scheduling round and takes TXQs from the
 * airtime scheduler (airq_sched) gated by AQL (airq_aql), dequeues an aggregate of up
 * to 32 packets or 4 ms from each, charges its estimated airtime to AQL and hands it
 * to the "hardware", which sends aggregates one after another. At each completion the
 * driver releases the airtime from AQL and reports it to the scheduler.
 *
 * What to look for: airtime fairness gives the three stations about a third of the
 * airtime each — not of the packets, or the slow station would take most of the air.
 * Within station 1, DRR++ serves bulk-b (below its share of the tin) and the sparse
 * voice flow promptly, while bulk-a, offering more than is left for it, holds the
 * standing queue. These senders never slow down, so CoDel's drops (and its marks on
 * the ECN flow) cannot shrink their queues as they would a TCP's; the global packet
 * limit drops from the fattest flow instead. Sojourn times run until the hardware
 * completes a packet, so they include the airtime AQL lets wait below the MAC. Every
 * packet (a malloc'ed buffer here) comes back: sent, or handed to the drop callback.
 * The program checks that and exits non-zero if not; valgrind checks the rest.
 *
 * Build: make -C examples/c run (see the Makefile).
 */
#include "airq.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000ull
#define US 1000ull
#define DURATION_NS (1000 * MS)
#define AGG_MAX_PACKETS 32
#define AGG_MAX_US 4000
#define HW_RING 64
#define N_STATIONS 3
#define N_TXQS 4
#define N_FLOWS 6

/* Stop on an unexpected error, with the library's message. */
#define CHECK(call)                                                                   \
    do {                                                                              \
        airq_status rc_ = (call);                                                     \
        if (rc_ < 0) {                                                                \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,        \
                    airq_status_str(rc_), airq_last_error());                         \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

/* The driver's packet: what the cookie points to. */
struct pkt {
    int flow;
    uint32_t len;
};

struct station {
    uint32_t id;
    const char *name;
    airq_rate rate;
};

/* A TXQ as the driver keeps it: the scheduler's number, its tin and owner. */
struct txq {
    int station; /* index into stations[] */
    uint8_t tid;
    uint8_t ac;
    uint32_t txq; /* airq_sched's number */
    uint32_t tin; /* airq_fq's number */
};

struct flow {
    const char *name;
    int txq; /* index into txqs[] */
    uint32_t len;
    uint64_t interval_ns;
    uint8_t ecn;
    uint32_t hash;
    uint64_t next_ns;
    /* results */
    uint64_t offered, delivered, ce, dropped[4];
    uint64_t sojourn_sum_ns, sojourn_max_ns;
};

/* An aggregate handed to the hardware. */
struct aggregate {
    int txq;
    uint32_t airtime_us;
    int n;
    airq_packet packets[AGG_MAX_PACKETS];
};

static struct station stations[N_STATIONS];
static struct txq txqs[N_TXQS];
static struct flow flows[N_FLOWS];
static struct aggregate hw[HW_RING];
static int hw_head, hw_count;
static uint64_t hw_busy_until; /* when the aggregate at the head completes */
static uint64_t airtime_us_of[N_STATIONS];
static uint64_t allocated, freed;
static int busy_refusals; /* calls into the queues from the drop callback, refused */

static airq_fq *fq;
static airq_sched *sched;
static airq_aql *aql;

/* Every packet the queues drop comes back here, during the call that dropped it. */
static void on_drop(void *ctx, const airq_dropped *d)
{
    (void)ctx;
    struct pkt *p = d->packet.cookie;
    flows[p->flow].dropped[d->reason]++;
    /* Calling back into the handle that is dropping is refused, not a corruption. */
    bool has_queue;
    if (airq_fq_has_queue(fq, d->tin, &has_queue) == AIRQ_ERR_BUSY)
        busy_refusals++;
    free(p);
    freed++;
}

static void enqueue_arrivals(uint64_t now)
{
    for (int f = 0; f < N_FLOWS; f++) {
        struct flow *fl = &flows[f];
        while (fl->next_ns <= now) {
            struct pkt *p = malloc(sizeof *p);
            if (!p)
                abort();
            allocated++;
            p->flow = f;
            p->len = fl->len;
            airq_packet packet = {
                .cookie = p,
                .len_bytes = fl->len,
                .flow_hash = fl->hash,
                .ecn = fl->ecn,
            };
            struct txq *q = &txqs[fl->txq];
            CHECK(airq_fq_enqueue(fq, q->tin, &packet, fl->next_ns, on_drop, NULL));
            /* ieee80211_schedule_txq: list the TXQ if it was not. */
            CHECK(airq_sched_return_txq(sched, q->txq, true, fl->next_ns));
            fl->offered++;
            fl->next_ns += fl->interval_ns;
        }
    }
}

/* Dequeues one aggregate from TXQ t into the hardware ring; false if it had none. */
static bool build_aggregate(int t, uint64_t now)
{
    struct txq *q = &txqs[t];
    struct station *s = &stations[q->station];
    struct aggregate *agg = &hw[(hw_head + hw_count) % HW_RING];
    agg->txq = t;
    agg->n = 0;
    agg->airtime_us = 0;
    while (agg->n < AGG_MAX_PACKETS && agg->airtime_us < AGG_MAX_US) {
        airq_packet *p = &agg->packets[agg->n];
        if (airq_fq_dequeue(fq, q->tin, now, p, on_drop, NULL) != AIRQ_OK)
            break;
        uint32_t est;
        CHECK(airq_aql_estimate_us(aql, &s->rate, p->len_bytes, true, &est));
        CHECK(airq_aql_charge(aql, s->id, q->ac, est));
        agg->airtime_us += est;
        agg->n++;
    }
    if (agg->n == 0)
        return false;
    if (hw_count == 0)
        hw_busy_until = now + agg->airtime_us * US;
    hw_count++;
    return true;
}

/* One scheduling round per AC, in priority order; whether any TXQ was handed out. */
static bool schedule_round(uint64_t now)
{
    bool handed_out = false;
    for (uint8_t ac = AIRQ_AC_VO; ac <= AIRQ_AC_BK; ac++) {
        CHECK(airq_sched_schedule_start(sched, ac, aql));
        uint32_t id;
        while (hw_count < HW_RING && airq_sched_next_txq(sched, ac, aql, now, &id) == AIRQ_OK) {
            int t = 0;
            while (txqs[t].txq != id)
                t++;
            build_aggregate(t, now);
            bool has_queue;
            CHECK(airq_fq_has_queue(fq, txqs[t].tin, &has_queue));
            CHECK(airq_sched_return_txq(sched, id, has_queue, now));
            handed_out = true;
        }
    }
    return handed_out;
}

/*
 * The driver's TX tasklet. A round ends at a TXQ it already served (mac80211's rule),
 * which may be an empty TXQ kept listed while its station is active, before a station
 * whose deficit the round refilled got its turn: so, as the tasklet would be run again,
 * start another round while the last one handed something out (at most a few).
 */
static void fill_hardware(uint64_t now)
{
    for (int round = 0; round < 4 && hw_count < HW_RING; round++)
        if (!schedule_round(now))
            break;
}

/* The hardware finished the aggregate at the head of the ring. */
static void complete_head(uint64_t now)
{
    struct aggregate *agg = &hw[hw_head];
    struct txq *q = &txqs[agg->txq];
    struct station *s = &stations[q->station];
    for (int i = 0; i < agg->n; i++) {
        airq_packet *p = &agg->packets[i];
        struct pkt *pk = p->cookie;
        struct flow *fl = &flows[pk->flow];
        uint64_t sojourn = now - p->enqueue_time_ns;
        fl->delivered++;
        fl->ce += p->ecn == AIRQ_ECN_CE;
        fl->sojourn_sum_ns += sojourn;
        if (sojourn > fl->sojourn_max_ns)
            fl->sojourn_max_ns = sojourn;
        free(pk);
        freed++;
    }
    bool backlogged;
    CHECK(airq_fq_has_queue(fq, q->tin, &backlogged));
    CHECK(airq_aql_report_completion(aql, s->id, q->ac, agg->airtime_us, now, backlogged, NULL));
    CHECK(airq_sched_register_airtime(sched, s->id, q->tid, agg->airtime_us, 0, now));
    airtime_us_of[q->station] += agg->airtime_us;
    hw_head = (hw_head + 1) % HW_RING;
    hw_count--;
    if (hw_count > 0)
        hw_busy_until = now + hw[hw_head].airtime_us * US;
}

static uint64_t next_arrival(void)
{
    uint64_t next = UINT64_MAX;
    for (int f = 0; f < N_FLOWS; f++)
        if (flows[f].next_ns < next)
            next = flows[f].next_ns;
    return next;
}

/* Prints a printer's text, sized with a first call as snprintf is. */
#define PRINT(printer, ...)                                                           \
    do {                                                                              \
        size_t len_ = 0;                                                              \
        airq_status rc_ = printer(__VA_ARGS__, NULL, 0, &len_);                       \
        if (rc_ != AIRQ_ERR_BUFFER_TOO_SMALL && rc_ != AIRQ_OK)                       \
            CHECK(rc_);                                                               \
        char *buf_ = malloc(len_ + 1);                                                \
        if (!buf_)                                                                    \
            abort();                                                                  \
        CHECK(printer(__VA_ARGS__, buf_, len_ + 1, &len_));                           \
        fputs(buf_, stdout);                                                          \
        free(buf_);                                                                   \
    } while (0)

static void setup(void)
{
    CHECK(airq_fq_new(NULL, &fq));
    CHECK(airq_sched_new(NULL, &sched));
    CHECK(airq_aql_new(NULL, &aql));

    stations[0] = (struct station){1, "fast", {.phy = AIRQ_PHY_VHT, .mcs = 9, .nss = 2,
                                               .width_mhz = 80, .short_gi = true}};
    stations[1] = (struct station){2, "medium", {.phy = AIRQ_PHY_HT, .mcs = 7, .width_mhz = 20}};
    stations[2] = (struct station){3, "slow", {.phy = AIRQ_PHY_HT, .mcs = 0, .width_mhz = 20}};
    for (int i = 0; i < N_STATIONS; i++) {
        CHECK(airq_sched_add_station(sched, stations[i].id));
        CHECK(airq_aql_register_station(aql, stations[i].id));
    }

    /* TXQs: station 1 TID 0 (BE) and TID 6 (VO); stations 2 and 3 TID 0. */
    const struct { int station; uint8_t tid, ac; } spec[N_TXQS] = {
        {0, 0, AIRQ_AC_BE}, {0, 6, AIRQ_AC_VO}, {1, 0, AIRQ_AC_BE}, {2, 0, AIRQ_AC_BE}};
    for (int t = 0; t < N_TXQS; t++) {
        txqs[t] = (struct txq){.station = spec[t].station, .tid = spec[t].tid, .ac = spec[t].ac};
        CHECK(airq_sched_add_txq(sched, stations[spec[t].station].id, spec[t].tid, &txqs[t].txq));
        CHECK(airq_fq_add_tin(fq, &txqs[t].tin));
    }

#define FLOW(n, q, l, i, e, h) {.name = n, .txq = q, .len = l, .interval_ns = i, .ecn = e, .hash = h}
    const struct flow spec_flows[N_FLOWS] = {
        FLOW("bulk-a", 0, 1500, 50 * US, AIRQ_ECN_NOT_ECT, 0x1a2b3c4d),
        FLOW("bulk-b", 0, 1500, 100 * US, AIRQ_ECN_NOT_ECT, 0x5e6f7081),
        FLOW("voice", 1, 200, 20 * MS, AIRQ_ECN_NOT_ECT, 0x92a3b4c5),
        FLOW("bulk-ecn", 2, 1500, 500 * US, AIRQ_ECN_ECT0, 0xd6e7f809),
        FLOW("bulk-slow", 3, 1500, 4 * MS, AIRQ_ECN_NOT_ECT, 0x1b2c3d4e),
        FLOW("ping", 3, 84, 100 * MS, AIRQ_ECN_NOT_ECT, 0x5f607182),
    };
#undef FLOW
    memcpy(flows, spec_flows, sizeof flows);
}

/* The contract's error paths: refused with a code and a message, nothing corrupted. */
static void show_errors(void)
{
    airq_packet p = {.cookie = NULL, .len_bytes = 100};
    airq_status rc = airq_fq_enqueue(fq, 999, &p, 0, on_drop, NULL);
    printf("enqueue to tin 999: %s: %s\n", airq_status_str(rc), airq_last_error());
    rc = airq_fq_enqueue(NULL, 0, &p, 0, on_drop, NULL);
    printf("enqueue to a null handle: %s: %s\n", airq_status_str(rc), airq_last_error());
    rc = airq_sched_add_txq(sched, stations[0].id, 16, &(uint32_t){0});
    printf("TXQ for TID 16: %s: %s\n", airq_status_str(rc), airq_last_error());
    rc = airq_sched_schedule_start(sched, AIRQ_AC_BE, (airq_aql *)fq);
    printf("fq passed as AQL: %s\n", airq_status_str(rc));
}

int main(void)
{
    setup();

    uint64_t now = 0;
    for (;;) {
        uint64_t arrival = next_arrival();
        bool arrivals_left = arrival < DURATION_NS;
        if (!arrivals_left && hw_count == 0)
            break;
        /* The next event: an arrival, or the hardware completing an aggregate. */
        if (hw_count > 0 && (!arrivals_left || hw_busy_until <= arrival)) {
            now = hw_busy_until;
            complete_head(now);
        } else {
            now = arrival;
            enqueue_arrivals(now);
        }
        fill_hardware(now);
    }

    printf("airq C driver example: %d stations, arrivals for %.1f s, queues drained at %.3f s\n\n",
           N_STATIONS, DURATION_NS / 1e9, now / 1e9);
    printf("%-10s %-7s %8s %9s %6s %6s %6s %12s %12s\n", "flow", "station", "offered",
           "delivered", "ce", "codel", "limit", "mean sojourn", "max sojourn");
    for (int f = 0; f < N_FLOWS; f++) {
        struct flow *fl = &flows[f];
        double mean_ms = fl->delivered ? fl->sojourn_sum_ns / 1e6 / fl->delivered : 0;
        printf("%-10s %-7s %8" PRIu64 " %9" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64
               " %9.3f ms %9.3f ms\n",
               fl->name, stations[txqs[fl->txq].station].name, fl->offered, fl->delivered,
               fl->ce, fl->dropped[AIRQ_DROP_CODEL],
               fl->dropped[AIRQ_DROP_OVERLIMIT] + fl->dropped[AIRQ_DROP_OVERMEMORY], mean_ms,
               fl->sojourn_max_ns / 1e6);
    }
    uint64_t total_airtime = 0;
    for (int i = 0; i < N_STATIONS; i++)
        total_airtime += airtime_us_of[i];
    printf("\n");
    for (int i = 0; i < N_STATIONS; i++)
        printf("airtime share station %" PRIu32 " (%s): %.3f\n", stations[i].id, stations[i].name,
               (double)airtime_us_of[i] / (double)total_airtime);

    printf("\n== debugfs aqm\n");
    PRINT(airq_fq_print_aqm, fq);
    printf("\n== debugfs aql_pending\n");
    PRINT(airq_aql_print_pending, aql);
    for (int i = 0; i < N_STATIONS; i++) {
        airq_tin_tid tins[N_TXQS];
        size_t n = 0;
        for (int t = 0; t < N_TXQS; t++)
            if (txqs[t].station == i)
                tins[n++] = (airq_tin_tid){txqs[t].tin, txqs[t].tid};
        printf("\n== iw station dump: station %" PRIu32 " (%s)\n", stations[i].id,
               stations[i].name);
        PRINT(airq_print_iw_station, sched, fq, stations[i].id, tins, n);
        printf("== debugfs station aql\n");
        PRINT(airq_aql_print_station, aql, stations[i].id);
        printf("== debugfs station airtime\n");
        PRINT(airq_sched_print_station_airtime, sched, stations[i].id);
    }

    printf("\n== errors\n");
    show_errors();

    /* Teardown: what is still queued comes back through on_drop. */
    CHECK(airq_fq_free(fq, on_drop, NULL));
    CHECK(airq_sched_free(sched));
    CHECK(airq_aql_free(aql));
    airq_status rc = airq_aql_free(aql);
    printf("freeing AQL twice: %s: %s\n", airq_status_str(rc), airq_last_error());

    uint64_t delivered = 0, dropped = 0;
    for (int f = 0; f < N_FLOWS; f++) {
        delivered += flows[f].delivered;
        for (int r = 0; r < 4; r++)
            dropped += flows[f].dropped[r];
    }
    printf("\npackets: %" PRIu64 " allocated, %" PRIu64 " delivered, %" PRIu64
           " dropped, %" PRIu64 " leaked\n",
           allocated, delivered, dropped, allocated - freed);
    printf("calls from the drop callback refused as busy: %d\n", busy_refusals);
    if (freed != allocated || delivered + dropped != allocated) {
        fprintf(stderr, "packets were lost\n");
        return 1;
    }
    return 0;
}
