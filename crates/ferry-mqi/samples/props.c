/* ferryprops: message properties through message handles. Puts a message carrying a string,
 * an integer, a boolean and a float property (MQCRTMH, MQSETMP, MQPMO v3), gets it with a
 * message handle (MQGMO v4) and lists every property with MQINQMP "%" and MQIMPO_INQ_NEXT,
 * then deletes one (MQDLTMP) and the handles (MQDLTMH).
 * Usage: ferryprops QUEUE [QMGR]. Exit 0 when every check passes. */
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

static void set_prop(MQHCONN hc, MQHMSG hm, const char *name, MQLONG type, MQLONG len,
                     const void *value) {
    MQSMPO smpo = {MQSMPO_DEFAULT};
    MQPD pd = {MQPD_DEFAULT};
    MQCHARV n = {MQCHARV_DEFAULT};
    MQLONG cc, rc;
    n.VSPtr = (MQPTR)name;
    n.VSLength = MQVS_NULL_TERMINATED;
    MQSETMP(hc, hm, &smpo, &n, &pd, type, len, (PMQVOID)value, &cc, &rc);
    EXPECT(cc == MQCC_OK, "MQSETMP %s: %d", name, (int)rc);
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hc;
    MQHOBJ ho;
    MQLONG cc, rc, len;
    MQOD od = {MQOD_DEFAULT};
    MQHMSG put_h = MQHM_UNUSABLE_HMSG, get_h = MQHM_UNUSABLE_HMSG;
    MQCMHO cmho = {MQCMHO_DEFAULT};
    MQDMHO dmho = {MQDMHO_DEFAULT};
    MQLONG count = 42;
    MQLONG yes = 1;
    double ratio = 0.75;
    int seen = 0;
    char buf[64];

    if (argc < 2) return 2;
    if (argc > 2) memcpy(qmgr, argv[2], strnlen(argv[2], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hc, &cc, &rc);
    EXPECT(cc == MQCC_OK, "MQCONN: %d", (int)rc);
    memcpy(od.ObjectName, argv[1], strnlen(argv[1], sizeof(od.ObjectName)));
    MQOPEN(hc, &od, MQOO_OUTPUT | MQOO_INPUT_AS_Q_DEF, &ho, &cc, &rc);
    EXPECT(cc == MQCC_OK, "MQOPEN: %d", (int)rc);
    if (failures) return 1;

    MQCRTMH(hc, &cmho, &put_h, &cc, &rc);
    EXPECT(cc == MQCC_OK && put_h != MQHM_UNUSABLE_HMSG, "MQCRTMH: %d", (int)rc);
    set_prop(hc, put_h, "app.colour", MQTYPE_STRING, MQVL_NULL_TERMINATED, "blue");
    set_prop(hc, put_h, "app.count", MQTYPE_INT32, 4, &count);
    set_prop(hc, put_h, "app.urgent", MQTYPE_BOOLEAN, 4, &yes);
    set_prop(hc, put_h, "ratio", MQTYPE_FLOAT64, 8, &ratio);
    {
        MQMD md = {MQMD_DEFAULT};
        MQPMO pmo = {MQPMO_DEFAULT};
        pmo.Version = MQPMO_VERSION_3;
        pmo.OriginalMsgHandle = put_h;
        MQPUT(hc, ho, &md, &pmo, 5, "hello", &cc, &rc);
        EXPECT(cc == MQCC_OK, "MQPUT with properties: %d", (int)rc);
    }

    MQCRTMH(hc, &cmho, &get_h, &cc, &rc);
    {
        MQMD md = {MQMD_DEFAULT};
        MQGMO gmo = {MQGMO_DEFAULT};
        gmo.Version = MQGMO_VERSION_4;
        gmo.Options = MQGMO_PROPERTIES_IN_HANDLE;
        gmo.MsgHandle = get_h;
        MQGET(hc, ho, &md, &gmo, sizeof(buf), buf, &len, &cc, &rc);
        EXPECT(cc == MQCC_OK && len == 5, "MQGET with a handle: %d", (int)rc);
    }
    {
        MQIMPO impo = {MQIMPO_DEFAULT};
        MQPD pd = {MQPD_DEFAULT};
        MQCHARV all = {MQCHARV_DEFAULT};
        char name[64], value[64];
        all.VSPtr = (MQPTR)MQPROP_INQUIRE_ALL;
        all.VSLength = MQVS_NULL_TERMINATED;
        impo.ReturnedName.VSPtr = name;
        impo.ReturnedName.VSBufSize = sizeof(name);
        impo.Options = MQIMPO_CONVERT_VALUE | MQIMPO_INQ_FIRST;
        for (;;) {
            MQLONG type = MQTYPE_AS_SET, vlen = 0;
            MQINQMP(hc, get_h, &impo, &all, &pd, &type, sizeof(value), value, &vlen, &cc, &rc);
            if (rc == MQRC_PROPERTY_NOT_AVAILABLE) break;
            EXPECT(cc == MQCC_OK, "MQINQMP: %d", (int)rc);
            if (cc != MQCC_OK) break;
            name[impo.ReturnedName.VSLength] = '\0';
            if (strcmp(name, "app.colour") == 0) {
                EXPECT(type == MQTYPE_STRING && vlen == 4 && memcmp(value, "blue", 4) == 0,
                       "app.colour");
            } else if (strcmp(name, "app.count") == 0) {
                MQLONG v;
                memcpy(&v, value, 4);
                EXPECT(type == MQTYPE_INT32 && v == 42, "app.count");
            } else if (strcmp(name, "app.urgent") == 0) {
                EXPECT(type == MQTYPE_BOOLEAN, "app.urgent");
            } else if (strcmp(name, "ratio") == 0) {
                double v;
                memcpy(&v, value, 8);
                EXPECT(type == MQTYPE_FLOAT64 && v == 0.75, "ratio");
            } else {
                EXPECT(0, "unexpected property %s", name);
            }
            printf("property %s type %d length %d\n", name, (int)type, (int)vlen);
            seen++;
            impo.Options = MQIMPO_CONVERT_VALUE | MQIMPO_INQ_NEXT;
        }
        EXPECT(seen == 4, "saw %d properties", seen);
        /* A prefix with a wildcard, and a buffer too small for the value. */
        all.VSPtr = (MQPTR) "app.c%";
        impo.Options = MQIMPO_INQ_FIRST;
        {
            MQLONG type = MQTYPE_AS_SET, vlen = 0;
            MQINQMP(hc, get_h, &impo, &all, &pd, &type, 2, value, &vlen, &cc, &rc);
            EXPECT(cc == MQCC_FAILED && rc == MQRC_PROPERTY_VALUE_TOO_BIG && vlen == 4,
                   "value too big: %d, length %d", (int)rc, (int)vlen);
        }
    }
    {
        /* Type conversion: only with MQIMPO_CONVERT_TYPE; otherwise Type on input is ignored. */
        MQIMPO impo = {MQIMPO_DEFAULT};
        MQPD pd = {MQPD_DEFAULT};
        MQCHARV n = {MQCHARV_DEFAULT};
        char value[64];
        MQLONG type = MQTYPE_STRING, vlen = 0;
        MQINT64 wide = 0;
        n.VSPtr = (MQPTR) "app.count";
        n.VSLength = MQVS_NULL_TERMINATED;
        MQINQMP(hc, get_h, &impo, &n, &pd, &type, sizeof(value), value, &vlen, &cc, &rc);
        EXPECT(cc == MQCC_OK && type == MQTYPE_INT32 && vlen == 4,
               "without MQIMPO_CONVERT_TYPE the value comes as set: %d, type %d", (int)rc, (int)type);
        impo.Options = MQIMPO_CONVERT_TYPE;
        type = MQTYPE_STRING;
        MQINQMP(hc, get_h, &impo, &n, &pd, &type, sizeof(value), value, &vlen, &cc, &rc);
        EXPECT(cc == MQCC_OK && type == MQTYPE_STRING && vlen == 2 && memcmp(value, "42", 2) == 0,
               "app.count as a string: %d", (int)rc);
        type = MQTYPE_INT64;
        MQINQMP(hc, get_h, &impo, &n, &pd, &type, sizeof(value), value, &vlen, &cc, &rc);
        memcpy(&wide, value, 8);
        EXPECT(cc == MQCC_OK && type == MQTYPE_INT64 && vlen == 8 && wide == 42,
               "app.count as INT64: %d", (int)rc);
        type = MQTYPE_INT16;
        MQINQMP(hc, get_h, &impo, &n, &pd, &type, sizeof(value), value, &vlen, &cc, &rc);
        EXPECT(rc == MQRC_PROP_CONV_NOT_SUPPORTED, "INT32 to INT16 is refused: %d", (int)rc);
        n.VSPtr = (MQPTR) "app.colour";
        type = MQTYPE_INT32;
        MQINQMP(hc, get_h, &impo, &n, &pd, &type, sizeof(value), value, &vlen, &cc, &rc);
        EXPECT(rc == MQRC_PROP_NUMBER_FORMAT_ERROR, "\"blue\" is no number: %d", (int)rc);
        printf("type conversion checked\n");
    }
    {
        MQDMPO dmpo = {MQDMPO_DEFAULT};
        MQCHARV n = {MQCHARV_DEFAULT};
        n.VSPtr = (MQPTR) "ratio";
        n.VSLength = 5;
        MQDLTMP(hc, get_h, &dmpo, &n, &cc, &rc);
        EXPECT(cc == MQCC_OK, "MQDLTMP: %d", (int)rc);
        MQDLTMP(hc, get_h, &dmpo, &n, &cc, &rc);
        EXPECT(rc == MQRC_PROPERTY_NOT_AVAILABLE, "second MQDLTMP: %d", (int)rc);
    }
    MQDLTMH(hc, &put_h, &dmho, &cc, &rc);
    EXPECT(cc == MQCC_OK && put_h == MQHM_UNUSABLE_HMSG, "MQDLTMH: %d", (int)rc);
    MQDLTMH(hc, &get_h, &dmho, &cc, &rc);
    MQDLTMH(hc, &get_h, &dmho, &cc, &rc);
    EXPECT(rc == MQRC_HMSG_ERROR, "second MQDLTMH: %d", (int)rc);
    {
        /* MQSUB without a subscription descriptor is refused as such. */
        MQLONG r2;
        MQHOBJ hq = MQHO_NONE, hs = MQHO_UNUSABLE_HOBJ;
        MQSUB(hc, NULL, &hq, &hs, &cc, &r2);
        EXPECT(cc == MQCC_FAILED && r2 == MQRC_SD_ERROR, "MQSUB: %d", (int)r2);
    }
    {
        /* A selection string on MQOPEN selects what the handle's gets see (select.c uses
         * one); it needs input or browse, and valid syntax. */
        MQOD sod = {MQOD_DEFAULT};
        MQHOBJ hsel = MQHO_UNUSABLE_HOBJ;
        MQLONG r3;
        char selector[] = "app.colour = 'red'";
        char bad[] = "app.colour = = 'red'";
        sod.Version = MQOD_VERSION_4;
        memcpy(sod.ObjectName, argv[1], strnlen(argv[1], sizeof(sod.ObjectName)));
        sod.SelectionString.VSPtr = selector;
        sod.SelectionString.VSLength = MQVS_NULL_TERMINATED;
        MQOPEN(hc, &sod, MQOO_INPUT_AS_Q_DEF, &hsel, &cc, &r3);
        EXPECT(cc == MQCC_OK, "MQOPEN with a selector: %d", (int)r3);
        if (cc == MQCC_OK) MQCLOSE(hc, &hsel, MQCO_NONE, &cc, &r3);
        MQOPEN(hc, &sod, MQOO_OUTPUT, &hsel, &cc, &r3);
        EXPECT(cc == MQCC_FAILED && r3 == MQRC_SELECTOR_INVALID_FOR_TYPE,
               "MQOPEN for output with a selector: %d", (int)r3);
        sod.SelectionString.VSPtr = bad;
        MQOPEN(hc, &sod, MQOO_INPUT_AS_Q_DEF, &hsel, &cc, &r3);
        EXPECT(cc == MQCC_FAILED && r3 == MQRC_SELECTOR_SYNTAX_ERROR,
               "MQOPEN with a bad selector: %d", (int)r3);
    }
    MQCLOSE(hc, &ho, MQCO_NONE, &cc, &rc);
    MQDISC(&hc, &cc, &rc);
    printf("%s: %d failures\n", argv[0], failures);
    return failures ? 1 : 0;
}
