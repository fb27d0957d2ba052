/* ferrypubsub: subscribes to a topic (a managed, non-durable subscription, or with a third
 * argument a durable one of that name), publishes each line of standard input on it, and gets
 * every publication back from the subscription's queue (in the spirit of IBM's amqspub and
 * amqssub in one program). Usage: ferrypubsub TOPIC [QMGR [SUBNAME]] */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmqc.h"

static int fail(const char *what, MQLONG rc) {
    printf("%s failed with reason %d\n", what, (int)rc);
    return 1;
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn = MQHC_UNUSABLE_HCONN;
    MQHOBJ hq = MQHO_NONE, hsub = MQHO_UNUSABLE_HOBJ, htopic = MQHO_UNUSABLE_HOBJ;
    MQLONG cc, rc;
    MQSD sd = {MQSD_DEFAULT};
    MQOD od = {MQOD_DEFAULT};
    char line[4096], buf[4096];
    int published = 0, got = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s TOPIC [QMGR [SUBNAME]]\n", argv[0]);
        return 2;
    }
    if (argc > 2) memcpy(qmgr, argv[2], strnlen(argv[2], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQCONN", rc);

    /* Subscribe first: a publication reaches only the subscriptions that exist. */
    sd.Options = MQSO_CREATE | MQSO_MANAGED | MQSO_FAIL_IF_QUIESCING;
    sd.ObjectString.VSPtr = argv[1];
    sd.ObjectString.VSLength = (MQLONG)strlen(argv[1]);
    if (argc > 3) {
        sd.Options |= MQSO_DURABLE | MQSO_RESUME;
        sd.SubName.VSPtr = argv[3];
        sd.SubName.VSLength = MQVS_NULL_TERMINATED;
    }
    MQSUB(hconn, &sd, &hq, &hsub, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQSUB", rc);

    od.ObjectType = MQOT_TOPIC;
    od.Version = MQOD_VERSION_4;
    od.ObjectString.VSPtr = argv[1];
    od.ObjectString.VSLength = (MQLONG)strlen(argv[1]);
    MQOPEN(hconn, &od, MQOO_OUTPUT | MQOO_FAIL_IF_QUIESCING, &htopic, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQOPEN of the topic", rc);
    while (fgets(line, sizeof(line), stdin)) {
        MQMD md = {MQMD_DEFAULT};
        MQPMO pmo = {MQPMO_DEFAULT};
        size_t len = strlen(line);
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        memcpy(md.Format, MQFMT_STRING, sizeof(md.Format));
        pmo.Options = MQPMO_NO_SYNCPOINT | MQPMO_FAIL_IF_QUIESCING;
        MQPUT(hconn, htopic, &md, &pmo, (MQLONG)len, line, &cc, &rc);
        if (cc != MQCC_OK) return fail("MQPUT to the topic", rc);
        published++;
    }
    MQCLOSE(hconn, &htopic, MQCO_NONE, &cc, &rc);

    for (;;) {
        MQMD md = {MQMD_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        MQLONG len = 0;
        gmo.Options = MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT;
        MQGET(hconn, hq, &md, &gmo, (MQLONG)sizeof(buf) - 1, buf, &len, &cc, &rc);
        if (rc == MQRC_NO_MSG_AVAILABLE) break;
        if (cc == MQCC_FAILED) return fail("MQGET", rc);
        buf[len] = '\0';
        printf("publication: %s\n", buf);
        got++;
    }
    /* A durable subscription stays for the next run; a managed non-durable one ends here. */
    MQCLOSE(hconn, &hsub, argc > 3 ? MQCO_KEEP_SUB : MQCO_REMOVE_SUB, &cc, &rc);
    if (cc != MQCC_OK) return fail("MQCLOSE of the subscription", rc);
    MQCLOSE(hconn, &hq, MQCO_NONE, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    printf("published %d, received %d\n", published, got);
    return cc == MQCC_OK ? 0 : 1;
}
