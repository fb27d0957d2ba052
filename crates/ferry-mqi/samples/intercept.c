/* ferryintercept: subscription levels. Subscribes to TOPIC twice — an interceptor at SubLevel 5
 * and a final subscriber at the default level 1 — publishes TEXT, lets the interceptor take it
 * and republish it at PubLevel 4 (MQPMO version 3), and shows who received what; then asks
 * for SubLevel 10, which MQSUB refuses. Usage: ferryintercept TOPIC TEXT [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmqc.h"

static int fail(const char *what, MQLONG rc) {
    printf("%s failed with reason %d\n", what, (int)rc);
    return 1;
}

/* A managed, non-durable subscription to `topic` at `level`; its queue in *hq. */
static MQLONG subscribe(MQHCONN hconn, char *topic, MQLONG level, MQHOBJ *hq, MQHOBJ *hsub) {
    MQSD sd = {MQSD_DEFAULT};
    MQLONG cc, rc;
    sd.Options = MQSO_CREATE | MQSO_MANAGED | MQSO_FAIL_IF_QUIESCING;
    sd.ObjectString.VSPtr = topic;
    sd.ObjectString.VSLength = (MQLONG)strlen(topic);
    sd.SubLevel = level;
    MQSUB(hconn, &sd, hq, hsub, &cc, &rc);
    return rc;
}

/* The next message on `hq` into `buf` (NUL-terminated), or "(none)". */
static const char *take(MQHCONN hconn, MQHOBJ hq, char *buf, MQLONG size) {
    MQMD md = {MQMD_DEFAULT};
    MQGMO gmo = {MQGMO_DEFAULT};
    MQLONG cc, rc, len = 0;
    gmo.Options = MQGMO_NO_WAIT | MQGMO_CONVERT;
    MQGET(hconn, hq, &md, &gmo, size - 1, buf, &len, &cc, &rc);
    if (cc == MQCC_FAILED) return "(none)";
    buf[len] = '\0';
    return buf;
}

static MQLONG publish(MQHCONN hconn, MQHOBJ htopic, const char *text, MQLONG level) {
    MQMD md = {MQMD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    MQLONG cc, rc;
    memcpy(md.Format, MQFMT_STRING, MQ_FORMAT_LENGTH);
    pmo.Options = MQPMO_NO_SYNCPOINT | MQPMO_FAIL_IF_QUIESCING;
    if (level >= 0) {
        pmo.Version = MQPMO_VERSION_3;
        pmo.PubLevel = level;
    }
    MQPUT(hconn, htopic, &md, &pmo, (MQLONG)strlen(text), (void *)text, &cc, &rc);
    return rc;
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn = MQHC_UNUSABLE_HCONN;
    MQHOBJ qi = MQHO_NONE, si = MQHO_NONE, qf = MQHO_NONE, sf = MQHO_NONE, htopic;
    MQHOBJ qx = MQHO_NONE, sx = MQHO_NONE;
    MQOD od = {MQOD_DEFAULT};
    MQLONG cc, rc;
    char buf[4096];

    if (argc < 3) {
        fprintf(stderr, "usage: %s TOPIC TEXT [QMGR]\n", argv[0]);
        return 2;
    }
    if (argc > 3) memcpy(qmgr, argv[3], strnlen(argv[3], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQCONN", rc);
    if ((rc = subscribe(hconn, argv[1], 5, &qi, &si)) != MQRC_NONE) return fail("MQSUB 5", rc);
    if ((rc = subscribe(hconn, argv[1], 1, &qf, &sf)) != MQRC_NONE) return fail("MQSUB 1", rc);

    od.ObjectType = MQOT_TOPIC;
    od.Version = MQOD_VERSION_4;
    od.ObjectString.VSPtr = argv[1];
    od.ObjectString.VSLength = (MQLONG)strlen(argv[1]);
    MQOPEN(hconn, &od, MQOO_OUTPUT | MQOO_FAIL_IF_QUIESCING, &htopic, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQOPEN", rc);

    if ((rc = publish(hconn, htopic, argv[2], -1)) != MQRC_NONE) return fail("MQPUT", rc);
    printf("interceptor got: %s\n", take(hconn, qi, buf, sizeof(buf)));
    printf("final got before: %s\n", take(hconn, qf, buf, sizeof(buf)));
    if ((rc = publish(hconn, htopic, "checked", 4)) != MQRC_NONE) return fail("MQPUT 4", rc);
    printf("final got after: %s\n", take(hconn, qf, buf, sizeof(buf)));
    printf("interceptor got again: %s\n", take(hconn, qi, buf, sizeof(buf)));
    printf("SubLevel 10: reason %d\n", (int)subscribe(hconn, argv[1], 10, &qx, &sx));
    printf("PubLevel 10: reason %d\n", (int)publish(hconn, htopic, "x", 10));

    MQCLOSE(hconn, &si, MQCO_NONE, &cc, &rc);
    MQCLOSE(hconn, &sf, MQCO_NONE, &cc, &rc);
    MQCLOSE(hconn, &htopic, MQCO_NONE, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    return 0;
}
