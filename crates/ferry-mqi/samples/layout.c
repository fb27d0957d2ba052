/* Compile-time checks of cmqc.h: every structure's size and the offset where each version
 * ends, against the lengths the MQI reference documents (64-bit); and the default
 * initialisers compile. Built as C and as C++ with -Wall -Wextra -Werror. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cmqc.h"
#include "cmqxc.h"
#include "cmqcfc.h"
#include "cmqbc.h"
#include "cmqpsc.h"
#include "cmqstrc.h"

#if defined(__cplusplus)
#define CHECK(cond, what) static_assert(cond, what)
#else
#define CHECK(cond, what) _Static_assert(cond, what)
#endif

CHECK(sizeof(MQMD) == MQMD_LENGTH_2, "MQMD v2 length");
CHECK(offsetof(MQMD, GroupId) == MQMD_LENGTH_1, "MQMD v1 length");
CHECK(offsetof(MQMD, Format) == 32, "MQMD Format offset");
CHECK(offsetof(MQMD, MsgId) == 48, "MQMD MsgId offset");
CHECK(offsetof(MQMD, CorrelId) == 72, "MQMD CorrelId offset");
CHECK(offsetof(MQMD, ReplyToQ) == 100, "MQMD ReplyToQ offset");
CHECK(offsetof(MQMD, PutApplName) == 276, "MQMD PutApplName offset");
CHECK(sizeof(MQOD) == MQOD_LENGTH_4, "MQOD v4 length");
CHECK(offsetof(MQOD, RecsPresent) == MQOD_LENGTH_1, "MQOD v1 length");
CHECK(offsetof(MQOD, AlternateSecurityId) == MQOD_LENGTH_2, "MQOD v2 length");
CHECK(offsetof(MQOD, ObjectString) == MQOD_LENGTH_3, "MQOD v3 length");
CHECK(sizeof(MQPMO) == MQPMO_LENGTH_3, "MQPMO v3 length");
CHECK(offsetof(MQPMO, RecsPresent) == MQPMO_LENGTH_1, "MQPMO v1 length");
CHECK(offsetof(MQPMO, OriginalMsgHandle) == MQPMO_LENGTH_2, "MQPMO v2 length");
CHECK(sizeof(MQGMO) == MQGMO_LENGTH_4, "MQGMO v4 length");
CHECK(offsetof(MQGMO, MatchOptions) == MQGMO_LENGTH_1, "MQGMO v1 length");
CHECK(offsetof(MQGMO, MsgToken) == MQGMO_LENGTH_2, "MQGMO v2 length");
CHECK(offsetof(MQGMO, Reserved2) == MQGMO_LENGTH_3, "MQGMO v3 length");
CHECK(sizeof(MQCNO) == MQCNO_LENGTH_8, "MQCNO v8 length");
CHECK(offsetof(MQCNO, ClientConnOffset) == MQCNO_LENGTH_1, "MQCNO v1 length");
CHECK(offsetof(MQCNO, ConnTag) == MQCNO_LENGTH_2, "MQCNO v2 length");
CHECK(offsetof(MQCNO, SSLConfigPtr) == MQCNO_LENGTH_3, "MQCNO v3 length");
CHECK(offsetof(MQCNO, CCDTUrlPtr) == MQCNO_LENGTH_5, "MQCNO v5 length");
CHECK(offsetof(MQCNO, ApplName) == MQCNO_LENGTH_6, "MQCNO v6 length");
CHECK(offsetof(MQCNO, BalanceParmsPtr) == MQCNO_LENGTH_7, "MQCNO v7 length");
CHECK(sizeof(MQCSP) == MQCSP_LENGTH_3, "MQCSP v3 length");
CHECK(offsetof(MQCSP, Reserved3) == MQCSP_LENGTH_1, "MQCSP v1 length");
CHECK(offsetof(MQCSP, Reserved4) == MQCSP_LENGTH_2, "MQCSP v2 length");
CHECK(sizeof(MQSTS) == MQSTS_LENGTH_2, "MQSTS v2 length");
CHECK(offsetof(MQSTS, ObjectString) == MQSTS_LENGTH_1, "MQSTS v1 length");
CHECK(sizeof(MQSD) == MQSD_LENGTH_1, "MQSD length");
CHECK(sizeof(MQCHARV) == 24, "MQCHARV length");
CHECK(sizeof(MQCMHO) == MQCMHO_LENGTH_1, "MQCMHO length");
CHECK(sizeof(MQDMHO) == MQDMHO_LENGTH_1, "MQDMHO length");
CHECK(sizeof(MQSMPO) == MQSMPO_LENGTH_1, "MQSMPO length");
CHECK(sizeof(MQIMPO) == MQIMPO_LENGTH_1, "MQIMPO length");
CHECK(offsetof(MQIMPO, ReturnedName) == 32, "MQIMPO ReturnedName offset");
CHECK(sizeof(MQDMPO) == MQDMPO_LENGTH_1, "MQDMPO length");
CHECK(sizeof(MQPD) == MQPD_LENGTH_1, "MQPD length");
CHECK(sizeof(MQBO) == MQBO_LENGTH_1, "MQBO length");
CHECK(sizeof(MQSRO) == MQSRO_LENGTH_1, "MQSRO length");
CHECK(sizeof(MQSCO) == MQSCO_LENGTH_6, "MQSCO v6 length");
CHECK(offsetof(MQSCO, KeyRepoPasswordPtr) == MQSCO_LENGTH_5, "MQSCO v5 length");
CHECK(offsetof(MQSCO, KeyResetCount) == MQSCO_LENGTH_1, "MQSCO v1 length");
CHECK(offsetof(MQSCO, EncryptionPolicySuiteB) == MQSCO_LENGTH_2, "MQSCO v2 length");
CHECK(offsetof(MQSCO, CertificateValPolicy) == MQSCO_LENGTH_3, "MQSCO v3 length");
CHECK(offsetof(MQSCO, CertificateLabel) <= MQSCO_LENGTH_4, "MQSCO v4 length");
CHECK(sizeof(MQSRO) == MQSRO_LENGTH_1, "MQSRO length");
CHECK(sizeof(MQCD) == MQCD_LENGTH_12, "MQCD v12 length");
CHECK(offsetof(MQCD, UserIdentifier) == MQCD_LENGTH_1, "MQCD v1 length");
CHECK(offsetof(MQCD, MsgRetryExit) == MQCD_LENGTH_2, "MQCD v2 length");
CHECK(offsetof(MQCD, HeartbeatInterval) == MQCD_LENGTH_3, "MQCD v3 length");
CHECK(offsetof(MQCD, ClusterPtr) == MQCD_LENGTH_4, "MQCD v4 length");
CHECK(offsetof(MQCD, LongMCAUserIdLength) == MQCD_LENGTH_5, "MQCD v5 length");
CHECK(offsetof(MQCD, SSLCipherSpec) == MQCD_LENGTH_6, "MQCD v6 length");
CHECK(offsetof(MQCD, HdrCompList) == MQCD_LENGTH_7, "MQCD v7 length");
CHECK(offsetof(MQCD, SharingConversations) <= MQCD_LENGTH_8, "MQCD v8 length");
CHECK(offsetof(MQCD, BatchDataLimit) <= MQCD_LENGTH_9, "MQCD v9 length");
CHECK(offsetof(MQCD, CertificateLabel) == MQCD_LENGTH_10, "MQCD v10 length");
CHECK(offsetof(MQCD, SPLProtection) == MQCD_LENGTH_11, "MQCD v11 length");
CHECK(offsetof(MQCD, ConnectionName) == 1024, "MQCD ConnectionName offset");
/* Asynchronous consumption and balancing (documented 64-bit lengths) */
CHECK(sizeof(MQCBD) == 168, "MQCBD length");
CHECK(offsetof(MQCBD, CallbackFunction) == 24, "MQCBD CallbackFunction offset");
CHECK(offsetof(MQCBC, ReconnectDelay) == 56, "MQCBC v1 length");
CHECK(sizeof(MQCBC) == 64, "MQCBC v2 length");
CHECK(sizeof(MQCTLO) == 24, "MQCTLO length");
CHECK(sizeof(MQBNO) == 20, "MQBNO length");
/* PCF (cmqcfc.h): fixed parts as documented */
CHECK(sizeof(MQCFH) == 36, "MQCFH length");
CHECK(sizeof(MQCFIN) == 16, "MQCFIN length");
CHECK(sizeof(MQCFIN64) == 24, "MQCFIN64 length");
CHECK(sizeof(MQCFGR) == 16, "MQCFGR length");
CHECK(sizeof(MQCFIF) == 20, "MQCFIF length");
CHECK(offsetof(MQCFST, String) == 20, "MQCFST fixed length");
CHECK(offsetof(MQCFSL, Strings) == 24, "MQCFSL fixed length");
CHECK(offsetof(MQCFBS, String) == 16, "MQCFBS fixed length");
CHECK(offsetof(MQCFIL, Values) == 16, "MQCFIL fixed length");
CHECK(offsetof(MQCFIL64, Values) == 16, "MQCFIL64 fixed length");
CHECK(offsetof(MQCFSF, FilterValue) == 24, "MQCFSF fixed length");
CHECK(offsetof(MQCFBF, FilterValue) == 20, "MQCFBF fixed length");
/* Elementary types */
CHECK(sizeof(MQINT8) == 1 && sizeof(MQINT16) == 2 && sizeof(MQINT32) == 4 &&
          sizeof(MQFLOAT32) == 4 && sizeof(MQFLOAT64) == 8 && sizeof(MQHBAG) == 4,
      "elementary type sizes");
/* Publish/subscribe command names (cmqpsc.h): string constants and option flags */
CHECK(sizeof(MQPS_TOPIC) == sizeof("MQPSTopic") && sizeof(MQPS_COMMAND_B) == 14,
      "MQRFH tag strings");
CHECK(sizeof(MQPSC_COMMAND_B) == sizeof("<Command>") && sizeof(MQPSCR_OK) == 3,
      "MQRFH2 psc/pscr strings");
CHECK(MQREGO_CORREL_ID_AS_IDENTITY == 1 && MQREGO_LOCKED == 0x00200000 &&
          (MQREGO_ANONYMOUS | MQREGO_LOCAL) == 6 && MQPUBO_IS_RETAINED_PUBLICATION == 16,
      "registration and publication options");

int main(void) {
    MQMD md = {MQMD_DEFAULT};
    MQOD od = {MQOD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    MQGMO gmo = {MQGMO_DEFAULT};
    MQCNO cno = {MQCNO_DEFAULT};
    MQCSP csp = {MQCSP_DEFAULT};
    MQSTS sts = {MQSTS_DEFAULT};
    MQCMHO cmho = {MQCMHO_DEFAULT};
    MQDMHO dmho = {MQDMHO_DEFAULT};
    MQSMPO smpo = {MQSMPO_DEFAULT};
    MQIMPO impo = {MQIMPO_DEFAULT};
    MQDMPO dmpo = {MQDMPO_DEFAULT};
    MQPD pd = {MQPD_DEFAULT};
    MQCD cd = {MQCD_CLIENT_CONN_DEFAULT};
    MQSD sd = {MQSD_DEFAULT};
    MQSCO sco = {MQSCO_DEFAULT};
    (void)sco;
    MQSRO sro = {MQSRO_DEFAULT};
    MQBO bo = {MQBO_DEFAULT};
    MQCBD cbd = {MQCBD_DEFAULT};
    MQCTLO ctlo = {MQCTLO_DEFAULT};
    MQBNO bno = {MQBNO_DEFAULT};
    MQCFH cfh = {MQCFH_DEFAULT};
    MQCFIN cfin = {MQCFIN_DEFAULT};
    MQCFST cfst = {MQCFST_DEFAULT};
    (void)cbd;
    (void)ctlo;
    (void)bno;
    (void)cfin;
    (void)cfst;
    if (cfh.StrucLength != MQCFH_STRUC_LENGTH || strcmp(MQCMD_STR(MQCMD_INQUIRE_Q), "MQCMD_INQUIRE_Q") != 0)
        return 1;
    (void)cd;
    (void)sd;
    (void)sro;
    (void)bo;
    (void)cmho;
    (void)dmho;
    (void)smpo;
    (void)impo;
    (void)dmpo;
    (void)pd;
    printf("defaults: md %d od %d pmo %d gmo %d cno %d csp %d sts %d\n", (int)md.Version,
           (int)od.Version, (int)pmo.Version, (int)gmo.Version, (int)cno.Version,
           (int)csp.Version, (int)sts.Version);
    printf("%s %s %s\n", MQCC_STR(MQCC_FAILED), MQRC_STR(MQRC_NO_MSG_AVAILABLE),
           MQCHT_STR(MQCHT_CLNTCONN));
    if (strcmp(MQRC_STR(2033), "MQRC_NO_MSG_AVAILABLE") != 0 || MQRC_STR(-42)[0] != '\0') return 1;
    return md.Priority == MQPRI_PRIORITY_AS_Q_DEF && od.ObjectType == MQOT_Q &&
                   gmo.MatchOptions == (MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID)
               ? 0
               : 1;
}
