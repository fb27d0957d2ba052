/* ferryforward: moves every message from one queue to another, passing all its context on
 * (the message's user, application and put time stay the original putter's, as a message
 * mover should), until none arrives within two seconds. The input is opened with
 * MQOO_SAVE_ALL_CONTEXT, the output with MQOO_PASS_ALL_CONTEXT, and each put names the input
 * handle in MQPMO Context. Usage: ferryforward FROM TO [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <string.h>
#include "cmqc.h"

static MQLONG forward_one(MQHCONN hconn, MQHOBJ hin, MQHOBJ hout, char *buf, MQLONG size) {
    MQMD md = {MQMD_DEFAULT};
    MQGMO gmo = {MQGMO_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    MQLONG len = 0, cc, rc;
    gmo.Options = MQGMO_WAIT | MQGMO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING;
    gmo.WaitInterval = 2000;
    MQGET(hconn, hin, &md, &gmo, size, buf, &len, &cc, &rc);
    if (cc == MQCC_FAILED) return rc;
    pmo.Options = MQPMO_SYNCPOINT | MQPMO_PASS_ALL_CONTEXT | MQPMO_FAIL_IF_QUIESCING;
    pmo.Context = hin;
    MQPUT(hconn, hout, &md, &pmo, len, buf, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQPUT failed with reason %d\n", (int)rc);
        return rc;
    }
    MQCMIT(hconn, &cc, &rc);
    if (cc == MQCC_FAILED) printf("MQCMIT failed with reason %d\n", (int)rc);
    printf("forwarded a message from user '%.12s'\n", md.UserIdentifier);
    return rc;
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn;
    MQHOBJ hin, hout;
    MQLONG cc, rc;
    MQOD in = {MQOD_DEFAULT}, out = {MQOD_DEFAULT};
    MQMD md = {MQMD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    char buf[4096];
    int moved = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: %s FROM TO [QMGR]\n", argv[0]);
        return 2;
    }
    if (argc > 3) memcpy(qmgr, argv[3], strnlen(argv[3], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQCONN failed with reason %d\n", (int)rc);
        return 1;
    }
    memcpy(in.ObjectName, argv[1], strnlen(argv[1], sizeof(in.ObjectName)));
    memcpy(out.ObjectName, argv[2], strnlen(argv[2], sizeof(out.ObjectName)));
    MQOPEN(hconn, &in, MQOO_INPUT_AS_Q_DEF | MQOO_SAVE_ALL_CONTEXT, &hin, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQOPEN %s failed with reason %d\n", argv[1], (int)rc);
        return 1;
    }
    MQOPEN(hconn, &out, MQOO_OUTPUT | MQOO_PASS_ALL_CONTEXT, &hout, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQOPEN %s failed with reason %d\n", argv[2], (int)rc);
        return 1;
    }
    /* Nothing got yet: no context to pass. */
    pmo.Options = MQPMO_PASS_ALL_CONTEXT;
    pmo.Context = hin;
    MQPUT(hconn, hout, &md, &pmo, 1, "x", &cc, &rc);
    printf("a pass before any get: reason %d\n", (int)rc);
    while ((rc = forward_one(hconn, hin, hout, buf, (MQLONG)sizeof(buf))) == MQRC_NONE) moved++;
    MQCLOSE(hconn, &hin, MQCO_NONE, &cc, &rc);
    MQCLOSE(hconn, &hout, MQCO_NONE, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    printf("forwarded %d messages\n", moved);
    return 0;
}
