/* ferrybrowse: browses every message on a queue without removing it, printing each one's
 * descriptor fields and body (in the spirit of IBM's amqsbcg), then counts what is still
 * there. Usage: ferrybrowse QUEUE [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <string.h>
#include "cmqc.h"

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn;
    MQHOBJ hobj;
    MQLONG cc, rc, len;
    MQOD od = {MQOD_DEFAULT};
    char buf[4096];
    int n = 0;

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
    MQOPEN(hconn, &od, MQOO_BROWSE | MQOO_INQUIRE | MQOO_FAIL_IF_QUIESCING, &hobj, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQOPEN failed with reason %d\n", (int)rc);
        return 1;
    }
    for (;;) {
        MQMD md = {MQMD_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        gmo.Options = (n == 0 ? MQGMO_BROWSE_FIRST : MQGMO_BROWSE_NEXT) | MQGMO_NO_WAIT |
                      MQGMO_ACCEPT_TRUNCATED_MSG;
        MQGET(hconn, hobj, &md, &gmo, sizeof(buf) - 1, buf, &len, &cc, &rc);
        if (rc == MQRC_NO_MSG_AVAILABLE) break;
        if (cc == MQCC_FAILED) {
            printf("MQGET (browse) failed with reason %d\n", (int)rc);
            return 1;
        }
        n++;
        if (len > (MQLONG)sizeof(buf) - 1) len = (MQLONG)sizeof(buf) - 1;
        buf[len] = '\0';
        printf("message %d: format '%.8s' persistence %d priority %d length %d put %.8s %.8s\n", n,
               md.Format, (int)md.Persistence, (int)md.Priority, (int)len, md.PutDate,
               md.PutTime);
        printf("  MsgId ");
        for (int i = 0; i < MQ_MSG_ID_LENGTH; i++) printf("%02X", md.MsgId[i]);
        printf("\n  data '%s'\n", buf);
    }
    MQLONG sel = MQIA_CURRENT_Q_DEPTH, depth = -1;
    MQINQ(hconn, hobj, 1, &sel, 1, &depth, 0, NULL, &cc, &rc);
    printf("browsed %d messages; depth still %d\n", n, (int)depth);
    MQCLOSE(hconn, &hobj, MQCO_NONE, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    return (cc == MQCC_OK && depth == n) ? 0 : 1;
}
