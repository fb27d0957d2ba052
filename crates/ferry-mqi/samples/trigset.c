/* ferrytrigset: sets a queue's trigger attributes with MQSET, as trigger set-up tools do, and
 * reads them back with MQINQ: MQIA_TRIGGER_CONTROL, TRIGGER_TYPE, TRIGGER_DEPTH and the
 * character attribute MQCA_TRIGGER_DATA in one call; shows MQ's reasons for a depth of 0 (2076)
 * and for character attributes shorter than MQ_TRIGGER_DATA_LENGTH (2006); then inquires a
 * local definition of a remote queue (MQCA_REMOTE_Q_NAME, REMOTE_Q_MGR_NAME, XMIT_Q_NAME) and
 * the queue manager's MQCA_ALTERATION_DATE.
 * Usage: ferrytrigset QUEUE REMOTEQ [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
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

static MQLONG open_object(MQHCONN hconn, MQLONG type, const char *name, MQLONG options, MQHOBJ *h) {
    MQOD od = {MQOD_DEFAULT};
    MQLONG cc, rc;
    od.ObjectType = type;
    if (name) memcpy(od.ObjectName, name, strnlen(name, sizeof(od.ObjectName)));
    MQOPEN(hconn, &od, options, h, &cc, &rc);
    return rc;
}

static int set_triggers(MQHCONN hconn, MQHOBJ h) {
    MQLONG cc, rc;
    MQLONG sels[4] = {MQIA_TRIGGER_CONTROL, MQCA_TRIGGER_DATA, MQIA_TRIGGER_TYPE, MQIA_TRIGGER_DEPTH};
    MQLONG ints[3] = {MQTC_ON, MQTT_DEPTH, 5};
    char data[MQ_TRIGGER_DATA_LENGTH];
    memset(data, ' ', sizeof(data));
    memcpy(data, "run-me --now", 12);
    MQSET(hconn, h, 4, sels, 3, ints, sizeof(data), data, &cc, &rc);
    if (cc != MQCC_OK) return fail("MQSET", rc);
    ints[2] = 0;
    MQSET(hconn, h, 4, sels, 3, ints, sizeof(data), data, &cc, &rc);
    printf("depth 0: reason %d\n", (int)rc);
    ints[2] = 5;
    MQSET(hconn, h, 4, sels, 3, ints, 10, data, &cc, &rc);
    printf("short data: reason %d\n", (int)rc);
    return 0;
}

static int read_triggers(MQHCONN hconn, MQHOBJ h) {
    MQLONG cc, rc;
    MQLONG sels[4] = {MQIA_TRIGGER_CONTROL, MQIA_TRIGGER_TYPE, MQIA_TRIGGER_DEPTH, MQCA_TRIGGER_DATA};
    MQLONG ints[3];
    char data[MQ_TRIGGER_DATA_LENGTH];
    MQINQ(hconn, h, 4, sels, 3, ints, sizeof(data), data, &cc, &rc);
    if (cc != MQCC_OK) return fail("MQINQ", rc);
    printf("control %d type %d depth %d\n", (int)ints[0], (int)ints[1], (int)ints[2]);
    trimmed("data", data, sizeof(data));
    return 0;
}

static int remote(MQHCONN hconn, const char *name) {
    MQHOBJ h;
    MQLONG cc, rc, type = 0;
    MQLONG sels[4] = {MQIA_Q_TYPE, MQCA_REMOTE_Q_NAME, MQCA_REMOTE_Q_MGR_NAME, MQCA_XMIT_Q_NAME};
    char chars[3 * MQ_Q_NAME_LENGTH];
    MQLONG rc_open = open_object(hconn, MQOT_Q, name, MQOO_INQUIRE, &h);
    if (rc_open != MQRC_NONE) return fail("MQOPEN remote", rc_open);
    MQINQ(hconn, h, 4, sels, 1, &type, sizeof(chars), chars, &cc, &rc);
    if (cc != MQCC_OK) return fail("MQINQ remote", rc);
    printf("remote type %d\n", (int)type);
    trimmed("rname", chars, MQ_Q_NAME_LENGTH);
    trimmed("rqmname", chars + MQ_Q_NAME_LENGTH, MQ_Q_MGR_NAME_LENGTH);
    trimmed("xmitq", chars + 2 * MQ_Q_NAME_LENGTH, MQ_Q_NAME_LENGTH);
    MQCLOSE(hconn, &h, MQCO_NONE, &cc, &rc);
    return 0;
}

static int qmgr_altered(MQHCONN hconn) {
    MQHOBJ h;
    MQLONG cc, rc, sel = MQCA_ALTERATION_DATE;
    char date[MQ_DATE_LENGTH];
    MQLONG rc_open = open_object(hconn, MQOT_Q_MGR, NULL, MQOO_INQUIRE, &h);
    if (rc_open != MQRC_NONE) return fail("MQOPEN qmgr", rc_open);
    MQINQ(hconn, h, 1, &sel, 0, NULL, sizeof(date), date, &cc, &rc);
    if (cc != MQCC_OK) return fail("MQINQ qmgr", rc);
    printf("qmgr altered: %d characters\n", (int)strnlen(date, 10));
    MQCLOSE(hconn, &h, MQCO_NONE, &cc, &rc);
    return 0;
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn = MQHC_UNUSABLE_HCONN;
    MQHOBJ h;
    MQLONG cc, rc, rc_open;
    if (argc < 3) {
        fprintf(stderr, "usage: %s QUEUE REMOTEQ [QMGR]\n", argv[0]);
        return 2;
    }
    if (argc > 3) memcpy(qmgr, argv[3], strnlen(argv[3], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQCONN", rc);
    rc_open = open_object(hconn, MQOT_Q, argv[1], MQOO_INQUIRE | MQOO_SET, &h);
    if (rc_open != MQRC_NONE) return fail("MQOPEN", rc_open);
    if (set_triggers(hconn, h) || read_triggers(hconn, h)) return 1;
    MQCLOSE(hconn, &h, MQCO_NONE, &cc, &rc);
    if (remote(hconn, argv[2]) || qmgr_altered(hconn)) return 1;
    MQDISC(&hconn, &cc, &rc);
    return 0;
}
