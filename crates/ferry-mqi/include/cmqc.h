/*
 * cmqc.h — FerryMQ's C interface in the shape of the MQI (IBM MQ's Message Queue Interface).
 *
 * Written for FerryMQ from the public MQI reference documentation (structure field lists,
 * documented lengths and constant values). It is not IBM's header and contains none of its
 * text. Programs written against the MQI compile against it and link with FerryMQ's
 * libmqm_r.so (local) or libmqic_r.so (client).
 *
 * Coverage in this version: the structures and constants the connection, queue, message and
 * message-property calls use (MQMD v1-v2, MQOD v1-v4, MQPMO v1-v3, MQGMO v1-v4, MQCNO v1-v8,
 * MQCSP, MQSTS v1-v2, MQCHARV, MQCMHO, MQDMHO, MQSMPO, MQIMPO, MQDMPO, MQPD); the message
 * headers and records programs build or read in message data (MQDLH, MQXQH, MQMD1, MQMD2,
 * MQMDE, MQDH, MQOR, MQRR, MQRFH, MQRFH2, MQRMH, MQCIH, MQIIH, MQWIH, MQTM, MQTMC2; MQEPH is in
 * cmqcfc.h); MQAIR; and the calls as function types (MQ_*_CALL). Calls FerryMQ does not
 * support yet are exported and answer MQRC_FUNCTION_NOT_SUPPORTED (2298). Layouts assume LP64
 * (64-bit Linux); tests check every size and offset against the documented values.
 */
#ifndef FERRY_CMQC_H
#define FERRY_CMQC_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define MQ_64_BIT

/* Command levels whose structure versions and interfaces this header set provides (programs
 * test these to decide which fields and calls exist). From level 530: the administration
 * interface's data bags (cmqbc.h) and TLS configuration (MQSCO in cmqxc.h). */
#define MQCMDL_LEVEL_500 500
#define MQCMDL_LEVEL_510 510
#define MQCMDL_LEVEL_520 520
#define MQCMDL_LEVEL_530 530
#define MQCMDL_LEVEL_531 531
#define MQCMDL_LEVEL_600 600
#define MQCMDL_LEVEL_700 700
#define MQCMDL_LEVEL_701 701
#define MQCMDL_LEVEL_710 710
#define MQCMDL_LEVEL_750 750
#define MQCMDL_LEVEL_800 800
#define MQCMDL_LEVEL_801 801
#define MQCMDL_LEVEL_802 802
#define MQCMDL_LEVEL_900 900
#define MQCMDL_LEVEL_901 901
#define MQCMDL_LEVEL_902 902
#define MQCMDL_LEVEL_903 903
#define MQCMDL_LEVEL_904 904
#define MQCMDL_LEVEL_905 905
#define MQCMDL_LEVEL_910 910
#define MQCMDL_LEVEL_911 911
#define MQCMDL_LEVEL_912 912
#define MQCMDL_LEVEL_913 913
#define MQCMDL_LEVEL_914 914
#define MQCMDL_LEVEL_915 915
#define MQCMDL_LEVEL_920 920
#define MQCMDL_LEVEL_921 921
#define MQCMDL_LEVEL_922 922
#define MQCMDL_LEVEL_923 923
#define MQCMDL_LEVEL_924 924
#define MQCMDL_LEVEL_925 925
#define MQCMDL_LEVEL_930 930
#define MQCMDL_LEVEL_931 931
#define MQCMDL_LEVEL_932 932
#define MQCMDL_LEVEL_933 933
#define MQCMDL_LEVEL_934 934
#define MQCMDL_LEVEL_935 935
#define MQCMDL_LEVEL_940 940
#define MQCMDL_CURRENT_LEVEL 940

/* ---- Elementary types ------------------------------------------------------------------ */

typedef int32_t MQLONG;
typedef uint32_t MQULONG;
typedef int64_t MQINT64;
typedef uint64_t MQUINT64;
typedef char MQCHAR;
typedef unsigned char MQBYTE;
typedef void MQVOID;
typedef void *MQPTR;
typedef MQLONG MQHCONN;
typedef MQLONG MQHOBJ;
typedef MQINT64 MQHMSG;
typedef MQLONG MQBOOL;
typedef int8_t MQINT8;
typedef uint8_t MQUINT8;
typedef int16_t MQINT16;
typedef uint16_t MQUINT16;
typedef int32_t MQINT32;
typedef uint32_t MQUINT32;
typedef float MQFLOAT32;
typedef double MQFLOAT64;
typedef MQLONG MQPID;
typedef MQLONG MQTID;
typedef MQBYTE MQBYTE6[6];

typedef MQCHAR MQCHAR4[4];
typedef MQCHAR MQCHAR8[8];
typedef MQCHAR MQCHAR12[12];
typedef MQCHAR MQCHAR20[20];
typedef MQCHAR MQCHAR28[28];
typedef MQCHAR MQCHAR32[32];
typedef MQCHAR MQCHAR48[48];
typedef MQCHAR MQCHAR64[64];
typedef MQCHAR MQCHAR128[128];
typedef MQCHAR MQCHAR256[256];
typedef MQBYTE MQBYTE4[4];
typedef MQBYTE MQBYTE8[8];
typedef MQBYTE MQBYTE16[16];
typedef MQBYTE MQBYTE24[24];
typedef MQBYTE MQBYTE32[32];
typedef MQBYTE MQBYTE40[40];
typedef MQBYTE MQBYTE48[48];
typedef MQBYTE MQBYTE128[128];

typedef MQLONG *PMQLONG;
typedef MQCHAR *PMQCHAR;
typedef MQBYTE *PMQBYTE;
typedef MQVOID *PMQVOID;
typedef MQHCONN *PMQHCONN;
typedef MQHOBJ *PMQHOBJ;
typedef MQHMSG *PMQHMSG;
typedef MQPTR *PMQPTR;
typedef MQULONG *PMQULONG;
typedef MQBOOL *PMQBOOL;
typedef MQINT8 *PMQINT8;
typedef MQUINT8 *PMQUINT8;
typedef MQINT16 *PMQINT16;
typedef MQUINT16 *PMQUINT16;
typedef MQINT32 *PMQINT32;
typedef MQUINT32 *PMQUINT32;
typedef MQINT64 *PMQINT64;
typedef MQUINT64 *PMQUINT64;
typedef MQFLOAT32 *PMQFLOAT32;
typedef MQFLOAT64 *PMQFLOAT64;
typedef MQCHAR *PMQSTR;
typedef PMQCHAR *PPMQCHAR;
typedef PMQBYTE *PPMQBYTE;
typedef PMQLONG *PPMQLONG;
typedef PMQVOID *PPMQVOID;

/* Address of a function of any type (MQXEP, MQZEP). */
typedef void *PMQFUNC;

/* Linkage and pointer qualifiers. Programs and exits written for the MQI use these in their own
 * declarations ("void MQENTRY MyExit(...)", "typedef MQCXP MQPOINTER PMYCXP"); on 64-bit Linux
 * the calls use the C calling convention and plain pointers, so MQENTRY expands to nothing and
 * MQPOINTER to "*". */
#ifndef MQENTRY
#define MQENTRY
#endif
#ifndef MQPOINTER
#define MQPOINTER *
#endif

/* ---- Lengths of fields and attributes (MQ_*_LENGTH) --------------------------------------- */

#define MQ_ACCOUNTING_TOKEN_LENGTH 32
#define MQ_APPL_IDENTITY_DATA_LENGTH 32
#define MQ_APPL_NAME_LENGTH 28
#define MQ_APPL_ORIGIN_DATA_LENGTH 4
#define MQ_ARM_SUFFIX_LENGTH 2
#define MQ_AUTH_INFO_NAME_LENGTH 48
#define MQ_CERT_LABEL_LENGTH 64
#define MQ_CF_STRUC_NAME_LENGTH 12
#define MQ_CHANNEL_DESC_LENGTH 64
#define MQ_CHINIT_SERVICE_PARM_LENGTH 32
#define MQ_CLUSTER_NAME_LENGTH 48
#define MQ_CONN_TAG_LENGTH 128
#define MQ_CONNECTION_ID_LENGTH 24
#define MQ_CORREL_ID_LENGTH 24
#define MQ_CUSTOM_LENGTH 128
#define MQ_DATE_LENGTH 12
#define MQ_DNS_GROUP_NAME_LENGTH 18
#define MQ_EXIT_DATA_LENGTH 32
#define MQ_EXIT_NAME_LENGTH 128
#define MQ_FORMAT_LENGTH 8
#define MQ_GROUP_ID_LENGTH 24
#define MQ_INSTALLATION_DESC_LENGTH 64
#define MQ_INSTALLATION_NAME_LENGTH 16
#define MQ_INSTALLATION_PATH_LENGTH 256
#define MQ_LOCAL_ADDRESS_LENGTH 48
#define MQ_LU_NAME_LENGTH 8
#define MQ_MCA_NAME_LENGTH 20
#define MQ_MODE_NAME_LENGTH 8
#define MQ_MSG_ID_LENGTH 24
#define MQ_MSG_TOKEN_LENGTH 16
#define MQ_NAMELIST_DESC_LENGTH 64
#define MQ_NAMELIST_NAME_LENGTH 48
#define MQ_OBJECT_NAME_LENGTH 48
#define MQ_PASSWORD_LENGTH 12
#define MQ_PROCESS_APPL_ID_LENGTH 256
#define MQ_PROCESS_DESC_LENGTH 64
#define MQ_PROCESS_ENV_DATA_LENGTH 128
#define MQ_PROCESS_NAME_LENGTH 48
#define MQ_PROCESS_USER_DATA_LENGTH 128
#define MQ_PUT_APPL_NAME_LENGTH 28
#define MQ_PUT_DATE_LENGTH 8
#define MQ_PUT_TIME_LENGTH 8
#define MQ_Q_DESC_LENGTH 64
#define MQ_Q_MGR_DESC_LENGTH 64
#define MQ_Q_MGR_IDENTIFIER_LENGTH 48
#define MQ_Q_MGR_NAME_LENGTH 48
#define MQ_Q_NAME_LENGTH 48
#define MQ_QSG_NAME_LENGTH 4
#define MQ_SECURITY_ID_LENGTH 40
#define MQ_SHORT_CONN_NAME_LENGTH 20
#define MQ_SSL_CRYPTO_HARDWARE_LENGTH 256
#define MQ_SSL_KEY_REPOSITORY_LENGTH 256
#define MQ_STORAGE_CLASS_LENGTH 8
#define MQ_TCP_NAME_LENGTH 8
#define MQ_TIME_LENGTH 8
#define MQ_TOPIC_STR_LENGTH 10240
#define MQ_TP_NAME_LENGTH 64
#define MQ_TRIGGER_DATA_LENGTH 64
#define MQ_USER_ID_LENGTH 12
#define MQ_VERSION_LENGTH 8
/* Lengths of the fields of the message headers and exit parameter structures. */
#define MQ_ABEND_CODE_LENGTH 4
#define MQ_ATTENTION_ID_LENGTH 4
#define MQ_AUTH_INFO_CONN_NAME_LENGTH 264
#define MQ_AUTH_INFO_OCSP_URL_LENGTH 256
#define MQ_AUTHENTICATOR_LENGTH 8
#define MQ_CANCEL_CODE_LENGTH 4
#define MQ_DISTINGUISHED_NAME_LENGTH 1024
#define MQ_EXIT_INFO_NAME_LENGTH 48
#define MQ_EXIT_PD_AREA_LENGTH 48
#define MQ_EXIT_USER_AREA_LENGTH 16
#define MQ_FACILITY_LENGTH 8
#define MQ_FACILITY_LIKE_LENGTH 4
#define MQ_FUNCTION_LENGTH 4
#define MQ_LDAP_PASSWORD_LENGTH 32
#define MQ_LTERM_OVERRIDE_LENGTH 8
#define MQ_MFS_MAP_NAME_LENGTH 8
#define MQ_OBJECT_INSTANCE_ID_LENGTH 24
#define MQ_REMOTE_SYS_ID_LENGTH 4
#define MQ_SERVICE_NAME_LENGTH 32
#define MQ_SERVICE_STEP_LENGTH 8
#define MQ_START_CODE_LENGTH 4
#define MQ_TRAN_INSTANCE_ID_LENGTH 16
#define MQ_TRANSACTION_ID_LENGTH 4

/* ---- Completion codes, common handles ------------------------------------------------- */

#define MQCC_OK 0
#define MQCC_WARNING 1
#define MQCC_FAILED 2
#define MQCC_UNKNOWN (-1)

#define MQHC_DEF_HCONN 0
#define MQHC_UNUSABLE_HCONN (-1)
#define MQHC_UNASSOCIATED_HCONN (-3)
#define MQHO_NONE 0
#define MQHO_UNUSABLE_HOBJ (-1)
#define MQHM_NONE 0
#define MQHM_UNUSABLE_HMSG (-1)

/* ---- Reason codes (those FerryMQ reports) ---------------------------------------------- */

#define MQRC_NONE 0
#define MQRC_BACKED_OUT 2003
#define MQRC_BUFFER_ERROR 2004
#define MQRC_BUFFER_LENGTH_ERROR 2005
#define MQRC_CHAR_ATTR_LENGTH_ERROR 2006
#define MQRC_CHAR_ATTRS_ERROR 2007
#define MQRC_CHAR_ATTRS_TOO_SHORT 2008
#define MQRC_CONNECTION_BROKEN 2009
#define MQRC_DATA_LENGTH_ERROR 2010
#define MQRC_DYNAMIC_Q_NAME_ERROR 2011
#define MQRC_EXPIRY_ERROR 2013
#define MQRC_FEEDBACK_ERROR 2014
#define MQRC_GET_INHIBITED 2016
#define MQRC_HANDLE_NOT_AVAILABLE 2017
#define MQRC_HCONN_ERROR 2018
#define MQRC_HOBJ_ERROR 2019
#define MQRC_INHIBIT_VALUE_ERROR 2020
#define MQRC_INT_ATTR_COUNT_ERROR 2021
#define MQRC_INT_ATTR_COUNT_TOO_SMALL 2022
#define MQRC_INT_ATTRS_ARRAY_ERROR 2023
#define MQRC_SYNCPOINT_LIMIT_REACHED 2024
#define MQRC_MAX_CONNS_LIMIT_REACHED 2025
#define MQRC_MD_ERROR 2026
#define MQRC_MISSING_REPLY_TO_Q 2027
#define MQRC_MSG_TYPE_ERROR 2029
#define MQRC_MSG_TOO_BIG_FOR_Q 2030
#define MQRC_MSG_TOO_BIG_FOR_Q_MGR 2031
#define MQRC_NO_MSG_AVAILABLE 2033
/* Asynchronous consumption (MQCB, MQCTL). */
#define MQRC_CBD_ERROR 2444
#define MQRC_CTLO_ERROR 2445
#define MQRC_NO_CALLBACKS_ACTIVE 2446
#define MQRC_CALLBACK_NOT_REGISTERED 2448
#define MQRC_CALLBACK_TYPE_ERROR 2483
#define MQRC_CALLBACK_LINK_ERROR 2487
#define MQRC_OPERATION_ERROR 2488
#define MQRC_HCONN_ASYNC_ACTIVE 2500
#define MQRC_NO_MSG_UNDER_CURSOR 2034
#define MQRC_NOT_AUTHORIZED 2035
#define MQRC_NOT_OPEN_FOR_BROWSE 2036
#define MQRC_NOT_OPEN_FOR_INPUT 2037
#define MQRC_NOT_OPEN_FOR_INQUIRE 2038
#define MQRC_NOT_OPEN_FOR_OUTPUT 2039
#define MQRC_NOT_OPEN_FOR_SET 2040
#define MQRC_OBJECT_CHANGED 2041
#define MQRC_OBJECT_IN_USE 2042
#define MQRC_OBJECT_TYPE_ERROR 2043
#define MQRC_OD_ERROR 2044
#define MQRC_OPTION_NOT_VALID_FOR_TYPE 2045
#define MQRC_OPTIONS_ERROR 2046
#define MQRC_PERSISTENCE_ERROR 2047
#define MQRC_PERSISTENT_NOT_ALLOWED 2048
#define MQRC_PRIORITY_EXCEEDS_MAXIMUM 2049
#define MQRC_PRIORITY_ERROR 2050
#define MQRC_PUT_INHIBITED 2051
#define MQRC_Q_DELETED 2052
#define MQRC_Q_FULL 2053
#define MQRC_Q_NOT_EMPTY 2055
#define MQRC_Q_TYPE_ERROR 2057
#define MQRC_Q_MGR_NAME_ERROR 2058
#define MQRC_Q_MGR_NOT_AVAILABLE 2059
#define MQRC_REPORT_OPTIONS_ERROR 2061
#define MQRC_SELECTOR_COUNT_ERROR 2065
#define MQRC_SELECTOR_LIMIT_EXCEEDED 2066
#define MQRC_SELECTOR_ERROR 2067
#define MQRC_SELECTOR_NOT_FOR_TYPE 2068
#define MQRC_STORAGE_NOT_AVAILABLE 2071
#define MQRC_TRUNCATED_MSG_ACCEPTED 2079
#define MQRC_TRUNCATED_MSG_FAILED 2080
#define MQRC_UNKNOWN_ALIAS_BASE_Q 2082
#define MQRC_UNKNOWN_OBJECT_NAME 2085
#define MQRC_UNKNOWN_OBJECT_Q_MGR 2086
#define MQRC_UNKNOWN_REMOTE_Q_MGR 2087
#define MQRC_WAIT_INTERVAL_ERROR 2090
#define MQRC_XMIT_Q_TYPE_ERROR 2091
#define MQRC_XMIT_Q_USAGE_ERROR 2092
#define MQRC_NOT_OPEN_FOR_PASS_ALL 2093
#define MQRC_NOT_OPEN_FOR_PASS_IDENT 2094
#define MQRC_NOT_OPEN_FOR_SET_ALL 2095
#define MQRC_NOT_OPEN_FOR_SET_IDENT 2096
#define MQRC_CONTEXT_HANDLE_ERROR 2097
#define MQRC_CONTEXT_NOT_AVAILABLE 2098
#define MQRC_OBJECT_ALREADY_EXISTS 2100
#define MQRC_RESOURCE_PROBLEM 2102
#define MQRC_UNKNOWN_REPORT_OPTION 2104
#define MQRC_OBJECT_NAME_ERROR 2152
#define MQRC_Q_MGR_QUIESCING 2161
#define MQRC_Q_MGR_STOPPING 2162
#define MQRC_NAME_NOT_VALID_FOR_TYPE 2194
#define MQRC_UNEXPECTED_ERROR 2195
#define MQRC_MSG_ID_ERROR 2206
#define MQRC_Q_DEPTH_HIGH 2224
#define MQRC_Q_DEPTH_LOW 2225
#define MQRC_Q_SERVICE_INTERVAL_HIGH 2226
#define MQRC_Q_SERVICE_INTERVAL_OK 2227
#define MQRC_CORREL_ID_ERROR 2207
#define MQRC_CALL_IN_PROGRESS 2219
#define MQRC_GROUP_ID_ERROR 2258
#define MQRC_CLIENT_CHANNEL_CONFIG_ERROR 2278
#define MQRC_FUNCTION_NOT_SUPPORTED 2298
/* Reasons of the data-bag calls (cmqbc.h) */
#define MQRC_SYSTEM_ITEM_NOT_ALTERABLE 2302
#define MQRC_SELECTOR_OUT_OF_RANGE 2304
#define MQRC_SELECTOR_NOT_UNIQUE 2305
#define MQRC_INDEX_NOT_PRESENT 2306
#define MQRC_STRING_ERROR 2307
#define MQRC_SELECTOR_NOT_PRESENT 2309
#define MQRC_OUT_SELECTOR_ERROR 2310
#define MQRC_STRING_TRUNCATED 2311
#define MQRC_SELECTOR_WRONG_TYPE 2312
#define MQRC_INCONSISTENT_ITEM_TYPE 2313
#define MQRC_INDEX_ERROR 2314
#define MQRC_SYSTEM_BAG_NOT_ALTERABLE 2315
#define MQRC_ITEM_COUNT_ERROR 2316
#define MQRC_SELECTOR_NOT_SUPPORTED 2318
#define MQRC_ITEM_VALUE_ERROR 2319
#define MQRC_HBAG_ERROR 2320
#define MQRC_STRING_LENGTH_ERROR 2323
#define MQRC_NESTED_BAG_NOT_SUPPORTED 2325
#define MQRC_BAG_WRONG_TYPE 2326
#define MQRC_ITEM_TYPE_ERROR 2327
#define MQRC_SYSTEM_BAG_NOT_DELETABLE 2328
#define MQRC_SYSTEM_ITEM_NOT_DELETABLE 2329
#define MQRC_RFH_ERROR 2334
#define MQRC_BACKOUT_THRESHOLD_REACHED 2362
#define MQRC_COMMAND_MQSC 2412
#define MQRC_COMMAND_PCF 2413
#define MQRC_FILTER_OPERATOR_ERROR 2418
#define MQRC_SD_ERROR 2424
#define MQRC_TOPIC_STRING_ERROR 2425
#define MQRC_NO_SUBSCRIPTION 2428
#define MQRC_SUBSCRIPTION_IN_USE 2429
#define MQRC_SUB_ALREADY_EXISTS 2432
#define MQRC_IDENTITY_MISMATCH 2434
#define MQRC_DURABILITY_NOT_ALLOWED 2436
#define MQRC_NO_RETAINED_MSG 2437
#define MQRC_SRO_ERROR 2438
#define MQRC_SUB_NAME_ERROR 2440
#define MQRC_OBJECT_STRING_ERROR 2441
#define MQRC_PROPERTY_NAME_ERROR 2442
#define MQRC_PROPERTY_NOT_AVAILABLE 2471
#define MQRC_SELECTOR_SYNTAX_ERROR 2459
#define MQRC_SUB_INHIBITED 2503
#define MQRC_SELECTOR_INVALID_FOR_TYPE 2516
#define MQRC_SELECTION_STRING_ERROR 2519
#define MQRC_DURABILITY_NOT_ALTERABLE 2509
#define MQRC_TOPIC_NOT_ALTERABLE 2510
#define MQRC_INVALID_DESTINATION 2522
#define MQRC_BMHO_ERROR 2489
#define MQRC_MHBO_ERROR 2501
#define MQRC_SUBLEVEL_NOT_ALTERABLE 2512
#define MQRC_SELECTOR_NOT_ALTERABLE 2524
#define MQRC_CHANNEL_NOT_AVAILABLE 2537
#define MQRC_HOST_NOT_AVAILABLE 2538
#define MQRC_RECONNECT_FAILED 2548
#define MQRC_CALL_INTERRUPTED 2549

/* ---- MQCHARV: variable-length string -------------------------------------------------- */

typedef struct tagMQCHARV {
    MQPTR VSPtr;      /* Address of the string */
    MQLONG VSOffset;  /* Offset of the string from the start of the structure holding it */
    MQLONG VSBufSize; /* Size of the buffer (for output) */
    MQLONG VSLength;  /* Length of the string */
    MQLONG VSCCSID;   /* Character set of the string */
} MQCHARV;
typedef MQCHARV *PMQCHARV;

#define MQVS_NULL_TERMINATED (-1)
#define MQCCSI_APPL (-3)
#define MQCHARV_DEFAULT NULL, 0, 0, 0, MQCCSI_APPL

/* ---- MQMD: message descriptor ---------------------------------------------------------- */

#define MQMD_STRUC_ID "MD  "
#define MQMD_STRUC_ID_ARRAY 'M', 'D', ' ', ' '
#define MQMD_VERSION_1 1
#define MQMD_VERSION_2 2
#define MQMD_CURRENT_VERSION 2
#define MQMD_LENGTH_1 324
#define MQMD_LENGTH_2 364
#define MQMD_CURRENT_LENGTH 364

typedef struct tagMQMD {
    MQCHAR4 StrucId;           /* "MD  " */
    MQLONG Version;            /* MQMD_VERSION_1 or _2 */
    MQLONG Report;             /* Report options (MQRO_*) */
    MQLONG MsgType;            /* MQMT_* */
    MQLONG Expiry;             /* Lifetime, tenths of a second; MQEI_UNLIMITED */
    MQLONG Feedback;           /* MQFB_* or a reason code */
    MQLONG Encoding;           /* Numeric encoding of the data */
    MQLONG CodedCharSetId;     /* Character set of the data */
    MQCHAR8 Format;            /* MQFMT_* */
    MQLONG Priority;           /* 0-9, or MQPRI_PRIORITY_AS_Q_DEF */
    MQLONG Persistence;        /* MQPER_* */
    MQBYTE24 MsgId;            /* Message identifier */
    MQBYTE24 CorrelId;         /* Correlation identifier */
    MQLONG BackoutCount;       /* Times got and backed out */
    MQCHAR48 ReplyToQ;         /* Reply-to queue */
    MQCHAR48 ReplyToQMgr;      /* Reply-to queue manager */
    MQCHAR12 UserIdentifier;   /* Identity context */
    MQBYTE32 AccountingToken;  /* Identity context */
    MQCHAR32 ApplIdentityData; /* Identity context */
    MQLONG PutApplType;        /* Origin context: MQAT_* */
    MQCHAR28 PutApplName;      /* Origin context */
    MQCHAR8 PutDate;           /* Origin context: YYYYMMDD (UTC) */
    MQCHAR8 PutTime;           /* Origin context: HHMMSSTH (UTC) */
    MQCHAR4 ApplOriginData;    /* Origin context */
    /* Version 2 */
    MQBYTE24 GroupId;       /* Group identifier */
    MQLONG MsgSeqNumber;    /* Sequence number within the group */
    MQLONG Offset;          /* Offset of a segment */
    MQLONG MsgFlags;        /* MQMF_* */
    MQLONG OriginalLength;  /* Length of the original message */
} MQMD;
typedef MQMD *PMQMD;

/* Report options (MQMD Report) */
#define MQRO_EXCEPTION 0x01000000
#define MQRO_EXCEPTION_WITH_DATA 0x03000000
#define MQRO_EXCEPTION_WITH_FULL_DATA 0x07000000
#define MQRO_EXPIRATION 0x00200000
#define MQRO_EXPIRATION_WITH_DATA 0x00600000
#define MQRO_EXPIRATION_WITH_FULL_DATA 0x00E00000
#define MQRO_COA 0x00000100
#define MQRO_COA_WITH_DATA 0x00000300
#define MQRO_COA_WITH_FULL_DATA 0x00000700
#define MQRO_COD 0x00000800
#define MQRO_COD_WITH_DATA 0x00001800
#define MQRO_COD_WITH_FULL_DATA 0x00003800
#define MQRO_PAN 0x00000001
#define MQRO_NAN 0x00000002
#define MQRO_ACTIVITY 0x00000004
#define MQRO_NEW_MSG_ID 0x00000000
#define MQRO_PASS_MSG_ID 0x00000080
#define MQRO_COPY_MSG_ID_TO_CORREL_ID 0x00000000
#define MQRO_PASS_CORREL_ID 0x00000040
#define MQRO_DEAD_LETTER_Q 0x00000000
#define MQRO_DISCARD_MSG 0x08000000
#define MQRO_PASS_DISCARD_AND_EXPIRY 0x00004000
#define MQRO_NONE 0x00000000
#define MQRO_REJECT_UNSUP_MASK 0x101C0000
#define MQRO_ACCEPT_UNSUP_MASK ((MQLONG)0xEFE000FF)
#define MQRO_ACCEPT_UNSUP_IF_XMIT_MASK 0x0003FF00
#define MQMT_REQUEST 1
#define MQMT_REPLY 2
#define MQMT_REPORT 4
#define MQMT_DATAGRAM 8
#define MQEI_UNLIMITED (-1)
/* Feedback codes (MQMD Feedback) */
#define MQFB_NONE 0
#define MQFB_SYSTEM_FIRST 1
#define MQFB_QUIT 256
#define MQFB_EXPIRATION 258
#define MQFB_COA 259
#define MQFB_COD 260
#define MQFB_CHANNEL_COMPLETED 262
#define MQFB_CHANNEL_FAIL_RETRY 263
#define MQFB_CHANNEL_FAIL 264
#define MQFB_APPL_CANNOT_BE_STARTED 265
#define MQFB_TM_ERROR 266
#define MQFB_APPL_TYPE_ERROR 267
#define MQFB_STOPPED_BY_MSG_EXIT 268
#define MQFB_ACTIVITY 269
#define MQFB_XMIT_Q_MSG_ERROR 271
#define MQFB_PAN 275
#define MQFB_NAN 276
#define MQFB_STOPPED_BY_CHAD_EXIT 277
#define MQFB_STOPPED_BY_PUBSUB_EXIT 279
#define MQFB_SYSTEM_LAST 65535
#define MQFB_APPL_FIRST 65536
#define MQFB_APPL_LAST 999999999
#define MQENC_NATIVE 0x00000222
#define MQCCSI_Q_MGR 0
#define MQCCSI_INHERIT (-2)
#define MQCCSI_EMBEDDED (-1)
#define MQCCSI_DEFAULT 0
#define MQPRI_PRIORITY_AS_Q_DEF (-1)
#define MQPRI_PRIORITY_AS_PARENT (-2)
#define MQPRI_PRIORITY_AS_PUBLISHED (-3)
#define MQCCSI_UNDEFINED 0
#define MQPER_NOT_PERSISTENT 0
#define MQPER_PERSISTENT 1
#define MQPER_PERSISTENCE_AS_Q_DEF 2
#define MQPER_PERSISTENCE_AS_PARENT (-1)
#define MQAT_NO_CONTEXT 0
#define MQAT_UNIX 6
#define MQAT_DEFAULT MQAT_UNIX
/* Other application types (MQMD PutApplType, MQTM ApplType, MQAXC ApplType) */
#define MQAT_UNKNOWN (-1)
#define MQAT_CICS 1
#define MQAT_MVS 2
#define MQAT_OS390 2
#define MQAT_ZOS 2
#define MQAT_IMS 3
#define MQAT_OS2 4
#define MQAT_DOS 5
#define MQAT_AIX 6
#define MQAT_QMGR 7
#define MQAT_OS400 8
#define MQAT_WINDOWS 9
#define MQAT_CICS_VSE 10
#define MQAT_WINDOWS_NT 11
#define MQAT_VMS 12
#define MQAT_GUARDIAN 13
#define MQAT_NSK 13
#define MQAT_VOS 14
#define MQAT_OPEN_TP1 15
#define MQAT_VM 18
#define MQAT_IMS_BRIDGE 19
#define MQAT_XCF 20
#define MQAT_CICS_BRIDGE 21
#define MQAT_NOTES_AGENT 22
#define MQAT_TPF 23
#define MQAT_USER 25
#define MQAT_BROKER 26
#define MQAT_QMGR_PUBLISH 26
#define MQAT_JAVA 28
#define MQAT_DQM 29
#define MQAT_CHANNEL_INITIATOR 30
#define MQAT_WLM 31
#define MQAT_BATCH 32
#define MQAT_RRS_BATCH 33
#define MQAT_SIB 34
#define MQAT_SYSTEM_EXTENSION 35
#define MQAT_MCAST_PUBLISH 36
#define MQAT_AMQP 37
#define MQAT_USER_FIRST 65536
#define MQAT_USER_LAST 999999999
#define MQMF_NONE 0x00000000
#define MQOL_UNDEFINED (-1)

#define MQFMT_NONE "        "
#define MQFMT_NONE_ARRAY ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '
#define MQFMT_STRING "MQSTR   "
#define MQFMT_STRING_ARRAY 'M', 'Q', 'S', 'T', 'R', ' ', ' ', ' '
#define MQFMT_DEAD_LETTER_HEADER "MQDEAD  "
#define MQFMT_XMIT_Q_HEADER "MQXMIT  "
#define MQFMT_DEAD_LETTER_HEADER_ARRAY 'M', 'Q', 'D', 'E', 'A', 'D', ' ', ' '
#define MQFMT_XMIT_Q_HEADER_ARRAY 'M', 'Q', 'X', 'M', 'I', 'T', ' ', ' '
#define MQFMT_ADMIN "MQADMIN "
#define MQFMT_ADMIN_ARRAY 'M', 'Q', 'A', 'D', 'M', 'I', 'N', ' '
#define MQFMT_CHANNEL_COMPLETED "MQCHCOM "
#define MQFMT_CHANNEL_COMPLETED_ARRAY 'M', 'Q', 'C', 'H', 'C', 'O', 'M', ' '
#define MQFMT_CICS "MQCICS  "
#define MQFMT_CICS_ARRAY 'M', 'Q', 'C', 'I', 'C', 'S', ' ', ' '
#define MQFMT_COMMAND_1 "MQCMD1  "
#define MQFMT_COMMAND_1_ARRAY 'M', 'Q', 'C', 'M', 'D', '1', ' ', ' '
#define MQFMT_COMMAND_2 "MQCMD2  "
#define MQFMT_COMMAND_2_ARRAY 'M', 'Q', 'C', 'M', 'D', '2', ' ', ' '
#define MQFMT_DIST_HEADER "MQHDIST "
#define MQFMT_DIST_HEADER_ARRAY 'M', 'Q', 'H', 'D', 'I', 'S', 'T', ' '
#define MQFMT_EMBEDDED_PCF "MQHEPCF "
#define MQFMT_EMBEDDED_PCF_ARRAY 'M', 'Q', 'H', 'E', 'P', 'C', 'F', ' '
#define MQFMT_EVENT "MQEVENT "
#define MQFMT_EVENT_ARRAY 'M', 'Q', 'E', 'V', 'E', 'N', 'T', ' '
#define MQFMT_IMS "MQIMS   "
#define MQFMT_IMS_ARRAY 'M', 'Q', 'I', 'M', 'S', ' ', ' ', ' '
#define MQFMT_IMS_VAR_STRING "MQIMSVS "
#define MQFMT_IMS_VAR_STRING_ARRAY 'M', 'Q', 'I', 'M', 'S', 'V', 'S', ' '
#define MQFMT_MD_EXTENSION "MQHMDE  "
#define MQFMT_MD_EXTENSION_ARRAY 'M', 'Q', 'H', 'M', 'D', 'E', ' ', ' '
#define MQFMT_PCF "MQPCF   "
#define MQFMT_PCF_ARRAY 'M', 'Q', 'P', 'C', 'F', ' ', ' ', ' '
#define MQFMT_REF_MSG_HEADER "MQHREF  "
#define MQFMT_REF_MSG_HEADER_ARRAY 'M', 'Q', 'H', 'R', 'E', 'F', ' ', ' '
#define MQFMT_RF_HEADER "MQHRF   "
#define MQFMT_RF_HEADER_ARRAY 'M', 'Q', 'H', 'R', 'F', ' ', ' ', ' '
#define MQFMT_RF_HEADER_1 "MQHRF   "
#define MQFMT_RF_HEADER_1_ARRAY 'M', 'Q', 'H', 'R', 'F', ' ', ' ', ' '
#define MQFMT_TRIGGER "MQTRIG  "
#define MQFMT_TRIGGER_ARRAY 'M', 'Q', 'T', 'R', 'I', 'G', ' ', ' '
#define MQFMT_WORK_INFO_HEADER "MQHWIH  "
#define MQFMT_WORK_INFO_HEADER_ARRAY 'M', 'Q', 'H', 'W', 'I', 'H', ' ', ' '

#define MQMI_NONE_ARRAY 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define MQCI_NONE_ARRAY MQMI_NONE_ARRAY
#define MQGI_NONE_ARRAY MQMI_NONE_ARRAY
#define MQACT_NONE_ARRAY                                                                   \
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
        0, 0

#define MQMD_DEFAULT                                                                       \
    {MQMD_STRUC_ID_ARRAY}, MQMD_VERSION_1, MQRO_NONE, MQMT_DATAGRAM, MQEI_UNLIMITED,     \
     MQFB_NONE, MQENC_NATIVE, MQCCSI_Q_MGR, {MQFMT_NONE_ARRAY}, MQPRI_PRIORITY_AS_Q_DEF,  \
     MQPER_PERSISTENCE_AS_Q_DEF, {MQMI_NONE_ARRAY}, {MQCI_NONE_ARRAY}, 0, {""}, {""}, {""}, \
     {MQACT_NONE_ARRAY}, {""}, MQAT_NO_CONTEXT, {""}, {""}, {""}, {""}, {MQGI_NONE_ARRAY},   \
     1, 0, MQMF_NONE, MQOL_UNDEFINED

/* Helpers for blank-filled character fields in the initialisers below (character lists rather
 * than string literals, so the initialisers are valid C++ too). */
#define FERRY_BLANK4_ARRAY ' ', ' ', ' ', ' '
#define FERRY_BLANK8_ARRAY FERRY_BLANK4_ARRAY, FERRY_BLANK4_ARRAY
#define FERRY_BLANK32_ARRAY                                                                \
    FERRY_BLANK8_ARRAY, FERRY_BLANK8_ARRAY, FERRY_BLANK8_ARRAY, FERRY_BLANK8_ARRAY

/* ---- MQMD1 / MQMD2: the message descriptor fixed at version 1 or 2 ----------------------
 * Same fields as MQMD up to the version named; MQXQH carries an MQMD1. */

#define MQMD1_LENGTH_1 324
#define MQMD1_CURRENT_LENGTH 324

typedef struct tagMQMD1 {
    MQCHAR4 StrucId;           /* "MD  " */
    MQLONG Version;            /* MQMD_VERSION_1 */
    MQLONG Report;             /* Report options (MQRO_*) */
    MQLONG MsgType;            /* MQMT_* */
    MQLONG Expiry;             /* Lifetime, tenths of a second */
    MQLONG Feedback;           /* MQFB_* or a reason code */
    MQLONG Encoding;           /* Numeric encoding of the data */
    MQLONG CodedCharSetId;     /* Character set of the data */
    MQCHAR8 Format;            /* MQFMT_* */
    MQLONG Priority;           /* Priority */
    MQLONG Persistence;        /* MQPER_* */
    MQBYTE24 MsgId;            /* Message identifier */
    MQBYTE24 CorrelId;         /* Correlation identifier */
    MQLONG BackoutCount;       /* Times got and backed out */
    MQCHAR48 ReplyToQ;         /* Reply-to queue */
    MQCHAR48 ReplyToQMgr;      /* Reply-to queue manager */
    MQCHAR12 UserIdentifier;   /* Identity context */
    MQBYTE32 AccountingToken;  /* Identity context */
    MQCHAR32 ApplIdentityData; /* Identity context */
    MQLONG PutApplType;        /* Origin context: MQAT_* */
    MQCHAR28 PutApplName;      /* Origin context */
    MQCHAR8 PutDate;           /* Origin context */
    MQCHAR8 PutTime;           /* Origin context */
    MQCHAR4 ApplOriginData;    /* Origin context */
} MQMD1;
typedef MQMD1 *PMQMD1;

#define MQMD1_DEFAULT                                                                      \
    {MQMD_STRUC_ID_ARRAY}, MQMD_VERSION_1, MQRO_NONE, MQMT_DATAGRAM, MQEI_UNLIMITED,     \
     MQFB_NONE, MQENC_NATIVE, MQCCSI_Q_MGR, {MQFMT_NONE_ARRAY}, MQPRI_PRIORITY_AS_Q_DEF,  \
     MQPER_PERSISTENCE_AS_Q_DEF, {MQMI_NONE_ARRAY}, {MQCI_NONE_ARRAY}, 0, {""}, {""}, {""}, \
     {MQACT_NONE_ARRAY}, {""}, MQAT_NO_CONTEXT, {""}, {""}, {""}, {""}

#define MQMD2_LENGTH_1 324
#define MQMD2_LENGTH_2 364
#define MQMD2_CURRENT_LENGTH 364

typedef struct tagMQMD2 {
    MQCHAR4 StrucId;           /* "MD  " */
    MQLONG Version;            /* MQMD_VERSION_2 */
    MQLONG Report;             /* Report options (MQRO_*) */
    MQLONG MsgType;            /* MQMT_* */
    MQLONG Expiry;             /* Lifetime, tenths of a second */
    MQLONG Feedback;           /* MQFB_* or a reason code */
    MQLONG Encoding;           /* Numeric encoding of the data */
    MQLONG CodedCharSetId;     /* Character set of the data */
    MQCHAR8 Format;            /* MQFMT_* */
    MQLONG Priority;           /* Priority */
    MQLONG Persistence;        /* MQPER_* */
    MQBYTE24 MsgId;            /* Message identifier */
    MQBYTE24 CorrelId;         /* Correlation identifier */
    MQLONG BackoutCount;       /* Times got and backed out */
    MQCHAR48 ReplyToQ;         /* Reply-to queue */
    MQCHAR48 ReplyToQMgr;      /* Reply-to queue manager */
    MQCHAR12 UserIdentifier;   /* Identity context */
    MQBYTE32 AccountingToken;  /* Identity context */
    MQCHAR32 ApplIdentityData; /* Identity context */
    MQLONG PutApplType;        /* Origin context: MQAT_* */
    MQCHAR28 PutApplName;      /* Origin context */
    MQCHAR8 PutDate;           /* Origin context */
    MQCHAR8 PutTime;           /* Origin context */
    MQCHAR4 ApplOriginData;    /* Origin context */
    /* Version 2 */
    MQBYTE24 GroupId;      /* Group identifier */
    MQLONG MsgSeqNumber;   /* Sequence number within the group */
    MQLONG Offset;         /* Offset of a segment */
    MQLONG MsgFlags;       /* MQMF_* */
    MQLONG OriginalLength; /* Length of the original message */
} MQMD2;
typedef MQMD2 *PMQMD2;

#define MQMD2_DEFAULT                                                                      \
    {MQMD_STRUC_ID_ARRAY}, MQMD_VERSION_2, MQRO_NONE, MQMT_DATAGRAM, MQEI_UNLIMITED,     \
     MQFB_NONE, MQENC_NATIVE, MQCCSI_Q_MGR, {MQFMT_NONE_ARRAY}, MQPRI_PRIORITY_AS_Q_DEF,  \
     MQPER_PERSISTENCE_AS_Q_DEF, {MQMI_NONE_ARRAY}, {MQCI_NONE_ARRAY}, 0, {""}, {""}, {""}, \
     {MQACT_NONE_ARRAY}, {""}, MQAT_NO_CONTEXT, {""}, {""}, {""}, {""}, {MQGI_NONE_ARRAY},   \
     1, 0, MQMF_NONE, MQOL_UNDEFINED

/* ---- MQMDE: message descriptor extension (the version-2 MQMD fields as a header) -------- */

#define MQMDE_STRUC_ID "MDE "
#define MQMDE_STRUC_ID_ARRAY 'M', 'D', 'E', ' '
#define MQMDE_VERSION_2 2
#define MQMDE_CURRENT_VERSION 2
#define MQMDE_LENGTH_2 72
#define MQMDE_CURRENT_LENGTH 72
#define MQMDEF_NONE 0x00000000

typedef struct tagMQMDE {
    MQCHAR4 StrucId;       /* "MDE " */
    MQLONG Version;        /* MQMDE_VERSION_2 */
    MQLONG StrucLength;    /* MQMDE_LENGTH_2 */
    MQLONG Encoding;       /* Of the data that follows */
    MQLONG CodedCharSetId; /* Of the data that follows */
    MQCHAR8 Format;        /* Of the data that follows */
    MQLONG Flags;          /* MQMDEF_NONE */
    MQBYTE24 GroupId;      /* Group identifier */
    MQLONG MsgSeqNumber;   /* Sequence number within the group */
    MQLONG Offset;         /* Offset of a segment */
    MQLONG MsgFlags;       /* MQMF_* */
    MQLONG OriginalLength; /* Length of the original message */
} MQMDE;
typedef MQMDE *PMQMDE;

#define MQMDE_DEFAULT                                                                      \
    {MQMDE_STRUC_ID_ARRAY}, MQMDE_VERSION_2, MQMDE_LENGTH_2, MQENC_NATIVE, MQCCSI_UNDEFINED, \
     {MQFMT_NONE_ARRAY}, MQMDEF_NONE, {MQGI_NONE_ARRAY}, 1, 0, MQMF_NONE, MQOL_UNDEFINED

/* ---- MQXQH: transmission queue header ---------------------------------------------------- */

#define MQXQH_STRUC_ID "XQH "
#define MQXQH_STRUC_ID_ARRAY 'X', 'Q', 'H', ' '
#define MQXQH_VERSION_1 1
#define MQXQH_CURRENT_VERSION 1
#define MQXQH_LENGTH_1 428
#define MQXQH_CURRENT_LENGTH 428

typedef struct tagMQXQH {
    MQCHAR4 StrucId;         /* "XQH " */
    MQLONG Version;          /* MQXQH_VERSION_1 */
    MQCHAR48 RemoteQName;    /* Destination queue */
    MQCHAR48 RemoteQMgrName; /* Destination queue manager */
    MQMD1 MsgDesc;           /* Descriptor of the message carried */
} MQXQH;
typedef MQXQH *PMQXQH;

#define MQXQH_DEFAULT                                                                      \
    {MQXQH_STRUC_ID_ARRAY}, MQXQH_VERSION_1, {""}, {""}, {MQMD1_DEFAULT}

/* ---- MQOD: object descriptor ----------------------------------------------------------- */

#define MQOD_STRUC_ID "OD  "
#define MQOD_STRUC_ID_ARRAY 'O', 'D', ' ', ' '
#define MQOD_VERSION_1 1
#define MQOD_VERSION_2 2
#define MQOD_VERSION_3 3
#define MQOD_VERSION_4 4
#define MQOD_CURRENT_VERSION 4
#define MQOD_LENGTH_1 168
#define MQOD_LENGTH_2 208
#define MQOD_LENGTH_3 344
#define MQOD_LENGTH_4 424
#define MQOD_CURRENT_LENGTH 424

typedef struct tagMQOD {
    MQCHAR4 StrucId;          /* "OD  " */
    MQLONG Version;           /* MQOD_VERSION_* */
    MQLONG ObjectType;        /* MQOT_* */
    MQCHAR48 ObjectName;      /* Object name */
    MQCHAR48 ObjectQMgrName;  /* Queue manager the object is on (blank: this one) */
    MQCHAR48 DynamicQName;    /* Name pattern for a dynamic queue */
    MQCHAR12 AlternateUserId; /* Alternate user */
    /* Version 2 */
    MQLONG RecsPresent;       /* Object records present (distribution lists) */
    MQLONG KnownDestCount;    /* Local destinations opened */
    MQLONG UnknownDestCount;  /* Remote destinations opened */
    MQLONG InvalidDestCount;  /* Destinations that failed */
    MQLONG ObjectRecOffset;   /* Offset of the first object record */
    MQLONG ResponseRecOffset; /* Offset of the first response record */
    MQPTR ObjectRecPtr;       /* Address of the first object record */
    MQPTR ResponseRecPtr;     /* Address of the first response record */
    /* Version 3 */
    MQBYTE40 AlternateSecurityId; /* Alternate security identifier */
    MQCHAR48 ResolvedQName;       /* Resolved queue name (output) */
    MQCHAR48 ResolvedQMgrName;    /* Resolved queue manager name (output) */
    /* Version 4 */
    MQCHARV ObjectString;    /* Long object name */
    MQCHARV SelectionString; /* Selection string */
    MQCHARV ResObjectString; /* Resolved long object name (output) */
    MQLONG ResolvedType;     /* Type of the resolved object (output) */
} MQOD;
typedef MQOD *PMQOD;

#define MQOT_NONE 0
#define MQOT_Q 1
#define MQOT_NAMELIST 2
#define MQOT_PROCESS 3
#define MQOT_STORAGE_CLASS 4
#define MQOT_Q_MGR 5
#define MQOT_CHANNEL 6
#define MQOT_AUTH_INFO 7
#define MQOT_TOPIC 8

#define MQOD_DEFAULT                                                                       \
    {MQOD_STRUC_ID_ARRAY}, MQOD_VERSION_1, MQOT_Q, {""}, {""}, {"AMQ.*"}, {""}, 0, 0, 0, 0, \
     0, 0, NULL, NULL, {0}, {""}, {""}, {MQCHARV_DEFAULT}, {MQCHARV_DEFAULT},                  \
     {MQCHARV_DEFAULT}, MQOT_NONE

/* ---- MQOR / MQRR: object and response records (distribution lists) --------------------- */

typedef struct tagMQOR {
    MQCHAR48 ObjectName;     /* Object name */
    MQCHAR48 ObjectQMgrName; /* Queue manager the object is on */
} MQOR;
typedef MQOR *PMQOR;
#define MQOR_DEFAULT {""}, {""}

typedef struct tagMQRR {
    MQLONG CompCode; /* Completion code for the destination */
    MQLONG Reason;   /* Reason code for the destination */
} MQRR;
typedef MQRR *PMQRR;
#define MQRR_DEFAULT MQCC_OK, MQRC_NONE

/* Open options */
#define MQOO_BIND_AS_Q_DEF 0x00000000
#define MQOO_READ_AHEAD_AS_Q_DEF 0x00000000
#define MQOO_INPUT_AS_Q_DEF 0x00000001
#define MQOO_INPUT_SHARED 0x00000002
#define MQOO_INPUT_EXCLUSIVE 0x00000004
#define MQOO_BROWSE 0x00000008
#define MQOO_OUTPUT 0x00000010
#define MQOO_INQUIRE 0x00000020
#define MQOO_SET 0x00000040
#define MQOO_SAVE_ALL_CONTEXT 0x00000080
#define MQOO_PASS_IDENTITY_CONTEXT 0x00000100
#define MQOO_PASS_ALL_CONTEXT 0x00000200
#define MQOO_SET_IDENTITY_CONTEXT 0x00000400
#define MQOO_SET_ALL_CONTEXT 0x00000800
#define MQOO_ALTERNATE_USER_AUTHORITY 0x00001000
#define MQOO_FAIL_IF_QUIESCING 0x00002000
#define MQOO_BIND_ON_OPEN 0x00004000
#define MQOO_BIND_NOT_FIXED 0x00008000
#define MQOO_RESOLVE_NAMES 0x00010000
#define MQOO_CO_OP 0x00020000
#define MQOO_RESOLVE_LOCAL_Q 0x00040000
#define MQOO_RESOLVE_LOCAL_TOPIC 0x00040000
#define MQOO_NO_READ_AHEAD 0x00080000
#define MQOO_READ_AHEAD 0x00100000
#define MQOO_NO_MULTICAST 0x00200000
#define MQOO_BIND_ON_GROUP 0x00400000

/* Close options */
#define MQCO_NONE 0x00000000
#define MQCO_IMMEDIATE 0x00000000
#define MQCO_DELETE 0x00000001
#define MQCO_DELETE_PURGE 0x00000002
#define MQCO_KEEP_SUB 0x00000004
#define MQCO_REMOVE_SUB 0x00000008
#define MQCO_QUIESCE 0x00000020

/* ---- MQPMO: put-message options -------------------------------------------------------- */

#define MQPMO_STRUC_ID "PMO "
#define MQPMO_STRUC_ID_ARRAY 'P', 'M', 'O', ' '
#define MQPMO_VERSION_1 1
#define MQPMO_VERSION_2 2
#define MQPMO_VERSION_3 3
#define MQPMO_CURRENT_VERSION 3
#define MQPMO_LENGTH_1 128
#define MQPMO_LENGTH_2 160
#define MQPMO_LENGTH_3 184
#define MQPMO_CURRENT_LENGTH 184

typedef struct tagMQPMO {
    MQCHAR4 StrucId;           /* "PMO " */
    MQLONG Version;            /* MQPMO_VERSION_* */
    MQLONG Options;            /* MQPMO_* */
    MQLONG Timeout;            /* Reserved */
    MQHOBJ Context;            /* Handle whose context is passed */
    MQLONG KnownDestCount;     /* Output: messages put to local queues */
    MQLONG UnknownDestCount;   /* Output: messages put to remote queues */
    MQLONG InvalidDestCount;   /* Output: messages that could not be sent */
    MQCHAR48 ResolvedQName;    /* Output: resolved queue name */
    MQCHAR48 ResolvedQMgrName; /* Output: resolved queue manager name */
    /* Version 2 */
    MQLONG RecsPresent;       /* Put-message records present */
    MQLONG PutMsgRecFields;   /* Fields present in them */
    MQLONG PutMsgRecOffset;   /* Offset of the first put-message record */
    MQLONG ResponseRecOffset; /* Offset of the first response record */
    MQPTR PutMsgRecPtr;       /* Address of the first put-message record */
    MQPTR ResponseRecPtr;     /* Address of the first response record */
    /* Version 3 */
    MQHMSG OriginalMsgHandle; /* Original message handle */
    MQHMSG NewMsgHandle;      /* New message handle */
    MQLONG Action;            /* MQACTP_* */
    MQLONG PubLevel;          /* Subscription level */
} MQPMO;
typedef MQPMO *PMQPMO;

#define MQPMO_NONE 0x00000000
#define MQPMO_RESPONSE_AS_Q_DEF 0x00000000
#define MQPMO_RESPONSE_AS_TOPIC_DEF 0x00000000
#define MQPMO_SYNCPOINT 0x00000002
#define MQPMO_NO_SYNCPOINT 0x00000004
#define MQPMO_DEFAULT_CONTEXT 0x00000020
#define MQPMO_NEW_MSG_ID 0x00000040
#define MQPMO_NEW_CORREL_ID 0x00000080
#define MQPMO_PASS_IDENTITY_CONTEXT 0x00000100
#define MQPMO_PASS_ALL_CONTEXT 0x00000200
#define MQPMO_SET_IDENTITY_CONTEXT 0x00000400
#define MQPMO_SET_ALL_CONTEXT 0x00000800
#define MQPMO_ALTERNATE_USER_AUTHORITY 0x00001000
#define MQPMO_FAIL_IF_QUIESCING 0x00002000
#define MQPMO_NO_CONTEXT 0x00004000
#define MQPMO_LOGICAL_ORDER 0x00008000
#define MQPMO_ASYNC_RESPONSE 0x00010000
#define MQPMO_SYNC_RESPONSE 0x00020000
#define MQPMO_RESOLVE_LOCAL_Q 0x00040000
#define MQPMO_WARN_IF_NO_SUBS_MATCHED 0x00080000
#define MQPMO_RETAIN 0x00200000
#define MQPMO_MD_FOR_OUTPUT_ONLY 0x00800000
#define MQPMO_SCOPE_QMGR 0x04000000
#define MQPMO_SUPPRESS_REPLYTO 0x08000000
#define MQPMO_NOT_OWN_SUBS 0x10000000
#define MQACTP_NEW 0

#define MQPMO_DEFAULT                                                                      \
    {MQPMO_STRUC_ID_ARRAY}, MQPMO_VERSION_1, MQPMO_NONE, (-1), 0, 0, 0, 0, {""}, {""}, 0, \
     0, 0, 0, NULL, NULL, MQHM_NONE, MQHM_NONE, MQACTP_NEW, 9

/* Fields present in put-message records (MQPMO PutMsgRecFields, MQDH PutMsgRecFields). The
 * records (MQPMR) have no fixed layout, so no structure is declared for them: a program
 * declares its own with the fields it uses, in the order MsgId, CorrelId, GroupId, Feedback,
 * AccountingToken. */
#define MQPMRF_NONE 0x00000000
#define MQPMRF_MSG_ID 0x00000001
#define MQPMRF_CORREL_ID 0x00000002
#define MQPMRF_GROUP_ID 0x00000004
#define MQPMRF_FEEDBACK 0x00000008
#define MQPMRF_ACCOUNTING_TOKEN 0x00000010

/* Put response types (queue and topic DefPutResponse, MQWQR DefPutResponse) */
#define MQPRT_RESPONSE_AS_PARENT 0
#define MQPRT_SYNC_RESPONSE 1
#define MQPRT_ASYNC_RESPONSE 2

/* Expiry caps (queue and topic CapExpiry, MQWQR CapExpiry) */
#define MQCEX_NOLIMIT (-1)
#define MQCEX_AS_PARENT (-2)

/* ---- MQGMO: get-message options -------------------------------------------------------- */

#define MQGMO_STRUC_ID "GMO "
#define MQGMO_STRUC_ID_ARRAY 'G', 'M', 'O', ' '
#define MQGMO_VERSION_1 1
#define MQGMO_VERSION_2 2
#define MQGMO_VERSION_3 3
#define MQGMO_VERSION_4 4
#define MQGMO_CURRENT_VERSION 4
#define MQGMO_LENGTH_1 72
#define MQGMO_LENGTH_2 80
#define MQGMO_LENGTH_3 100
#define MQGMO_LENGTH_4 112
#define MQGMO_CURRENT_LENGTH 112

typedef struct tagMQGMO {
    MQCHAR4 StrucId;        /* "GMO " */
    MQLONG Version;         /* MQGMO_VERSION_* */
    MQLONG Options;         /* MQGMO_* */
    MQLONG WaitInterval;    /* Milliseconds, or MQWI_UNLIMITED */
    MQLONG Signal1;         /* Reserved */
    MQLONG Signal2;         /* Reserved */
    MQCHAR48 ResolvedQName; /* Output: resolved queue name */
    /* Version 2 */
    MQLONG MatchOptions;  /* MQMO_* */
    MQCHAR GroupStatus;   /* Output: MQGS_* */
    MQCHAR SegmentStatus; /* Output: MQSS_* */
    MQCHAR Segmentation;  /* Output: MQSEG_* */
    MQCHAR Reserved1;     /* Reserved */
    /* Version 3 */
    MQBYTE16 MsgToken;    /* Message token */
    MQLONG ReturnedLength; /* Output: length of the message data returned */
    /* Version 4 */
    MQLONG Reserved2;  /* Reserved */
    MQHMSG MsgHandle;  /* Message handle for properties */
} MQGMO;
typedef MQGMO *PMQGMO;

#define MQGMO_NO_WAIT 0x00000000
#define MQGMO_NONE 0x00000000
#define MQGMO_PROPERTIES_AS_Q_DEF 0x00000000
#define MQGMO_WAIT 0x00000001
#define MQGMO_SYNCPOINT 0x00000002
#define MQGMO_NO_SYNCPOINT 0x00000004
#define MQGMO_SET_SIGNAL 0x00000008
#define MQGMO_BROWSE_FIRST 0x00000010
#define MQGMO_BROWSE_NEXT 0x00000020
#define MQGMO_ACCEPT_TRUNCATED_MSG 0x00000040
#define MQGMO_MARK_SKIP_BACKOUT 0x00000080
#define MQGMO_MSG_UNDER_CURSOR 0x00000100
#define MQGMO_LOCK 0x00000200
#define MQGMO_UNLOCK 0x00000400
#define MQGMO_BROWSE_MSG_UNDER_CURSOR 0x00000800
#define MQGMO_SYNCPOINT_IF_PERSISTENT 0x00001000
#define MQGMO_FAIL_IF_QUIESCING 0x00002000
#define MQGMO_CONVERT 0x00004000
#define MQGMO_LOGICAL_ORDER 0x00008000
#define MQGMO_COMPLETE_MSG 0x00010000
#define MQGMO_ALL_MSGS_AVAILABLE 0x00020000
#define MQGMO_ALL_SEGMENTS_AVAILABLE 0x00040000
#define MQGMO_MARK_BROWSE_HANDLE 0x00100000
#define MQGMO_MARK_BROWSE_CO_OP 0x00200000
#define MQGMO_UNMARK_BROWSE_CO_OP 0x00400000
#define MQGMO_UNMARK_BROWSE_HANDLE 0x00800000
#define MQGMO_UNMARKED_BROWSE_MSG 0x01000000
#define MQGMO_PROPERTIES_FORCE_MQRFH2 0x02000000
#define MQGMO_NO_PROPERTIES 0x04000000
#define MQGMO_PROPERTIES_IN_HANDLE 0x08000000
#define MQGMO_PROPERTIES_COMPATIBILITY 0x10000000

#define MQWI_UNLIMITED (-1)

#define MQMO_NONE 0x00000000
#define MQMO_MATCH_MSG_ID 0x00000001
#define MQMO_MATCH_CORREL_ID 0x00000002
#define MQMO_MATCH_GROUP_ID 0x00000004
#define MQMO_MATCH_MSG_SEQ_NUMBER 0x00000008
#define MQMO_MATCH_OFFSET 0x00000010
#define MQMO_MATCH_MSG_TOKEN 0x00000020

#define MQGS_NOT_IN_GROUP ' '
#define MQSS_NOT_A_SEGMENT ' '
#define MQSEG_INHIBITED ' '
#define MQMTOK_NONE_ARRAY 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define MQRL_UNDEFINED (-1)

#define MQGMO_DEFAULT                                                                      \
    {MQGMO_STRUC_ID_ARRAY}, MQGMO_VERSION_1, (MQGMO_NO_WAIT | MQGMO_PROPERTIES_AS_Q_DEF), \
     0, 0, 0, {""}, (MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID), MQGS_NOT_IN_GROUP,         \
     MQSS_NOT_A_SEGMENT, MQSEG_INHIBITED, ' ', {MQMTOK_NONE_ARRAY}, MQRL_UNDEFINED, 0,     \
     MQHM_NONE

/* ---- MQCSP: security parameters (user and password) ------------------------------------ */

#define MQCSP_STRUC_ID "CSP "
#define MQCSP_STRUC_ID_ARRAY 'C', 'S', 'P', ' '
#define MQCSP_VERSION_1 1
#define MQCSP_VERSION_2 2
#define MQCSP_VERSION_3 3
#define MQCSP_CURRENT_VERSION 3
#define MQCSP_LENGTH_1 56
#define MQCSP_LENGTH_2 80
#define MQCSP_LENGTH_3 104
#define MQCSP_CURRENT_LENGTH 104

typedef struct tagMQCSP {
    MQCHAR4 StrucId;           /* "CSP " */
    MQLONG Version;            /* MQCSP_VERSION_1 */
    MQLONG AuthenticationType; /* MQCSP_AUTH_* */
    MQBYTE4 Reserved1;         /* Reserved */
    MQPTR CSPUserIdPtr;        /* Address of the user id */
    MQLONG CSPUserIdOffset;    /* Offset of the user id */
    MQLONG CSPUserIdLength;    /* Length of the user id */
    MQBYTE8 Reserved2;         /* Reserved */
    MQPTR CSPPasswordPtr;      /* Address of the password */
    MQLONG CSPPasswordOffset;  /* Offset of the password */
    MQLONG CSPPasswordLength;  /* Length of the password */
    /* Version 2: the initial key of MQ's password protection (accepted, not used) */
    MQBYTE8 Reserved3;         /* Reserved */
    MQPTR InitialKeyPtr;       /* Address of the initial key */
    MQLONG InitialKeyOffset;   /* Offset of the initial key */
    MQLONG InitialKeyLength;   /* Length of the initial key */
    /* Version 3: an authentication token (MQCSP_AUTH_ID_TOKEN; FerryMQ does not read tokens) */
    MQBYTE8 Reserved4;         /* Reserved */
    MQPTR TokenPtr;            /* Address of the token */
    MQLONG TokenOffset;        /* Offset of the token */
    MQLONG TokenLength;        /* Length of the token */
} MQCSP;
typedef MQCSP *PMQCSP;

#define MQCSP_AUTH_NONE 0
#define MQCSP_AUTH_USER_ID_AND_PWD 1

#define MQCSP_DEFAULT                                                                      \
    {MQCSP_STRUC_ID_ARRAY}, MQCSP_VERSION_1, MQCSP_AUTH_NONE, {0}, NULL, 0, 0, {0}, NULL,  \
     0, 0, {0}, NULL, 0, 0, {0}, NULL, 0, 0

/* ---- MQBNO: balancing options (MQCNO version 8) ---------------------------------------- */

#define MQBNO_STRUC_ID "BNO "
#define MQBNO_STRUC_ID_ARRAY 'B', 'N', 'O', ' '
#define MQBNO_VERSION_1 1
#define MQBNO_CURRENT_VERSION 1
#define MQBNO_LENGTH_1 20
#define MQBNO_CURRENT_LENGTH 20

typedef struct tagMQBNO {
    MQCHAR4 StrucId; /* "BNO " */
    MQLONG Version;  /* MQBNO_VERSION_1 */
    MQLONG ApplType; /* MQBNO_BALTYPE_* */
    MQLONG Timeout;  /* MQBNO_TIMEOUT_* or seconds */
    MQLONG Options;  /* MQBNO_OPTIONS_* */
} MQBNO;
typedef MQBNO *PMQBNO;

#define MQBNO_BALTYPE_SIMPLE 0x00000000
#define MQBNO_BALTYPE_REQREP 0x00000001
#define MQBNO_BALTYPE_RA_MANAGED 0x00010000
#define MQBNO_TIMEOUT_AS_DEFAULT (-1)
#define MQBNO_TIMEOUT_IMMEDIATE 0
#define MQBNO_TIMEOUT_NEVER (-2)
#define MQBNO_OPTIONS_NONE 0x00000000
#define MQBNO_OPTIONS_IGNORE_TRANS 0x00000001
#define MQBNO_DEFAULT                                                                      \
    {MQBNO_STRUC_ID_ARRAY}, MQBNO_VERSION_1, MQBNO_BALTYPE_SIMPLE, MQBNO_TIMEOUT_AS_DEFAULT,  \
     MQBNO_OPTIONS_NONE

/* ---- MQAIR: authentication information record (MQSCO AuthInfoRecPtr) -------------------- */

#define MQAIR_STRUC_ID "AIR "
#define MQAIR_STRUC_ID_ARRAY 'A', 'I', 'R', ' '
#define MQAIR_VERSION_1 1
#define MQAIR_VERSION_2 2
#define MQAIR_CURRENT_VERSION 2
#define MQAIR_LENGTH_1 328
#define MQAIR_LENGTH_2 584
#define MQAIR_CURRENT_LENGTH 584

/* Authentication information types (AuthInfoType) */
#define MQAIT_ALL 0
#define MQAIT_CRL_LDAP 1
#define MQAIT_OCSP 2
#define MQAIT_IDPW_OS 3
#define MQAIT_IDPW_LDAP 4

typedef struct tagMQAIR {
    MQCHAR4 StrucId;                                       /* "AIR " */
    MQLONG Version;                                        /* MQAIR_VERSION_* */
    MQLONG AuthInfoType;                                   /* MQAIT_* */
    MQCHAR AuthInfoConnName[MQ_AUTH_INFO_CONN_NAME_LENGTH]; /* LDAP server: host(port) */
    PMQCHAR LDAPUserNamePtr;                               /* Address of the LDAP user name */
    MQLONG LDAPUserNameOffset;                             /* Offset of the LDAP user name */
    MQLONG LDAPUserNameLength;                             /* Length of the LDAP user name */
    MQCHAR32 LDAPPassword;                                 /* LDAP password */
    /* Version 2 */
    MQCHAR256 OCSPResponderURL; /* URL of the OCSP responder */
} MQAIR;
typedef MQAIR *PMQAIR;
#define MQAIR_DEFAULT                                                                      \
    {MQAIR_STRUC_ID_ARRAY}, MQAIR_VERSION_1, MQAIT_CRL_LDAP, {""}, NULL, 0, 0, {""}, {""}

/* The TLS configuration (MQSCO) is declared in cmqxc.h. */
struct tagMQSCO;

/* ---- MQCNO: connect options ------------------------------------------------------------ */

#define MQCNO_STRUC_ID "CNO "
#define MQCNO_STRUC_ID_ARRAY 'C', 'N', 'O', ' '
#define MQCNO_VERSION_1 1
#define MQCNO_VERSION_2 2
#define MQCNO_VERSION_3 3
#define MQCNO_VERSION_4 4
#define MQCNO_VERSION_5 5
#define MQCNO_VERSION_6 6
#define MQCNO_VERSION_7 7
#define MQCNO_VERSION_8 8
#define MQCNO_CURRENT_VERSION 8
#define MQCNO_LENGTH_1 12
#define MQCNO_LENGTH_2 24
#define MQCNO_LENGTH_3 152
#define MQCNO_LENGTH_4 168
#define MQCNO_LENGTH_5 200
#define MQCNO_LENGTH_6 224
#define MQCNO_LENGTH_7 256
#define MQCNO_LENGTH_8 272
#define MQCNO_CURRENT_LENGTH 272

typedef struct tagMQCNO {
    MQCHAR4 StrucId; /* "CNO " */
    MQLONG Version;  /* MQCNO_VERSION_* */
    MQLONG Options;  /* MQCNO_* */
    /* Version 2 */
    MQLONG ClientConnOffset; /* Offset of the client channel definition (MQCD) */
    MQPTR ClientConnPtr;     /* Address of the client channel definition (MQCD) */
    /* Version 3 */
    MQBYTE128 ConnTag; /* Connection tag */
    /* Version 4 */
    struct tagMQSCO *SSLConfigPtr; /* Address of the TLS configuration (MQSCO) */
    MQLONG SSLConfigOffset; /* Offset of the TLS configuration */
    /* Version 5 */
    MQBYTE24 ConnectionId;      /* Output: unique connection identifier */
    MQLONG SecurityParmsOffset; /* Offset of the security parameters (MQCSP) */
    PMQCSP SecurityParmsPtr;    /* Address of the security parameters */
    /* Version 6 */
    PMQCHAR CCDTUrlPtr;   /* Address of a CCDT URL */
    MQLONG CCDTUrlOffset; /* Offset of the CCDT URL */
    MQLONG CCDTUrlLength; /* Length of the CCDT URL */
    MQBYTE8 Reserved;     /* Reserved */
    /* Version 7 */
    MQCHAR28 ApplName; /* Application name */
    MQBYTE4 Reserved2; /* Reserved */
    /* Version 8 */
    PMQBNO BalanceParmsPtr;    /* Address of balancing parameters (MQBNO) */
    MQLONG BalanceParmsOffset; /* Offset of balancing parameters */
    MQBYTE4 Reserved3;         /* Reserved */
} MQCNO;
typedef MQCNO *PMQCNO;

#define MQCNO_NONE 0x00000000
#define MQCNO_STANDARD_BINDING 0x00000000
#define MQCNO_FASTPATH_BINDING 0x00000001
#define MQCNO_SERIALIZE_CONN_TAG_Q_MGR 0x00000002
#define MQCNO_SERIALIZE_CONN_TAG_QSG 0x00000004
#define MQCNO_RESTRICT_CONN_TAG_Q_MGR 0x00000008
#define MQCNO_RESTRICT_CONN_TAG_QSG 0x00000010
#define MQCNO_HANDLE_SHARE_NONE 0x00000020
#define MQCNO_HANDLE_SHARE_BLOCK 0x00000040
#define MQCNO_HANDLE_SHARE_NO_BLOCK 0x00000080
#define MQCNO_SHARED_BINDING 0x00000100
#define MQCNO_ISOLATED_BINDING 0x00000200
#define MQCNO_LOCAL_BINDING 0x00000400
#define MQCNO_CLIENT_BINDING 0x00000800
#define MQCNO_ACCOUNTING_MQI_ENABLED 0x00001000
#define MQCNO_ACCOUNTING_MQI_DISABLED 0x00002000
#define MQCNO_ACCOUNTING_Q_ENABLED 0x00004000
#define MQCNO_ACCOUNTING_Q_DISABLED 0x00008000
#define MQCNO_NO_CONV_SHARING 0x00010000
#define MQCNO_ALL_CONVS_SHARE 0x00040000
#define MQCNO_CD_FOR_OUTPUT_ONLY 0x00080000
#define MQCNO_USE_CD_SELECTION 0x00100000
#define MQCNO_GENERATE_CONN_TAG 0x00200000
#define MQCNO_RECONNECT_AS_DEF 0x00000000
#define MQCNO_RECONNECT 0x01000000
#define MQCNO_RECONNECT_DISABLED 0x02000000
#define MQCNO_RECONNECT_Q_MGR 0x04000000

#define MQCNO_DEFAULT                                                                      \
    {MQCNO_STRUC_ID_ARRAY}, MQCNO_VERSION_1, MQCNO_NONE, 0, NULL, {0}, NULL,               \
     0, {MQMI_NONE_ARRAY}, 0, NULL, NULL, 0, 0, {0}, {""}, {0}, NULL, 0, {0}

/* ---- MQSTS: status of asynchronous puts (MQSTAT) -------------------------------------- */

#define MQSTS_STRUC_ID "STAT"
#define MQSTS_STRUC_ID_ARRAY 'S', 'T', 'A', 'T'
#define MQSTS_VERSION_1 1
#define MQSTS_VERSION_2 2
#define MQSTS_CURRENT_VERSION 2
#define MQSTS_LENGTH_1 224
#define MQSTS_LENGTH_2 280
#define MQSTS_CURRENT_LENGTH 280

typedef struct tagMQSTS {
    MQCHAR4 StrucId;            /* "STAT" */
    MQLONG Version;             /* MQSTS_VERSION_* */
    MQLONG CompCode;            /* Completion code of the first failure */
    MQLONG Reason;              /* Reason code of the first failure */
    MQLONG PutSuccessCount;     /* Async puts that succeeded */
    MQLONG PutWarningCount;     /* Async puts that warned */
    MQLONG PutFailureCount;     /* Async puts that failed */
    MQLONG ObjectType;          /* Type of the object of the first failure */
    MQCHAR48 ObjectName;        /* Its name */
    MQCHAR48 ObjectQMgrName;    /* Its queue manager */
    MQCHAR48 ResolvedObjectName;    /* Its resolved name */
    MQCHAR48 ResolvedQMgrName;      /* Its resolved queue manager */
    /* Version 2 */
    MQCHARV ObjectString;         /* Long object name */
    MQCHARV SubName;              /* Subscription name */
    MQLONG OpenOptions;           /* Open options of the object */
    MQLONG SubOptions;            /* Subscription options */
} MQSTS;
typedef MQSTS *PMQSTS;

#define MQSTAT_TYPE_ASYNC_ERROR 0
#define MQSTAT_TYPE_RECONNECTION 1
#define MQSTAT_TYPE_RECONNECTION_ERROR 2

#define MQSTS_DEFAULT                                                                      \
    {MQSTS_STRUC_ID_ARRAY}, MQSTS_VERSION_1, MQCC_OK, MQRC_NONE, 0, 0, 0, MQOT_Q, {""},   \
     {""}, {""}, {""}, {MQCHARV_DEFAULT}, {MQCHARV_DEFAULT}, 0, 0

/* ---- Message handles and properties ---------------------------------------------------- */

#define MQCMHO_STRUC_ID "CMHO"
#define MQCMHO_STRUC_ID_ARRAY 'C', 'M', 'H', 'O'
#define MQCMHO_VERSION_1 1
#define MQCMHO_CURRENT_VERSION 1
#define MQCMHO_LENGTH_1 12
#define MQCMHO_DEFAULT_VALIDATION 0x00000000
#define MQCMHO_NO_VALIDATION 0x00000001
#define MQCMHO_VALIDATE 0x00000002
#define MQCMHO_NONE 0x00000000

typedef struct tagMQCMHO {
    MQCHAR4 StrucId; /* "CMHO" */
    MQLONG Version;  /* MQCMHO_VERSION_1 */
    MQLONG Options;  /* MQCMHO_* */
} MQCMHO;
typedef MQCMHO *PMQCMHO;
#define MQCMHO_DEFAULT {MQCMHO_STRUC_ID_ARRAY}, MQCMHO_VERSION_1, MQCMHO_DEFAULT_VALIDATION

#define MQDMHO_STRUC_ID "DMHO"
#define MQDMHO_STRUC_ID_ARRAY 'D', 'M', 'H', 'O'
#define MQDMHO_VERSION_1 1
#define MQDMHO_CURRENT_VERSION 1
#define MQDMHO_LENGTH_1 12
#define MQDMHO_NONE 0x00000000

typedef struct tagMQDMHO {
    MQCHAR4 StrucId; /* "DMHO" */
    MQLONG Version;  /* MQDMHO_VERSION_1 */
    MQLONG Options;  /* MQDMHO_* */
} MQDMHO;
typedef MQDMHO *PMQDMHO;
#define MQDMHO_DEFAULT {MQDMHO_STRUC_ID_ARRAY}, MQDMHO_VERSION_1, MQDMHO_NONE

/* ---- MQMHBO / MQBMHO: message handle to buffer and back (MQMHBUF, MQBUFMH) -------------- */

#define MQMHBO_STRUC_ID "MHBO"
#define MQMHBO_STRUC_ID_ARRAY 'M', 'H', 'B', 'O'
#define MQMHBO_VERSION_1 1
#define MQMHBO_CURRENT_VERSION 1
#define MQMHBO_LENGTH_1 12
#define MQMHBO_NONE 0x00000000
#define MQMHBO_PROPERTIES_IN_MQRFH2 0x00000001
#define MQMHBO_DELETE_PROPERTIES 0x00000002

typedef struct tagMQMHBO {
    MQCHAR4 StrucId; /* "MHBO" */
    MQLONG Version;  /* MQMHBO_VERSION_1 */
    MQLONG Options;  /* MQMHBO_* */
} MQMHBO;
typedef MQMHBO *PMQMHBO;
#define MQMHBO_DEFAULT {MQMHBO_STRUC_ID_ARRAY}, MQMHBO_VERSION_1, MQMHBO_PROPERTIES_IN_MQRFH2

#define MQBMHO_STRUC_ID "BMHO"
#define MQBMHO_STRUC_ID_ARRAY 'B', 'M', 'H', 'O'
#define MQBMHO_VERSION_1 1
#define MQBMHO_CURRENT_VERSION 1
#define MQBMHO_LENGTH_1 12
#define MQBMHO_NONE 0x00000000
#define MQBMHO_DELETE_PROPERTIES 0x00000001

typedef struct tagMQBMHO {
    MQCHAR4 StrucId; /* "BMHO" */
    MQLONG Version;  /* MQBMHO_VERSION_1 */
    MQLONG Options;  /* MQBMHO_* */
} MQBMHO;
typedef MQBMHO *PMQBMHO;
#define MQBMHO_DEFAULT {MQBMHO_STRUC_ID_ARRAY}, MQBMHO_VERSION_1, MQBMHO_DELETE_PROPERTIES

/* ---- MQRFH2: rules and formatting header, version 2 (properties in folders) -------------- */

#define MQRFH_STRUC_ID "RFH "
#define MQRFH_STRUC_ID_ARRAY 'R', 'F', 'H', ' '
#define MQRFH_VERSION_2 2
#define MQRFH_STRUC_LENGTH_FIXED_2 36
#define MQRFH_NONE 0x00000000
#define MQRFH_NO_FLAGS 0
#define MQFMT_RF_HEADER_2 "MQHRF2  "
#define MQFMT_RF_HEADER_2_ARRAY 'M', 'Q', 'H', 'R', 'F', '2', ' ', ' '

typedef struct tagMQRFH2 {
    MQCHAR4 StrucId;       /* "RFH " */
    MQLONG Version;        /* MQRFH_VERSION_2 */
    MQLONG StrucLength;    /* the header and its folders, bytes */
    MQLONG Encoding;       /* of the data that follows */
    MQLONG CodedCharSetId; /* of the data that follows */
    MQCHAR8 Format;        /* of the data that follows */
    MQLONG Flags;          /* MQRFH_NO_FLAGS */
    MQLONG NameValueCCSID; /* of the folders: 1208 */
} MQRFH2;
typedef MQRFH2 *PMQRFH2;
#define MQRFH2_DEFAULT                                                                     \
    {MQRFH_STRUC_ID_ARRAY}, MQRFH_VERSION_2, MQRFH_STRUC_LENGTH_FIXED_2, MQENC_NATIVE,     \
        MQCCSI_INHERIT, {MQFMT_NONE_ARRAY}, MQRFH_NO_FLAGS, 1208

#define MQRFH2_LENGTH_2 36
#define MQRFH2_CURRENT_LENGTH 36

/* ---- MQRFH: rules and formatting header, version 1 (name/value string follows) ---------- */

#define MQRFH_VERSION_1 1
#define MQRFH_STRUC_LENGTH_FIXED 32
#define MQRFH_LENGTH_1 32
#define MQRFH_CURRENT_LENGTH 32

typedef struct tagMQRFH {
    MQCHAR4 StrucId;       /* "RFH " */
    MQLONG Version;        /* MQRFH_VERSION_1 */
    MQLONG StrucLength;    /* The header and its name/value string, bytes */
    MQLONG Encoding;       /* Of the data that follows */
    MQLONG CodedCharSetId; /* Of the data that follows */
    MQCHAR8 Format;        /* Of the data that follows */
    MQLONG Flags;          /* MQRFH_NONE */
} MQRFH;
typedef MQRFH *PMQRFH;
#define MQRFH_DEFAULT                                                                      \
    {MQRFH_STRUC_ID_ARRAY}, MQRFH_VERSION_1, MQRFH_STRUC_LENGTH_FIXED, MQENC_NATIVE,      \
     MQCCSI_UNDEFINED, {MQFMT_NONE_ARRAY}, MQRFH_NONE

/* ---- MQDLH: dead-letter header ----------------------------------------------------------- */

#define MQDLH_STRUC_ID "DLH "
#define MQDLH_STRUC_ID_ARRAY 'D', 'L', 'H', ' '
#define MQDLH_VERSION_1 1
#define MQDLH_CURRENT_VERSION 1
#define MQDLH_LENGTH_1 172
#define MQDLH_CURRENT_LENGTH 172

typedef struct tagMQDLH {
    MQCHAR4 StrucId;       /* "DLH " */
    MQLONG Version;        /* MQDLH_VERSION_1 */
    MQLONG Reason;         /* Why the message is on the dead-letter queue (MQRC_*, MQFB_*) */
    MQCHAR48 DestQName;    /* Original destination queue */
    MQCHAR48 DestQMgrName; /* Original destination queue manager */
    MQLONG Encoding;       /* Of the data that follows */
    MQLONG CodedCharSetId; /* Of the data that follows */
    MQCHAR8 Format;        /* Of the data that follows */
    MQLONG PutApplType;    /* Type of the application that put it on the dead-letter queue */
    MQCHAR28 PutApplName;  /* Name of that application */
    MQCHAR8 PutDate;       /* Date it was put there (YYYYMMDD) */
    MQCHAR8 PutTime;       /* Time it was put there (HHMMSSTH) */
} MQDLH;
typedef MQDLH *PMQDLH;
#define MQDLH_DEFAULT                                                                      \
    {MQDLH_STRUC_ID_ARRAY}, MQDLH_VERSION_1, MQRC_NONE, {""}, {""}, 0, MQCCSI_UNDEFINED,   \
     {MQFMT_NONE_ARRAY}, 0, {""}, {""}, {""}

/* ---- MQDH: distribution header ----------------------------------------------------------- */

#define MQDH_STRUC_ID "DH  "
#define MQDH_STRUC_ID_ARRAY 'D', 'H', ' ', ' '
#define MQDH_VERSION_1 1
#define MQDH_CURRENT_VERSION 1
#define MQDH_LENGTH_1 48
#define MQDH_CURRENT_LENGTH 48
#define MQDHF_NONE 0x00000000
#define MQDHF_NEW_MSG_IDS 0x00000001

typedef struct tagMQDH {
    MQCHAR4 StrucId;        /* "DH  " */
    MQLONG Version;         /* MQDH_VERSION_1 */
    MQLONG StrucLength;     /* The header, its object records and put-message records */
    MQLONG Encoding;        /* Of the data that follows */
    MQLONG CodedCharSetId;  /* Of the data that follows */
    MQCHAR8 Format;         /* Of the data that follows */
    MQLONG Flags;           /* MQDHF_* */
    MQLONG PutMsgRecFields; /* MQPMRF_*: fields present in the put-message records */
    MQLONG RecsPresent;     /* Object records present */
    MQLONG ObjectRecOffset; /* Offset of the first object record (MQOR) */
    MQLONG PutMsgRecOffset; /* Offset of the first put-message record */
} MQDH;
typedef MQDH *PMQDH;
#define MQDH_DEFAULT                                                                       \
    {MQDH_STRUC_ID_ARRAY}, MQDH_VERSION_1, 0, 0, MQCCSI_UNDEFINED, {MQFMT_NONE_ARRAY},    \
     MQDHF_NONE, MQPMRF_NONE, 0, 0, 0

/* ---- MQRMH: reference message header ----------------------------------------------------- */

#define MQRMH_STRUC_ID "RMH "
#define MQRMH_STRUC_ID_ARRAY 'R', 'M', 'H', ' '
#define MQRMH_VERSION_1 1
#define MQRMH_CURRENT_VERSION 1
#define MQRMH_LENGTH_1 108
#define MQRMH_CURRENT_LENGTH 108
#define MQRMHF_NOT_LAST 0x00000000
#define MQRMHF_LAST 0x00000001
#define MQOII_NONE_ARRAY                                                                   \
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0

typedef struct tagMQRMH {
    MQCHAR4 StrucId;            /* "RMH " */
    MQLONG Version;             /* MQRMH_VERSION_1 */
    MQLONG StrucLength;         /* The header and the strings it refers to */
    MQLONG Encoding;            /* Of the data that follows */
    MQLONG CodedCharSetId;      /* Of the data that follows */
    MQCHAR8 Format;             /* Of the data that follows */
    MQLONG Flags;               /* MQRMHF_* */
    MQCHAR8 ObjectType;         /* Type of the object referred to */
    MQBYTE24 ObjectInstanceId;  /* Instance of the object */
    MQLONG SrcEnvLength;        /* Source environment data: length */
    MQLONG SrcEnvOffset;        /* ... and offset */
    MQLONG SrcNameLength;       /* Source object name: length */
    MQLONG SrcNameOffset;       /* ... and offset */
    MQLONG DestEnvLength;       /* Destination environment data: length */
    MQLONG DestEnvOffset;       /* ... and offset */
    MQLONG DestNameLength;      /* Destination object name: length */
    MQLONG DestNameOffset;      /* ... and offset */
    MQLONG DataLogicalLength;   /* Length of the bulk data */
    MQLONG DataLogicalOffset;   /* Low offset of the bulk data */
    MQLONG DataLogicalOffset2;  /* High offset of the bulk data */
} MQRMH;
typedef MQRMH *PMQRMH;
#define MQRMH_DEFAULT                                                                      \
    {MQRMH_STRUC_ID_ARRAY}, MQRMH_VERSION_1, 0, MQENC_NATIVE, MQCCSI_UNDEFINED,           \
     {MQFMT_NONE_ARRAY}, MQRMHF_NOT_LAST, {FERRY_BLANK8_ARRAY}, {MQOII_NONE_ARRAY}, 0, 0,  \
     0, 0, 0, 0, 0, 0, 0, 0, 0

/* ---- MQCIH: CICS bridge header ----------------------------------------------------------- */

#define MQCIH_STRUC_ID "CIH "
#define MQCIH_STRUC_ID_ARRAY 'C', 'I', 'H', ' '
#define MQCIH_VERSION_1 1
#define MQCIH_VERSION_2 2
#define MQCIH_CURRENT_VERSION 2
#define MQCIH_LENGTH_1 164
#define MQCIH_LENGTH_2 180
#define MQCIH_CURRENT_LENGTH 180
#define MQCIH_NONE 0x00000000
#define MQCIH_PASS_EXPIRATION 0x00000001
#define MQCIH_UNLIMITED_EXPIRATION 0x00000000
#define MQCIH_REPLY_WITHOUT_NULLS 0x00000002
#define MQCIH_REPLY_WITH_NULLS 0x00000000
#define MQCIH_SYNC_ON_RETURN 0x00000004
#define MQCIH_NO_SYNC_ON_RETURN 0x00000000

/* Return codes from the bridge (ReturnCode) */
#define MQCRC_OK 0
#define MQCRC_CICS_EXEC_ERROR 1
#define MQCRC_MQ_API_ERROR 2
#define MQCRC_BRIDGE_ERROR 3
#define MQCRC_BRIDGE_ABEND 4
#define MQCRC_APPLICATION_ABEND 5
#define MQCRC_SECURITY_ERROR 6
#define MQCRC_PROGRAM_NOT_AVAILABLE 7
#define MQCRC_BRIDGE_TIMEOUT 8
#define MQCRC_TRANSID_NOT_AVAILABLE 9

/* Unit-of-work controls (UOWControl) */
#define MQCUOWC_ONLY 0x00000111
#define MQCUOWC_CONTINUE 0x00010000
#define MQCUOWC_FIRST 0x00000011
#define MQCUOWC_MIDDLE 0x00000010
#define MQCUOWC_LAST 0x00000110
#define MQCUOWC_COMMIT 0x00000100
#define MQCUOWC_BACKOUT 0x00001100

/* Get wait interval, link types, output data length (GetWaitInterval, LinkType,
 * OutputDataLength) */
#define MQCGWI_DEFAULT (-2)
#define MQCLT_PROGRAM 1
#define MQCLT_TRANSACTION 2
#define MQCODL_AS_INPUT (-1)

/* ADS descriptors, conversational task, task end status */
#define MQCADSD_NONE 0x00000000
#define MQCADSD_SEND 0x00000001
#define MQCADSD_RECV 0x00000010
#define MQCADSD_MSGFORMAT 0x00000100
#define MQCCT_YES 0x00000001
#define MQCCT_NO 0x00000000
#define MQCTES_NOSYNC 0x00000000
#define MQCTES_COMMIT 0x00000100
#define MQCTES_BACKOUT 0x00001100
#define MQCTES_ENDTASK 0x00010000

/* Facility token, function names, start codes */
#define MQCFAC_NONE_ARRAY 0, 0, 0, 0, 0, 0, 0, 0
#define MQCFUNC_MQCONN "CONN"
#define MQCFUNC_MQGET "GET "
#define MQCFUNC_MQINQ "INQ "
#define MQCFUNC_MQOPEN "OPEN"
#define MQCFUNC_MQPUT "PUT "
#define MQCFUNC_MQPUT1 "PUT1"
#define MQCFUNC_NONE "    "
#define MQCFUNC_NONE_ARRAY ' ', ' ', ' ', ' '
#define MQCSC_START "S   "
#define MQCSC_STARTDATA "SD  "
#define MQCSC_TERMINPUT "TD  "
#define MQCSC_NONE "    "
#define MQCSC_NONE_ARRAY ' ', ' ', ' ', ' '

typedef struct tagMQCIH {
    MQCHAR4 StrucId;           /* "CIH " */
    MQLONG Version;            /* MQCIH_VERSION_* */
    MQLONG StrucLength;        /* MQCIH_LENGTH_* */
    MQLONG Encoding;           /* Reserved */
    MQLONG CodedCharSetId;     /* Reserved */
    MQCHAR8 Format;            /* Format of the data that follows */
    MQLONG Flags;              /* MQCIH_* */
    MQLONG ReturnCode;         /* MQCRC_* */
    MQLONG CompCode;           /* Completion code or CICS EIBRESP */
    MQLONG Reason;             /* Reason or feedback code, or CICS EIBRESP2 */
    MQLONG UOWControl;         /* MQCUOWC_* */
    MQLONG GetWaitInterval;    /* Wait interval of the bridge task's MQGET */
    MQLONG LinkType;           /* MQCLT_* */
    MQLONG OutputDataLength;   /* Length of the output COMMAREA */
    MQLONG FacilityKeepTime;   /* Seconds the bridge facility is kept */
    MQLONG ADSDescriptor;      /* MQCADSD_* */
    MQLONG ConversationalTask; /* MQCCT_* */
    MQLONG TaskEndStatus;      /* MQCTES_* */
    MQBYTE8 Facility;          /* Bridge facility token */
    MQCHAR4 Function;          /* MQ call name or CICS EIBFN function */
    MQCHAR4 AbendCode;         /* Abend code */
    MQCHAR8 Authenticator;     /* Password or passticket */
    MQCHAR8 Reserved1;         /* Reserved */
    MQCHAR8 ReplyToFormat;     /* Format of the reply */
    MQCHAR4 RemoteSysId;       /* Remote CICS system */
    MQCHAR4 RemoteTransId;     /* Remote CICS transaction */
    MQCHAR4 TransactionId;     /* Transaction to attach */
    MQCHAR4 FacilityLike;      /* Terminal emulated attributes */
    MQCHAR4 AttentionId;       /* AID key */
    MQCHAR4 StartCode;         /* MQCSC_* */
    MQCHAR4 CancelCode;        /* Abend code to end the transaction */
    MQCHAR4 NextTransactionId; /* Next transaction to attach */
    MQCHAR8 Reserved2;         /* Reserved */
    MQCHAR8 Reserved3;         /* Reserved */
    /* Version 2 */
    MQLONG CursorPosition; /* Cursor position */
    MQLONG ErrorOffset;    /* Offset of an error in the message */
    MQLONG InputItem;      /* Reserved */
    MQLONG Reserved4;      /* Reserved */
} MQCIH;
typedef MQCIH *PMQCIH;
#define MQCIH_DEFAULT                                                                      \
    {MQCIH_STRUC_ID_ARRAY}, MQCIH_VERSION_2, MQCIH_LENGTH_2, 0, 0, {MQFMT_NONE_ARRAY},    \
     MQCIH_NONE, MQCRC_OK, MQCC_OK, MQRC_NONE, MQCUOWC_ONLY, MQCGWI_DEFAULT, MQCLT_PROGRAM, \
     MQCODL_AS_INPUT, 0, MQCADSD_NONE, MQCCT_NO, MQCTES_NOSYNC, {MQCFAC_NONE_ARRAY},       \
     {MQCFUNC_NONE_ARRAY}, {FERRY_BLANK4_ARRAY}, {FERRY_BLANK8_ARRAY},                      \
     {FERRY_BLANK8_ARRAY}, {MQFMT_NONE_ARRAY}, {FERRY_BLANK4_ARRAY}, {FERRY_BLANK4_ARRAY},  \
     {FERRY_BLANK4_ARRAY}, {FERRY_BLANK4_ARRAY}, {FERRY_BLANK4_ARRAY}, {MQCSC_NONE_ARRAY},  \
     {FERRY_BLANK4_ARRAY}, {FERRY_BLANK4_ARRAY}, {FERRY_BLANK8_ARRAY},                      \
     {FERRY_BLANK8_ARRAY}, 0, 0, 0, 0

/* ---- MQIIH: IMS information header ------------------------------------------------------- */

#define MQIIH_STRUC_ID "IIH "
#define MQIIH_STRUC_ID_ARRAY 'I', 'I', 'H', ' '
#define MQIIH_VERSION_1 1
#define MQIIH_CURRENT_VERSION 1
#define MQIIH_LENGTH_1 84
#define MQIIH_CURRENT_LENGTH 84
#define MQIIH_NONE 0x00000000
#define MQIIH_PASS_EXPIRATION 0x00000001
#define MQIIH_UNLIMITED_EXPIRATION 0x00000000
#define MQIIH_REPLY_FORMAT_NONE 0x00000008
#define MQIIH_IGNORE_PURG 0x00000010
#define MQIIH_CM0_REQUEST_RESPONSE 0x00000020

/* Authenticator, transaction instance id, transaction state, commit mode, security scope */
#define MQIAUT_NONE "        "
#define MQIAUT_NONE_ARRAY ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '
#define MQITII_NONE_ARRAY 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define MQITS_IN_CONVERSATION 'C'
#define MQITS_NOT_IN_CONVERSATION ' '
#define MQITS_ARCHITECTED 'A'
#define MQICM_COMMIT_THEN_SEND '0'
#define MQICM_SEND_THEN_COMMIT '1'
#define MQISS_CHECK 'C'
#define MQISS_FULL 'F'

typedef struct tagMQIIH {
    MQCHAR4 StrucId;         /* "IIH " */
    MQLONG Version;          /* MQIIH_VERSION_1 */
    MQLONG StrucLength;      /* MQIIH_LENGTH_1 */
    MQLONG Encoding;         /* Reserved */
    MQLONG CodedCharSetId;   /* Reserved */
    MQCHAR8 Format;          /* Format of the data that follows */
    MQLONG Flags;            /* MQIIH_* */
    MQCHAR8 LTermOverride;   /* Logical terminal override */
    MQCHAR8 MFSMapName;      /* Message format services map name */
    MQCHAR8 ReplyToFormat;   /* Format of the reply */
    MQCHAR8 Authenticator;   /* RACF password or passticket */
    MQBYTE16 TranInstanceId; /* Transaction instance identifier */
    MQCHAR TranState;        /* MQITS_* */
    MQCHAR CommitMode;       /* MQICM_* */
    MQCHAR SecurityScope;    /* MQISS_* */
    MQCHAR Reserved;         /* Reserved */
} MQIIH;
typedef MQIIH *PMQIIH;
#define MQIIH_DEFAULT                                                                      \
    {MQIIH_STRUC_ID_ARRAY}, MQIIH_VERSION_1, MQIIH_LENGTH_1, 0, 0, {MQFMT_NONE_ARRAY},    \
     MQIIH_NONE, {FERRY_BLANK8_ARRAY}, {FERRY_BLANK8_ARRAY}, {MQFMT_NONE_ARRAY},           \
     {MQIAUT_NONE_ARRAY}, {MQITII_NONE_ARRAY}, MQITS_NOT_IN_CONVERSATION,                  \
     MQICM_COMMIT_THEN_SEND, MQISS_CHECK, ' '

/* ---- MQWIH: work information header ------------------------------------------------------ */

#define MQWIH_STRUC_ID "WIH "
#define MQWIH_STRUC_ID_ARRAY 'W', 'I', 'H', ' '
#define MQWIH_VERSION_1 1
#define MQWIH_CURRENT_VERSION 1
#define MQWIH_LENGTH_1 120
#define MQWIH_CURRENT_LENGTH 120
#define MQWIH_NONE 0x00000000

typedef struct tagMQWIH {
    MQCHAR4 StrucId;       /* "WIH " */
    MQLONG Version;        /* MQWIH_VERSION_1 */
    MQLONG StrucLength;    /* MQWIH_LENGTH_1 */
    MQLONG Encoding;       /* Of the data that follows */
    MQLONG CodedCharSetId; /* Of the data that follows */
    MQCHAR8 Format;        /* Of the data that follows */
    MQLONG Flags;          /* MQWIH_NONE */
    MQCHAR32 ServiceName;  /* Service name */
    MQCHAR8 ServiceStep;   /* Service step name */
    MQBYTE16 MsgToken;     /* Message token */
    MQCHAR32 Reserved;     /* Reserved */
} MQWIH;
typedef MQWIH *PMQWIH;
#define MQWIH_DEFAULT                                                                      \
    {MQWIH_STRUC_ID_ARRAY}, MQWIH_VERSION_1, MQWIH_LENGTH_1, 0, MQCCSI_UNDEFINED,         \
     {MQFMT_NONE_ARRAY}, MQWIH_NONE, {FERRY_BLANK32_ARRAY}, {FERRY_BLANK8_ARRAY},          \
     {MQMTOK_NONE_ARRAY}, {FERRY_BLANK32_ARRAY}

/* ---- MQTM / MQTMC2: trigger message (binary and character forms) ------------------------- */

#define MQTM_STRUC_ID "TM  "
#define MQTM_STRUC_ID_ARRAY 'T', 'M', ' ', ' '
#define MQTM_VERSION_1 1
#define MQTM_CURRENT_VERSION 1
#define MQTM_LENGTH_1 684
#define MQTM_CURRENT_LENGTH 684

typedef struct tagMQTM {
    MQCHAR4 StrucId;      /* "TM  " */
    MQLONG Version;       /* MQTM_VERSION_1 */
    MQCHAR48 QName;       /* Triggered queue */
    MQCHAR48 ProcessName; /* Process object */
    MQCHAR64 TriggerData; /* Trigger data */
    MQLONG ApplType;      /* Application type (MQAT_*) */
    MQCHAR256 ApplId;     /* Application identifier */
    MQCHAR128 EnvData;    /* Environment data */
    MQCHAR128 UserData;   /* User data */
} MQTM;
typedef MQTM *PMQTM;
#define MQTM_DEFAULT                                                                       \
    {MQTM_STRUC_ID_ARRAY}, MQTM_VERSION_1, {""}, {""}, {""}, 0, {""}, {""}, {""}

#define MQTMC_STRUC_ID "TMC "
#define MQTMC_STRUC_ID_ARRAY 'T', 'M', 'C', ' '
#define MQTMC_VERSION_1 "   1"
#define MQTMC_VERSION_2 "   2"
#define MQTMC_CURRENT_VERSION "   2"
#define MQTMC_VERSION_1_ARRAY ' ', ' ', ' ', '1'
#define MQTMC_VERSION_2_ARRAY ' ', ' ', ' ', '2'
#define MQTMC_CURRENT_VERSION_ARRAY ' ', ' ', ' ', '2'
#define MQTMC2_LENGTH_1 684
#define MQTMC2_LENGTH_2 732
#define MQTMC2_CURRENT_LENGTH 732

typedef struct tagMQTMC2 {
    MQCHAR4 StrucId;      /* "TMC " */
    MQCHAR4 Version;      /* MQTMC_VERSION_2 ("   2") */
    MQCHAR48 QName;       /* Triggered queue */
    MQCHAR48 ProcessName; /* Process object */
    MQCHAR64 TriggerData; /* Trigger data */
    MQCHAR4 ApplType;     /* Application type, as characters */
    MQCHAR256 ApplId;     /* Application identifier */
    MQCHAR128 EnvData;    /* Environment data */
    MQCHAR128 UserData;   /* User data */
    MQCHAR48 QMgrName;    /* Queue manager name */
} MQTMC2;
typedef MQTMC2 *PMQTMC2;
#define MQTMC2_DEFAULT                                                                     \
    {MQTMC_STRUC_ID_ARRAY}, {MQTMC_VERSION_2_ARRAY}, {""}, {""}, {""}, {""}, {""}, {""},  \
     {""}, {""}

#define MQSMPO_STRUC_ID "SMPO"
#define MQSMPO_STRUC_ID_ARRAY 'S', 'M', 'P', 'O'
#define MQSMPO_VERSION_1 1
#define MQSMPO_CURRENT_VERSION 1
#define MQSMPO_LENGTH_1 20
#define MQSMPO_SET_FIRST 0x00000000
#define MQSMPO_SET_PROP_UNDER_CURSOR 0x00000001
#define MQSMPO_SET_PROP_AFTER_CURSOR 0x00000002
#define MQSMPO_APPEND_PROPERTY 0x00000004
#define MQSMPO_SET_PROP_BEFORE_CURSOR 0x00000008
#define MQSMPO_NONE 0x00000000

typedef struct tagMQSMPO {
    MQCHAR4 StrucId;     /* "SMPO" */
    MQLONG Version;      /* MQSMPO_VERSION_1 */
    MQLONG Options;      /* MQSMPO_* */
    MQLONG ValueEncoding; /* Encoding of the value */
    MQLONG ValueCCSID;   /* Character set of a string value */
} MQSMPO;
typedef MQSMPO *PMQSMPO;
#define MQSMPO_DEFAULT {MQSMPO_STRUC_ID_ARRAY}, MQSMPO_VERSION_1, MQSMPO_NONE, MQENC_NATIVE, MQCCSI_APPL

#define MQIMPO_STRUC_ID "IMPO"
#define MQIMPO_STRUC_ID_ARRAY 'I', 'M', 'P', 'O'
#define MQIMPO_VERSION_1 1
#define MQIMPO_CURRENT_VERSION 1
#define MQIMPO_LENGTH_1 64
#define MQIMPO_CONVERT_TYPE 0x00000002
#define MQIMPO_QUERY_LENGTH 0x00000004
#define MQIMPO_INQ_FIRST 0x00000000
#define MQIMPO_INQ_NEXT 0x00000008
#define MQIMPO_INQ_PROP_UNDER_CURSOR 0x00000010
#define MQIMPO_CONVERT_VALUE 0x00000020
#define MQIMPO_NONE 0x00000000

typedef struct tagMQIMPO {
    MQCHAR4 StrucId;          /* "IMPO" */
    MQLONG Version;           /* MQIMPO_VERSION_1 */
    MQLONG Options;           /* MQIMPO_* */
    MQLONG RequestedEncoding; /* Encoding wanted for the value */
    MQLONG RequestedCCSID;    /* Character set wanted for a string value */
    MQLONG ReturnedEncoding;  /* Output: encoding of the value */
    MQLONG ReturnedCCSID;     /* Output: character set of a string value */
    MQLONG Reserved1;         /* Reserved */
    MQCHARV ReturnedName;     /* Output: the property's name */
    MQCHAR8 TypeString;       /* Output: the type as a string */
} MQIMPO;
typedef MQIMPO *PMQIMPO;
#define MQIMPO_DEFAULT                                                                     \
    {MQIMPO_STRUC_ID_ARRAY}, MQIMPO_VERSION_1, MQIMPO_INQ_FIRST, MQENC_NATIVE, MQCCSI_APPL, \
     MQENC_NATIVE, 0, 0, {MQCHARV_DEFAULT}, {""}

#define MQDMPO_STRUC_ID "DMPO"
#define MQDMPO_STRUC_ID_ARRAY 'D', 'M', 'P', 'O'
#define MQDMPO_VERSION_1 1
#define MQDMPO_CURRENT_VERSION 1
#define MQDMPO_LENGTH_1 12
#define MQDMPO_DEL_FIRST 0x00000000
#define MQDMPO_DEL_PROP_UNDER_CURSOR 0x00000001
#define MQDMPO_NONE 0x00000000

typedef struct tagMQDMPO {
    MQCHAR4 StrucId; /* "DMPO" */
    MQLONG Version;  /* MQDMPO_VERSION_1 */
    MQLONG Options;  /* MQDMPO_* */
} MQDMPO;
typedef MQDMPO *PMQDMPO;
#define MQDMPO_DEFAULT {MQDMPO_STRUC_ID_ARRAY}, MQDMPO_VERSION_1, MQDMPO_DEL_FIRST

#define MQPD_STRUC_ID "PD  "
#define MQPD_STRUC_ID_ARRAY 'P', 'D', ' ', ' '
#define MQPD_VERSION_1 1
#define MQPD_CURRENT_VERSION 1
#define MQPD_LENGTH_1 24
#define MQPD_NONE 0x00000000
#define MQPD_SUPPORT_OPTIONAL 0x00000001
#define MQPD_NO_CONTEXT 0x00000000
#define MQCOPY_DEFAULT 0x00000016

typedef struct tagMQPD {
    MQCHAR4 StrucId;    /* "PD  " */
    MQLONG Version;     /* MQPD_VERSION_1 */
    MQLONG Options;     /* MQPD_* */
    MQLONG Support;     /* MQPD_SUPPORT_* */
    MQLONG Context;     /* MQPD_*_CONTEXT */
    MQLONG CopyOptions; /* MQCOPY_* */
} MQPD;
typedef MQPD *PMQPD;
#define MQPD_DEFAULT                                                                       \
    {MQPD_STRUC_ID_ARRAY}, MQPD_VERSION_1, MQPD_NONE, MQPD_SUPPORT_OPTIONAL, MQPD_NO_CONTEXT, \
     MQCOPY_DEFAULT

/* Property types */
#define MQTYPE_AS_SET 0x00000000
#define MQTYPE_NULL 0x00000002
#define MQTYPE_BOOLEAN 0x00000004
#define MQTYPE_BYTE_STRING 0x00000008
#define MQTYPE_INT8 0x00000010
#define MQTYPE_INT16 0x00000020
#define MQTYPE_INT32 0x00000040
#define MQTYPE_LONG 0x00000040
#define MQTYPE_INT64 0x00000080
#define MQTYPE_FLOAT32 0x00000100
#define MQTYPE_FLOAT64 0x00000200
#define MQTYPE_STRING 0x00000400
#define MQVL_NULL_TERMINATED (-1)
#define MQVL_EMPTY_STRING 0
#define MQPROP_INQUIRE_ALL "%"

#define MQRC_HMSG_ERROR 2460
#define MQRC_CMHO_ERROR 2461
#define MQRC_DMHO_ERROR 2462
#define MQRC_SMPO_ERROR 2463
#define MQRC_IMPO_ERROR 2464
#define MQRC_PROPERTY_NAME_TOO_BIG 2465
#define MQRC_PROPERTY_VALUE_TOO_BIG 2469
#define MQRC_PROPERTY_TYPE_ERROR 2473
#define MQRC_DMPO_ERROR 2481
#define MQRC_PD_ERROR 2482
#define MQRC_CNO_ERROR 2139
#define MQRC_PMO_ERROR 2173
#define MQRC_GMO_ERROR 2186
#define MQRC_STS_ERROR 2426

/* ---- MQSD / MQSRO: subscriptions ---------------------------------------------------- */

#define MQSD_STRUC_ID "SD  "
#define MQSD_STRUC_ID_ARRAY 'S', 'D', ' ', ' '
#define MQSD_VERSION_1 1
#define MQSD_CURRENT_VERSION 1
#define MQSD_LENGTH_1 344
#define MQSD_CURRENT_LENGTH 344

typedef struct tagMQSD {
    MQCHAR4 StrucId;              /* "SD  " */
    MQLONG Version;               /* MQSD_VERSION_1 */
    MQLONG Options;               /* MQSO_* */
    MQCHAR48 ObjectName;          /* Topic object name */
    MQCHAR12 AlternateUserId;     /* Alternate user */
    MQBYTE40 AlternateSecurityId; /* Alternate security id */
    MQLONG SubExpiry;             /* Expiry of the subscription */
    MQCHARV ObjectString;         /* Topic string */
    MQCHARV SubName;              /* Subscription name */
    MQCHARV SubUserData;          /* Subscription user data */
    MQBYTE24 SubCorrelId;         /* Correlation id of publications */
    MQLONG PubPriority;           /* Priority of publications */
    MQBYTE32 PubAccountingToken;  /* Accounting token of publications */
    MQCHAR32 PubApplIdentityData; /* Identity data of publications */
    MQCHARV SelectionString;      /* Selection string */
    MQLONG SubLevel;              /* Subscription level */
    MQCHARV ResObjectString;      /* Output: resolved topic string */
} MQSD;
typedef MQSD *PMQSD;
#define MQSD_DEFAULT                                                                       \
    {MQSD_STRUC_ID_ARRAY}, MQSD_VERSION_1, 0, {""}, {""}, {0}, MQEI_UNLIMITED, {MQCHARV_DEFAULT}, \
     {MQCHARV_DEFAULT}, {MQCHARV_DEFAULT}, {MQCI_NONE_ARRAY}, MQPRI_PRIORITY_AS_PUBLISHED, {0},   \
     {""}, {MQCHARV_DEFAULT}, 1, {MQCHARV_DEFAULT}

#define MQSRO_STRUC_ID "SRO "
#define MQSRO_STRUC_ID_ARRAY 'S', 'R', 'O', ' '
#define MQSRO_VERSION_1 1
#define MQSRO_CURRENT_VERSION 1
#define MQSRO_LENGTH_1 16
#define MQSRO_NONE 0x00000000
#define MQSRO_FAIL_IF_QUIESCING 0x00002000
#define MQSR_ACTION_PUBLISH 1

typedef struct tagMQSRO {
    MQCHAR4 StrucId; /* "SRO " */
    MQLONG Version;  /* MQSRO_VERSION_1 */
    MQLONG Options;  /* MQSRO_* */
    MQLONG NumPubs;  /* Output: publications sent */
} MQSRO;
typedef MQSRO *PMQSRO;
#define MQSRO_DEFAULT {MQSRO_STRUC_ID_ARRAY}, MQSRO_VERSION_1, MQSRO_NONE, 0

/* Subscription options (MQSD Options) */
#define MQSO_NONE 0x00000000
#define MQSO_NON_DURABLE 0x00000000
#define MQSO_READ_AHEAD_AS_Q_DEF 0x00000000
#define MQSO_ALTER 0x00000001
#define MQSO_CREATE 0x00000002
#define MQSO_RESUME 0x00000004
#define MQSO_DURABLE 0x00000008
#define MQSO_GROUP_SUB 0x00000010
#define MQSO_MANAGED 0x00000020
#define MQSO_SET_IDENTITY_CONTEXT 0x00000040
#define MQSO_FIXED_USERID 0x00000100
#define MQSO_ANY_USERID 0x00000200
#define MQSO_PUBLICATIONS_ON_REQUEST 0x00000800
#define MQSO_NEW_PUBLICATIONS_ONLY 0x00001000
#define MQSO_FAIL_IF_QUIESCING 0x00002000
#define MQSO_ALTERNATE_USER_AUTHORITY 0x00040000
#define MQSO_WILDCARD_CHAR 0x00100000
#define MQSO_WILDCARD_TOPIC 0x00200000
#define MQSO_SET_CORREL_ID 0x00400000
#define MQSO_SCOPE_QMGR 0x04000000
#define MQSO_NO_READ_AHEAD 0x08000000
#define MQSO_READ_AHEAD 0x10000000

/* ---- MQCBD / MQCBC / MQCTLO: asynchronous consumption (MQCB and MQCTL) --------------- */

#define MQCBD_STRUC_ID "CBD "
#define MQCBD_STRUC_ID_ARRAY 'C', 'B', 'D', ' '
#define MQCBD_VERSION_1 1
#define MQCBD_CURRENT_VERSION 1
#define MQCBD_LENGTH_1 168
#define MQCBD_CURRENT_LENGTH 168
#define MQCBD_FULL_MSG_LENGTH (-1)

typedef struct tagMQCBD {
    MQCHAR4 StrucId;         /* "CBD " */
    MQLONG Version;          /* MQCBD_VERSION_1 */
    MQLONG CallbackType;     /* MQCBT_* */
    MQLONG Options;          /* MQCBDO_* */
    MQPTR CallbackArea;      /* Passed to the callback in MQCBC */
    MQPTR CallbackFunction;  /* The function to call (an MQCB_FUNCTION) */
    MQCHAR128 CallbackName;  /* Or the name of the function to load */
    MQLONG MaxMsgLength;     /* Longest message to pass, or MQCBD_FULL_MSG_LENGTH */
} MQCBD;
typedef MQCBD *PMQCBD;

#define MQCBT_MESSAGE_CONSUMER 0x00000001
#define MQCBT_EVENT_HANDLER 0x00000002
#define MQCBDO_NONE 0x00000000
#define MQCBDO_START_CALL 0x00000001
#define MQCBDO_STOP_CALL 0x00000004
#define MQCBDO_REGISTER_CALL 0x00000100
#define MQCBDO_DEREGISTER_CALL 0x00000200
#define MQCBDO_FAIL_IF_QUIESCING 0x00002000
#define MQCBDO_EVENT_CALL 0x00004000
#define MQCBDO_MC_EVENT_CALL 0x00008000
#define MQCBD_DEFAULT                                                                      \
    {MQCBD_STRUC_ID_ARRAY}, MQCBD_VERSION_1, MQCBT_MESSAGE_CONSUMER, MQCBDO_NONE, NULL, NULL, \
     {""}, MQCBD_FULL_MSG_LENGTH

#define MQCBC_STRUC_ID "CBC "
#define MQCBC_STRUC_ID_ARRAY 'C', 'B', 'C', ' '
#define MQCBC_VERSION_1 1
#define MQCBC_VERSION_2 2
#define MQCBC_CURRENT_VERSION 2
#define MQCBC_LENGTH_1 56
#define MQCBC_LENGTH_2 64
#define MQCBC_CURRENT_LENGTH 64

typedef struct tagMQCBC {
    MQCHAR4 StrucId;      /* "CBC " */
    MQLONG Version;       /* MQCBC_VERSION_* */
    MQLONG CallType;      /* MQCBCT_* */
    MQHOBJ Hobj;          /* The object the call is for */
    MQPTR CallbackArea;   /* From MQCBD */
    MQPTR ConnectionArea; /* From MQCTLO */
    MQLONG CompCode;      /* Of the get */
    MQLONG Reason;        /* Of the get */
    MQLONG State;         /* MQCS_* */
    MQLONG DataLength;    /* Length of the message */
    MQLONG BufferLength;  /* Length of the buffer passed */
    MQLONG Flags;         /* MQCBCF_* */
    /* Version 2 */
    MQLONG ReconnectDelay; /* Milliseconds before reconnecting */
} MQCBC;
typedef MQCBC *PMQCBC;

#define MQCBCT_START_CALL 1
#define MQCBCT_STOP_CALL 2
#define MQCBCT_REGISTER_CALL 3
#define MQCBCT_DEREGISTER_CALL 4
#define MQCBCT_EVENT_CALL 5
#define MQCBCT_MSG_REMOVED 6
#define MQCBCT_MSG_NOT_REMOVED 7
#define MQCBCT_MC_EVENT_CALL 8
#define MQCS_NONE 0
#define MQCS_SUSPENDED_TEMPORARY 1
#define MQCS_SUSPENDED_USER_ACTION 2
#define MQCS_SUSPENDED 3
#define MQCS_STOPPED 4
#define MQCBCF_NONE 0x00000000
#define MQCBCF_READA_BUFFER_EMPTY 0x00000001

/* The function an MQCBD names */
typedef void MQCB_FUNCTION(MQHCONN Hconn, PMQVOID pMsgDesc, PMQVOID pGetMsgOpts, PMQVOID pBuffer,
                           PMQCBC pContext);
typedef MQCB_FUNCTION *PMQCB_FUNCTION;

#define MQCTLO_STRUC_ID "CTLO"
#define MQCTLO_STRUC_ID_ARRAY 'C', 'T', 'L', 'O'
#define MQCTLO_VERSION_1 1
#define MQCTLO_CURRENT_VERSION 1
#define MQCTLO_LENGTH_1 24
#define MQCTLO_CURRENT_LENGTH 24

typedef struct tagMQCTLO {
    MQCHAR4 StrucId;      /* "CTLO" */
    MQLONG Version;       /* MQCTLO_VERSION_1 */
    MQLONG Options;       /* MQCTLO_* */
    MQLONG Reserved;      /* Reserved */
    MQPTR ConnectionArea; /* Passed to every callback in MQCBC */
} MQCTLO;
typedef MQCTLO *PMQCTLO;

#define MQCTLO_NONE 0x00000000
#define MQCTLO_THREAD_AFFINITY 0x00000001
#define MQCTLO_FAIL_IF_QUIESCING 0x00002000
#define MQCTLO_DEFAULT {MQCTLO_STRUC_ID_ARRAY}, MQCTLO_VERSION_1, MQCTLO_NONE, 0, NULL

/* MQCB and MQCTL operations */
#define MQOP_START 0x00000001
#define MQOP_START_WAIT 0x00000002
#define MQOP_STOP 0x00000004
#define MQOP_REGISTER 0x00000100
#define MQOP_DEREGISTER 0x00000200
#define MQOP_SUSPEND 0x00010000
#define MQOP_RESUME 0x00020000

/* Embedded PCF header (MQEPH), whose constants programs reading dead-letter and PCF data use.
 * The structure itself, which holds an MQCFH, is declared in cmqcfc.h. */
#define MQEPH_STRUC_ID "EPH "
#define MQEPH_VERSION_1 1
#define MQEPH_CURRENT_VERSION 1
#define MQEPH_STRUC_LENGTH_FIXED 68
#define MQEPH_NONE 0x00000000
#define MQEPH_CCSID_EMBEDDED 0x00000001

/* ---- MQBO: begin options (MQBEGIN) ----------------------------------------------------- */

#define MQBO_STRUC_ID "BO  "
#define MQBO_STRUC_ID_ARRAY 'B', 'O', ' ', ' '
#define MQBO_VERSION_1 1
#define MQBO_CURRENT_VERSION 1
#define MQBO_LENGTH_1 12
#define MQBO_NONE 0x00000000

typedef struct tagMQBO {
    MQCHAR4 StrucId; /* "BO  " */
    MQLONG Version;  /* MQBO_VERSION_1 */
    MQLONG Options;  /* MQBO_NONE */
} MQBO;
typedef MQBO *PMQBO;
#define MQBO_DEFAULT {MQBO_STRUC_ID_ARRAY}, MQBO_VERSION_1, MQBO_NONE

/* ---- Attribute selectors (MQINQ / MQSET) ----------------------------------------------- */

#define MQIA_FIRST 1
#define MQIA_LAST 2000
#define MQCA_FIRST 2001
#define MQCA_LAST 4000
#define MQIA_CODED_CHAR_SET_ID 2
#define MQIA_CURRENT_Q_DEPTH 3
#define MQIA_DEF_PERSISTENCE 5
#define MQIA_DEF_PRIORITY 6
#define MQIA_INHIBIT_GET 9
#define MQIA_INHIBIT_PUT 10
#define MQIA_MAX_HANDLES 11
#define MQIA_MAX_MSG_LENGTH 13
#define MQIA_MAX_Q_DEPTH 15
#define MQIA_OPEN_INPUT_COUNT 17
#define MQIA_OPEN_OUTPUT_COUNT 18
#define MQIA_NAME_COUNT 19
#define MQIA_Q_TYPE 20
#define MQIA_BACKOUT_THRESHOLD 22
#define MQIA_COMMAND_LEVEL 31
#define MQIA_PLATFORM 32
#define MQIA_MAX_UNCOMMITTED_MSGS 33
#define MQIA_HARDEN_GET_BACKOUT 8
#define MQIA_MAX_PRIORITY 14
#define MQIA_TRIGGER_CONTROL 24
#define MQIA_SYNCPOINT 30
#define MQIA_AUTHORITY_EVENT 47
#define MQIA_PERFORMANCE_EVENT 53
#define MQIA_Q_DEPTH_HIGH_LIMIT 40
#define MQIA_Q_DEPTH_LOW_LIMIT 41
#define MQIA_Q_DEPTH_MAX_EVENT 42
#define MQIA_Q_DEPTH_HIGH_EVENT 43
#define MQIA_Q_DEPTH_LOW_EVENT 44
#define MQIA_Q_SERVICE_INTERVAL_EVENT 46
#define MQIA_Q_SERVICE_INTERVAL 54
#define MQIA_COMMAND_EVENT 99
#define MQIA_CHANNEL_EVENT 73
#define MQIA_CHLAUTH_RECORDS 248

/* Values of those attributes. */
#define MQTC_OFF 0
#define MQTC_ON 1
#define MQSP_NOT_AVAILABLE 0
#define MQSP_AVAILABLE 1
#define MQEVR_DISABLED 0
#define MQEVR_ENABLED 1
#define MQEVR_EXCEPTION 2
#define MQEVR_NO_DISPLAY 3
#define MQQSIE_NONE 0
#define MQQSIE_HIGH 1
#define MQQSIE_OK 2
#define MQCHLA_DISABLED 0
#define MQCHLA_ENABLED 1
#define MQCA_BACKOUT_REQ_Q_NAME 2019
#define MQCA_BASE_Q_NAME 2002
#define MQCA_Q_DESC 2013
#define MQCA_Q_MGR_NAME 2015
#define MQCA_Q_NAME 2016
#define MQCA_DEAD_LETTER_Q_NAME 2006
#define MQCA_APPL_ID 2001
#define MQCA_COMMAND_INPUT_Q_NAME 2003
#define MQCA_CREATION_DATE 2004
#define MQCA_CREATION_TIME 2005
#define MQCA_ENV_DATA 2007
#define MQCA_INITIATION_Q_NAME 2008
#define MQCA_NAMELIST_DESC 2009
#define MQCA_NAMELIST_NAME 2010
#define MQCA_PROCESS_DESC 2011
#define MQCA_PROCESS_NAME 2012
#define MQCA_Q_MGR_DESC 2014
#define MQCA_REMOTE_Q_MGR_NAME 2017
#define MQCA_REMOTE_Q_NAME 2018
#define MQCA_NAMES 2020
#define MQCA_USER_DATA 2021
#define MQCA_STORAGE_CLASS 2022
#define MQCA_TRIGGER_DATA 2023
#define MQCA_XMIT_Q_NAME 2024
#define MQCA_DEF_XMIT_Q_NAME 2025
#define MQCA_CHANNEL_AUTO_DEF_EXIT 2026
#define MQCA_ALTERATION_DATE 2027
#define MQCA_ALTERATION_TIME 2028
#define MQCA_CLUSTER_NAME 2029
#define MQCA_CLUSTER_NAMELIST 2030
#define MQCA_Q_MGR_IDENTIFIER 2032
#define MQCA_CLUSTER_WORKLOAD_EXIT 2033
#define MQCA_CLUSTER_WORKLOAD_DATA 2034
#define MQCA_REPOSITORY_NAME 2035
#define MQCA_REPOSITORY_NAMELIST 2036
#define MQCA_CF_STRUC_NAME 2039
#define MQCA_QSG_NAME 2040
#define MQCA_IGQ_USER_ID 2041
#define MQCA_SSL_KEY_REPOSITORY 2049
#define MQCA_SSL_CRL_NAMELIST 2050
#define MQCA_SSL_CRYPTO_HARDWARE 2051
#define MQCA_DNS_GROUP 2071
#define MQCA_LU_GROUP_NAME 2072
#define MQCA_LU_NAME 2073
#define MQCA_LU62_ARM_SUFFIX 2074
#define MQCA_TCP_NAME 2075
#define MQCA_CHINIT_SERVICE_PARM 2076
#define MQCA_PARENT 2102
#define MQCA_COMM_INFO_NAME 2110
#define MQCA_INSTALLATION_DESC 2115
#define MQCA_INSTALLATION_NAME 2116
#define MQCA_INSTALLATION_PATH 2117
#define MQCA_CUSTOM 2119
#define MQCA_VERSION 2120
#define MQCA_CERT_LABEL 2121
#define MQCA_CLUS_CHL_NAME 2124
#define MQCA_CONN_AUTH 2125
#define MQCA_QSG_CERT_LABEL 2131

#define MQQA_GET_INHIBITED 1
#define MQQA_GET_ALLOWED 0
#define MQQA_PUT_INHIBITED 1
#define MQQA_PUT_ALLOWED 0
#define MQQT_LOCAL 1
#define MQQT_MODEL 2
#define MQQT_ALIAS 3
#define MQQT_REMOTE 6

/* Platforms (MQIA_PLATFORM): FerryMQ reports MQPL_UNIX */
#define MQPL_MVS 1
#define MQPL_OS390 1
#define MQPL_ZOS 1
#define MQPL_OS2 2
#define MQPL_AIX 3
#define MQPL_UNIX 3
#define MQPL_OS400 4
#define MQPL_WINDOWS 5
#define MQPL_WINDOWS_NT 11
#define MQPL_NSK 13
#define MQPL_APPLIANCE 28

/* FIPS (MQSCO FipsRequired) */
#define MQSSL_FIPS_NO 0
#define MQSSL_FIPS_YES 1

/* ---- Calls ------------------------------------------------------------------------------ */

void MQCONN(PMQCHAR pQMgrName, PMQHCONN pHconn, PMQLONG pCompCode, PMQLONG pReason);
void MQCONNX(PMQCHAR pQMgrName, PMQCNO pConnectOpts, PMQHCONN pHconn, PMQLONG pCompCode,
             PMQLONG pReason);
void MQDISC(PMQHCONN pHconn, PMQLONG pCompCode, PMQLONG pReason);
void MQOPEN(MQHCONN Hconn, PMQVOID pObjDesc, MQLONG Options, PMQHOBJ pHobj, PMQLONG pCompCode,
            PMQLONG pReason);
void MQCLOSE(MQHCONN Hconn, PMQHOBJ pHobj, MQLONG Options, PMQLONG pCompCode, PMQLONG pReason);
void MQPUT(MQHCONN Hconn, MQHOBJ Hobj, PMQVOID pMsgDesc, PMQVOID pPutMsgOpts, MQLONG BufferLength,
           PMQVOID pBuffer, PMQLONG pCompCode, PMQLONG pReason);
void MQPUT1(MQHCONN Hconn, PMQVOID pObjDesc, PMQVOID pMsgDesc, PMQVOID pPutMsgOpts,
            MQLONG BufferLength, PMQVOID pBuffer, PMQLONG pCompCode, PMQLONG pReason);
void MQGET(MQHCONN Hconn, MQHOBJ Hobj, PMQVOID pMsgDesc, PMQVOID pGetMsgOpts, MQLONG BufferLength,
           PMQVOID pBuffer, PMQLONG pDataLength, PMQLONG pCompCode, PMQLONG pReason);
void MQINQ(MQHCONN Hconn, MQHOBJ Hobj, MQLONG SelectorCount, PMQLONG pSelectors,
           MQLONG IntAttrCount, PMQLONG pIntAttrs, MQLONG CharAttrLength, PMQCHAR pCharAttrs,
           PMQLONG pCompCode, PMQLONG pReason);
void MQSET(MQHCONN Hconn, MQHOBJ Hobj, MQLONG SelectorCount, PMQLONG pSelectors,
           MQLONG IntAttrCount, PMQLONG pIntAttrs, MQLONG CharAttrLength, PMQCHAR pCharAttrs,
           PMQLONG pCompCode, PMQLONG pReason);
void MQCMIT(MQHCONN Hconn, PMQLONG pCompCode, PMQLONG pReason);
void MQBACK(MQHCONN Hconn, PMQLONG pCompCode, PMQLONG pReason);
void MQBEGIN(MQHCONN Hconn, PMQVOID pBeginOptions, PMQLONG pCompCode, PMQLONG pReason);
void MQSTAT(MQHCONN Hconn, MQLONG Type, PMQVOID pStatus, PMQLONG pCompCode, PMQLONG pReason);
void MQCRTMH(MQHCONN Hconn, PMQVOID pCrtMsgHOpts, PMQHMSG pHmsg, PMQLONG pCompCode,
             PMQLONG pReason);
void MQDLTMH(MQHCONN Hconn, PMQHMSG pHmsg, PMQVOID pDltMsgHOpts, PMQLONG pCompCode,
             PMQLONG pReason);
void MQSETMP(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pSetPropOpts, PMQVOID pName, PMQVOID pPropDesc,
             MQLONG Type, MQLONG ValueLength, PMQVOID pValue, PMQLONG pCompCode, PMQLONG pReason);
void MQINQMP(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pInqPropOpts, PMQVOID pName, PMQVOID pPropDesc,
             PMQLONG pType, MQLONG ValueLength, PMQVOID pValue, PMQLONG pDataLength,
             PMQLONG pCompCode, PMQLONG pReason);
void MQDLTMP(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pDltPropOpts, PMQVOID pName, PMQLONG pCompCode,
             PMQLONG pReason);
/* Exported, answering MQRC_FUNCTION_NOT_SUPPORTED in this version: */
void MQBUFMH(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pBufMsgHOpts, PMQVOID pMsgDesc,
             MQLONG BufferLength, PMQVOID pBuffer, PMQLONG pDataLength, PMQLONG pCompCode,
             PMQLONG pReason);
void MQMHBUF(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pMsgHBufOpts, PMQVOID pName, PMQVOID pMsgDesc,
             MQLONG BufferLength, PMQVOID pBuffer, PMQLONG pDataLength, PMQLONG pCompCode,
             PMQLONG pReason);
void MQSUB(MQHCONN Hconn, PMQVOID pSubDesc, PMQHOBJ pHobj, PMQHOBJ pHsub, PMQLONG pCompCode,
           PMQLONG pReason);
void MQSUBRQ(MQHCONN Hconn, MQHOBJ Hsub, MQLONG Action, PMQVOID pSubRqOpts, PMQLONG pCompCode,
             PMQLONG pReason);
void MQCB(MQHCONN Hconn, MQLONG Operation, PMQVOID pCallbackDesc, MQHOBJ Hobj, PMQVOID pMsgDesc,
          PMQVOID pGetMsgOpts, PMQLONG pCompCode, PMQLONG pReason);
void MQCTL(MQHCONN Hconn, MQLONG Operation, PMQVOID pControlOpts, PMQLONG pCompCode,
           PMQLONG pReason);

/* ---- The calls as function types (MQIEP entry points, dynamic loading) ------------------ */

typedef void MQENTRY MQ_BACK_CALL(MQHCONN Hconn, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_BACK_CALL *PMQ_BACK_CALL;
typedef void MQENTRY MQ_BEGIN_CALL(MQHCONN Hconn, PMQVOID pBeginOptions, PMQLONG pCompCode,
                                   PMQLONG pReason);
typedef MQ_BEGIN_CALL *PMQ_BEGIN_CALL;
typedef void MQENTRY MQ_BUFMH_CALL(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pBufMsgHOpts,
                                   PMQVOID pMsgDesc, MQLONG BufferLength, PMQVOID pBuffer,
                                   PMQLONG pDataLength, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_BUFMH_CALL *PMQ_BUFMH_CALL;
typedef void MQENTRY MQ_CB_CALL(MQHCONN Hconn, MQLONG Operation, PMQVOID pCallbackDesc,
                                MQHOBJ Hobj, PMQVOID pMsgDesc, PMQVOID pGetMsgOpts,
                                PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_CB_CALL *PMQ_CB_CALL;
typedef void MQENTRY MQ_CLOSE_CALL(MQHCONN Hconn, PMQHOBJ pHobj, MQLONG Options,
                                   PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_CLOSE_CALL *PMQ_CLOSE_CALL;
typedef void MQENTRY MQ_CMIT_CALL(MQHCONN Hconn, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_CMIT_CALL *PMQ_CMIT_CALL;
typedef void MQENTRY MQ_CONN_CALL(PMQCHAR pQMgrName, PMQHCONN pHconn, PMQLONG pCompCode,
                                  PMQLONG pReason);
typedef MQ_CONN_CALL *PMQ_CONN_CALL;
typedef void MQENTRY MQ_CONNX_CALL(PMQCHAR pQMgrName, PMQCNO pConnectOpts, PMQHCONN pHconn,
                                   PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_CONNX_CALL *PMQ_CONNX_CALL;
typedef void MQENTRY MQ_CRTMH_CALL(MQHCONN Hconn, PMQVOID pCrtMsgHOpts, PMQHMSG pHmsg,
                                   PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_CRTMH_CALL *PMQ_CRTMH_CALL;
typedef void MQENTRY MQ_CTL_CALL(MQHCONN Hconn, MQLONG Operation, PMQVOID pControlOpts,
                                 PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_CTL_CALL *PMQ_CTL_CALL;
typedef void MQENTRY MQ_DISC_CALL(PMQHCONN pHconn, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_DISC_CALL *PMQ_DISC_CALL;
typedef void MQENTRY MQ_DLTMH_CALL(MQHCONN Hconn, PMQHMSG pHmsg, PMQVOID pDltMsgHOpts,
                                   PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_DLTMH_CALL *PMQ_DLTMH_CALL;
typedef void MQENTRY MQ_DLTMP_CALL(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pDltPropOpts,
                                   PMQVOID pName, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_DLTMP_CALL *PMQ_DLTMP_CALL;
typedef void MQENTRY MQ_GET_CALL(MQHCONN Hconn, MQHOBJ Hobj, PMQVOID pMsgDesc,
                                 PMQVOID pGetMsgOpts, MQLONG BufferLength, PMQVOID pBuffer,
                                 PMQLONG pDataLength, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_GET_CALL *PMQ_GET_CALL;
typedef void MQENTRY MQ_INQ_CALL(MQHCONN Hconn, MQHOBJ Hobj, MQLONG SelectorCount,
                                 PMQLONG pSelectors, MQLONG IntAttrCount, PMQLONG pIntAttrs,
                                 MQLONG CharAttrLength, PMQCHAR pCharAttrs, PMQLONG pCompCode,
                                 PMQLONG pReason);
typedef MQ_INQ_CALL *PMQ_INQ_CALL;
typedef void MQENTRY MQ_INQMP_CALL(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pInqPropOpts,
                                   PMQVOID pName, PMQVOID pPropDesc, PMQLONG pType,
                                   MQLONG ValueLength, PMQVOID pValue, PMQLONG pDataLength,
                                   PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_INQMP_CALL *PMQ_INQMP_CALL;
typedef void MQENTRY MQ_MHBUF_CALL(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pMsgHBufOpts,
                                   PMQVOID pName, PMQVOID pMsgDesc, MQLONG BufferLength,
                                   PMQVOID pBuffer, PMQLONG pDataLength, PMQLONG pCompCode,
                                   PMQLONG pReason);
typedef MQ_MHBUF_CALL *PMQ_MHBUF_CALL;
typedef void MQENTRY MQ_OPEN_CALL(MQHCONN Hconn, PMQVOID pObjDesc, MQLONG Options,
                                  PMQHOBJ pHobj, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_OPEN_CALL *PMQ_OPEN_CALL;
typedef void MQENTRY MQ_PUT_CALL(MQHCONN Hconn, MQHOBJ Hobj, PMQVOID pMsgDesc,
                                 PMQVOID pPutMsgOpts, MQLONG BufferLength, PMQVOID pBuffer,
                                 PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_PUT_CALL *PMQ_PUT_CALL;
typedef void MQENTRY MQ_PUT1_CALL(MQHCONN Hconn, PMQVOID pObjDesc, PMQVOID pMsgDesc,
                                  PMQVOID pPutMsgOpts, MQLONG BufferLength, PMQVOID pBuffer,
                                  PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_PUT1_CALL *PMQ_PUT1_CALL;
typedef void MQENTRY MQ_SET_CALL(MQHCONN Hconn, MQHOBJ Hobj, MQLONG SelectorCount,
                                 PMQLONG pSelectors, MQLONG IntAttrCount, PMQLONG pIntAttrs,
                                 MQLONG CharAttrLength, PMQCHAR pCharAttrs, PMQLONG pCompCode,
                                 PMQLONG pReason);
typedef MQ_SET_CALL *PMQ_SET_CALL;
typedef void MQENTRY MQ_SETMP_CALL(MQHCONN Hconn, MQHMSG Hmsg, PMQVOID pSetPropOpts,
                                   PMQVOID pName, PMQVOID pPropDesc, MQLONG Type,
                                   MQLONG ValueLength, PMQVOID pValue, PMQLONG pCompCode,
                                   PMQLONG pReason);
typedef MQ_SETMP_CALL *PMQ_SETMP_CALL;
typedef void MQENTRY MQ_STAT_CALL(MQHCONN Hconn, MQLONG Type, PMQVOID pStatus,
                                  PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_STAT_CALL *PMQ_STAT_CALL;
typedef void MQENTRY MQ_SUB_CALL(MQHCONN Hconn, PMQVOID pSubDesc, PMQHOBJ pHobj,
                                 PMQHOBJ pHsub, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_SUB_CALL *PMQ_SUB_CALL;
typedef void MQENTRY MQ_SUBRQ_CALL(MQHCONN Hconn, MQHOBJ Hsub, MQLONG Action,
                                   PMQVOID pSubRqOpts, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_SUBRQ_CALL *PMQ_SUBRQ_CALL;

/* Pointers to the pointers the API exit functions (cmqxc.h) receive */
typedef PMQHCONN *PPMQHCONN;
typedef PMQHOBJ *PPMQHOBJ;
typedef PMQBO *PPMQBO;
typedef PMQCBC *PPMQCBC;
typedef PMQCBD *PPMQCBD;
typedef PMQCTLO *PPMQCTLO;
typedef PMQCNO *PPMQCNO;
typedef PMQGMO *PPMQGMO;
typedef PMQMD *PPMQMD;
typedef PMQOD *PPMQOD;
typedef PMQPMO *PPMQPMO;
typedef PMQSD *PPMQSD;
typedef PMQSRO *PPMQSRO;
typedef PMQSTS *PPMQSTS;

#if defined(__cplusplus)
}
#endif

/* ---- The rest of the reference's constants, generated by gen-constants.py from reference/mqi-constants.tsv ---- */

#define MQACTIVE_NO 0
#define MQACTIVE_YES 1
#define MQACTP_FORWARD 1
#define MQACTP_REPLY 2
#define MQACTP_REPORT 3
#define MQACT_ADD 5
#define MQACT_ADVANCE_LOG 2
#define MQACT_ARCHIVE_LOG 11
#define MQACT_COLLECT_STATISTICS 3
#define MQACT_FAIL 9
#define MQACT_FORCE_REMOVE 1
#define MQACT_PUBSUB 4
#define MQACT_REDUCE_LOG 10
#define MQACT_REMOVE 7
#define MQACT_REMOVEALL 8
#define MQACT_REPLACE 6
#define MQADPCTX_NO 0
#define MQADPCTX_YES 1
#define MQAPPL_IMMOVABLE 0
#define MQAPPL_MOVABLE 1
#define MQAS_ACTIVE 6
#define MQAS_INACTIVE 7
#define MQAS_NONE 0
#define MQAS_STARTED 1
#define MQAS_START_WAIT 2
#define MQAS_STOPPED 3
#define MQAS_SUSPENDED 4
#define MQAS_SUSPENDED_TEMPORARY 5
#define MQAUTO_START_NO 0
#define MQAUTO_START_YES 1
#define MQBALANCED_NO 0
#define MQBALANCED_NOT_APPLICABLE 2
#define MQBALANCED_UNKNOWN 3
#define MQBALANCED_YES 1
#define MQBALSTATE_HIGH 3
#define MQBALSTATE_LOW 1
#define MQBALSTATE_NOT_APPLICABLE 0
#define MQBALSTATE_OK 2
#define MQBALSTATE_UNKNOWN 4
#define MQBA_FIRST 6001
#define MQBA_LAST 8000
#define MQBMHO_CURRENT_LENGTH 12
#define MQBND_BIND_NOT_FIXED 1
#define MQBND_BIND_ON_GROUP 2
#define MQBND_BIND_ON_OPEN 0
#define MQBO_CURRENT_LENGTH 12
#define MQBPLOCATION_ABOVE 1
#define MQBPLOCATION_BELOW 0
#define MQBPLOCATION_SWITCHING_ABOVE 2
#define MQBPLOCATION_SWITCHING_BELOW 3
#define MQCA_ADMIN_TOPIC_NAME 2105
#define MQCA_AMQP_SSL_CIPHER_SUITES 2137
#define MQCA_AMQP_VERSION 2136
#define MQCA_AUTH_INFO_CONN_NAME 2053
#define MQCA_AUTH_INFO_DESC 2046
#define MQCA_AUTH_INFO_NAME 2045
#define MQCA_AUTH_INFO_OCSP_URL 2109
#define MQCA_AUTO_REORG_CATALOG 2091
#define MQCA_AUTO_REORG_START_TIME 2090
#define MQCA_BASE_OBJECT_NAME 2002
#define MQCA_BATCH_INTERFACE_ID 2068
#define MQCA_CF_STRUC_DESC 2052
#define MQCA_CHILD 2101
#define MQCA_CHLAUTH_DESC 2118
#define MQCA_CICS_FILE_NAME 2060
#define MQCA_CLUSTER_DATE 2037
#define MQCA_CLUSTER_Q_MGR_NAME 2031
#define MQCA_CLUSTER_TIME 2038
#define MQCA_COMMAND_REPLY_Q_NAME 2067
#define MQCA_COMM_INFO_DESC 2111
#define MQCA_INITIAL_KEY 2054
#define MQCA_LAST_USED 2138
#define MQCA_LDAP_BASE_DN_GROUPS 2132
#define MQCA_LDAP_BASE_DN_USERS 2126
#define MQCA_LDAP_FIND_GROUP_FIELD 2135
#define MQCA_LDAP_GROUP_ATTR_FIELD 2134
#define MQCA_LDAP_GROUP_OBJECT_CLASS 2133
#define MQCA_LDAP_PASSWORD 2048
#define MQCA_LDAP_SHORT_USER_FIELD 2127
#define MQCA_LDAP_USER_ATTR_FIELD 2129
#define MQCA_LDAP_USER_NAME 2047
#define MQCA_LDAP_USER_OBJECT_CLASS 2128
#define MQCA_MODEL_DURABLE_Q 2096
#define MQCA_MODEL_NON_DURABLE_Q 2097
#define MQCA_MONITOR_Q_NAME 2066
#define MQCA_PASS_TICKET_APPL 2086
#define MQCA_POLICY_NAME 2112
#define MQCA_RECIPIENT_DN 2114
#define MQCA_RESUME_DATE 2098
#define MQCA_RESUME_TIME 2099
#define MQCA_SERVICE_DESC 2078
#define MQCA_SERVICE_NAME 2077
#define MQCA_SERVICE_START_ARGS 2080
#define MQCA_SERVICE_START_COMMAND 2079
#define MQCA_SERVICE_STOP_ARGS 2082
#define MQCA_SERVICE_STOP_COMMAND 2081
#define MQCA_SIGNER_DN 2113
#define MQCA_SSL_CERT_ISSUER_NAME 2130
#define MQCA_SSL_KEY_LIBRARY 2069
#define MQCA_SSL_KEY_MEMBER 2070
#define MQCA_SSL_KEY_REPO_PASSWORD 2055
#define MQCA_STDERR_DESTINATION 2084
#define MQCA_STDOUT_DESTINATION 2083
#define MQCA_STORAGE_CLASS_DESC 2042
#define MQCA_STREAM_QUEUE_NAME 2138
#define MQCA_SYSTEM_LOG_Q_NAME 2065
#define MQCA_TOPIC_DESC 2093
#define MQCA_TOPIC_NAME 2092
#define MQCA_TOPIC_STRING 2094
#define MQCA_TOPIC_STRING_FILTER 2108
#define MQCA_TPIPE_NAME 2085
#define MQCA_TRIGGER_CHANNEL_NAME 2064
#define MQCA_TRIGGER_PROGRAM_NAME 2062
#define MQCA_TRIGGER_TERM_ID 2063
#define MQCA_TRIGGER_TRANS_ID 2061
#define MQCA_USER_LIST 4000
#define MQCA_XCF_GROUP_NAME 2043
#define MQCA_XCF_MEMBER_NAME 2044
#define MQCA_XR_SSL_CIPHER_SUITES 2123
#define MQCA_XR_VERSION 2122
#define MQCCSI_AS_PUBLISHED (-4)
#define MQCHTAB_CLNTCONN 2
#define MQCHTAB_Q_MGR 1
#define MQCIT_MULTICAST 1
#define MQCMDL_LEVEL_1 100
#define MQCMDL_LEVEL_101 101
#define MQCMDL_LEVEL_110 110
#define MQCMDL_LEVEL_114 114
#define MQCMDL_LEVEL_120 120
#define MQCMDL_LEVEL_200 200
#define MQCMDL_LEVEL_201 201
#define MQCMDL_LEVEL_210 210
#define MQCMDL_LEVEL_211 211
#define MQCMDL_LEVEL_220 220
#define MQCMDL_LEVEL_221 221
#define MQCMDL_LEVEL_230 230
#define MQCMDL_LEVEL_320 320
#define MQCMDL_LEVEL_420 420
#define MQCMDL_LEVEL_711 711
#define MQCMHO_CURRENT_LENGTH 12
#define MQCNO_ACTIVITY_TRACE_DISABLED 268435456
#define MQCNO_ACTIVITY_TRACE_ENABLED 134217728
#define MQCOPY_ALL 1
#define MQCOPY_FORWARD 2
#define MQCOPY_NONE 0
#define MQCOPY_PUBLISH 4
#define MQCOPY_REPLY 8
#define MQCOPY_REPORT 16
#define MQCQT_ALIAS_Q 2
#define MQCQT_LOCAL_Q 1
#define MQCQT_Q_MGR_ALIAS 4
#define MQCQT_REMOTE_Q 3
#define MQCSP_AUTH_ID_TOKEN 2
#define MQCSRV_CONVERT_NO 0
#define MQCSRV_CONVERT_YES 1
#define MQCSRV_DLQ_NO 0
#define MQCSRV_DLQ_YES 1
#define MQDELO_LOCAL 4
#define MQDELO_NONE 0
#define MQDMHO_CURRENT_LENGTH 12
#define MQDMPO_CURRENT_LENGTH 12
#define MQDOPT_DEFINED 1
#define MQDOPT_RESOLVED 0
#define MQENC_AS_PUBLISHED (-1)
#define MQENC_DECIMAL_MASK 240
#define MQENC_DECIMAL_NORMAL 16
#define MQENC_DECIMAL_REVERSED 32
#define MQENC_DECIMAL_UNDEFINED 0
#define MQENC_FLOAT_IEEE_NORMAL 256
#define MQENC_FLOAT_IEEE_REVERSED 512
#define MQENC_FLOAT_MASK 3840
#define MQENC_FLOAT_S390 768
#define MQENC_FLOAT_TNS 1024
#define MQENC_FLOAT_UNDEFINED 0
#define MQENC_INTEGER_MASK 15
#define MQENC_INTEGER_NORMAL 1
#define MQENC_INTEGER_REVERSED 2
#define MQENC_INTEGER_UNDEFINED 0
#define MQENC_NORMAL 273
#define MQENC_RESERVED_MASK (-4096)
#define MQENC_REVERSED 546
#define MQENC_S390 785
#define MQENC_TNS 1041
#define MQET_MQSC 1
#define MQEVR_ADMIN_ONLY 5
#define MQEVR_API_ONLY 4
#define MQEVR_USER_ONLY 6
#define MQEXPI_OFF 0
#define MQEXTATTRS_ALL 0
#define MQEXTATTRS_NONDEF 1
#define MQFB_BIND_OPEN_CLUSRCVR_DEL 281
#define MQFB_BUFFER_OVERFLOW 294
#define MQFB_CICS_APPL_ABENDED 411
#define MQFB_CICS_APPL_NOT_STARTED 410
#define MQFB_CICS_BRIDGE_FAILURE 403
#define MQFB_CICS_CCSID_ERROR 405
#define MQFB_CICS_CIH_ERROR 407
#define MQFB_CICS_COMMAREA_ERROR 409
#define MQFB_CICS_CORREL_ID_ERROR 404
#define MQFB_CICS_DLQ_ERROR 412
#define MQFB_CICS_ENCODING_ERROR 406
#define MQFB_CICS_INTERNAL_ERROR 401
#define MQFB_CICS_NOT_AUTHORIZED 402
#define MQFB_CICS_UOW_BACKED_OUT 413
#define MQFB_CICS_UOW_ERROR 408
#define MQFB_DATA_LENGTH_NEGATIVE 292
#define MQFB_DATA_LENGTH_TOO_BIG 293
#define MQFB_DATA_LENGTH_TOO_SHORT 299
#define MQFB_DATA_LENGTH_ZERO 291
#define MQFB_IIH_ERROR 296
#define MQFB_IMS_ERROR 300
#define MQFB_IMS_FIRST 301
#define MQFB_IMS_LAST 399
#define MQFB_IMS_NACK_1A_REASON_FIRST 600
#define MQFB_IMS_NACK_1A_REASON_LAST 855
#define MQFB_LENGTH_OFF_BY_ONE 295
#define MQFB_MAX_ACTIVITIES 282
#define MQFB_MSG_SCOPE_MISMATCH 503
#define MQFB_NOT_AUTHORIZED_FOR_IMS 298
#define MQFB_NOT_A_GROUPUR_MSG 505
#define MQFB_NOT_A_REPOSITORY_MSG 280
#define MQFB_NOT_DELIVERED 284
#define MQFB_NOT_FORWARDED 283
#define MQFB_PUBLICATIONS_ON_REQUEST 501
#define MQFB_SELECTOR_MISMATCH 504
#define MQFB_SUBSCRIBER_IS_PUBLISHER 502
#define MQFB_UNSUPPORTED_DELIVERY 286
#define MQFB_UNSUPPORTED_FORWARDING 285
#define MQFMT_AMQP "MQAMQP  "
#define MQFSENC_NO 0
#define MQFSENC_UNKNOWN 2
#define MQFSENC_YES 1
#define MQFS_SHARED (-1)
#define MQGA_FIRST 8001
#define MQGA_LAST 9000
#define MQGMO_BROWSE_CO_OP 18874384
#define MQGMO_BROWSE_HANDLE 17825808
#define MQGS_LAST_MSG_IN_GROUP 'L'
#define MQGS_MSG_IN_GROUP 'G'
#define MQGUR_DISABLED 0
#define MQGUR_ENABLED 1
#define MQIAV_NOT_APPLICABLE (-1)
#define MQIAV_UNDEFINED (-2)
#define MQIA_ACCOUNTING_CONN_OVERRIDE 136
#define MQIA_ACCOUNTING_INTERVAL 135
#define MQIA_ACCOUNTING_MQI 133
#define MQIA_ACCOUNTING_Q 134
#define MQIA_ACTIVE_CHANNELS 100
#define MQIA_ACTIVITY_CONN_OVERRIDE 239
#define MQIA_ACTIVITY_RECORDING 138
#define MQIA_ACTIVITY_TRACE 240
#define MQIA_ADOPTNEWMCA_CHECK 102
#define MQIA_ADOPTNEWMCA_INTERVAL 104
#define MQIA_ADOPTNEWMCA_TYPE 103
#define MQIA_ADOPT_CONTEXT 260
#define MQIA_ADVANCED_CAPABILITY 273
#define MQIA_AMQP_CAPABILITY 265
#define MQIA_APPL_TYPE 1
#define MQIA_ARCHIVE 60
#define MQIA_AUTHENTICATION_FAIL_DELAY 259
#define MQIA_AUTHENTICATION_METHOD 266
#define MQIA_AUTH_INFO_TYPE 66
#define MQIA_AUTO_REORGANIZATION 173
#define MQIA_AUTO_REORG_INTERVAL 174
#define MQIA_BASE_TYPE 193
#define MQIA_BATCH_INTERFACE_AUTO 86
#define MQIA_BRIDGE_EVENT 74
#define MQIA_CAP_EXPIRY 276
#define MQIA_CERT_VAL_POLICY 252
#define MQIA_CF_CFCONLOS 246
#define MQIA_CF_LEVEL 70
#define MQIA_CF_OFFLDUSE 229
#define MQIA_CF_OFFLOAD 224
#define MQIA_CF_OFFLOAD_THRESHOLD1 225
#define MQIA_CF_OFFLOAD_THRESHOLD2 226
#define MQIA_CF_OFFLOAD_THRESHOLD3 227
#define MQIA_CF_RECAUTO 244
#define MQIA_CF_RECOVER 71
#define MQIA_CF_SMDS_BUFFERS 228
#define MQIA_CHANNEL_AUTO_DEF 55
#define MQIA_CHANNEL_AUTO_DEF_EVENT 56
#define MQIA_CHECK_CLIENT_BINDING 258
#define MQIA_CHECK_LOCAL_BINDING 257
#define MQIA_CHINIT_ADAPTERS 101
#define MQIA_CHINIT_CONTROL 119
#define MQIA_CHINIT_DISPATCHERS 105
#define MQIA_CHINIT_TRACE_AUTO_START 117
#define MQIA_CHINIT_TRACE_TABLE_SIZE 118
#define MQIA_CLUSTER_OBJECT_STATE 256
#define MQIA_CLUSTER_PUB_ROUTE 255
#define MQIA_CLUSTER_Q_TYPE 59
#define MQIA_CLUSTER_WORKLOAD_LENGTH 58
#define MQIA_CLWL_MRU_CHANNELS 97
#define MQIA_CLWL_Q_PRIORITY 96
#define MQIA_CLWL_Q_RANK 95
#define MQIA_CLWL_USEQ 98
#define MQIA_CMD_SERVER_AUTO 87
#define MQIA_CMD_SERVER_CONTROL 120
#define MQIA_CMD_SERVER_CONVERT_MSG 88
#define MQIA_CMD_SERVER_DLQ_MSG 89
#define MQIA_COMM_EVENT 232
#define MQIA_COMM_INFO_TYPE 223
#define MQIA_CONFIGURATION_EVENT 51
#define MQIA_CPI_LEVEL 27
#define MQIA_DEFINITION_TYPE 7
#define MQIA_DEF_BIND 61
#define MQIA_DEF_CLUSTER_XMIT_Q_TYPE 250
#define MQIA_DEF_INPUT_OPEN_OPTION 4
#define MQIA_DEF_PUT_RESPONSE_TYPE 184
#define MQIA_DEF_READ_AHEAD 188
#define MQIA_DISPLAY_TYPE 262
#define MQIA_DIST_LISTS 34
#define MQIA_DNS_WLM 106
#define MQIA_DURABLE_SUB 175
#define MQIA_ENCRYPTION_ALGORITHM 237
#define MQIA_EXPIRY_INTERVAL 39
#define MQIA_GROUP_UR 221
#define MQIA_HIGH_Q_DEPTH 36
#define MQIA_IGQ_PUT_AUTHORITY 65
#define MQIA_INDEX_TYPE 57
#define MQIA_INHIBIT_EVENT 48
#define MQIA_INHIBIT_PUB 181
#define MQIA_INHIBIT_SUB 182
#define MQIA_INTRA_GROUP_QUEUING 64
#define MQIA_IP_ADDRESS_VERSION 93
#define MQIA_KEY_REUSE_COUNT 267
#define MQIA_LAST_USED 276
#define MQIA_LDAP_AUTHORMD 263
#define MQIA_LDAP_NESTGRP 264
#define MQIA_LDAP_SECURE_COMM 261
#define MQIA_LISTENER_PORT_NUMBER 85
#define MQIA_LISTENER_TIMER 107
#define MQIA_LOCAL_EVENT 49
#define MQIA_LOGGER_EVENT 94
#define MQIA_LU62_CHANNELS 108
#define MQIA_MASTER_ADMIN 186
#define MQIA_MAX_CHANNELS 109
#define MQIA_MAX_CLIENTS 172
#define MQIA_MAX_GLOBAL_LOCKS 83
#define MQIA_MAX_LOCAL_LOCKS 84
#define MQIA_MAX_OPEN_Q 80
#define MQIA_MAX_PROPERTIES_LENGTH 192
#define MQIA_MAX_Q_FILE_SIZE 274
#define MQIA_MAX_Q_TRIGGERS 90
#define MQIA_MAX_RECOVERY_TASKS 171
#define MQIA_MAX_RESPONSES 230
#define MQIA_MCAST_BRIDGE 233
#define MQIA_MEDIA_IMAGE_INTERVAL 269
#define MQIA_MEDIA_IMAGE_LOG_LENGTH 270
#define MQIA_MEDIA_IMAGE_RECOVER_OBJ 271
#define MQIA_MEDIA_IMAGE_RECOVER_Q 272
#define MQIA_MEDIA_IMAGE_SCHEDULING 268
#define MQIA_MONITORING_AUTO_CLUSSDR 124
#define MQIA_MONITORING_CHANNEL 122
#define MQIA_MONITORING_Q 123
#define MQIA_MONITOR_INTERVAL 81
#define MQIA_MSG_DELIVERY_SEQUENCE 16
#define MQIA_MSG_DEQ_COUNT 38
#define MQIA_MSG_ENQ_COUNT 37
#define MQIA_MSG_MARK_BROWSE_INTERVAL 68
#define MQIA_MULTICAST 176
#define MQIA_NAMELIST_TYPE 72
#define MQIA_NPM_CLASS 78
#define MQIA_NPM_DELIVERY 196
#define MQIA_OUTBOUND_PORT_MAX 140
#define MQIA_OUTBOUND_PORT_MIN 110
#define MQIA_PAGESET_ID 62
#define MQIA_PM_DELIVERY 195
#define MQIA_POLICY_VERSION 238
#define MQIA_PROPERTY_CONTROL 190
#define MQIA_PROT_POLICY_CAPABILITY 251
#define MQIA_PROXY_SUB 199
#define MQIA_PUBSUB_CLUSTER 249
#define MQIA_PUBSUB_MAXMSG_RETRY_COUNT 206
#define MQIA_PUBSUB_MODE 187
#define MQIA_PUBSUB_NP_MSG 203
#define MQIA_PUBSUB_NP_RESP 205
#define MQIA_PUBSUB_SYNC_PT 207
#define MQIA_PUB_COUNT 215
#define MQIA_PUB_SCOPE 219
#define MQIA_QMGR_CFCONLOS 245
#define MQIA_QMOPT_CONS_COMMS_MSGS 155
#define MQIA_QMOPT_CONS_CRITICAL_MSGS 154
#define MQIA_QMOPT_CONS_ERROR_MSGS 153
#define MQIA_QMOPT_CONS_INFO_MSGS 151
#define MQIA_QMOPT_CONS_REORG_MSGS 156
#define MQIA_QMOPT_CONS_SYSTEM_MSGS 157
#define MQIA_QMOPT_CONS_WARNING_MSGS 152
#define MQIA_QMOPT_CSMT_ON_ERROR 150
#define MQIA_QMOPT_INTERNAL_DUMP 170
#define MQIA_QMOPT_LOG_COMMS_MSGS 162
#define MQIA_QMOPT_LOG_CRITICAL_MSGS 161
#define MQIA_QMOPT_LOG_ERROR_MSGS 160
#define MQIA_QMOPT_LOG_INFO_MSGS 158
#define MQIA_QMOPT_LOG_REORG_MSGS 163
#define MQIA_QMOPT_LOG_SYSTEM_MSGS 164
#define MQIA_QMOPT_LOG_WARNING_MSGS 159
#define MQIA_QMOPT_TRACE_COMMS 166
#define MQIA_QMOPT_TRACE_CONVERSION 168
#define MQIA_QMOPT_TRACE_MQI_CALLS 165
#define MQIA_QMOPT_TRACE_REORG 167
#define MQIA_QMOPT_TRACE_SYSTEM 169
#define MQIA_QSG_DISP 63
#define MQIA_Q_USERS 82
#define MQIA_READ_AHEAD 189
#define MQIA_RECEIVE_TIMEOUT 111
#define MQIA_RECEIVE_TIMEOUT_MIN 113
#define MQIA_RECEIVE_TIMEOUT_TYPE 112
#define MQIA_REMOTE_EVENT 50
#define MQIA_RESPONSE_RESTART_POINT 231
#define MQIA_RETENTION_INTERVAL 21
#define MQIA_REVERSE_DNS_LOOKUP 254
#define MQIA_SCOPE 45
#define MQIA_SECURITY_CASE 141
#define MQIA_SERVICE_CONTROL 139
#define MQIA_SERVICE_TYPE 121
#define MQIA_SHAREABILITY 23
#define MQIA_SHARED_Q_Q_MGR_NAME 77
#define MQIA_SIGNATURE_ALGORITHM 236
#define MQIA_SSL_EVENT 75
#define MQIA_SSL_FIPS_REQUIRED 92
#define MQIA_SSL_RESET_COUNT 76
#define MQIA_SSL_TASKS 69
#define MQIA_START_STOP_EVENT 52
#define MQIA_STATISTICS_AUTO_CLUSSDR 130
#define MQIA_STATISTICS_CHANNEL 129
#define MQIA_STATISTICS_INTERVAL 131
#define MQIA_STATISTICS_MQI 127
#define MQIA_STATISTICS_Q 128
#define MQIA_STREAM_QUEUE_QOS 275
#define MQIA_SUB_CONFIGURATION_EVENT 242
#define MQIA_SUB_COUNT 204
#define MQIA_SUB_SCOPE 218
#define MQIA_SUITE_B_STRENGTH 247
#define MQIA_TCP_CHANNELS 114
#define MQIA_TCP_KEEP_ALIVE 115
#define MQIA_TCP_STACK_TYPE 116
#define MQIA_TIME_SINCE_RESET 35
#define MQIA_TOLERATE_UNPROTECTED 235
#define MQIA_TOPIC_DEF_PERSISTENCE 185
#define MQIA_TOPIC_NODE_COUNT 253
#define MQIA_TOPIC_TYPE 208
#define MQIA_TRACE_ROUTE_RECORDING 137
#define MQIA_TREE_LIFE_TIME 183
#define MQIA_TRIGGER_DEPTH 29
#define MQIA_TRIGGER_INTERVAL 25
#define MQIA_TRIGGER_MSG_PRIORITY 26
#define MQIA_TRIGGER_RESTART 91
#define MQIA_TRIGGER_TYPE 28
#define MQIA_UR_DISP 222
#define MQIA_USAGE 12
#define MQIA_USER_LIST 2000
#define MQIA_USE_DEAD_LETTER_Q 234
#define MQIA_WILDCARD_OPERATION 216
#define MQIA_XR_CAPABILITY 243
#define MQIGQPA_ALTERNATE_OR_IGQ 4
#define MQIGQPA_CONTEXT 2
#define MQIGQPA_DEFAULT 1
#define MQIGQPA_ONLY_IGQ 3
#define MQIMMREASON_APPLNAME_CHANGED 4
#define MQIMMREASON_AWAITS_REPLY 6
#define MQIMMREASON_IN_TRANSACTION 5
#define MQIMMREASON_MOVING 3
#define MQIMMREASON_NONE 0
#define MQIMMREASON_NOT_CLIENT 1
#define MQIMMREASON_NOT_RECONNECTABLE 2
#define MQIMMREASON_NO_REDIRECT 7
#define MQIMPO_CURRENT_LENGTH 64
#define MQIS_NO 0
#define MQIS_YES 1
#define MQMASTER_NO 0
#define MQMASTER_YES 1
#define MQMCP_ALL (-1)
#define MQMCP_COMPAT (-2)
#define MQMCP_NONE 0
#define MQMCP_REPLY 2
#define MQMCP_USER 1
#define MQMC_AS_PARENT 0
#define MQMC_DISABLED 2
#define MQMC_ENABLED 1
#define MQMC_ONLY 3
#define MQMDS_FIFO 1
#define MQMDS_PRIORITY 0
#define MQMEDIMGINTVL_OFF 0
#define MQMEDIMGLOGLN_OFF 0
#define MQMEDIMGSCHED_AUTO 1
#define MQMEDIMGSCHED_MANUAL 0
#define MQMF_ACCEPT_UNSUP_IF_XMIT_MASK 1044480
#define MQMF_ACCEPT_UNSUP_MASK (-1048576)
#define MQMF_LAST_MSG_IN_GROUP 16
#define MQMF_LAST_SEGMENT 4
#define MQMF_MSG_IN_GROUP 8
#define MQMF_REJECT_UNSUP_MASK 4095
#define MQMF_SEGMENT 2
#define MQMF_SEGMENTATION_ALLOWED 1
#define MQMF_SEGMENTATION_INHIBITED 0
#define MQMHBO_CURRENT_LENGTH 12
#define MQMLP_ENCRYPTION_ALG_3DES 3
#define MQMLP_ENCRYPTION_ALG_AES128 4
#define MQMLP_ENCRYPTION_ALG_AES256 5
#define MQMLP_ENCRYPTION_ALG_DES 2
#define MQMLP_ENCRYPTION_ALG_NONE 0
#define MQMLP_ENCRYPTION_ALG_RC2 1
#define MQMLP_SIGN_ALG_MD5 1
#define MQMLP_SIGN_ALG_NONE 0
#define MQMLP_SIGN_ALG_SHA1 2
#define MQMLP_SIGN_ALG_SHA224 3
#define MQMLP_SIGN_ALG_SHA256 4
#define MQMLP_SIGN_ALG_SHA384 5
#define MQMLP_SIGN_ALG_SHA512 6
#define MQMLP_TOLERATE_UNPROTECTED_NO 0
#define MQMLP_TOLERATE_UNPROTECTED_YES 1
#define MQMMBI_UNLIMITED (-1)
#define MQMT_APPL_FIRST 65536
#define MQMT_APPL_LAST 999999999
#define MQMT_MQE_FIELDS 113
#define MQMT_MQE_FIELDS_FROM_MQE 112
#define MQMT_SYSTEM_FIRST 1
#define MQMT_SYSTEM_LAST 65535
#define MQNHABACKLOG_UNKNOWN (-1)
#define MQNHACONNACTV_NO 0
#define MQNHACONNACTV_YES 1
#define MQNHAINSYNC_NO 0
#define MQNHAINSYNC_YES 1
#define MQNHAROLE_ACTIVE 1
#define MQNHAROLE_REPLICA 2
#define MQNHAROLE_UNKNOWN 0
#define MQOM_NO 0
#define MQOM_YES 1
#define MQOT_ALIAS_Q 1002
#define MQOT_ALL 1001
#define MQOT_AMQP_CHANNEL 1021
#define MQOT_AUTH_REC 1022
#define MQOT_CF_STRUC 10
#define MQOT_CHLAUTH 1016
#define MQOT_CLNTCONN_CHANNEL 1014
#define MQOT_COMM_INFO 9
#define MQOT_CURRENT_CHANNEL 1011
#define MQOT_LISTENER 11
#define MQOT_LOCAL_Q 1004
#define MQOT_MODEL_Q 1003
#define MQOT_PROT_POLICY 1019
#define MQOT_RECEIVER_CHANNEL 1010
#define MQOT_REMOTE_Q 1005
#define MQOT_REMOTE_Q_MGR_NAME 1017
#define MQOT_REQUESTER_CHANNEL 1009
#define MQOT_RESERVED_1 999
#define MQOT_SAVED_CHANNEL 1012
#define MQOT_SENDER_CHANNEL 1007
#define MQOT_SERVER_CHANNEL 1008
#define MQOT_SERVICE 12
#define MQOT_SHORT_CHANNEL 1015
#define MQOT_SVRCONN_CHANNEL 1013
#define MQOT_TT_CHANNEL 1020
#define MQPAGECLAS_4KB 0
#define MQPAGECLAS_FIXED4KB 1
#define MQPD_ACCEPT_UNSUP_IF_XMIT_MASK 1047552
#define MQPD_ACCEPT_UNSUP_MASK 1023
#define MQPD_CURRENT_LENGTH 24
#define MQPD_REJECT_UNSUP_MASK (-1048576)
#define MQPD_SUPPORT_REQUIRED 1048576
#define MQPD_SUPPORT_REQUIRED_IF_LOCAL 1024
#define MQPD_USER_CONTEXT 1
#define MQPER_PERSISTENCE_AS_TOPIC_DEF 2
#define MQPL_NSS 13
#define MQPL_OPEN_TP1 15
#define MQPL_TPF 23
#define MQPL_VM 18
#define MQPL_VMS 12
#define MQPL_VSE 27
#define MQPMO_PUB_OPTIONS_MASK 2097152
#define MQPRI_PRIORITY_AS_TOPIC_DEF (-1)
#define MQPROP_ALL 2
#define MQPROP_FORCE_MQRFH2 3
#define MQPROP_NONE 1
#define MQPROP_UNRESTRICTED_LENGTH (-1)
#define MQPROP_V6COMPAT 4
#define MQPSCT_NONE (-1)
#define MQPSPROP_COMPAT 1
#define MQPSPROP_MSGPROP 3
#define MQPSPROP_NONE 0
#define MQPSPROP_RFH2 2
#define MQQA_BACKOUT_HARDENED 1
#define MQQA_BACKOUT_NOT_HARDENED 0
#define MQQA_NOT_SHAREABLE 0
#define MQQA_SHAREABLE 1
#define MQQDT_PERMANENT_DYNAMIC 2
#define MQQDT_PREDEFINED 1
#define MQQDT_SHARED_DYNAMIC 4
#define MQQDT_TEMPORARY_DYNAMIC 3
#define MQQFS_DEFAULT (-1)
#define MQQMOPT_DISABLED 0
#define MQQMOPT_ENABLED 1
#define MQQMOPT_REPLY 2
#define MQQSGD_ALL (-1)
#define MQQSGD_COPY 1
#define MQQSGD_GROUP 3
#define MQQSGD_LIVE 6
#define MQQSGD_PRIVATE 4
#define MQQSGD_Q_MGR 0
#define MQQSGD_SHARED 2
#define MQQT_ALL 1001
#define MQQT_CLUSTER 7
#define MQRC_ACTION_ERROR 2535
#define MQRC_ADAPTER_CONN_LOAD_ERROR 2129
#define MQRC_ADAPTER_CONV_LOAD_ERROR 2133
#define MQRC_ADAPTER_DEFS_ERROR 2131
#define MQRC_ADAPTER_DEFS_LOAD_ERROR 2132
#define MQRC_ADAPTER_DISC_LOAD_ERROR 2138
#define MQRC_ADAPTER_NOT_AVAILABLE 2204
#define MQRC_ADAPTER_SERV_LOAD_ERROR 2130
#define MQRC_ADAPTER_STORAGE_SHORTAGE 2127
#define MQRC_ADMIN_TOPIC_STRING_ERROR 2598
#define MQRC_AIR_ERROR 2385
#define MQRC_ALIAS_BASE_Q_TYPE_ERROR 2001
#define MQRC_ALIAS_TARGTYPE_CHANGED 2480
#define MQRC_ALREADY_CONNECTED 2002
#define MQRC_ALREADY_JOINED 2542
#define MQRC_ALTER_SUB_ERROR 2435
#define MQRC_AMQP_NOT_AVAILABLE 2599
#define MQRC_ANOTHER_Q_MGR_CONNECTED 2103
#define MQRC_API_EXIT_ERROR 2374
#define MQRC_API_EXIT_INIT_ERROR 2375
#define MQRC_API_EXIT_LOAD_ERROR 2183
#define MQRC_API_EXIT_NOT_FOUND 2182
#define MQRC_API_EXIT_TERM_ERROR 2376
#define MQRC_APPL_FIRST 900
#define MQRC_APPL_LAST 999
#define MQRC_ASID_MISMATCH 2157
#define MQRC_ASYNC_UOW_CONFLICT 2529
#define MQRC_ASYNC_XA_CONFLICT 2530
#define MQRC_ATTRIBUTE_LOCKED 6104
#define MQRC_AUTH_INFO_CONN_NAME_ERROR 2387
#define MQRC_AUTH_INFO_REC_COUNT_ERROR 2383
#define MQRC_AUTH_INFO_REC_ERROR 2384
#define MQRC_AUTH_INFO_TYPE_ERROR 2386
#define MQRC_BAG_CONVERSION_ERROR 2303
#define MQRC_BINARY_DATA_LENGTH_ERROR 6111
#define MQRC_BNO_ERROR 2602
#define MQRC_BO_ERROR 2134
#define MQRC_BRIDGE_STARTED 2125
#define MQRC_BRIDGE_STOPPED 2126
#define MQRC_BUFFER_NOT_AUTOMATIC 6112
#define MQRC_CALLBACK_ROUTINE_ERROR 2486
#define MQRC_CBD_OPTIONS_ERROR 2484
#define MQRC_CCDT_URL_ERROR 2600
#define MQRC_CD_ARRAY_ERROR 2576
#define MQRC_CD_ERROR 2277
#define MQRC_CERT_LABEL_NOT_ALLOWED 2596
#define MQRC_CERT_VAL_POLICY_ERROR 2593
#define MQRC_CFBF_ERROR 2422
#define MQRC_CFBS_ERROR 2395
#define MQRC_CFGR_ERROR 2416
#define MQRC_CFH_ERROR 2235
#define MQRC_CFIF_ERROR 2414
#define MQRC_CFIL_ERROR 2236
#define MQRC_CFIN_ERROR 2237
#define MQRC_CFSF_ERROR 2415
#define MQRC_CFSL_ERROR 2238
#define MQRC_CFST_ERROR 2239
#define MQRC_CF_NOT_AVAILABLE 2345
#define MQRC_CF_STRUC_AUTH_FAILED 2348
#define MQRC_CF_STRUC_ERROR 2349
#define MQRC_CF_STRUC_FAILED 2373
#define MQRC_CF_STRUC_IN_USE 2346
#define MQRC_CF_STRUC_LIST_HDR_IN_USE 2347
#define MQRC_CHANNEL_ACTIVATED 2295
#define MQRC_CHANNEL_AUTO_DEF_ERROR 2234
#define MQRC_CHANNEL_AUTO_DEF_OK 2233
#define MQRC_CHANNEL_BLOCKED 2577
#define MQRC_CHANNEL_BLOCKED_WARNING 2578
#define MQRC_CHANNEL_CONFIG_ERROR 2539
#define MQRC_CHANNEL_CONV_ERROR 2284
#define MQRC_CHANNEL_NOT_ACTIVATED 2296
#define MQRC_CHANNEL_SSL_ERROR 2371
#define MQRC_CHANNEL_SSL_WARNING 2552
#define MQRC_CHANNEL_STARTED 2282
#define MQRC_CHANNEL_STOPPED 2283
#define MQRC_CHANNEL_STOPPED_BY_USER 2279
#define MQRC_CHAR_CONVERSION_ERROR 2340
#define MQRC_CICS_BRIDGE_RESTRICTION 2187
#define MQRC_CICS_WAIT_FAILED 2140
#define MQRC_CIPHER_SPEC_NOT_SUITE_B 2591
#define MQRC_CLIENT_CHANNEL_CONFLICT 2423
#define MQRC_CLIENT_CONN_ERROR 2278
#define MQRC_CLIENT_EXIT_ERROR 2407
#define MQRC_CLIENT_EXIT_LOAD_ERROR 2406
#define MQRC_CLUSTER_EXIT_ERROR 2266
#define MQRC_CLUSTER_EXIT_LOAD_ERROR 2267
#define MQRC_CLUSTER_PUT_INHIBITED 2268
#define MQRC_CLUSTER_RESOLUTION_ERROR 2189
#define MQRC_CLUSTER_RESOURCE_ERROR 2269
#define MQRC_CMD_SERVER_NOT_AVAILABLE 2322
#define MQRC_CODED_CHAR_SET_ID_ERROR 2330
#define MQRC_COD_NOT_VALID_FOR_XCF_Q 2106
#define MQRC_COMMAND_TYPE_ERROR 2300
#define MQRC_COMMINFO_ERROR 2558
#define MQRC_CONFIG_CHANGE_OBJECT 2368
#define MQRC_CONFIG_CREATE_OBJECT 2367
#define MQRC_CONFIG_DELETE_OBJECT 2369
#define MQRC_CONFIG_REFRESH_OBJECT 2370
#define MQRC_CONNECTION_ERROR 2273
#define MQRC_CONNECTION_NOT_AUTHORIZED 2217
#define MQRC_CONNECTION_NOT_AVAILABLE 2568
#define MQRC_CONNECTION_QUIESCING 2202
#define MQRC_CONNECTION_STOPPED 2528
#define MQRC_CONNECTION_STOPPING 2203
#define MQRC_CONNECTION_SUSPENDED 2521
#define MQRC_CONN_ID_IN_USE 2160
#define MQRC_CONN_TAG_IN_USE 2271
#define MQRC_CONN_TAG_NOT_RELEASED 2344
#define MQRC_CONN_TAG_NOT_USABLE 2350
#define MQRC_CONTENT_ERROR 2554
#define MQRC_CONTEXT_OBJECT_NOT_VALID 6121
#define MQRC_CONTEXT_OPEN_ERROR 6122
#define MQRC_CONVERTED_MSG_TOO_BIG 2120
#define MQRC_CONVERTED_STRING_TOO_BIG 2190
#define MQRC_CRYPTO_HARDWARE_ERROR 2382
#define MQRC_CSP_ERROR 2595
#define MQRC_CURRENT_RECORD_ERROR 2357
#define MQRC_CURSOR_NOT_VALID 6105
#define MQRC_DATA_SET_NOT_AVAILABLE 2561
#define MQRC_DATA_TRUNCATED 6115
#define MQRC_DB2_NOT_AVAILABLE 2342
#define MQRC_DBCS_ERROR 2150
#define MQRC_DEF_SYNCPOINT_INHIBITED 2559
#define MQRC_DEF_XMIT_Q_TYPE_ERROR 2198
#define MQRC_DEF_XMIT_Q_USAGE_ERROR 2199
#define MQRC_DEST_CLASS_NOT_ALTERABLE 2533
#define MQRC_DEST_ENV_ERROR 2263
#define MQRC_DEST_NAME_ERROR 2264
#define MQRC_DH_ERROR 2135
#define MQRC_DISTRIBUTION_LIST_EMPTY 6126
#define MQRC_DLH_ERROR 2141
#define MQRC_DUPLICATE_GROUP_SUB 2514
#define MQRC_DUPLICATE_RECOV_COORD 2163
#define MQRC_ENCODING_ERROR 6106
#define MQRC_ENCODING_NOT_SUPPORTED 2308
#define MQRC_ENVIRONMENT_ERROR 2012
#define MQRC_EPH_ERROR 2420
#define MQRC_EXIT_PROPS_NOT_SUPPORTED 2588
#define MQRC_EXIT_REASON_ERROR 2377
#define MQRC_FASTPATH_NOT_AVAILABLE 2590
#define MQRC_FILE_NOT_AUDITED 2216
#define MQRC_FILE_SYSTEM_ERROR 2208
#define MQRC_FORMAT_ERROR 2110
#define MQRC_FORMAT_NOT_SUPPORTED 2317
#define MQRC_FUNCTION_ERROR 2281
#define MQRC_GET_ENABLED 2494
#define MQRC_GLOBAL_UOW_CONFLICT 2351
#define MQRC_GROUPING_NOT_ALLOWED 2562
#define MQRC_GROUPING_NOT_ALTERABLE 2515
#define MQRC_GROUP_ADDRESS_ERROR 2563
#define MQRC_HANDLE_IN_USE_FOR_UOW 2353
#define MQRC_HCONFIG_ERROR 2280
#define MQRC_HEADER_ERROR 2142
#define MQRC_HMSG_NOT_AVAILABLE 2587
#define MQRC_HOBJ_QUIESCED 2517
#define MQRC_HOBJ_QUIESCED_NO_MSGS 2518
#define MQRC_IIH_ERROR 2148
#define MQRC_INCOMPLETE_GROUP 2241
#define MQRC_INCOMPLETE_MSG 2242
#define MQRC_INCOMPLETE_TRANSACTION 2147
#define MQRC_INCONSISTENT_BROWSE 2259
#define MQRC_INCONSISTENT_CCSIDS 2243
#define MQRC_INCONSISTENT_ENCODINGS 2244
#define MQRC_INCONSISTENT_FORMAT 6119
#define MQRC_INCONSISTENT_OBJECT_STATE 6120
#define MQRC_INCONSISTENT_OPEN_OPTIONS 6127
#define MQRC_INCONSISTENT_PERSISTENCE 2185
#define MQRC_INCONSISTENT_UOW 2245
#define MQRC_INITIALIZATION_FAILED 2286
#define MQRC_INQUIRY_COMMAND_ERROR 2324
#define MQRC_INSTALLATION_MISMATCH 2583
#define MQRC_INSTALLATION_MISSING 2589
#define MQRC_INSUFFICIENT_BUFFER 6113
#define MQRC_INSUFFICIENT_DATA 6114
#define MQRC_INVALID_MSG_UNDER_CURSOR 2246
#define MQRC_INVALID_SUBSCRIPTION 2523
#define MQRC_JMS_FORMAT_ERROR 2364
#define MQRC_JSSE_ERROR 2397
#define MQRC_LDAP_PASSWORD_ERROR 2390
#define MQRC_LDAP_USER_NAME_ERROR 2388
#define MQRC_LDAP_USER_NAME_LENGTH_ERR 2389
#define MQRC_LOCAL_UOW_CONFLICT 2352
#define MQRC_LOGGER_STATUS 2411
#define MQRC_LOOPING_PUBLICATION 2541
#define MQRC_MATCH_OPTIONS_ERROR 2247
#define MQRC_MAX_MSG_LENGTH_ERROR 2485
#define MQRC_MCAST_PUB_STATUS 2571
#define MQRC_MCAST_SUB_STATUS 2572
#define MQRC_MDE_ERROR 2248
#define MQRC_MISSING_WIH 2332
#define MQRC_MIXED_CONTENT_NOT_ALLOWED 2498
#define MQRC_MODULE_ENTRY_NOT_FOUND 2497
#define MQRC_MODULE_INVALID 2496
#define MQRC_MODULE_NOT_FOUND 2495
#define MQRC_MSG_FLAGS_ERROR 2249
#define MQRC_MSG_HANDLE_COPY_FAILURE 2532
#define MQRC_MSG_HANDLE_IN_USE 2499
#define MQRC_MSG_MARKED_BROWSE_CO_OP 2200
#define MQRC_MSG_NOT_ALLOWED_IN_GROUP 2417
#define MQRC_MSG_NOT_MATCHED 2363
#define MQRC_MSG_SEQ_NUMBER_ERROR 2250
#define MQRC_MSG_TOKEN_ERROR 2331
#define MQRC_MSG_TOO_BIG_FOR_CHANNEL 2218
#define MQRC_MULTICAST_CONFIG_ERROR 2564
#define MQRC_MULTICAST_INTERFACE_ERROR 2565
#define MQRC_MULTICAST_INTERNAL_ERROR 2567
#define MQRC_MULTICAST_ONLY 2560
#define MQRC_MULTICAST_SEND_ERROR 2566
#define MQRC_MULTIPLE_INSTANCE_ERROR 2301
#define MQRC_MULTIPLE_REASONS 2136
#define MQRC_NAME_IN_USE 2201
#define MQRC_NEGATIVE_LENGTH 6117
#define MQRC_NEGATIVE_OFFSET 6118
#define MQRC_NESTED_SELECTOR_ERROR 2419
#define MQRC_NEXT_OFFSET_ERROR 2358
#define MQRC_NEXT_RECORD_ERROR 2361
#define MQRC_NOT_CONNECTED 6124
#define MQRC_NOT_CONVERTED 2119
#define MQRC_NOT_OPEN 6125
#define MQRC_NOT_PRIVILEGED 2584
#define MQRC_NO_BUFFER 6110
#define MQRC_NO_CONNECTION_REFERENCE 6109
#define MQRC_NO_DATA_AVAILABLE 2379
#define MQRC_NO_DESTINATIONS_AVAILABLE 2270
#define MQRC_NO_EXTERNAL_PARTICIPANTS 2121
#define MQRC_NO_MSG_LOCKED 2209
#define MQRC_NO_RECORD_AVAILABLE 2359
#define MQRC_NO_SUBS_MATCHED 2550
#define MQRC_NULL_POINTER 6108
#define MQRC_OBJECT_DAMAGED 2101
#define MQRC_OBJECT_LEVEL_INCOMPATIBLE 2360
#define MQRC_OBJECT_NOT_UNIQUE 2343
#define MQRC_OBJECT_Q_MGR_NAME_ERROR 2153
#define MQRC_OBJECT_RECORDS_ERROR 2155
#define MQRC_OCSP_URL_ERROR 2553
#define MQRC_OFFSET_ERROR 2251
#define MQRC_OPEN_FAILED 2137
#define MQRC_OPERATION_NOT_ALLOWED 2534
#define MQRC_OPTIONS_CHANGED 2457
#define MQRC_OPTION_ENVIRONMENT_ERROR 2274
#define MQRC_ORIGINAL_LENGTH_ERROR 2252
#define MQRC_OUTBOUND_SNI_NOT_VALID 2603
#define MQRC_OUTCOME_MIXED 2123
#define MQRC_OUTCOME_PENDING 2124
#define MQRC_PAGESET_ERROR 2193
#define MQRC_PARAMETER_MISSING 2321
#define MQRC_PARTIALLY_CONVERTED 2272
#define MQRC_PARTICIPANT_NOT_AVAILABLE 2122
#define MQRC_PARTICIPANT_NOT_DEFINED 2372
#define MQRC_PASSWORD_PROTECTION_ERROR 2594
#define MQRC_PCF_ERROR 2149
#define MQRC_PMO_RECORD_FLAGS_ERROR 2158
#define MQRC_PRECONN_EXIT_ERROR 2575
#define MQRC_PRECONN_EXIT_LOAD_ERROR 2573
#define MQRC_PRECONN_EXIT_NOT_FOUND 2574
#define MQRC_PROPERTIES_DISABLED 2586
#define MQRC_PROPERTIES_TOO_BIG 2478
#define MQRC_PROPERTY_NAME_LENGTH_ERR 2513
#define MQRC_PROP_CONV_NOT_SUPPORTED 2470
#define MQRC_PROP_NAME_NOT_CONVERTED 2492
#define MQRC_PROP_NUMBER_FORMAT_ERROR 2472
#define MQRC_PROP_TYPE_NOT_SUPPORTED 2467
#define MQRC_PROP_VALUE_NOT_CONVERTED 2466
#define MQRC_PUBLICATION_FAILURE 2502
#define MQRC_PUBLISH_EXIT_ERROR 2557
#define MQRC_PUBSUB_INHIBITED 2531
#define MQRC_PUT_MSG_RECORDS_ERROR 2159
#define MQRC_PUT_NOT_RETAINED 2479
#define MQRC_Q_ALREADY_EXISTS 2290
#define MQRC_Q_INDEX_TYPE_ERROR 2394
#define MQRC_Q_MGR_ACTIVE 2222
#define MQRC_Q_MGR_NOT_ACTIVE 2223
#define MQRC_Q_MGR_RECONNECT_REQUESTED 2601
#define MQRC_Q_SPACE_NOT_AVAILABLE 2056
#define MQRC_RAS_PROPERTY_ERROR 2229
#define MQRC_READ_AHEAD_MSGS 2458
#define MQRC_RECONNECTED 2545
#define MQRC_RECONNECTING 2544
#define MQRC_RECONNECT_INCOMPATIBLE 2547
#define MQRC_RECONNECT_QMID_MISMATCH 2546
#define MQRC_RECONNECT_Q_MGR_REQD 2555
#define MQRC_RECONNECT_TIMED_OUT 2556
#define MQRC_RECS_PRESENT_ERROR 2154
#define MQRC_REFERENCE_ERROR 6129
#define MQRC_REMOTE_Q_NAME_ERROR 2184
#define MQRC_REOPEN_EXCL_INPUT_ERROR 6100
#define MQRC_REOPEN_INQUIRE_ERROR 6101
#define MQRC_REOPEN_SAVED_CONTEXT_ERR 6102
#define MQRC_REOPEN_TEMPORARY_Q_ERROR 6103
#define MQRC_RESERVED_VALUE_ERROR 2378
#define MQRC_RESPONSE_RECORDS_ERROR 2156
#define MQRC_RES_OBJECT_STRING_ERROR 2520
#define MQRC_RETAINED_MSG_Q_ERROR 2525
#define MQRC_RETAINED_NOT_DELIVERED 2526
#define MQRC_RFH_COMMAND_ERROR 2336
#define MQRC_RFH_DUPLICATE_PARM 2338
#define MQRC_RFH_FORMAT_ERROR 2421
#define MQRC_RFH_HEADER_FIELD_ERROR 2228
#define MQRC_RFH_PARM_ERROR 2337
#define MQRC_RFH_PARM_MISSING 2339
#define MQRC_RFH_RESTRICTED_FORMAT_ERR 2527
#define MQRC_RFH_STRING_ERROR 2335
#define MQRC_RMH_ERROR 2220
#define MQRC_SCO_ERROR 2380
#define MQRC_SECOND_MARK_NOT_ALLOWED 2062
#define MQRC_SECURITY_ERROR 2063
#define MQRC_SEGMENTATION_NOT_ALLOWED 2443
#define MQRC_SEGMENTS_NOT_SUPPORTED 2365
#define MQRC_SEGMENT_LENGTH_ZERO 2253
#define MQRC_SELECTION_NOT_AVAILABLE 2551
#define MQRC_SELECTOR_ALWAYS_FALSE 2504
#define MQRC_SELECTOR_TYPE_ERROR 2299
#define MQRC_SERVICE_ERROR 2289
#define MQRC_SERVICE_NOT_AVAILABLE 2285
#define MQRC_SIGNAL1_ERROR 2099
#define MQRC_SIGNAL_OUTSTANDING 2069
#define MQRC_SIGNAL_REQUEST_ACCEPTED 2070
#define MQRC_SOAP_AXIS_ERROR 2211
#define MQRC_SOAP_DOTNET_ERROR 2210
#define MQRC_SOAP_URL_ERROR 2212
#define MQRC_SOURCE_BUFFER_ERROR 2145
#define MQRC_SOURCE_CCSID_ERROR 2111
#define MQRC_SOURCE_DECIMAL_ENC_ERROR 2113
#define MQRC_SOURCE_FLOAT_ENC_ERROR 2114
#define MQRC_SOURCE_INTEGER_ENC_ERROR 2112
#define MQRC_SOURCE_LENGTH_ERROR 2143
#define MQRC_SRC_ENV_ERROR 2261
#define MQRC_SRC_NAME_ERROR 2262
#define MQRC_SSL_ALREADY_INITIALIZED 2391
#define MQRC_SSL_ALT_PROVIDER_REQUIRED 2570
#define MQRC_SSL_CERTIFICATE_REVOKED 2401
#define MQRC_SSL_CERT_STORE_ERROR 2402
#define MQRC_SSL_CONFIG_ERROR 2392
#define MQRC_SSL_INITIALIZATION_ERROR 2393
#define MQRC_SSL_KEY_RESET_ERROR 2409
#define MQRC_SSL_NOT_ALLOWED 2396
#define MQRC_SSL_PEER_NAME_ERROR 2399
#define MQRC_SSL_PEER_NAME_MISMATCH 2398
#define MQRC_STANDBY_Q_MGR 2543
#define MQRC_STAT_TYPE_ERROR 2430
#define MQRC_STOPPED_BY_CLUSTER_EXIT 2188
#define MQRC_STORAGE_CLASS_ERROR 2105
#define MQRC_STORAGE_MEDIUM_FULL 2192
#define MQRC_STRUC_ID_ERROR 6107
#define MQRC_STRUC_LENGTH_ERROR 6123
#define MQRC_SUBSCRIPTION_CHANGE 2581
#define MQRC_SUBSCRIPTION_CREATE 2579
#define MQRC_SUBSCRIPTION_DELETE 2580
#define MQRC_SUBSCRIPTION_REFRESH 2582
#define MQRC_SUB_JOIN_NOT_ALTERABLE 29440
#define MQRC_SUB_USER_DATA_ERROR 2431
#define MQRC_SUITE_B_ERROR 2592
#define MQRC_SUPPRESSED_BY_EXIT 2109
#define MQRC_SYNCPOINT_NOT_ALLOWED 2569
#define MQRC_SYNCPOINT_NOT_AVAILABLE 2072
#define MQRC_TARGET_BUFFER_ERROR 2146
#define MQRC_TARGET_CCSID_ERROR 2115
#define MQRC_TARGET_DECIMAL_ENC_ERROR 2117
#define MQRC_TARGET_FLOAT_ENC_ERROR 2118
#define MQRC_TARGET_INTEGER_ENC_ERROR 2116
#define MQRC_TARGET_LENGTH_ERROR 2144
#define MQRC_TERMINATION_FAILED 2287
#define MQRC_TMC_ERROR 2191
#define MQRC_TM_ERROR 2265
#define MQRC_TOKEN_TIMESTAMP_NOT_VALID 2064
#define MQRC_TRIGGER_CONTROL_ERROR 2075
#define MQRC_TRIGGER_DEPTH_ERROR 2076
#define MQRC_TRIGGER_MSG_PRIORITY_ERR 2077
#define MQRC_TRIGGER_TYPE_ERROR 2078
#define MQRC_UCS2_CONVERSION_ERROR 2341
#define MQRC_UNIT_OF_WORK_NOT_STARTED 2232
#define MQRC_UNKNOWN_AUTH_ENTITY 2293
#define MQRC_UNKNOWN_CHANNEL_NAME 2540
#define MQRC_UNKNOWN_COMPONENT_NAME 2410
#define MQRC_UNKNOWN_DEF_XMIT_Q 2197
#define MQRC_UNKNOWN_ENTITY 2292
#define MQRC_UNKNOWN_Q_NAME 2288
#define MQRC_UNKNOWN_REF_OBJECT 2294
#define MQRC_UNKNOWN_XMIT_Q 2196
#define MQRC_UNSUPPORTED_CIPHER_SUITE 2400
#define MQRC_UNSUPPORTED_PROPERTY 2490
#define MQRC_UOW_CANCELED 2297
#define MQRC_UOW_COMMITTED 2408
#define MQRC_UOW_ENLISTMENT_ERROR 2354
#define MQRC_UOW_IN_PROGRESS 2128
#define MQRC_UOW_MIX_NOT_SUPPORTED 2355
#define MQRC_UOW_NOT_AVAILABLE 2255
#define MQRC_USER_ID_NOT_AVAILABLE 2291
#define MQRC_WIH_ERROR 2333
#define MQRC_WRONG_CF_LEVEL 2366
#define MQRC_WRONG_GMO_VERSION 2256
#define MQRC_WRONG_MD_VERSION 2257
#define MQRC_WRONG_VERSION 6128
#define MQRC_WXP_ERROR 2356
#define MQRC_XEPO_ERROR 2507
#define MQRC_XQH_ERROR 2260
#define MQRC_XR_NOT_AVAILABLE 6130
#define MQRC_XWAIT_CANCELED 2107
#define MQRC_XWAIT_ERROR 2108
#define MQRC_ZERO_LENGTH 6116
#define MQRD_NO_DELAY 0
#define MQRD_NO_RECONNECT (-1)
#define MQRFH_FLAGS_RESTRICTED_MASK (-65536)
#define MQROUTE_ACCUMULATE_AND_REPLY 65541
#define MQROUTE_ACCUMULATE_IN_MSG 65540
#define MQROUTE_ACCUMULATE_NONE 65539
#define MQROUTE_DELIVER_NO 8192
#define MQROUTE_DELIVER_REJ_UNSUP_MASK (-65536)
#define MQROUTE_DELIVER_YES 4096
#define MQROUTE_DETAIL_HIGH 32
#define MQROUTE_DETAIL_LOW 2
#define MQROUTE_DETAIL_MEDIUM 8
#define MQROUTE_FORWARD_ALL 256
#define MQROUTE_FORWARD_IF_SUPPORTED 512
#define MQROUTE_FORWARD_REJ_UNSUP_MASK (-65536)
#define MQROUTE_UNLIMITED_ACTIVITIES 0
#define MQRU_PUBLISH_ALL 2
#define MQRU_PUBLISH_ON_REQUEST 1
#define MQSEG_ALLOWED 'A'
#define MQSMPO_CURRENT_LENGTH 20
#define MQSO_NO_MULTICAST 128
#define MQSRO_CURRENT_LENGTH 16
#define MQSR_ACTION_PUBLICATION 1
#define MQSS_LAST_SEGMENT 'L'
#define MQSS_SEGMENT 'S'
#define MQST_BEST_EFFORT 0
#define MQST_MUST_DUP 1
#define MQSUB_DURABLE_ALL (-1)
#define MQSUB_DURABLE_ALLOWED 1
#define MQSUB_DURABLE_AS_PARENT 0
#define MQSUB_DURABLE_INHIBITED 2
#define MQSUB_DURABLE_NO 2
#define MQSUB_DURABLE_YES 1
#define MQS_AVAIL_ERROR 1
#define MQS_AVAIL_NORMAL 0
#define MQS_AVAIL_STOPPED 2
#define MQS_EXPANDST_FAILED 1
#define MQS_EXPANDST_MAXIMUM 2
#define MQS_EXPANDST_NORMAL 0
#define MQS_OPENMODE_NONE 0
#define MQS_OPENMODE_READONLY 1
#define MQS_OPENMODE_RECOVERY 3
#define MQS_OPENMODE_UPDATE 2
#define MQS_STATUS_ALLOCFAIL 5
#define MQS_STATUS_CLOSED 0
#define MQS_STATUS_CLOSING 1
#define MQS_STATUS_DATAFAIL 8
#define MQS_STATUS_NOTENABLED 4
#define MQS_STATUS_OPEN 3
#define MQS_STATUS_OPENFAIL 6
#define MQS_STATUS_OPENING 2
#define MQS_STATUS_STGFAIL 7
#define MQTMC_CURRENT_LENGTH 684
#define MQTMC_LENGTH_1 684
#define MQTOPT_ALL 2
#define MQTOPT_CLUSTER 1
#define MQTOPT_LOCAL 0
#define MQTT_DEPTH 3
#define MQTT_EVERY 2
#define MQTT_FIRST 1
#define MQTT_NONE 0
#define MQUA_FIRST 65536
#define MQUA_LAST 999999999
#define MQUS_NORMAL 0
#define MQUS_TRANSMISSION 1
#define MQVU_ANY_USER 2
#define MQVU_FIXED_USER 1
#define MQWARN_NO 0
#define MQWARN_YES 1
#define MQWS_CHAR 1
#define MQWS_DEFAULT 0
#define MQWS_TOPIC 2
#define MQXC_CALLBACK 48
#define MQXC_MQBACK 9
#define MQXC_MQCB 44
#define MQXC_MQCLOSE 2
#define MQXC_MQCMIT 10
#define MQXC_MQCTL 45
#define MQXC_MQGET 3
#define MQXC_MQINQ 6
#define MQXC_MQOPEN 1
#define MQXC_MQPUT 4
#define MQXC_MQPUT1 5
#define MQXC_MQSET 8
#define MQXC_MQSTAT 46
#define MQXC_MQSUB 42
#define MQXC_MQSUBRQ 43
#define MQXP_CURRENT_LENGTH 44
#define MQXP_LENGTH_1 44
#define MQXP_VERSION_1 1
#define MQXWD_CURRENT_LENGTH 24
#define MQXWD_LENGTH_1 24
#define MQXWD_VERSION_1 1
#define MQZSL_NOT_RETURNED 0
#define MQZSL_RETURNED 1
#define MQ_AMQP_CLIENT_ID_LENGTH 256
#define MQ_APPL_DESC_LENGTH 64
#define MQ_APPL_FUNCTION_NAME_LENGTH 10
#define MQ_APPL_TAG_LENGTH 28
#define MQ_ARCHIVE_PFX_LENGTH 36
#define MQ_ARCHIVE_UNIT_LENGTH 8
#define MQ_ASID_LENGTH 4
#define MQ_AUTH_INFO_DESC_LENGTH 64
#define MQ_AUTH_PROFILE_NAME_LENGTH 48
#define MQ_AUTO_REORG_CATALOG_LENGTH 44
#define MQ_AUTO_REORG_TIME_LENGTH 4
#define MQ_BATCH_INTERFACE_ID_LENGTH 8
#define MQ_BRIDGE_NAME_LENGTH 24
#define MQ_CERT_VAL_POLICY_ANY 0
#define MQ_CERT_VAL_POLICY_NONE 2
#define MQ_CERT_VAL_POLICY_RFC5280 1
#define MQ_CF_LEID_LENGTH 12
#define MQ_CF_STRUC_DESC_LENGTH 64
#define MQ_CHANNEL_DATE_LENGTH 12
#define MQ_CHANNEL_TIME_LENGTH 8
#define MQ_CHLAUTH_DESC_LENGTH 64
#define MQ_CICS_FILE_NAME_LENGTH 8
#define MQ_CLIENT_ID_LENGTH 23
#define MQ_CLIENT_USER_ID_LENGTH 1024
#define MQ_COMMAND_MQSC_LENGTH 32768
#define MQ_COMM_INFO_DESC_LENGTH 64
#define MQ_COMM_INFO_NAME_LENGTH 48
#define MQ_CREATION_DATE_LENGTH 12
#define MQ_CREATION_TIME_LENGTH 8
#define MQ_CSP_PASSWORD_LENGTH 256
#define MQ_CSP_TOKEN_LENGTH 8192
#define MQ_DATA_SET_NAME_LENGTH 44
#define MQ_DB2_NAME_LENGTH 4
#define MQ_DSG_NAME_LENGTH 8
#define MQ_ENTITY_NAME_LENGTH 1024
#define MQ_ENV_INFO_LENGTH 96
#define MQ_GROUP_ADDRESS_LENGTH 264
#define MQ_HOST_NAME_LENGTH 256
#define MQ_INITIAL_KEY_LENGTH 256
#define MQ_IP_ADDRESS_LENGTH 48
#define MQ_JAAS_CONFIG_LENGTH 1024
#define MQ_LDAP_BASE_DN_LENGTH 1024
#define MQ_LDAP_CLASS_LENGTH 128
#define MQ_LDAP_FIELD_LENGTH 128
#define MQ_LDAP_MCA_USER_ID_LENGTH 1024
#define MQ_LISTENER_DESC_LENGTH 64
#define MQ_LISTENER_NAME_LENGTH 48
#define MQ_LOG_CORREL_ID_LENGTH 8
#define MQ_LOG_EXTENT_NAME_LENGTH 24
#define MQ_LOG_PATH_LENGTH 1024
#define MQ_LRSN_LENGTH 12
#define MQ_LSN_LENGTH 64
#define MQ_LUWID_LENGTH 16
#define MQ_MAX_EXIT_NAME_LENGTH 128
#define MQ_MAX_LDAP_MCA_USER_ID_LENGTH 1024
#define MQ_MAX_MCA_USER_ID_LENGTH 64
#define MQ_MAX_PROPERTY_NAME_LENGTH 4095
#define MQ_MAX_USER_ID_LENGTH 64
#define MQ_MCA_JOB_NAME_LENGTH 28
#define MQ_MCA_USER_DATA_LENGTH 32
#define MQ_MCA_USER_ID_LENGTH 12
#define MQ_MQTT_MAX_KEEP_ALIVE 65536
#define MQ_MSG_HEADER_LENGTH 4000
#define MQ_NHA_INSTANCE_NAME_LENGTH 48
#define MQ_NHA_REPL_ADDRESS_LENGTH 264
#define MQ_OPERATOR_MESSAGE_LENGTH 4
#define MQ_ORIGIN_NAME_LENGTH 8
#define MQ_PASS_TICKET_APPL_LENGTH 8
#define MQ_PROGRAM_NAME_LENGTH 20
#define MQ_PSB_NAME_LENGTH 8
#define MQ_PST_ID_LENGTH 8
#define MQ_Q_MGR_CPF_LENGTH 4
#define MQ_Q_MGR_DATA_PATH_LENGTH 1024
#define MQ_RBA_LENGTH 16
#define MQ_REMOTE_PRODUCT_LENGTH 4
#define MQ_REMOTE_VERSION_LENGTH 8
#define MQ_RESPONSE_ID_LENGTH 24
#define MQ_SECURITY_PROFILE_LENGTH 40
#define MQ_SELECTOR_LENGTH 10240
#define MQ_SERVICE_ARGS_LENGTH 255
#define MQ_SERVICE_COMMAND_LENGTH 255
#define MQ_SERVICE_COMPONENT_LENGTH 48
#define MQ_SERVICE_DESC_LENGTH 64
#define MQ_SERVICE_PATH_LENGTH 255
#define MQ_SHORT_DNAME_LENGTH 256
#define MQ_SMDS_NAME_LENGTH 4
#define MQ_SSL_CIPHER_SUITE_LENGTH 32
#define MQ_SSL_ENCRYP_KEY_REPO_PWD_LEN 1536
#define MQ_SSL_HANDSHAKE_STAGE_LENGTH 32
#define MQ_SSL_KEY_LIBRARY_LENGTH 44
#define MQ_SSL_KEY_MEMBER_LENGTH 8
#define MQ_SSL_KEY_PASSPHRASE_LENGTH 1024
#define MQ_SSL_KEY_REPO_PWD_LEN 1024
#define MQ_SSL_PEER_NAME_LENGTH 1024
#define MQ_SSL_SHORT_PEER_NAME_LENGTH 256
#define MQ_STORAGE_CLASS_DESC_LENGTH 64
#define MQ_SUB_IDENTITY_LENGTH 128
#define MQ_SUB_NAME_LENGTH 10240
#define MQ_SUB_POINT_LENGTH 128
#define MQ_SUITE_B_128_BIT 2
#define MQ_SUITE_B_192_BIT 4
#define MQ_SUITE_B_SIZE 4
#define MQ_SYSP_SERVICE_LENGTH 32
#define MQ_SYSTEM_NAME_LENGTH 8
#define MQ_TASK_NUMBER_LENGTH 8
#define MQ_TEMPORARY_Q_PREFIX_LENGTH 32
#define MQ_TOPIC_DESC_LENGTH 64
#define MQ_TOPIC_NAME_LENGTH 48
#define MQ_TOTAL_EXIT_DATA_LENGTH 999
#define MQ_TOTAL_EXIT_NAME_LENGTH 999
#define MQ_TPIPE_NAME_LENGTH 8
#define MQ_TPIPE_PFX_LENGTH 4
#define MQ_TRIGGER_PROGRAM_NAME_LENGTH 8
#define MQ_TRIGGER_TERM_ID_LENGTH 4
#define MQ_TRIGGER_TRANS_ID_LENGTH 4
#define MQ_UOW_ID_LENGTH 256
#define MQ_USER_DATA_LENGTH 10240
#define MQ_VOLSER_LENGTH 6
#define MQ_XCF_GROUP_NAME_LENGTH 8
#define MQ_XCF_MEMBER_NAME_LENGTH 16

/* ---- end of generated constants ---- */

#endif /* FERRY_CMQC_H */
