/* The single-thread ladder of report 000 through the MQI: one putting connection puts 2 KB
 * non-persistent messages for SECONDS while GETTERS connections (threads) get them with
 * MQGET waits. Prints the delivery rate. Which queue manager: FERRY_CONNECT or MQSERVER.
 * With a fourth argument "async": the puts with MQPMO_ASYNC_RESPONSE (checked with MQSTAT at
 * the end) and the getters' queue opened with MQOO_READ_AHEAD.
 * Usage: mqi_ladder QUEUE SECONDS GETTERS [async] */
#define _POSIX_C_SOURCE 200809L /* strnlen, clock_gettime */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmqc.h"

static const char *queue;
static int async_mode = 0;
static volatile int done = 0;
static long got_total = 0;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static MQHOBJ open_q(MQHCONN h, MQLONG options) {
    MQOD od = {MQOD_DEFAULT};
    MQHOBJ o;
    MQLONG cc, rc;
    memcpy(od.ObjectName, queue, strnlen(queue, sizeof(od.ObjectName)));
    MQOPEN(h, &od, options, &o, &cc, &rc);
    if (cc != MQCC_OK) {
        fprintf(stderr, "MQOPEN: %d\n", (int)rc);
        exit(1);
    }
    return o;
}

static void *getter(void *arg) {
    MQHCONN h;
    MQLONG cc, rc, len;
    MQHOBJ o;
    long n = 0;
    char buf[4096];
    (void)arg;
    MQCONN("", &h, &cc, &rc);
    if (cc != MQCC_OK) {
        fprintf(stderr, "MQCONN (getter): %d\n", (int)rc);
        exit(1);
    }
    o = open_q(h, MQOO_INPUT_SHARED | (async_mode ? MQOO_READ_AHEAD : 0));
    for (;;) {
        MQMD md = {MQMD_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        gmo.Options = MQGMO_WAIT | MQGMO_NO_SYNCPOINT;
        gmo.WaitInterval = 100;
        MQGET(h, o, &md, &gmo, sizeof(buf), buf, &len, &cc, &rc);
        if (cc == MQCC_OK) {
            n++;
        } else if (rc == MQRC_NO_MSG_AVAILABLE) {
            if (done) break;
        } else {
            fprintf(stderr, "MQGET: %d\n", (int)rc);
            exit(1);
        }
    }
    MQCLOSE(h, &o, MQCO_NONE, &cc, &rc);
    MQDISC(&h, &cc, &rc);
    pthread_mutex_lock(&lock);
    got_total += n;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv) {
    MQHCONN h;
    MQLONG cc, rc;
    MQHOBJ o;
    pthread_t threads[64];
    int getters, i;
    double seconds, start, took;
    long put = 0;
    char body[2048];

    if (argc < 4) {
        fprintf(stderr, "usage: %s QUEUE SECONDS GETTERS\n", argv[0]);
        return 2;
    }
    queue = argv[1];
    seconds = atof(argv[2]);
    getters = atoi(argv[3]);
    async_mode = argc > 4 && strcmp(argv[4], "async") == 0;
    if (getters > 64) getters = 64;
    memset(body, 'x', sizeof(body));
    MQCONN("", &h, &cc, &rc);
    if (cc != MQCC_OK) {
        fprintf(stderr, "MQCONN: %d\n", (int)rc);
        return 1;
    }
    o = open_q(h, MQOO_OUTPUT);
    for (i = 0; i < getters; i++) pthread_create(&threads[i], NULL, getter, NULL);
    start = now();
    while (now() - start < seconds) {
        int k;
        for (k = 0; k < 64; k++) {
            MQMD md = {MQMD_DEFAULT};
            MQPMO pmo = {MQPMO_DEFAULT};
            md.Persistence = MQPER_NOT_PERSISTENT;
            pmo.Options = MQPMO_NO_SYNCPOINT | (async_mode ? MQPMO_ASYNC_RESPONSE : 0);
            MQPUT(h, o, &md, &pmo, sizeof(body), body, &cc, &rc);
            if (cc != MQCC_OK) {
                fprintf(stderr, "MQPUT: %d\n", (int)rc);
                return 1;
            }
            put++;
        }
    }
    if (async_mode) {
        MQSTS sts = {MQSTS_DEFAULT};
        MQSTAT(h, MQSTAT_TYPE_ASYNC_ERROR, &sts, &cc, &rc);
        if (cc != MQCC_OK || sts.PutFailureCount != 0) {
            fprintf(stderr, "MQSTAT: %d, %d puts failed\n", (int)rc, (int)sts.PutFailureCount);
            return 1;
        }
    }
    done = 1;
    for (i = 0; i < getters; i++) pthread_join(threads[i], NULL);
    took = now() - start;
    MQCLOSE(h, &o, MQCO_NONE, &cc, &rc);
    MQDISC(&h, &cc, &rc);
    if (got_total != put) {
        fprintf(stderr, "put %ld, got %ld\n", put, got_total);
        return 1;
    }
    printf("%.0f\n", got_total / took);
    return 0;
}
