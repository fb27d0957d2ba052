/* ferryrfh2: message properties into an MQRFH2 and back (MQMHBUF, MQBUFMH). Sets three
 * properties on a message handle, writes them with MQMHBUF into a buffer as an MQRFH2, appends
 * a payload after it, then reads the buffer with MQBUFMH into a second handle (deleting the
 * header from the buffer) and prints what arrived. Usage: ferryrfh2 [QMGR] */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmqc.h"

static int fail(const char *what, MQLONG rc) {
    printf("%s failed with reason %d\n", what, (int)rc);
    return 1;
}

static MQLONG set(MQHCONN hconn, MQHMSG h, char *name, MQLONG type, void *value, MQLONG len) {
    MQSMPO smpo = {MQSMPO_DEFAULT};
    MQPD pd = {MQPD_DEFAULT};
    MQCHARV n = {MQCHARV_DEFAULT};
    MQLONG cc, rc;
    n.VSPtr = name;
    n.VSLength = (MQLONG)strlen(name);
    MQSETMP(hconn, h, &smpo, &n, &pd, type, len, value, &cc, &rc);
    return rc;
}

int main(int argc, char **argv) {
    MQCHAR48 qmgr = "";
    MQHCONN hconn = MQHC_UNUSABLE_HCONN;
    MQHMSG out = MQHM_UNUSABLE_HMSG, in = MQHM_UNUSABLE_HMSG;
    MQCMHO cmho = {MQCMHO_DEFAULT};
    MQDMHO dmho = {MQDMHO_DEFAULT};
    MQMHBO mhbo = {MQMHBO_DEFAULT};
    MQBMHO bmho = {MQBMHO_DEFAULT};
    MQMD md = {MQMD_DEFAULT};
    MQCHARV all = {MQCHARV_DEFAULT};
    MQLONG cc, rc, len = 0, count = 42, got = 0;
    MQRFH2 *rfh;
    char buf[1024], value[64];
    MQIMPO impo = {MQIMPO_DEFAULT};
    MQPD pd = {MQPD_DEFAULT};
    MQCHARV name = {MQCHARV_DEFAULT};
    MQLONG type = MQTYPE_AS_SET, vlen = 0;

    if (argc > 1) memcpy(qmgr, argv[1], strnlen(argv[1], sizeof(qmgr) - 1));
    MQCONN(qmgr, &hconn, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQCONN", rc);
    MQCRTMH(hconn, &cmho, &out, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQCRTMH", rc);
    MQCRTMH(hconn, &cmho, &in, &cc, &rc);
    if ((rc = set(hconn, out, "colour", MQTYPE_STRING, "blue <&>", 8)) ||
        (rc = set(hconn, out, "count", MQTYPE_INT32, &count, 4)))
        return fail("MQSETMP", rc);

    memcpy(md.Format, MQFMT_STRING, MQ_FORMAT_LENGTH);
    all.VSPtr = "%";
    all.VSLength = 1;
    MQMHBUF(hconn, out, &mhbo, &all, &md, sizeof(buf), buf, &len, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQMHBUF", rc);
    rfh = (MQRFH2 *)buf;
    printf("MQMHBUF: %d bytes, StrucId %.4s, StrucLength %d, inner format %.8s, md format %.8s\n",
           (int)len, rfh->StrucId, (int)rfh->StrucLength, rfh->Format, md.Format);
    printf("folder: %.*s\n", (int)(len - MQRFH_STRUC_LENGTH_FIXED_2 - 4),
           buf + MQRFH_STRUC_LENGTH_FIXED_2 + 4);
    memcpy(buf + len, "payload", 7);
    len += 7;

    MQBUFMH(hconn, in, &bmho, &md, len, buf, &len, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQBUFMH", rc);
    printf("MQBUFMH: data %d bytes \"%.*s\", md format %.8s\n", (int)len, (int)len, buf, md.Format);
    name.VSPtr = "colour";
    name.VSLength = 6;
    MQINQMP(hconn, in, &impo, &name, &pd, &type, sizeof(value), value, &vlen, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQINQMP colour", rc);
    printf("colour = %.*s\n", (int)vlen, value);
    name.VSPtr = "count";
    name.VSLength = 5;
    type = MQTYPE_AS_SET;
    MQINQMP(hconn, in, &impo, &name, &pd, &type, sizeof(got), &got, &vlen, &cc, &rc);
    if (cc == MQCC_FAILED) return fail("MQINQMP count", rc);
    printf("count = %d (type %d)\n", (int)got, (int)type);
    mhbo.Options = 0;
    MQMHBUF(hconn, out, &mhbo, &all, &md, sizeof(buf), buf, &len, &cc, &rc);
    printf("MQMHBUF without MQMHBO_PROPERTIES_IN_MQRFH2: reason %d\n", (int)rc);
    MQDLTMH(hconn, &out, &dmho, &cc, &rc);
    MQDLTMH(hconn, &in, &dmho, &cc, &rc);
    MQDISC(&hconn, &cc, &rc);
    return 0;
}
