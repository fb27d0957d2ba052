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
#define MQCMDL_CURRENT_LEVEL 801

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
#define MQCSP_CURRENT_VERSION 1
#define MQCSP_LENGTH_1 56
#define MQCSP_CURRENT_LENGTH 56

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
} MQCSP;
typedef MQCSP *PMQCSP;

#define MQCSP_AUTH_NONE 0
#define MQCSP_AUTH_USER_ID_AND_PWD 1

#define MQCSP_DEFAULT                                                                      \
    {MQCSP_STRUC_ID_ARRAY}, MQCSP_VERSION_1, MQCSP_AUTH_NONE, {0}, NULL, 0, 0, {0}, NULL,  \
     0, 0

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
     {MQCHARV_DEFAULT}, {MQCHARV_DEFAULT}, {MQCI_NONE_ARRAY}, MQPRI_PRIORITY_AS_PARENT, {0},      \
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

#endif /* FERRY_CMQC_H */
