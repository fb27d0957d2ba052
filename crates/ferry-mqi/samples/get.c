/* ferryget: gets every message from a queue, printing each body as a line, until none
 * arrives within two seconds (in the spirit of IBM's amqsget). Usage: ferryget QUEUE [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen, clock_gettime */
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
    for (;;) {
        MQMD md = {MQMD_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        MQLONG len = 0;
        gmo.Version = MQGMO_VERSION_4;
        gmo.Options = MQGMO_WAIT | MQGMO_NO_SYNCPOINT | MQGMO_CONVERT | MQGMO_FAIL_IF_QUIESCING;
        gmo.WaitInterval = 2000;
        MQGET(hconn, hobj, &md, &gmo, (MQLONG)sizeof(buf) - 1, buf, &len, &cc, &rc);
        if (rc == MQRC_NO_MSG_AVAILABLE) break;
        if (cc == MQCC_FAILED) {
            printf("MQGET failed with reason %d\n", (int)rc);
            return 1;
        }
        if (gmo.ReturnedLength != len || md.PutDate[0] != '2') {
            printf("MQGET output fields wrong: returned %d of %d, date %.8s\n",
                   (int)gmo.ReturnedLength, (int)len, md.PutDate);
            return 1;
        }
        buf[len] = '\0';
        printf("%s\n", buf);
        got++;
    }
    MQCLOSE(hconn, &hobj, MQCO_NONE, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    fprintf(stderr, "got %d messages\n", got);
    return 0;
}
