/* Compile-time and run-time checks of the message headers (cmqc.h, cmqcfc.h) and exit
 * structures (cmqxc.h): each structure's size against the length IBM publishes for 64-bit Linux
 * (the MQxxx_LENGTH_n / MQxxx_CURRENT_LENGTH values of the MQI reference and of mq-golang's
 * cmqc_linux_amd64.go, command level 940), the offset where each earlier version ends, and that
 * every MQxxx_DEFAULT initialiser compiles and sets the structure's identifier and version.
 * Built as C (-std=c99) and as C++ (-std=c++11) with -Wall -Wextra -pedantic -Werror; when run it
 * prints "ok" and exits 0, or names the first check that failed and exits 1. */
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
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define CHECK(cond, what) _Static_assert(cond, what)
#elif defined(__GNUC__)
#define CHECK(cond, what) __extension__ _Static_assert(cond, what)
#else
#define CHECK(cond, what) _Static_assert(cond, what)
#endif

/* ---- Message headers and records (cmqc.h, cmqcfc.h) ---- */
CHECK(sizeof(MQAIR) == 584, "MQAIR current (v2) length");
CHECK(offsetof(MQAIR, OCSPResponderURL) == 328, "MQAIR v1 length");
CHECK(offsetof(MQAIR, LDAPUserNamePtr) == 280, "MQAIR pointer aligned");
CHECK(sizeof(MQCIH) == 180, "MQCIH current (v2) length");
CHECK(offsetof(MQCIH, CursorPosition) == 164, "MQCIH v1 length");
CHECK(offsetof(MQCIH, Facility) == 76, "MQCIH Facility offset");
CHECK(sizeof(MQDH) == 48, "MQDH length");
CHECK(sizeof(MQDLH) == 172, "MQDLH length");
CHECK(offsetof(MQDLH, Encoding) == 108, "MQDLH Encoding offset");
CHECK(sizeof(MQEPH) == 68, "MQEPH length");
CHECK(offsetof(MQEPH, PCFHeader) == 32, "MQEPH PCFHeader offset");
CHECK(sizeof(MQIIH) == 84, "MQIIH length");
CHECK(offsetof(MQIIH, TranState) == 80, "MQIIH TranState offset");
CHECK(sizeof(MQMD1) == 324, "MQMD1 length");
CHECK(sizeof(MQMD2) == 364, "MQMD2 current (v2) length");
CHECK(offsetof(MQMD2, GroupId) == 324, "MQMD2 v1 length");
CHECK(sizeof(MQMDE) == 72, "MQMDE length");
CHECK(sizeof(MQRFH) == 32, "MQRFH length");
CHECK(sizeof(MQRMH) == 108, "MQRMH length");
CHECK(sizeof(MQTM) == 684, "MQTM length");
CHECK(offsetof(MQTM, ApplId) == 172, "MQTM ApplId offset");
CHECK(sizeof(MQTMC2) == 732, "MQTMC2 current (v2) length");
CHECK(offsetof(MQTMC2, QMgrName) == 684, "MQTMC2 v1 length");
CHECK(sizeof(MQWIH) == 120, "MQWIH length");
CHECK(sizeof(MQXQH) == 428, "MQXQH length");
CHECK(offsetof(MQXQH, MsgDesc) == 104, "MQXQH MsgDesc offset");
/* MQOR and MQRR have no published length constant: the sum of their documented fields */
CHECK(sizeof(MQOR) == 96, "MQOR length");
CHECK(sizeof(MQRR) == 8, "MQRR length");

/* ---- Exit structures (cmqxc.h) ---- */
CHECK(sizeof(MQCXP) == 240, "MQCXP current (v9) length");
CHECK(offsetof(MQCXP, ExitSpace) == 156, "MQCXP v3/v4 length");
CHECK(offsetof(MQCXP, SSLCertUserid) == 160, "MQCXP v5 length");
CHECK(offsetof(MQCXP, Hconn) == 200, "MQCXP v6 length");
CHECK(offsetof(MQCXP, MCAUserSource) == 208, "MQCXP v7 length");
CHECK(offsetof(MQCXP, RemoteProduct) == 224, "MQCXP v8 length");
CHECK(sizeof(MQACH) == 72, "MQACH length");
CHECK(sizeof(MQAXC) == 424, "MQAXC current (v2) length");
CHECK(offsetof(MQAXC, ChannelName) == 392, "MQAXC v1 length");
CHECK(sizeof(MQAXP) == 256, "MQAXP length");
CHECK(sizeof(MQDXP) == 56, "MQDXP current (v2) length");
CHECK(offsetof(MQDXP, pEntryPoints) == 48 && offsetof(MQDXP, Hconn) + 4 == 44, "MQDXP v1 length");
CHECK(sizeof(MQNXP) == 72, "MQNXP current (v2) length");
CHECK(offsetof(MQNXP, pEntryPoints) == 64, "MQNXP v1 length");
CHECK(sizeof(MQPBC) == 40, "MQPBC current (v2) length");
CHECK(offsetof(MQPBC, MsgDescPtr) == 32, "MQPBC v1 length");
CHECK(sizeof(MQPSXP) == 184, "MQPSXP current (v2) length");
CHECK(offsetof(MQPSXP, pEntryPoints) == 176, "MQPSXP v1 length");
CHECK(sizeof(MQSBC) == 288, "MQSBC length");
CHECK(sizeof(MQWXP) == 248, "MQWXP current (v4) length");
CHECK(offsetof(MQWXP, CacheContext) == 224, "MQWXP v1 length");
CHECK(offsetof(MQWXP, CLWLMRUChannels) + 4 == 240, "MQWXP v2/v3 length");
CHECK(offsetof(MQWXP, pEntryPoints) == 240, "MQWXP v3 length");
CHECK(sizeof(MQWXP1) == 224, "MQWXP1 length");
CHECK(sizeof(MQWXP2) == 240, "MQWXP2 length");
CHECK(sizeof(MQWXP3) == 240, "MQWXP3 length");
CHECK(sizeof(MQWXP4) == 248, "MQWXP4 length");
CHECK(sizeof(MQWDR) == 136, "MQWDR current (v2) length");
CHECK(offsetof(MQWDR, DestSeqNumber) == 124, "MQWDR v1 length");
CHECK(sizeof(MQWDR1) == 124, "MQWDR1 length");
CHECK(sizeof(MQWDR2) == 136, "MQWDR2 length");
CHECK(sizeof(MQWQR) == 216, "MQWQR current (v4) length");
CHECK(offsetof(MQWQR, CLWLQueuePriority) == 200, "MQWQR v1 length");
CHECK(offsetof(MQWQR, DefPutResponse) == 208, "MQWQR v2 length");
CHECK(offsetof(MQWQR, CapExpiry) == 212, "MQWQR v3 length");
CHECK(sizeof(MQWQR1) == 200, "MQWQR1 length");
CHECK(sizeof(MQWQR2) == 208, "MQWQR2 length");
CHECK(sizeof(MQWQR3) == 212, "MQWQR3 length");
CHECK(sizeof(MQWQR4) == 216, "MQWQR4 length");
CHECK(sizeof(MQWCR) == 56, "MQWCR length (documented fields)");
CHECK(sizeof(MQXEPO) == 40, "MQXEPO length");
CHECK(sizeof(MQIEP) == 264, "MQIEP length");

/* ---- The headers' own length constants agree with the structures ---- */
CHECK(MQAIR_CURRENT_LENGTH == sizeof(MQAIR) && MQAIR_LENGTH_1 == 328, "MQAIR lengths");
CHECK(MQCIH_CURRENT_LENGTH == sizeof(MQCIH) && MQCIH_LENGTH_1 == 164, "MQCIH lengths");
CHECK(MQDH_CURRENT_LENGTH == sizeof(MQDH) && MQDLH_CURRENT_LENGTH == sizeof(MQDLH),
      "MQDH, MQDLH lengths");
CHECK(MQEPH_CURRENT_LENGTH == sizeof(MQEPH) && MQEPH_STRUC_LENGTH_FIXED == sizeof(MQEPH),
      "MQEPH lengths");
CHECK(MQIIH_CURRENT_LENGTH == sizeof(MQIIH) && MQMDE_CURRENT_LENGTH == sizeof(MQMDE),
      "MQIIH, MQMDE lengths");
CHECK(MQMD1_CURRENT_LENGTH == sizeof(MQMD1) && MQMD2_CURRENT_LENGTH == sizeof(MQMD2) &&
          MQMD2_LENGTH_1 == MQMD_LENGTH_1 && MQMD2_LENGTH_2 == MQMD_LENGTH_2,
      "MQMD1, MQMD2 lengths");
CHECK(MQRFH_CURRENT_LENGTH == sizeof(MQRFH) && MQRFH_STRUC_LENGTH_FIXED == sizeof(MQRFH) &&
          MQRFH2_CURRENT_LENGTH == sizeof(MQRFH2),
      "MQRFH, MQRFH2 lengths");
CHECK(MQRMH_CURRENT_LENGTH == sizeof(MQRMH) && MQTM_CURRENT_LENGTH == sizeof(MQTM) &&
          MQTMC2_CURRENT_LENGTH == sizeof(MQTMC2) && MQWIH_CURRENT_LENGTH == sizeof(MQWIH) &&
          MQXQH_CURRENT_LENGTH == sizeof(MQXQH),
      "MQRMH, MQTM, MQTMC2, MQWIH, MQXQH lengths");
CHECK(MQCXP_CURRENT_LENGTH == sizeof(MQCXP) && MQCXP_LENGTH_5 == 160 && MQCXP_LENGTH_8 == 224,
      "MQCXP lengths");
CHECK(MQACH_CURRENT_LENGTH == sizeof(MQACH) && MQAXC_CURRENT_LENGTH == sizeof(MQAXC) &&
          MQAXP_CURRENT_LENGTH == sizeof(MQAXP),
      "API exit structure lengths");
CHECK(MQDXP_CURRENT_LENGTH == sizeof(MQDXP) && MQNXP_CURRENT_LENGTH == sizeof(MQNXP) &&
          MQPBC_CURRENT_LENGTH == sizeof(MQPBC) && MQPSXP_CURRENT_LENGTH == sizeof(MQPSXP) &&
          MQSBC_CURRENT_LENGTH == sizeof(MQSBC),
      "data-conversion, pre-connect and publish exit structure lengths");
CHECK(MQWXP_CURRENT_LENGTH == sizeof(MQWXP) && MQWXP1_CURRENT_LENGTH == sizeof(MQWXP1) &&
          MQWXP2_CURRENT_LENGTH == sizeof(MQWXP2) && MQWXP3_CURRENT_LENGTH == sizeof(MQWXP3) &&
          MQWXP4_CURRENT_LENGTH == sizeof(MQWXP4),
      "MQWXP lengths");
CHECK(MQWDR_CURRENT_LENGTH == sizeof(MQWDR) && MQWDR1_CURRENT_LENGTH == sizeof(MQWDR1) &&
          MQWDR2_CURRENT_LENGTH == sizeof(MQWDR2) && MQWQR_CURRENT_LENGTH == sizeof(MQWQR) &&
          MQWQR1_CURRENT_LENGTH == sizeof(MQWQR1) && MQWQR2_CURRENT_LENGTH == sizeof(MQWQR2) &&
          MQWQR3_CURRENT_LENGTH == sizeof(MQWQR3) && MQWQR4_CURRENT_LENGTH == sizeof(MQWQR4),
      "MQWDR, MQWQR lengths");
CHECK(MQXEPO_CURRENT_LENGTH == sizeof(MQXEPO) && MQIEP_CURRENT_LENGTH == sizeof(MQIEP),
      "MQXEPO, MQIEP lengths");

/* Exit functions written against the exit function types (compile-time check of their forms) */
static MQ_CHANNEL_EXIT channel_exit;
static void MQENTRY channel_exit(PMQVOID pChannelExitParms, PMQVOID pChannelDefinition,
                                 PMQLONG pDataLength, PMQLONG pAgentBufferLength,
                                 PMQVOID pAgentBuffer, PMQLONG pExitBufferLength,
                                 PMQPTR pExitBufferAddr) {
    PMQCXP cxp = (PMQCXP)pChannelExitParms;
    (void)pChannelDefinition;
    (void)pDataLength;
    (void)pAgentBufferLength;
    (void)pAgentBuffer;
    (void)pExitBufferLength;
    (void)pExitBufferAddr;
    cxp->ExitResponse = MQXCC_OK;
}
static MQ_CLUSTER_WORKLOAD_EXIT clwl_exit;
static void MQENTRY clwl_exit(PMQWXP pExitParms) { pExitParms->DestinationChosen = 1; }

/* A non-zero byte count when the structure's first four bytes are not `id` */
static int id_differs(const void *structure, const char *id) {
    return memcmp(structure, id, 4) != 0;
}

#define EXPECT(cond, what)                                                                 \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("failed: %s\n", what);                                                  \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

int main(void) {
    MQAIR air = {MQAIR_DEFAULT};
    MQCIH cih = {MQCIH_DEFAULT};
    MQDH dh = {MQDH_DEFAULT};
    MQDLH dlh = {MQDLH_DEFAULT};
    MQEPH eph = {MQEPH_DEFAULT};
    MQIIH iih = {MQIIH_DEFAULT};
    MQMD1 md1 = {MQMD1_DEFAULT};
    MQMD2 md2 = {MQMD2_DEFAULT};
    MQMDE mde = {MQMDE_DEFAULT};
    MQOR orec = {MQOR_DEFAULT};
    MQRR rrec = {MQRR_DEFAULT};
    MQRFH rfh = {MQRFH_DEFAULT};
    MQRMH rmh = {MQRMH_DEFAULT};
    MQTM tm = {MQTM_DEFAULT};
    MQTMC2 tmc2 = {MQTMC2_DEFAULT};
    MQWIH wih = {MQWIH_DEFAULT};
    MQXQH xqh = {MQXQH_DEFAULT};
    MQCXP cxp = {MQCXP_DEFAULT};
    MQACH ach = {MQACH_DEFAULT};
    MQAXC axc = {MQAXC_DEFAULT};
    MQAXP axp = {MQAXP_DEFAULT};
    MQDXP dxp = {MQDXP_DEFAULT};
    MQNXP nxp = {MQNXP_DEFAULT};
    MQPBC pbc = {MQPBC_DEFAULT};
    MQPSXP psxp = {MQPSXP_DEFAULT};
    MQSBC sbc = {MQSBC_DEFAULT};
    MQWXP wxp = {MQWXP_DEFAULT};
    MQWXP1 wxp1 = {MQWXP1_DEFAULT};
    MQWXP2 wxp2 = {MQWXP2_DEFAULT};
    MQWXP3 wxp3 = {MQWXP3_DEFAULT};
    MQWXP4 wxp4 = {MQWXP4_DEFAULT};
    MQWDR wdr = {MQWDR_DEFAULT};
    MQWDR1 wdr1 = {MQWDR1_DEFAULT};
    MQWDR2 wdr2 = {MQWDR2_DEFAULT};
    MQWQR wqr = {MQWQR_DEFAULT};
    MQWQR1 wqr1 = {MQWQR1_DEFAULT};
    MQWQR2 wqr2 = {MQWQR2_DEFAULT};
    MQWQR3 wqr3 = {MQWQR3_DEFAULT};
    MQWQR4 wqr4 = {MQWQR4_DEFAULT};
    MQWCR wcr = {MQWCR_DEFAULT};
    MQXEPO xepo = {MQXEPO_DEFAULT};
    MQIEP iep = {MQIEP_DEFAULT};
    MQLONG data_length = 0;
    MQPTR exit_buffer = NULL;

    EXPECT(!id_differs(&air, MQAIR_STRUC_ID) && air.Version == MQAIR_VERSION_1 &&
               air.AuthInfoType == MQAIT_CRL_LDAP && air.LDAPUserNamePtr == NULL,
           "MQAIR_DEFAULT");
    EXPECT(!id_differs(&cih, MQCIH_STRUC_ID) && cih.Version == MQCIH_VERSION_2 &&
               cih.StrucLength == MQCIH_LENGTH_2 && cih.UOWControl == MQCUOWC_ONLY &&
               cih.GetWaitInterval == MQCGWI_DEFAULT && cih.OutputDataLength == MQCODL_AS_INPUT &&
               memcmp(cih.Function, MQCFUNC_NONE, 4) == 0 &&
               memcmp(cih.StartCode, MQCSC_NONE, 4) == 0 && cih.Reserved3[7] == ' ',
           "MQCIH_DEFAULT");
    EXPECT(!id_differs(&dh, MQDH_STRUC_ID) && dh.Version == MQDH_VERSION_1 &&
               memcmp(dh.Format, MQFMT_NONE, 8) == 0 && dh.PutMsgRecFields == MQPMRF_NONE,
           "MQDH_DEFAULT");
    EXPECT(!id_differs(&dlh, MQDLH_STRUC_ID) && dlh.Version == MQDLH_VERSION_1 &&
               dlh.Reason == MQRC_NONE && memcmp(dlh.Format, MQFMT_NONE, 8) == 0,
           "MQDLH_DEFAULT");
    EXPECT(!id_differs(&eph, MQEPH_STRUC_ID) && eph.Version == MQEPH_VERSION_1 &&
               eph.StrucLength == MQEPH_STRUC_LENGTH_FIXED &&
               eph.PCFHeader.StrucLength == MQCFH_STRUC_LENGTH &&
               eph.PCFHeader.Version == MQCFH_VERSION_3 && eph.PCFHeader.Control == MQCFC_LAST,
           "MQEPH_DEFAULT");
    EXPECT(!id_differs(&iih, MQIIH_STRUC_ID) && iih.Version == MQIIH_VERSION_1 &&
               iih.StrucLength == MQIIH_LENGTH_1 && iih.TranState == MQITS_NOT_IN_CONVERSATION &&
               iih.CommitMode == MQICM_COMMIT_THEN_SEND && iih.SecurityScope == MQISS_CHECK &&
               memcmp(iih.Authenticator, MQIAUT_NONE, 8) == 0,
           "MQIIH_DEFAULT");
    EXPECT(!id_differs(&md1, MQMD_STRUC_ID) && md1.Version == MQMD_VERSION_1 &&
               md1.MsgType == MQMT_DATAGRAM && md1.Persistence == MQPER_PERSISTENCE_AS_Q_DEF,
           "MQMD1_DEFAULT");
    EXPECT(!id_differs(&md2, MQMD_STRUC_ID) && md2.Version == MQMD_VERSION_2 &&
               md2.MsgSeqNumber == 1 && md2.OriginalLength == MQOL_UNDEFINED,
           "MQMD2_DEFAULT");
    EXPECT(!id_differs(&mde, MQMDE_STRUC_ID) && mde.Version == MQMDE_VERSION_2 &&
               mde.StrucLength == MQMDE_LENGTH_2 && mde.Encoding == MQENC_NATIVE &&
               mde.MsgSeqNumber == 1 && mde.OriginalLength == MQOL_UNDEFINED,
           "MQMDE_DEFAULT");
    EXPECT(orec.ObjectName[0] == '\0' && rrec.CompCode == MQCC_OK && rrec.Reason == MQRC_NONE,
           "MQOR_DEFAULT, MQRR_DEFAULT");
    EXPECT(!id_differs(&rfh, MQRFH_STRUC_ID) && rfh.Version == MQRFH_VERSION_1 &&
               rfh.StrucLength == MQRFH_STRUC_LENGTH_FIXED && rfh.Encoding == MQENC_NATIVE,
           "MQRFH_DEFAULT");
    EXPECT(!id_differs(&rmh, MQRMH_STRUC_ID) && rmh.Version == MQRMH_VERSION_1 &&
               rmh.Encoding == MQENC_NATIVE && rmh.Flags == MQRMHF_NOT_LAST &&
               rmh.ObjectType[0] == ' ',
           "MQRMH_DEFAULT");
    EXPECT(!id_differs(&tm, MQTM_STRUC_ID) && tm.Version == MQTM_VERSION_1, "MQTM_DEFAULT");
    EXPECT(!id_differs(&tmc2, MQTMC_STRUC_ID) && memcmp(tmc2.Version, MQTMC_VERSION_2, 4) == 0,
           "MQTMC2_DEFAULT");
    EXPECT(!id_differs(&wih, MQWIH_STRUC_ID) && wih.Version == MQWIH_VERSION_1 &&
               wih.StrucLength == MQWIH_LENGTH_1 && wih.ServiceName[31] == ' ' &&
               wih.Reserved[0] == ' ',
           "MQWIH_DEFAULT");
    EXPECT(!id_differs(&xqh, MQXQH_STRUC_ID) && xqh.Version == MQXQH_VERSION_1 &&
               !id_differs(&xqh.MsgDesc, MQMD_STRUC_ID) && xqh.MsgDesc.Version == MQMD_VERSION_1,
           "MQXQH_DEFAULT");
    EXPECT(!id_differs(&cxp, MQCXP_STRUC_ID) && cxp.Version == MQCXP_VERSION_5 &&
               cxp.ExitNumber == 1 && cxp.Hconn == MQHC_UNUSABLE_HCONN,
           "MQCXP_DEFAULT");
    EXPECT(!id_differs(&ach, MQACH_STRUC_ID) && ach.StrucLength == MQACH_LENGTH_1 &&
               ach.NextChainAreaPtr == NULL,
           "MQACH_DEFAULT");
    EXPECT(!id_differs(&axc, MQAXC_STRUC_ID) && axc.Version == MQAXC_VERSION_1 &&
               axc.Environment == MQXE_OTHER && axc.ApplType == MQAT_DEFAULT,
           "MQAXC_DEFAULT");
    EXPECT(!id_differs(&axp, MQAXP_STRUC_ID) && axp.Version == MQAXP_VERSION_1 &&
               axp.ExitId == MQXT_API_EXIT && axp.APICallerType == MQXACT_EXTERNAL &&
               axp.ExitMsgHandle == MQHM_NONE,
           "MQAXP_DEFAULT");
    EXPECT(!id_differs(&dxp, MQDXP_STRUC_ID) && dxp.Version == MQDXP_VERSION_1 &&
               dxp.ExitResponse == MQXDR_CONVERSION_FAILED,
           "MQDXP_DEFAULT");
    EXPECT(!id_differs(&nxp, MQNXP_STRUC_ID) && nxp.ExitId == MQXT_PRECONNECT_EXIT &&
               nxp.MaxMQCDVersion == MQCD_CURRENT_VERSION,
           "MQNXP_DEFAULT");
    EXPECT(!id_differs(&pbc, MQPBC_STRUC_ID) && pbc.PubTopicString.VSCCSID == MQCCSI_APPL &&
               pbc.MsgDescPtr == NULL,
           "MQPBC_DEFAULT");
    EXPECT(!id_differs(&psxp, MQPSXP_STRUC_ID) && psxp.ExitId == MQXT_PUBLISH_EXIT &&
               psxp.Hconn == MQHC_UNUSABLE_HCONN && psxp.MsgHandle == MQHM_NONE,
           "MQPSXP_DEFAULT");
    EXPECT(!id_differs(&sbc, MQSBC_STRUC_ID) && sbc.SubLevel == 1 &&
               sbc.SelectionString.VSCCSID == MQCCSI_APPL,
           "MQSBC_DEFAULT");
    EXPECT(!id_differs(&wxp, MQWXP_STRUC_ID) && wxp.Version == MQWXP_VERSION_2 &&
               wxp.CacheType == MQCLCT_DYNAMIC && wxp1.Version == MQWXP_VERSION_1 &&
               wxp2.Version == MQWXP_VERSION_2 && wxp3.Version == MQWXP_VERSION_3 &&
               wxp4.Version == MQWXP_VERSION_4 && wxp4.CacheType == MQCLCT_DYNAMIC,
           "MQWXP_DEFAULT and MQWXP1-4_DEFAULT");
    EXPECT(!id_differs(&wdr, MQWDR_STRUC_ID) && wdr.StrucLength == MQWDR_CURRENT_LENGTH &&
               wdr1.StrucLength == MQWDR1_CURRENT_LENGTH && wdr2.Version == MQWDR_VERSION_2,
           "MQWDR_DEFAULT and MQWDR1-2_DEFAULT");
    EXPECT(!id_differs(&wqr, MQWQR_STRUC_ID) && wqr.StrucLength == MQWQR_CURRENT_LENGTH &&
               wqr.DefPutResponse == MQPRT_SYNC_RESPONSE && wqr.CapExpiry == MQCEX_NOLIMIT &&
               wqr1.Version == MQWQR_VERSION_1 && wqr2.Version == MQWQR_VERSION_2 &&
               wqr3.DefPutResponse == MQPRT_SYNC_RESPONSE && wqr4.CapExpiry == MQCEX_NOLIMIT,
           "MQWQR_DEFAULT and MQWQR1-4_DEFAULT");
    EXPECT(wcr.ClusterName[0] == '\0' && wcr.ClusterRecOffset == 0, "MQWCR_DEFAULT");
    EXPECT(!id_differs(&xepo, MQXEPO_STRUC_ID) && xepo.Options == MQXEPO_NONE &&
               xepo.ExitProperties.VSPtr == NULL,
           "MQXEPO_DEFAULT");
    EXPECT(!id_differs(&iep, MQIEP_STRUC_ID) && iep.StrucLength == MQIEP_LENGTH_1 &&
               iep.MQBACK_Call == NULL && iep.MQZEP_Call == NULL,
           "MQIEP_DEFAULT");

    /* The exit functions declared with the exit function types can be called through them */
    cxp.ExitResponse = MQXCC_FAILED;
    channel_exit(&cxp, NULL, &data_length, &data_length, NULL, &data_length, &exit_buffer);
    EXPECT(cxp.ExitResponse == MQXCC_OK, "MQ_CHANNEL_EXIT call");
    {
        PMQ_CLUSTER_WORKLOAD_EXIT pclwl = clwl_exit;
        pclwl(&wxp);
        EXPECT(wxp.DestinationChosen == 1, "MQ_CLUSTER_WORKLOAD_EXIT call");
    }

    printf("ok\n");
    return 0;
}
