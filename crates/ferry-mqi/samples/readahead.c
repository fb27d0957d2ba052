/* ferryreadahead: gets through a read-ahead handle with an ordinary buffer, as MQ programs do.
 * Puts three messages (10, 5000 and 20 bytes) on QUEUE, opens it with MQOO_READ_AHEAD, and gets
 * them into a 100-byte buffer: the 5000-byte one fails with 2080 (and its length) and stays,
 * then comes cut with MQGMO_ACCEPT_TRUNCATED_MSG (2079); the last get finds none (2033).
 * While the long one waits in the read-ahead buffer, MQCLOSE with MQCO_QUIESCE refuses with
 * the warning 2458 (MQRC_READ_AHEAD_MSGS) and the handle stays open; once the buffer is empty
 * it closes.
 * Usage: ferryreadahead QUEUE [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmqc.h"

static int fail(const char *what, MQLONG rc) {
    printf("%s failed with reason %d\n", what, (int)rc);
    return 1;
}

static MQLONG put(MQHCONN hconn, MQHOBJ hobj, MQLONG len) {
    static char body[5000];
    MQMD md = {MQMD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    MQLONG cc, rc;
    memset(body, 'r', sizeof(body));
    md.Persistence = MQPER_NOT_PERSISTENT;
    pmo.Options = MQPMO_NO_SYNCPOINT;
    MQPUT(hconn, hobj, &md, &pmo, len, body, &cc, &rc);
    return rc;
}

/* One MQGET into a 100-byte buffer; prints its reason, DataLength and the bytes returned. */
static void get(MQHCONN hconn, MQHOBJ hobj, MQLONG options, MQLONG wait, const char *label) {
    char buf[100];
    MQMD md = {MQMD_DEFAULT};
    MQGMO gmo = {MQGMO_DEFAULT};
    MQLONG cc, rc, len = 0;
    gmo.Version = MQGMO_VERSION_3;
    gmo.Options = MQGMO_NO_SYNCPOINT | MQGMO_WAIT | options;
    gmo.WaitInterval = wait;
    MQGET(hconn, hobj, &md, &gmo, sizeof(buf), buf, &len, &cc, &rc);
    if (rc == MQRC_NO_MSG_AVAILABLE) gmo.ReturnedLength = 0;
    printf("%s: reason %d, length %d, returned %d\n", label, (int)rc, (int)len,
           (int)gmo.ReturnedLength);
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn = MQHC_UNUSABLE_HCONN;
    MQHOBJ hout, hin;
    MQOD od = {MQOD_DEFAULT};
    MQLONG cc, rc;

    if (argc < 2) {
        fprintf(stderr, "usage: %s QUEUE [QMGR]\n", argv[0]);
        return 2;
    }
    if (argc > 2) memcpy(qmgr, argv[2], strnlen(argv[2], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQCONN", rc);
    memcpy(od.ObjectName, argv[1], strnlen(argv[1], sizeof(od.ObjectName)));
    MQOPEN(hconn, &od, MQOO_OUTPUT, &hout, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQOPEN output", rc);
    if ((rc = put(hconn, hout, 10)) || (rc = put(hconn, hout, 5000)) || (rc = put(hconn, hout, 20)))
        return fail("MQPUT", rc);
    MQOPEN(hconn, &od, MQOO_INPUT_AS_Q_DEF | MQOO_READ_AHEAD | MQOO_FAIL_IF_QUIESCING, &hin, &cc,
           &rc);
    if (cc == MQCC_FAILED) return fail("MQOPEN input", rc);
    get(hconn, hin, 0, 2000, "first");
    get(hconn, hin, 0, 2000, "too long");
    MQCLOSE(hconn, &hin, MQCO_QUIESCE, &cc, &rc);
    printf("quiesce with messages buffered: completion %d, reason %d\n", (int)cc, (int)rc);
    get(hconn, hin, MQGMO_ACCEPT_TRUNCATED_MSG, 2000, "truncated");
    get(hconn, hin, 0, 2000, "third");
    get(hconn, hin, 0, 0, "none");
    MQCLOSE(hconn, &hin, MQCO_QUIESCE, &cc, &rc);
    printf("quiesce with the buffer empty: completion %d, reason %d\n", (int)cc, (int)rc);
    MQCLOSE(hconn, &hout, MQCO_NONE, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    return 0;
}
