/* ferryconsume: asynchronous consumption (MQCB and MQCTL), as amqscb does: registers a message
 * consumer on a queue and prints each message it is given, stopping after COUNT messages.
 * First with MQCTL(MQOP_START_WAIT) on this thread, the consumer itself calling
 * MQCTL(MQOP_STOP) at the COUNT-th; then, if MODE is "thread", with MQCTL(MQOP_START) on the
 * library's own thread while this one waits.
 * Usage: ferryconsume QUEUE COUNT [QMGR] [wait|thread] */
#define _POSIX_C_SOURCE 200809L /* strnlen, nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmqc.h"

static int wanted;
static volatile int seen;
static int starts, stops;

static void consumer(MQHCONN hconn, PMQVOID md, PMQVOID gmo, PMQVOID buffer, PMQCBC ctx) {
    MQLONG cc, rc;
    (void)md;
    (void)gmo;
    switch (ctx->CallType) {
    case MQCBCT_START_CALL: starts++; return;
    case MQCBCT_STOP_CALL: stops++; return;
    case MQCBCT_MSG_REMOVED:
        printf("consumed: %.*s (area %s)\n", (int)ctx->DataLength, (char *)buffer,
               (char *)ctx->CallbackArea);
        fflush(stdout);
        if (++seen == wanted) MQCTL(hconn, MQOP_STOP, NULL, &cc, &rc);
        return;
    default:
        printf("call type %d reason %d\n", (int)ctx->CallType, (int)ctx->Reason);
    }
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn;
    MQHOBJ hobj;
    MQLONG cc, rc;
    MQOD od = {MQOD_DEFAULT};
    MQCBD cbd = {MQCBD_DEFAULT};
    MQMD md = {MQMD_DEFAULT};
    MQGMO gmo = {MQGMO_DEFAULT};
    MQCTLO ctlo = {MQCTLO_DEFAULT};
    static char area[] = "mine";
    int threaded = argc > 4 && strcmp(argv[4], "thread") == 0;

    if (argc < 3) {
        fprintf(stderr, "usage: %s QUEUE COUNT [QMGR] [wait|thread]\n", argv[0]);
        return 2;
    }
    wanted = atoi(argv[2]);
    if (argc > 3) memcpy(qmgr, argv[3], strnlen(argv[3], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQCONN failed with reason %d\n", (int)rc);
        return 1;
    }
    memcpy(od.ObjectName, argv[1], strnlen(argv[1], sizeof(od.ObjectName)));
    MQOPEN(hconn, &od, MQOO_INPUT_AS_Q_DEF | MQOO_FAIL_IF_QUIESCING, &hobj, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQOPEN failed with reason %d\n", (int)rc);
        return 1;
    }
    MQCTL(hconn, MQOP_START, &ctlo, &cc, &rc);
    printf("MQCTL start with no consumer: reason %d\n", (int)rc);
    cbd.CallbackFunction = (MQPTR)consumer;
    cbd.CallbackArea = area;
    cbd.Options = MQCBDO_START_CALL | MQCBDO_STOP_CALL;
    gmo.Options = MQGMO_NO_SYNCPOINT;
    /* Registered suspended: nothing to wait for yet. */
    MQCB(hconn, MQOP_REGISTER | MQOP_SUSPEND, &cbd, hobj, &md, &gmo, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQCB failed with reason %d\n", (int)rc);
        return 1;
    }
    MQCTL(hconn, MQOP_START_WAIT, &ctlo, &cc, &rc);
    printf("START_WAIT with every consumer suspended: reason %d\n", (int)rc);
    MQCB(hconn, MQOP_RESUME, &cbd, hobj, NULL, NULL, &cc, &rc);
    if (threaded) {
        struct timespec tick = {0, 20 * 1000 * 1000};
        int waited = 0;
        MQCTL(hconn, MQOP_START, &ctlo, &cc, &rc);
        while (seen < wanted && waited++ < 500) nanosleep(&tick, NULL);
        /* Closing the handle while consuming deregisters its consumer. */
        MQCLOSE(hconn, &hobj, MQCO_NONE, &cc, &rc);
        for (waited = 0; waited < 15; waited++) nanosleep(&tick, NULL);
        MQCTL(hconn, MQOP_STOP, &ctlo, &cc, &rc);
        MQCB(hconn, MQOP_DEREGISTER, &cbd, hobj, NULL, NULL, &cc, &rc);
        printf("deregister after close: reason %d\n", (int)rc);
    } else {
        MQCTL(hconn, MQOP_START_WAIT, &ctlo, &cc, &rc);
        if (cc == MQCC_FAILED) {
            printf("MQCTL failed with reason %d\n", (int)rc);
            return 1;
        }
        MQCB(hconn, MQOP_DEREGISTER, &cbd, hobj, NULL, NULL, &cc, &rc);
        MQCLOSE(hconn, &hobj, MQCO_NONE, &cc, &rc);
    }
    MQDISC(&hconn, &cc, &rc);
    printf("consumed %d messages; start calls %d, stop calls %d\n", seen, starts, stops);
    return seen == wanted ? 0 : 1;
}
