/*
 * groups.c — airtime policies on airq's C API (crates/airq-ffi/include/airq.h): the
 * seeds' guest network (netdev 2.2 §4.2, slide 19) with groups of stations in the
 * airtime scheduler.
 *
 * A guest group of two stations (aggregates of 0.1 ms and 4 ms: very different rates)
 * and a home group of one station (0.65 ms aggregates), of equal weight, so each group's
 * nominal share is half the airtime. The driver loop is mac80211's, reduced to the
 * scheduler: take the next TXQ, "send" one aggregate, charge its airtime to the station
 * (airq_sched_register_airtime), hand the TXQ back still backlogged. Time is the
 * airtime used; when nothing may be sent, the loop sleeps until the scheduler's
 * airq_sched_next_timeout.
 *
 *   1. Everyone busy: the groups get half each, the guests a quarter each (airtime
 *      fairness within the group, whatever their rates).
 *   2. The home station idle, the guest group LIMIT: capped at half of wall time; the
 *      channel stays idle the rest.
 *   3. The guest group made SHARE: it takes the idle airtime (all of it).
 *   4. The error codes of the group calls, airq_sched_remove_txq, and the teardown
 *      (stations out of the groups, groups removed): valgrind and the sanitizers check
 *      that nothing leaks.
 *
 * Build: make -C examples/c groups (see the Makefile).
 */
#include "airq.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define MS 1000000ull
#define US 1000ull
#define N 3 /* stations 1, 2 (guest) and 3 (home) */

#define CHECK(call)                                                                   \
    do {                                                                              \
        airq_status rc_ = (call);                                                     \
        if (rc_ < 0) {                                                                \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,        \
                    airq_status_str(rc_), airq_last_error());                         \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

/* A call that must fail with `want`: prints its message, exits if it did not. */
#define EXPECT(what, want, call)                                                      \
    do {                                                                              \
        airq_status rc_ = (call);                                                     \
        if (rc_ != (want)) {                                                          \
            fprintf(stderr, "%s: got %s, wanted %s\n", what, airq_status_str(rc_),    \
                    airq_status_str(want));                                           \
            exit(1);                                                                  \
        }                                                                             \
        printf("%s: %s%s%s\n", what, airq_status_str(rc_), rc_ < 0 ? ": " : "",       \
               rc_ < 0 ? airq_last_error() : "");                                     \
    } while (0)

static const uint32_t aggregate_us[N + 1] = {0, 100, 4000, 650};

struct radio {
    airq_sched *sched;
    uint32_t txq[N + 1];
    uint64_t now_ns;
    uint64_t airtime_us[N + 1];
};

/* Runs the loop for `decisions` aggregates or until `until_ns`, whichever first. */
static void run(struct radio *r, int decisions, uint64_t until_ns) {
    for (int i = 0; i < decisions && r->now_ns < until_ns; i++) {
        uint32_t txq, station;
        CHECK(airq_sched_schedule_start(r->sched, AIRQ_AC_BE, NULL));
        airq_status st = airq_sched_next_txq(r->sched, AIRQ_AC_BE, NULL, r->now_ns, &txq);
        CHECK(st);
        if (st == AIRQ_EMPTY) {
            uint64_t at;
            st = airq_sched_next_timeout(r->sched, r->now_ns, &at);
            CHECK(st);
            if (st == AIRQ_EMPTY) {
                fprintf(stderr, "nothing to send and no time to come back\n");
                exit(1);
            }
            r->now_ns = at; /* the channel idles until a capped group may send */
            continue;
        }
        CHECK(airq_sched_txq_owner(r->sched, txq, &station, NULL));
        uint32_t us = aggregate_us[station];
        CHECK(airq_sched_register_airtime(r->sched, station, 0, us, 0, r->now_ns));
        r->now_ns += us * US;
        r->airtime_us[station] += us;
        CHECK(airq_sched_return_txq(r->sched, txq, true, r->now_ns));
    }
}

static void reset(struct radio *r) {
    for (int s = 0; s <= N; s++) r->airtime_us[s] = 0;
}

static double share(const struct radio *r, int s, uint64_t of_us) {
    return (double)r->airtime_us[s] / (double)of_us;
}

int main(void) {
    struct radio r = {0};
    uint32_t guest, home, group;
    airq_group_stats gs;

    CHECK(airq_sched_new(NULL, &r.sched));
    CHECK(airq_sched_add_group(r.sched, AIRQ_NO_GROUP, 256, AIRQ_GROUP_LIMIT, &guest));
    CHECK(airq_sched_add_group(r.sched, AIRQ_NO_GROUP, 256, AIRQ_GROUP_SHARE, &home));
    for (uint32_t s = 1; s <= N; s++) {
        CHECK(airq_sched_add_station(r.sched, s));
        CHECK(airq_sched_set_station_group(r.sched, s, s < 3 ? guest : home));
        CHECK(airq_sched_add_txq(r.sched, s, 0, &r.txq[s]));
        CHECK(airq_sched_return_txq(r.sched, r.txq[s], true, 0));
    }
    CHECK(airq_sched_station_group(r.sched, 2, &group));
    CHECK(airq_sched_get_group_stats(r.sched, guest, &gs));
    printf("guest group %" PRIu32 ": station 2 in group %" PRIu32 ", %" PRIu32
           " members, weight %" PRIu32 " us, mode %s, nominal share %" PRIu32 " ppm\n",
           guest, group, gs.members, gs.weight_us,
           gs.mode == AIRQ_GROUP_LIMIT ? "limit" : "share", gs.nominal_share_ppm);

    /* 1. Everyone busy. */
    run(&r, 20000, UINT64_MAX);
    uint64_t total = r.airtime_us[1] + r.airtime_us[2] + r.airtime_us[3];
    printf("all busy: guest group %.3f, guest station 1 %.3f, guest station 2 %.3f, "
           "home station %.3f of the airtime\n",
           share(&r, 1, total) + share(&r, 2, total), share(&r, 1, total),
           share(&r, 2, total), share(&r, 3, total));

    /* 2. The home station idle: the limited guest group keeps to half of wall time. */
    CHECK(airq_sched_unschedule(r.sched, r.txq[3]));
    reset(&r);
    uint64_t start = r.now_ns;
    run(&r, 1000000, start + 10000 * MS);
    uint64_t wall_us = (r.now_ns - start) / US;
    printf("home idle, guest limited: guest group %.3f, guest station 1 %.3f, "
           "guest station 2 %.3f of wall time\n",
           share(&r, 1, wall_us) + share(&r, 2, wall_us), share(&r, 1, wall_us),
           share(&r, 2, wall_us));
    CHECK(airq_sched_get_group_stats(r.sched, guest, &gs));
    if (!gs.has_limit_credit) {
        fprintf(stderr, "a limited group without its credit\n");
        exit(1);
    }
    printf("guest limit credit %" PRId64 " us\n", gs.limit_credit_us);

    /* 3. The guest group work-conserving: it takes the idle airtime. */
    CHECK(airq_sched_set_group_mode(r.sched, guest, AIRQ_GROUP_SHARE));
    reset(&r);
    start = r.now_ns;
    run(&r, 1000000, start + 10000 * MS);
    wall_us = (r.now_ns - start) / US;
    printf("home idle, guest sharing: guest group %.3f of wall time\n",
           share(&r, 1, wall_us) + share(&r, 2, wall_us));
    uint64_t at;
    EXPECT("next timeout with no limited group", AIRQ_EMPTY,
           airq_sched_next_timeout(r.sched, r.now_ns, &at));

    /* 4. The calls' errors, then the teardown. */
    EXPECT("remove a group with stations", AIRQ_ERR_GROUP_NOT_EMPTY,
           airq_sched_remove_group(r.sched, guest));
    EXPECT("group inside itself", AIRQ_ERR_GROUP_NESTING,
           airq_sched_set_group_parent(r.sched, guest, guest));
    CHECK(airq_sched_set_group_parent(r.sched, home, guest)); /* home nested in guest */
    EXPECT("guest inside home inside guest", AIRQ_ERR_GROUP_NESTING,
           airq_sched_set_group_parent(r.sched, guest, home));
    CHECK(airq_sched_set_group_parent(r.sched, home, AIRQ_NO_GROUP));
    EXPECT("unknown group", AIRQ_ERR_UNKNOWN_GROUP,
           airq_sched_set_group_weight(r.sched, 99, 512));
    EXPECT("weight 0", AIRQ_ERR_INVALID_ARGUMENT,
           airq_sched_set_group_weight(r.sched, guest, 0));
    EXPECT("mode 7", AIRQ_ERR_INVALID_ARGUMENT, airq_sched_set_group_mode(r.sched, guest, 7));
    EXPECT("null out-pointer", AIRQ_ERR_NULL,
           airq_sched_add_group(r.sched, AIRQ_NO_GROUP, 256, AIRQ_GROUP_SHARE, NULL));
    EXPECT("station 9 into a group", AIRQ_ERR_UNKNOWN_STATION,
           airq_sched_set_station_group(r.sched, 9, guest));
    CHECK(airq_sched_set_group_weight(r.sched, guest, 768));
    CHECK(airq_sched_get_group_stats(r.sched, guest, &gs));
    printf("guest weight %" PRIu32 " us: nominal share %" PRIu32 " ppm\n", gs.weight_us,
           gs.nominal_share_ppm);

    CHECK(airq_sched_remove_txq(r.sched, r.txq[3]));
    EXPECT("return a removed TXQ", AIRQ_ERR_UNKNOWN_TXQ,
           airq_sched_return_txq(r.sched, r.txq[3], true, r.now_ns));
    EXPECT("remove it twice", AIRQ_ERR_UNKNOWN_TXQ, airq_sched_remove_txq(r.sched, r.txq[3]));
    for (uint32_t s = 1; s <= N; s++)
        CHECK(airq_sched_set_station_group(r.sched, s, AIRQ_NO_GROUP));
    CHECK(airq_sched_remove_group(r.sched, guest));
    CHECK(airq_sched_remove_group(r.sched, home));
    EXPECT("a removed group's stats", AIRQ_ERR_UNKNOWN_GROUP,
           airq_sched_get_group_stats(r.sched, guest, &gs));
    CHECK(airq_sched_free(r.sched));
    printf("groups removed, scheduler freed\n");
    return 0;
}
