/* ferrytrigmon: a small trigger monitor in the manner of runmqtrm. Opens the initiation queue
 * for input (a queue already holding messages for its triggered queues is triggered when it
 * does), gets trigger messages with a wait, checks each is an MQTM (format MQFMT_TRIGGER,
 * StrucId "TM  "), and shows what a monitor starts from it: the triggered queue, the process,
 * its application type and id, environment and user data, and the queue's trigger data — as
 * the character form MQTMC2 that runmqtrm passes to the application it starts.
 * Usage: ferrytrigmon INITQ COUNT [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmqc.h"

static int fail(const char *what, MQLONG rc) {
    printf("%s failed with reason %d\n", what, (int)rc);
    return 1;
}

static void trimmed(const char *label, const char *p, int len) {
    while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\0')) len--;
    printf("%s: %.*s\n", label, len, p);
}

/* The character form of a trigger message, as a monitor hands it to the application. */
static void to_tmc2(const MQTM *tm, const char *qmgr, MQTMC2 *tmc) {
    char type[5];
    memcpy(tmc->StrucId, MQTMC_STRUC_ID, 4);
    memcpy(tmc->Version, MQTMC_VERSION_2, 4);
    memcpy(tmc->QName, tm->QName, sizeof(tmc->QName));
    memcpy(tmc->ProcessName, tm->ProcessName, sizeof(tmc->ProcessName));
    memcpy(tmc->TriggerData, tm->TriggerData, sizeof(tmc->TriggerData));
    snprintf(type, sizeof(type), "%4d", (int)tm->ApplType);
    memcpy(tmc->ApplType, type, 4);
    memcpy(tmc->ApplId, tm->ApplId, sizeof(tmc->ApplId));
    memcpy(tmc->EnvData, tm->EnvData, sizeof(tmc->EnvData));
    memcpy(tmc->UserData, tm->UserData, sizeof(tmc->UserData));
    memset(tmc->QMgrName, ' ', sizeof(tmc->QMgrName));
    memcpy(tmc->QMgrName, qmgr, strnlen(qmgr, sizeof(tmc->QMgrName)));
}

static int one_trigger(MQHCONN hconn, MQHOBJ h, const char *qmgr) {
    MQMD md = {MQMD_DEFAULT};
    MQGMO gmo = {MQGMO_DEFAULT};
    MQTM tm;
    MQTMC2 tmc;
    MQLONG cc, rc, len = 0;
    gmo.Options = MQGMO_WAIT | MQGMO_ACCEPT_TRUNCATED_MSG | MQGMO_NO_SYNCPOINT;
    gmo.WaitInterval = 10000;
    MQGET(hconn, h, &md, &gmo, sizeof(tm), &tm, &len, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQGET", rc);
    if (memcmp(md.Format, MQFMT_TRIGGER, MQ_FORMAT_LENGTH) != 0 || len != MQTM_LENGTH_1 ||
        memcmp(tm.StrucId, MQTM_STRUC_ID, 4) != 0) {
        printf("not a trigger message (%d bytes)\n", (int)len);
        return 1;
    }
    to_tmc2(&tm, qmgr, &tmc);
    printf("persistent: %d\n", (int)md.Persistence);
    trimmed("queue", tmc.QName, sizeof(tmc.QName));
    trimmed("process", tmc.ProcessName, sizeof(tmc.ProcessName));
    printf("appl type: %.4s\n", tmc.ApplType);
    trimmed("appl id", tmc.ApplId, sizeof(tmc.ApplId));
    trimmed("env data", tmc.EnvData, sizeof(tmc.EnvData));
    trimmed("user data", tmc.UserData, sizeof(tmc.UserData));
    trimmed("trigger data", tmc.TriggerData, sizeof(tmc.TriggerData));
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn = MQHC_UNUSABLE_HCONN;
    MQOD od = {MQOD_DEFAULT};
    MQHOBJ h;
    MQLONG cc, rc;
    int count;
    if (argc < 3) {
        fprintf(stderr, "usage: %s INITQ COUNT [QMGR]\n", argv[0]);
        return 2;
    }
    count = atoi(argv[2]);
    if (argc > 3) memcpy(qmgr, argv[3], strnlen(argv[3], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQCONN", rc);
    memcpy(od.ObjectName, argv[1], strnlen(argv[1], sizeof(od.ObjectName)));
    MQOPEN(hconn, &od, MQOO_INPUT_AS_Q_DEF | MQOO_FAIL_IF_QUIESCING, &h, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQOPEN", rc);
    printf("monitoring %s\n", argv[1]);
    fflush(stdout);
    for (int i = 0; i < count; i++)
        if (one_trigger(hconn, h, qmgr)) return 1;
    MQCLOSE(hconn, &h, MQCO_NONE, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    return 0;
}
