/* ferryselect: gets the messages of a queue that a message selector selects, printing each
 * body as a line, until no selected message arrives within a second; the others stay on the
 * queue. Usage: ferryselect QUEUE SELECTOR [QMGR]
 * e.g. ferryselect DEV.QUEUE.1 "region = 'EMEA' AND Root.MQMD.Priority > 3" QM1 */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <string.h>
#include "cmqc.h"

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn;
    MQHOBJ hobj;
    MQLONG cc, rc;
    MQOD od = {MQOD_DEFAULT};
    char buf[4096];
    int got = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: %s QUEUE SELECTOR [QMGR]\n", argv[0]);
        return 2;
    }
    if (argc > 3) memcpy(qmgr, argv[3], strnlen(argv[3], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQCONN failed with reason %d\n", (int)rc);
        return 1;
    }
    /* The selection string is an MQCHARV of a version 4 MQOD. */
    od.Version = MQOD_VERSION_4;
    memcpy(od.ObjectName, argv[1], strnlen(argv[1], sizeof(od.ObjectName)));
    od.SelectionString.VSPtr = argv[2];
    od.SelectionString.VSLength = (MQLONG)strlen(argv[2]);
    MQOPEN(hconn, &od, MQOO_INPUT_AS_Q_DEF | MQOO_FAIL_IF_QUIESCING, &hobj, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQOPEN failed with reason %d\n", (int)rc);
        MQDISC(&hconn, &cc, &rc);
        return 1;
    }
    for (;;) {
        MQMD md = {MQMD_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        MQLONG len = 0;
        gmo.Options = MQGMO_WAIT | MQGMO_NO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING;
        gmo.WaitInterval = 1000;
        MQGET(hconn, hobj, &md, &gmo, (MQLONG)sizeof(buf) - 1, buf, &len, &cc, &rc);
        if (rc == MQRC_NO_MSG_AVAILABLE) break;
        if (cc == MQCC_FAILED) {
            printf("MQGET failed with reason %d\n", (int)rc);
            return 1;
        }
        buf[len] = '\0';
        printf("selected: %s\n", buf);
        got++;
    }
    MQCLOSE(hconn, &hobj, MQCO_NONE, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    printf("got %d selected messages\n", got);
    return 0;
}
