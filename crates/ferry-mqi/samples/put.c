/* ferryput: puts each line of standard input as a message (in the spirit of IBM's amqsput).
 * Usage: ferryput QUEUE [QMGR] — persistent if FERRY_PERSISTENT is set. */
#define _POSIX_C_SOURCE 200809L /* strnlen, clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmqc.h"

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn = MQHC_UNUSABLE_HCONN;
    MQHOBJ hobj = MQHO_UNUSABLE_HOBJ;
    MQLONG cc, rc;
    MQOD od = {MQOD_DEFAULT};
    char line[4096];
    int put = 0;

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
    MQOPEN(hconn, &od, MQOO_OUTPUT | MQOO_FAIL_IF_QUIESCING, &hobj, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQOPEN failed with reason %d\n", (int)rc);
        return 1;
    }
    while (fgets(line, sizeof(line), stdin)) {
        MQMD md = {MQMD_DEFAULT};
        MQPMO pmo = {MQPMO_DEFAULT};
        size_t len = strlen(line);
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        memcpy(md.Format, MQFMT_STRING, sizeof(md.Format));
        md.Persistence = getenv("FERRY_PERSISTENT") ? MQPER_PERSISTENT : MQPER_NOT_PERSISTENT;
        pmo.Options = MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID | MQPMO_FAIL_IF_QUIESCING;
        MQPUT(hconn, hobj, &md, &pmo, (MQLONG)len, line, &cc, &rc);
        if (cc != MQCC_OK) {
            printf("MQPUT ended with reason %d\n", (int)rc);
            return 1;
        }
        put++;
    }
    MQCLOSE(hconn, &hobj, MQCO_NONE, &cc, &rc);
    if (cc != MQCC_OK || hobj != MQHO_UNUSABLE_HOBJ) {
        printf("MQCLOSE ended with reason %d\n", (int)rc);
        return 1;
    }
    MQDISC(&hconn, &cc, &rc);
    printf("put %d messages\n", put);
    return cc == MQCC_OK ? 0 : 1;
}
