/* Request/reply through the MQI, as report 002's RR workloads and `ferry perf rr` shape them:
 * ten queue pairs PREFIX.REQ.k / PREFIX.REPLY.k; REQUESTERS threads (a connection each; the
 * i-th on pair i mod 10) put a 2 KB non-persistent request (MQMT_REQUEST, ReplyToQ) and wait for
 * the reply by CorrelId = the request's MsgId; RESPONDERS threads (the j-th on pair j mod 10)
 * get requests and MQPUT1 each reply to its ReplyToQ with CorrelId = MsgId. Runs for SECONDS
 * and prints the round trips per second. Which queue manager: FERRY_CONNECT or MQSERVER.
 * Usage: mqi_rr PREFIX SECONDS REQUESTERS RESPONDERS */
#define _POSIX_C_SOURCE 200809L /* strnlen, clock_gettime */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmqc.h"

static const char *prefix;
static double seconds;
static volatile int done = 0;
static long trips = 0;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what, MQLONG rc) {
    fprintf(stderr, "%s: %d\n", what, (int)rc);
    exit(1);
}

static MQHCONN connect_qm(void) {
    MQHCONN h;
    MQLONG cc, rc;
    MQCONN("", &h, &cc, &rc);
    if (cc != MQCC_OK) die("MQCONN", rc);
    return h;
}

static MQHOBJ open_q(MQHCONN h, const char *name, MQLONG options) {
    MQOD od = {MQOD_DEFAULT};
    MQHOBJ o;
    MQLONG cc, rc;
    memcpy(od.ObjectName, name, strnlen(name, sizeof(od.ObjectName)));
    MQOPEN(h, &od, options, &o, &cc, &rc);
    if (cc != MQCC_OK) die("MQOPEN", rc);
    return o;
}

/* PREFIX.KIND.k */
static void pair_name(char *out, const char *kind, long k) {
    snprintf(out, 49, "%s.%s.%ld", prefix, kind, k % 10);
}

static void *requester(void *arg) {
    MQHCONN h = connect_qm();
    char reply_q[49], request_q[49];
    MQHOBJ req, rep;
    pair_name(request_q, "REQ", (long)arg);
    pair_name(reply_q, "REPLY", (long)arg);
    req = open_q(h, request_q, MQOO_OUTPUT);
    rep = open_q(h, reply_q, MQOO_INPUT_SHARED);
    MQLONG cc, rc, len;
    char body[2048], buf[4096];
    long n = 0;
    double start = now();
    memset(body, 'q', sizeof(body));
    while (now() - start < seconds) {
        MQMD md = {MQMD_DEFAULT};
        MQPMO pmo = {MQPMO_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        md.MsgType = MQMT_REQUEST;
        md.Persistence = MQPER_NOT_PERSISTENT;
        memcpy(md.ReplyToQ, reply_q, strnlen(reply_q, sizeof(md.ReplyToQ)));
        pmo.Options = MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID;
        MQPUT(h, req, &md, &pmo, sizeof(body), body, &cc, &rc);
        if (cc != MQCC_OK) die("MQPUT request", rc);
        memcpy(md.CorrelId, md.MsgId, sizeof(md.CorrelId));
        memset(md.MsgId, 0, sizeof(md.MsgId));
        gmo.Version = MQGMO_VERSION_2;
        gmo.MatchOptions = MQMO_MATCH_CORREL_ID;
        gmo.Options = MQGMO_WAIT | MQGMO_NO_SYNCPOINT;
        gmo.WaitInterval = 10000;
        MQGET(h, rep, &md, &gmo, sizeof(buf), buf, &len, &cc, &rc);
        if (cc != MQCC_OK) die("MQGET reply", rc);
        n++;
    }
    MQCLOSE(h, &req, MQCO_NONE, &cc, &rc);
    MQCLOSE(h, &rep, MQCO_NONE, &cc, &rc);
    MQDISC(&h, &cc, &rc);
    pthread_mutex_lock(&lock);
    trips += n;
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *responder(void *arg) {
    MQHCONN h = connect_qm();
    char request_q[49];
    MQHOBJ req;
    MQLONG cc, rc, len;
    char buf[4096];
    pair_name(request_q, "REQ", (long)arg);
    req = open_q(h, request_q, MQOO_INPUT_SHARED);
    while (!done) {
        MQMD md = {MQMD_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        MQOD od = {MQOD_DEFAULT};
        MQPMO pmo = {MQPMO_DEFAULT};
        gmo.Options = MQGMO_WAIT | MQGMO_NO_SYNCPOINT;
        gmo.WaitInterval = 100;
        MQGET(h, req, &md, &gmo, sizeof(buf), buf, &len, &cc, &rc);
        if (rc == MQRC_NO_MSG_AVAILABLE) continue;
        if (cc != MQCC_OK) die("MQGET request", rc);
        memcpy(od.ObjectName, md.ReplyToQ, sizeof(od.ObjectName));
        memcpy(md.CorrelId, md.MsgId, sizeof(md.CorrelId));
        md.MsgType = MQMT_REPLY;
        pmo.Options = MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID;
        MQPUT1(h, &od, &md, &pmo, len, buf, &cc, &rc);
        if (cc != MQCC_OK) die("MQPUT1 reply", rc);
    }
    MQCLOSE(h, &req, MQCO_NONE, &cc, &rc);
    MQDISC(&h, &cc, &rc);
    return NULL;
}

int main(int argc, char **argv) {
    pthread_t req[256], resp[64];
    int requesters, responders, i;
    double start;
    if (argc < 5) {
        fprintf(stderr, "usage: %s PREFIX SECONDS REQUESTERS RESPONDERS\n", argv[0]);
        return 2;
    }
    prefix = argv[1];
    seconds = atof(argv[2]);
    requesters = atoi(argv[3]);
    responders = atoi(argv[4]);
    if (requesters > 256) requesters = 256;
    if (responders > 64) responders = 64;
    for (i = 0; i < responders; i++) pthread_create(&resp[i], NULL, responder, (void *)(long)i);
    start = now();
    for (i = 0; i < requesters; i++) pthread_create(&req[i], NULL, requester, (void *)(long)i);
    for (i = 0; i < requesters; i++) pthread_join(req[i], NULL);
    seconds = now() - start;
    done = 1;
    for (i = 0; i < responders; i++) pthread_join(resp[i], NULL);
    printf("%.0f\n", trips / seconds);
    return 0;
}
