/* ferryinqnl: reads a namelist and a process definition with MQINQ, as trigger monitors and
 * cluster tools do. Opens NAMELIST (MQOT_NAMELIST) for inquire, asks how many names it holds,
 * then MQCA_NAMES (48 characters a name) and its description; opens PROCESS (MQOT_PROCESS) and
 * asks MQIA_APPL_TYPE, MQCA_APPL_ID, MQCA_USER_DATA and MQCA_ALTERATION_DATE; shows that a
 * namelist cannot be opened for output (2045) and that an unknown one is 2085.
 * Usage: ferryinqnl NAMELIST PROCESS [QMGR] */
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

static MQLONG open_object(MQHCONN hconn, MQLONG type, const char *name, MQLONG options, MQHOBJ *h) {
    MQOD od = {MQOD_DEFAULT};
    MQLONG cc, rc;
    od.ObjectType = type;
    memcpy(od.ObjectName, name, strnlen(name, sizeof(od.ObjectName)));
    MQOPEN(hconn, &od, options, h, &cc, &rc);
    return rc;
}

static int namelist(MQHCONN hconn, const char *name) {
    MQHOBJ h;
    MQLONG cc, rc, count = 0, sels[2], ints[1];
    char *chars;
    MQLONG rc_open = open_object(hconn, MQOT_NAMELIST, name, MQOO_INQUIRE, &h);
    if (rc_open != MQRC_NONE) return fail("MQOPEN namelist", rc_open);
    sels[0] = MQIA_NAME_COUNT;
    MQINQ(hconn, h, 1, sels, 1, &count, 0, NULL, &cc, &rc);
    if (cc != MQCC_OK) return fail("MQINQ MQIA_NAME_COUNT", rc);
    printf("names: %d\n", (int)count);
    chars = malloc((size_t)(count * MQ_OBJECT_NAME_LENGTH + MQ_NAMELIST_DESC_LENGTH) + 1);
    sels[0] = MQCA_NAMES;
    sels[1] = MQCA_NAMELIST_DESC;
    MQINQ(hconn, h, 2, sels, 0, ints, count * MQ_OBJECT_NAME_LENGTH + MQ_NAMELIST_DESC_LENGTH,
          chars, &cc, &rc);
    if (cc != MQCC_OK) return fail("MQINQ MQCA_NAMES", rc);
    for (MQLONG i = 0; i < count; i++) trimmed("name", chars + i * MQ_OBJECT_NAME_LENGTH, MQ_OBJECT_NAME_LENGTH);
    trimmed("description", chars + count * MQ_OBJECT_NAME_LENGTH, MQ_NAMELIST_DESC_LENGTH);
    free(chars);
    MQCLOSE(hconn, &h, MQCO_NONE, &cc, &rc);
    printf("open for output: reason %d\n", (int)open_object(hconn, MQOT_NAMELIST, name, MQOO_OUTPUT, &h));
    printf("unknown namelist: reason %d\n",
           (int)open_object(hconn, MQOT_NAMELIST, "NO.SUCH.NAMELIST", MQOO_INQUIRE, &h));
    return 0;
}

static int process(MQHCONN hconn, const char *name) {
    MQHOBJ h;
    MQLONG cc, rc, type = 0;
    MQLONG sels[4] = {MQIA_APPL_TYPE, MQCA_APPL_ID, MQCA_USER_DATA, MQCA_ALTERATION_DATE};
    char chars[MQ_PROCESS_APPL_ID_LENGTH + MQ_PROCESS_USER_DATA_LENGTH + MQ_DATE_LENGTH];
    MQLONG rc_open = open_object(hconn, MQOT_PROCESS, name, MQOO_INQUIRE, &h);
    if (rc_open != MQRC_NONE) return fail("MQOPEN process", rc_open);
    MQINQ(hconn, h, 4, sels, 1, &type, sizeof(chars), chars, &cc, &rc);
    if (cc != MQCC_OK) return fail("MQINQ process", rc);
    printf("appl type: %d\n", (int)type);
    trimmed("appl id", chars, MQ_PROCESS_APPL_ID_LENGTH);
    trimmed("user data", chars + MQ_PROCESS_APPL_ID_LENGTH, MQ_PROCESS_USER_DATA_LENGTH);
    printf("altered: %d characters\n", (int)strnlen(chars + MQ_PROCESS_APPL_ID_LENGTH +
                                                     MQ_PROCESS_USER_DATA_LENGTH, 10));
    MQCLOSE(hconn, &h, MQCO_NONE, &cc, &rc);
    return 0;
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn = MQHC_UNUSABLE_HCONN;
    MQLONG cc, rc;
    if (argc < 3) {
        fprintf(stderr, "usage: %s NAMELIST PROCESS [QMGR]\n", argv[0]);
        return 2;
    }
    if (argc > 3) memcpy(qmgr, argv[3], strnlen(argv[3], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQCONN", rc);
    if (namelist(hconn, argv[1]) || process(hconn, argv[2])) return 1;
    MQDISC(&hconn, &cc, &rc);
    return 0;
}
