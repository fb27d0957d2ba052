/* ferryrr: request/reply through the MQI, in and out of syncpoint. A requester connection
 * puts requests (MQMT_REQUEST, ReplyToQ) and gets each reply by CorrelId = request MsgId;
 * a responder connection (same thread, a second Hconn) gets the request and MQPUT1s the
 * reply. Then edge cases: truncation, no message, bad handles, MQINQ, MQSTAT.
 * Usage: ferryrr REQUEST_QUEUE REPLY_QUEUE [QMGR]. Exit 0 when every check passes. */
#define _POSIX_C_SOURCE 200809L /* strnlen, clock_gettime */
#include <stdio.h>
#include <string.h>
#include "cmqc.h"

static int failures = 0;
#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("FAILED %s:%d: ", __FILE__, __LINE__);                                  \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static MQHOBJ open_q(MQHCONN h, const char *name, MQLONG options) {
    MQOD od = {MQOD_DEFAULT};
    MQHOBJ o = MQHO_UNUSABLE_HOBJ;
    MQLONG cc, rc;
    od.Version = MQOD_VERSION_3;
    memcpy(od.ObjectName, name, strnlen(name, sizeof(od.ObjectName)));
    MQOPEN(h, &od, options, &o, &cc, &rc);
    EXPECT(cc == MQCC_OK, "MQOPEN %s: reason %d", name, (int)rc);
    EXPECT(memcmp(od.ResolvedQName, name, strlen(name)) == 0, "ResolvedQName %.48s",
           od.ResolvedQName);
    return o;
}

static void round_trip(MQHCONN req, MQHCONN rsp, MQHOBJ reqq, MQHOBJ replyq, MQHOBJ inq,
                       const char *replyq_name, int syncpoint, int n) {
    MQLONG cc, rc, len;
    char body[64], buf[256];
    MQMD md = {MQMD_DEFAULT}, got = {MQMD_DEFAULT}, reply = {MQMD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    MQGMO gmo = {MQGMO_DEFAULT};
    MQOD rod = {MQOD_DEFAULT};
    MQBYTE24 request_id;

    snprintf(body, sizeof(body), "request %d%s", n, syncpoint ? " (syncpoint)" : "");
    md.MsgType = MQMT_REQUEST;
    md.Persistence = MQPER_PERSISTENT;
    memcpy(md.Format, MQFMT_STRING, 8);
    memcpy(md.ReplyToQ, replyq_name, strnlen(replyq_name, sizeof(md.ReplyToQ)));
    pmo.Options = (syncpoint ? MQPMO_SYNCPOINT : MQPMO_NO_SYNCPOINT) | MQPMO_NEW_MSG_ID;
    MQPUT(req, reqq, &md, &pmo, (MQLONG)strlen(body), body, &cc, &rc);
    EXPECT(cc == MQCC_OK, "MQPUT request: %d", (int)rc);
    memcpy(request_id, md.MsgId, sizeof(request_id));
    if (syncpoint) {
        MQCMIT(req, &cc, &rc);
        EXPECT(cc == MQCC_OK, "MQCMIT requester: %d", (int)rc);
    }

    /* The responder. */
    gmo.Version = MQGMO_VERSION_3;
    gmo.Options = MQGMO_WAIT | (syncpoint ? MQGMO_SYNCPOINT : MQGMO_NO_SYNCPOINT);
    gmo.WaitInterval = 5000;
    MQGET(rsp, inq, &got, &gmo, sizeof(buf), buf, &len, &cc, &rc);
    EXPECT(cc == MQCC_OK, "MQGET request: %d", (int)rc);
    EXPECT(got.MsgType == MQMT_REQUEST, "MsgType %d", (int)got.MsgType);
    EXPECT(got.Persistence == MQPER_PERSISTENT, "Persistence %d", (int)got.Persistence);
    EXPECT(memcmp(got.MsgId, request_id, 24) == 0, "request MsgId differs");
    EXPECT(memcmp(got.Format, MQFMT_STRING, 8) == 0, "Format %.8s", got.Format);
    EXPECT(len == (MQLONG)strlen(body) && memcmp(buf, body, len) == 0, "request body");
    reply.MsgType = MQMT_REPLY;
    memcpy(reply.CorrelId, got.MsgId, 24);
    memcpy(rod.ObjectName, got.ReplyToQ, 48);
    memcpy(rod.ObjectQMgrName, got.ReplyToQMgr, 48);
    pmo.Options = syncpoint ? MQPMO_SYNCPOINT : MQPMO_NO_SYNCPOINT;
    MQPUT1(rsp, &rod, &reply, &pmo, len, buf, &cc, &rc);
    EXPECT(cc == MQCC_OK, "MQPUT1 reply: %d", (int)rc);
    if (syncpoint) {
        MQCMIT(rsp, &cc, &rc);
        EXPECT(cc == MQCC_OK, "MQCMIT responder: %d", (int)rc);
    }

    /* The requester gets its reply by CorrelId = request MsgId. */
    {
        MQMD back = {MQMD_DEFAULT};
        MQGMO g = {MQGMO_DEFAULT};
        g.Version = MQGMO_VERSION_2;
        g.Options = MQGMO_WAIT | (syncpoint ? MQGMO_SYNCPOINT : MQGMO_NO_SYNCPOINT);
        g.WaitInterval = 5000;
        g.MatchOptions = MQMO_MATCH_CORREL_ID;
        memcpy(back.CorrelId, request_id, 24);
        MQGET(req, replyq, &back, &g, sizeof(buf), buf, &len, &cc, &rc);
        EXPECT(cc == MQCC_OK, "MQGET reply: %d", (int)rc);
        EXPECT(back.MsgType == MQMT_REPLY, "reply MsgType %d", (int)back.MsgType);
        EXPECT(len == (MQLONG)strlen(body) && memcmp(buf, body, len) == 0, "reply body");
        if (syncpoint) {
            MQCMIT(req, &cc, &rc);
            EXPECT(cc == MQCC_OK, "MQCMIT reply get: %d", (int)rc);
        }
    }
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN req, rsp;
    MQLONG cc, rc, len;
    MQHOBJ reqq, replyq, inq;
    int i;
    char small[4];

    if (argc < 3) {
        fprintf(stderr, "usage: %s REQUEST_QUEUE REPLY_QUEUE [QMGR]\n", argv[0]);
        return 2;
    }
    if (argc > 3) memcpy(qmgr, argv[3], strnlen(argv[3], sizeof(qmgr) - 1));
    MQCONN(qmgr, &req, &cc, &rc);
    EXPECT(cc == MQCC_OK, "MQCONN requester: %d", (int)rc);
    {
        MQCNO cno = {MQCNO_DEFAULT};
        MQCONNX(qmgr, &cno, &rsp, &cc, &rc);
        EXPECT(cc == MQCC_OK, "MQCONNX responder: %d", (int)rc);
    }
    if (failures) return 1;
    reqq = open_q(req, argv[1], MQOO_OUTPUT);
    replyq = open_q(req, argv[2], MQOO_INPUT_SHARED | MQOO_INQUIRE);
    inq = open_q(rsp, argv[1], MQOO_INPUT_SHARED);
    for (i = 0; i < 5; i++) {
        round_trip(req, rsp, reqq, replyq, inq, argv[2], 0, i);
        round_trip(req, rsp, reqq, replyq, inq, argv[2], 1, i);
    }

    /* Edge cases. */
    {
        MQMD md = {MQMD_DEFAULT};
        MQPMO pmo = {MQPMO_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        MQPUT(req, reqq, &md, &pmo, 10, "0123456789", &cc, &rc);
        EXPECT(cc == MQCC_OK, "MQPUT ten bytes: %d", (int)rc);
        /* Too small a buffer: the message stays, and the length is reported. */
        MQGET(rsp, inq, &md, &gmo, sizeof(small), small, &len, &cc, &rc);
        EXPECT(cc == MQCC_WARNING && rc == MQRC_TRUNCATED_MSG_FAILED && len == 10,
               "truncation refused: cc %d rc %d len %d", (int)cc, (int)rc, (int)len);
        gmo.Options = MQGMO_ACCEPT_TRUNCATED_MSG;
        memset(md.MsgId, 0, 24);
        memset(md.CorrelId, 0, 24);
        MQGET(rsp, inq, &md, &gmo, sizeof(small), small, &len, &cc, &rc);
        EXPECT(cc == MQCC_WARNING && rc == MQRC_TRUNCATED_MSG_ACCEPTED && len == 10 &&
                   memcmp(small, "0123", 4) == 0,
               "truncation accepted: cc %d rc %d len %d", (int)cc, (int)rc, (int)len);
        gmo.Options = MQGMO_NO_WAIT;
        MQGET(rsp, inq, &md, &gmo, sizeof(small), small, &len, &cc, &rc);
        EXPECT(cc == MQCC_FAILED && rc == MQRC_NO_MSG_AVAILABLE, "empty: %d", (int)rc);
        MQGET(rsp, 9999, &md, &gmo, sizeof(small), small, &len, &cc, &rc);
        EXPECT(cc == MQCC_FAILED && rc == MQRC_HOBJ_ERROR, "bad Hobj: %d", (int)rc);
        MQPUT(12345, reqq, &md, &pmo, 1, "x", &cc, &rc);
        EXPECT(cc == MQCC_FAILED && rc == MQRC_HCONN_ERROR, "bad Hconn: %d", (int)rc);
        md.StrucId[0] = 'X';
        MQPUT(req, reqq, &md, &pmo, 1, "x", &cc, &rc);
        EXPECT(cc == MQCC_FAILED && rc == MQRC_MD_ERROR, "bad MQMD: %d", (int)rc);
    }
    {
        /* Setting all context: needs a handle opened to set it; then the fields stay as set. */
        MQMD md = {MQMD_DEFAULT}, got = {MQMD_DEFAULT};
        MQPMO pmo = {MQPMO_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        MQHOBJ setq = open_q(req, argv[1], MQOO_OUTPUT | MQOO_SET_ALL_CONTEXT);
        memcpy(md.PutApplName, "restored application        ", 28);
        memcpy(md.PutDate, "20200102", 8);
        memcpy(md.PutTime, "03040506", 8);
        memcpy(md.UserIdentifier, "someone     ", 12);
        pmo.Options = MQPMO_SET_ALL_CONTEXT;
        MQPUT(req, reqq, &md, &pmo, 1, "c", &cc, &rc);
        EXPECT(cc == MQCC_FAILED && rc == MQRC_NOT_OPEN_FOR_SET_ALL, "set all, not opened: %d",
               (int)rc);
        MQPUT(req, setq, &md, &pmo, 1, "c", &cc, &rc);
        EXPECT(cc == MQCC_OK, "set all: %d", (int)rc);
        MQGET(rsp, inq, &got, &gmo, sizeof(small), small, &len, &cc, &rc);
        EXPECT(cc == MQCC_OK && memcmp(got.PutApplName, "restored application", 20) == 0 &&
                   memcmp(got.PutDate, "20200102", 8) == 0 &&
                   memcmp(got.PutTime, "03040506", 8) == 0 &&
                   memcmp(got.UserIdentifier, "someone", 7) == 0,
               "context kept: rc %d app %.28s date %.8s time %.8s user %.12s", (int)rc,
               got.PutApplName, got.PutDate, got.PutTime, got.UserIdentifier);
        MQCLOSE(req, &setq, MQCO_NONE, &cc, &rc);
    }
    {
        MQLONG sel[3] = {MQIA_CURRENT_Q_DEPTH, MQIA_MAX_Q_DEPTH, MQCA_Q_NAME};
        MQLONG ints[2] = {-1, -1};
        MQCHAR48 name;
        MQINQ(req, replyq, 3, sel, 2, ints, sizeof(name), name, &cc, &rc);
        EXPECT(cc == MQCC_OK && ints[0] == 0 && ints[1] > 0 &&
                   memcmp(name, argv[2], strlen(argv[2])) == 0,
               "MQINQ: rc %d depth %d max %d", (int)rc, (int)ints[0], (int)ints[1]);
    }
    {
        MQSTS sts = {MQSTS_DEFAULT};
        MQMD md = {MQMD_DEFAULT};
        MQPMO pmo = {MQPMO_DEFAULT};
        pmo.Options = MQPMO_ASYNC_RESPONSE;
        for (i = 0; i < 3; i++) MQPUT(req, reqq, &md, &pmo, 1, "a", &cc, &rc);
        MQSTAT(req, MQSTAT_TYPE_ASYNC_ERROR, &sts, &cc, &rc);
        EXPECT(cc == MQCC_OK && sts.PutSuccessCount == 3, "MQSTAT: rc %d ok %d", (int)rc,
               (int)sts.PutSuccessCount);
    }
    MQCLOSE(req, &reqq, MQCO_NONE, &cc, &rc);
    MQCLOSE(req, &replyq, MQCO_NONE, &cc, &rc);
    MQCLOSE(rsp, &inq, MQCO_NONE, &cc, &rc);
    MQDISC(&req, &cc, &rc);
    EXPECT(cc == MQCC_OK && req == MQHC_UNUSABLE_HCONN, "MQDISC: %d", (int)rc);
    MQDISC(&rsp, &cc, &rc);
    MQDISC(&rsp, &cc, &rc);
    EXPECT(cc == MQCC_FAILED && rc == MQRC_HCONN_ERROR, "second MQDISC: %d", (int)rc);
    printf("%s: %d failures\n", argv[0], failures);
    return failures ? 1 : 0;
}
