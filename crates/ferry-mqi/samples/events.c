/* ferryevents: the events of asynchronous consumption. Registers an event handler and a
 * message consumer that waits (MQGMO_WAIT, WaitInterval 300 ms) on an empty queue, starts the
 * connection (MQCTL MQOP_START), and prints what it is told: the consumer each time its wait
 * interval passes with no message (MQCBCT_EVENT_CALL, MQRC_NO_MSG_AVAILABLE), the event
 * handler when the connection breaks or the queue manager quiesces or stops. Ends after such
 * an event, or after 60 s.
 * Usage: ferryevents QUEUE [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen, nanosleep */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "cmqc.h"

static volatile int idle_calls, ended;

static void consumer(MQHCONN hconn, PMQVOID md, PMQVOID gmo, PMQVOID buffer, PMQCBC ctx) {
    (void)hconn;
    (void)md;
    (void)gmo;
    (void)buffer;
    if (ctx->CallType == MQCBCT_EVENT_CALL && ctx->Reason == MQRC_NO_MSG_AVAILABLE) {
        printf("idle: call type %d reason %d\n", (int)ctx->CallType, (int)ctx->Reason);
        fflush(stdout);
        idle_calls++;
        return;
    }
    printf("consumer: call type %d reason %d\n", (int)ctx->CallType, (int)ctx->Reason);
    fflush(stdout);
}

static void handler(MQHCONN hconn, PMQVOID md, PMQVOID gmo, PMQVOID buffer, PMQCBC ctx) {
    (void)hconn;
    (void)md;
    (void)gmo;
    (void)buffer;
    printf("event: call type %d reason %d area %s\n", (int)ctx->CallType, (int)ctx->Reason,
           ctx->CallbackArea ? (char *)ctx->CallbackArea : "-");
    fflush(stdout);
    ended = 1;
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn;
    MQHOBJ hobj;
    MQLONG cc, rc;
    MQOD od = {MQOD_DEFAULT};
    MQCBD cbd = {MQCBD_DEFAULT};
    MQCBD ehd = {MQCBD_DEFAULT};
    MQMD md = {MQMD_DEFAULT};
    MQGMO gmo = {MQGMO_DEFAULT};
    MQCTLO ctlo = {MQCTLO_DEFAULT};
    struct timespec tick = {0, 50 * 1000 * 1000};
    static char area[] = "events";
    int waited = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s QUEUE [QMGR]\n", argv[0]);
        return 2;
    }
    if (argc > 2) memcpy(qmgr, argv[2], strnlen(argv[2], sizeof(qmgr) - 1));
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
    ehd.CallbackType = MQCBT_EVENT_HANDLER;
    ehd.CallbackFunction = (MQPTR)handler;
    ehd.CallbackArea = area;
    MQCB(hconn, MQOP_REGISTER, &ehd, MQHO_NONE, NULL, NULL, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQCB (event handler) failed with reason %d\n", (int)rc);
        return 1;
    }
    cbd.CallbackFunction = (MQPTR)consumer;
    gmo.Options = MQGMO_NO_SYNCPOINT | MQGMO_WAIT | MQGMO_FAIL_IF_QUIESCING;
    gmo.WaitInterval = 300;
    MQCB(hconn, MQOP_REGISTER, &cbd, hobj, &md, &gmo, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQCB (consumer) failed with reason %d\n", (int)rc);
        return 1;
    }
    MQCTL(hconn, MQOP_START, &ctlo, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQCTL failed with reason %d\n", (int)rc);
        return 1;
    }
    printf("started\n");
    fflush(stdout);
    while (!ended && waited++ < 1200) nanosleep(&tick, NULL);
    MQCTL(hconn, MQOP_STOP, &ctlo, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    printf("idle calls %d; ended %d\n", idle_calls, ended);
    return ended ? 0 : 1;
}
