/* ferryreport: asks for report messages and prints those that come back. Puts one message on
 * QUEUE asking for confirmation of arrival and of delivery (MQRO_COA, MQRO_COD_WITH_DATA) to
 * REPLYQ, gets it back, then prints each report found on REPLYQ: its feedback, whether its
 * CorrelId is the original's MsgId, and how many bytes of data it carries.
 * Usage: ferryreport QUEUE REPLYQ [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <string.h>
#include "cmqc.h"

static int fail(const char *what, MQLONG rc) {
    printf("%s failed with reason %d\n", what, (int)rc);
    return 1;
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn;
    MQHOBJ hobj, hreply;
    MQLONG cc, rc, len;
    MQOD od = {MQOD_DEFAULT};
    MQOD rod = {MQOD_DEFAULT};
    MQMD md = {MQMD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    MQBYTE24 sent;
    char body[300], buf[512];
    int reports = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: %s QUEUE REPLYQ [QMGR]\n", argv[0]);
        return 2;
    }
    if (argc > 3) memcpy(qmgr, argv[3], strnlen(argv[3], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQCONN", rc);
    memcpy(od.ObjectName, argv[1], strnlen(argv[1], sizeof(od.ObjectName)));
    MQOPEN(hconn, &od, MQOO_OUTPUT | MQOO_INPUT_AS_Q_DEF, &hobj, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQOPEN", rc);
    memset(body, 'r', sizeof(body));
    md.Report = MQRO_COA | MQRO_COD_WITH_DATA;
    memcpy(md.Format, MQFMT_STRING, MQ_FORMAT_LENGTH);
    memcpy(md.ReplyToQ, argv[2], strnlen(argv[2], sizeof(md.ReplyToQ)));
    pmo.Options = MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID;
    MQPUT(hconn, hobj, &md, &pmo, (MQLONG)sizeof(body), body, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQPUT", rc);
    memcpy(sent, md.MsgId, sizeof(sent));
    {
        MQMD gmd = {MQMD_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        gmo.Options = MQGMO_WAIT | MQGMO_NO_SYNCPOINT;
        gmo.WaitInterval = 1000;
        MQGET(hconn, hobj, &gmd, &gmo, (MQLONG)sizeof(buf), buf, &len, &cc, &rc);
        if (cc == MQCC_FAILED) return fail("MQGET", rc);
        printf("got the message back, Report %s\n",
               gmd.Report == (MQRO_COA | MQRO_COD_WITH_DATA) ? "kept" : "lost");
    }
    memcpy(rod.ObjectName, argv[2], strnlen(argv[2], sizeof(rod.ObjectName)));
    MQOPEN(hconn, &rod, MQOO_INPUT_AS_Q_DEF, &hreply, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQOPEN reply queue", rc);
    for (;;) {
        MQMD rmd = {MQMD_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        gmo.Options = MQGMO_WAIT | MQGMO_NO_SYNCPOINT;
        gmo.WaitInterval = 1000;
        MQGET(hconn, hreply, &rmd, &gmo, (MQLONG)sizeof(buf), buf, &len, &cc, &rc);
        if (rc == MQRC_NO_MSG_AVAILABLE) break;
        if (cc == MQCC_FAILED) return fail("MQGET report", rc);
        printf("report: MsgType %d Feedback %s CorrelId %s data %d bytes\n", (int)rmd.MsgType,
               rmd.Feedback == MQFB_COA ? "MQFB_COA" : rmd.Feedback == MQFB_COD ? "MQFB_COD" : "other",
               memcmp(rmd.CorrelId, sent, sizeof(sent)) == 0 ? "= MsgId" : "differs", (int)len);
        reports++;
    }
    MQCLOSE(hconn, &hreply, MQCO_NONE, &cc, &rc);
    MQCLOSE(hconn, &hobj, MQCO_NONE, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    printf("%d reports\n", reports);
    return 0;
}
