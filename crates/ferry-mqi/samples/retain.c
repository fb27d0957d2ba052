/* ferryretain: publishes a retained, persistent publication on a topic (MQPMO_RETAIN), then
 * shows how later subscribers see it: a managed subscription receives it when it is made, MQSUBRQ
 * sends it again (MQSRO NumPubs), and a subscription whose selector (SelectionString) the
 * publication does not satisfy gets nothing, and MQRC_NO_RETAINED_MSG from MQSUBRQ.
 * Usage: ferryretain TOPIC TEXT [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <string.h>
#include "cmqc.h"

static int fail(const char *what, MQLONG rc) {
    printf("%s failed with reason %d\n", what, (int)rc);
    return 1;
}

/* Gets what is waiting on `hq`, printing each with `label`; how many. */
static int drain(MQHCONN hconn, MQHOBJ hq, const char *label) {
    char buf[4096];
    int n = 0;
    for (;;) {
        MQMD md = {MQMD_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        MQLONG len = 0, cc, rc;
        gmo.Options = MQGMO_NO_WAIT | MQGMO_NO_SYNCPOINT;
        MQGET(hconn, hq, &md, &gmo, (MQLONG)sizeof(buf) - 1, buf, &len, &cc, &rc);
        if (cc == MQCC_FAILED) return rc == MQRC_NO_MSG_AVAILABLE ? n : -1;
        buf[len] = '\0';
        printf("%s: %s\n", label, buf);
        n++;
    }
}

/* A managed, non-durable subscription to `topic`, with `selector` when it is not NULL. */
static MQLONG subscribe(MQHCONN hconn, char *topic, char *selector, MQHOBJ *hq, MQHOBJ *hsub) {
    MQSD sd = {MQSD_DEFAULT};
    MQLONG cc, rc;
    sd.Options = MQSO_CREATE | MQSO_MANAGED | MQSO_FAIL_IF_QUIESCING;
    sd.ObjectString.VSPtr = topic;
    sd.ObjectString.VSLength = MQVS_NULL_TERMINATED;
    if (selector) {
        sd.SelectionString.VSPtr = selector;
        sd.SelectionString.VSLength = MQVS_NULL_TERMINATED;
    }
    *hq = MQHO_NONE;
    MQSUB(hconn, &sd, hq, hsub, &cc, &rc);
    return rc;
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn = MQHC_UNUSABLE_HCONN;
    MQHOBJ hq, hsub, hq2, hsub2;
    MQLONG cc, rc;
    MQOD od = {MQOD_DEFAULT};
    MQMD md = {MQMD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    MQSRO sro = {MQSRO_DEFAULT};
    char high[] = "Root.MQMD.Priority = 9";

    if (argc < 3) {
        fprintf(stderr, "usage: %s TOPIC TEXT [QMGR]\n", argv[0]);
        return 2;
    }
    if (argc > 3) memcpy(qmgr, argv[3], strnlen(argv[3], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQCONN", rc);

    od.ObjectType = MQOT_TOPIC;
    od.Version = MQOD_VERSION_4;
    od.ObjectString.VSPtr = argv[1];
    od.ObjectString.VSLength = MQVS_NULL_TERMINATED;
    memcpy(md.Format, MQFMT_STRING, sizeof(md.Format));
    md.Persistence = MQPER_PERSISTENT;
    md.Priority = 4;
    pmo.Options = MQPMO_RETAIN | MQPMO_NO_SYNCPOINT | MQPMO_FAIL_IF_QUIESCING;
    MQPUT1(hconn, &od, &md, &pmo, (MQLONG)strlen(argv[2]), argv[2], &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQPUT1 of the retained publication", rc);

    rc = subscribe(hconn, argv[1], NULL, &hq, &hsub);
    if (rc != MQRC_NONE) return fail("MQSUB", rc);
    printf("on subscribing: %d\n", drain(hconn, hq, "retained"));
    MQSUBRQ(hconn, hsub, MQSR_ACTION_PUBLISH, &sro, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQSUBRQ", rc);
    printf("MQSUBRQ sent %d\n", (int)sro.NumPubs);
    printf("on request: %d\n", drain(hconn, hq, "again"));

    rc = subscribe(hconn, argv[1], high, &hq2, &hsub2);
    if (rc != MQRC_NONE) return fail("MQSUB with a selector", rc);
    printf("selected: %d\n", drain(hconn, hq2, "selected"));
    MQSUBRQ(hconn, hsub2, MQSR_ACTION_PUBLISH, NULL, &cc, &rc);
    printf("MQSUBRQ with the selector: reason %d\n", (int)rc);

    MQCLOSE(hconn, &hsub2, MQCO_REMOVE_SUB, &cc, &rc);
    MQCLOSE(hconn, &hsub, MQCO_REMOVE_SUB, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    return 0;
}
