/*
 * cmqcfc.h — FerryMQ's programmable command format (PCF) declarations: the structures of a PCF
 * message and the constants most PCF programs use.
 *
 * Written for FerryMQ from the public PCF reference documentation (structure field lists,
 * documented lengths and constant values). It is not IBM's header and contains none of its
 * text.
 *
 * FerryMQ is administered with MQSC commands (`ferry admin`, docs/admin.md); it does not run a
 * PCF command server yet, so a PCF message put to SYSTEM.ADMIN.COMMAND.QUEUE gets no answer and
 * mqExecute (cmqbc.h) answers MQRC_FUNCTION_NOT_SUPPORTED. This header lets programs that build
 * or read PCF messages compile; its constants are a subset: the structure types, command codes
 * and parameter identifiers for queue managers, queues, channels, listeners and connections,
 * and the reason codes FerryMQ's command language reports.
 */
#ifndef FERRY_CMQCFC_H
#define FERRY_CMQCFC_H

#include "cmqc.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* ---- Structure types (the Type field every PCF structure starts with) ------------------ */

#define MQCFT_NONE 0
#define MQCFT_COMMAND 1
#define MQCFT_RESPONSE 2
#define MQCFT_INTEGER 3
#define MQCFT_STRING 4
#define MQCFT_INTEGER_LIST 5
#define MQCFT_STRING_LIST 6
#define MQCFT_EVENT 7
#define MQCFT_USER 8
#define MQCFT_BYTE_STRING 9
#define MQCFT_TRACE_ROUTE 10
#define MQCFT_REPORT 12
#define MQCFT_INTEGER_FILTER 13
#define MQCFT_STRING_FILTER 14
#define MQCFT_BYTE_STRING_FILTER 15
#define MQCFT_COMMAND_XR 16
#define MQCFT_XR_MSG 17
#define MQCFT_XR_ITEM 18
#define MQCFT_XR_SUMMARY 19
#define MQCFT_GROUP 20
#define MQCFT_STATISTICS 21
#define MQCFT_ACCOUNTING 22
#define MQCFT_INTEGER64 23
#define MQCFT_INTEGER64_LIST 25
#define MQCFT_APP_ACTIVITY 26
#define MQCFT_STATUS 27

/* ---- MQCFH: PCF header ----------------------------------------------------------------- */

#define MQCFH_STRUC_LENGTH 36
#define MQCFH_VERSION_1 1
#define MQCFH_VERSION_2 2
#define MQCFH_VERSION_3 3
#define MQCFH_CURRENT_VERSION 3

/* Control: last message of a response or not */
#define MQCFC_NOT_LAST 0
#define MQCFC_LAST 1

typedef struct tagMQCFH {
    MQLONG Type;           /* MQCFT_COMMAND, MQCFT_RESPONSE, ... */
    MQLONG StrucLength;    /* MQCFH_STRUC_LENGTH */
    MQLONG Version;        /* MQCFH_VERSION_* */
    MQLONG Command;        /* MQCMD_* */
    MQLONG MsgSeqNumber;   /* Sequence number of the message within a response */
    MQLONG Control;        /* MQCFC_* */
    MQLONG CompCode;       /* Completion code (responses) */
    MQLONG Reason;         /* Reason code (responses) */
    MQLONG ParameterCount; /* Parameter structures that follow */
} MQCFH;
typedef MQCFH *PMQCFH;
#define MQCFH_DEFAULT                                                                              \
    MQCFT_COMMAND, MQCFH_STRUC_LENGTH, MQCFH_VERSION_1, MQCMD_NONE, 1, MQCFC_LAST, MQCC_OK,       \
     MQRC_NONE, 0

/* ---- MQEPH: embedded PCF header (a PCF header inside message data, format MQHEPCF) ------
 * MQEPH_STRUC_ID, MQEPH_VERSION_1, MQEPH_STRUC_LENGTH_FIXED and the flags are in cmqc.h. */

#define MQEPH_STRUC_ID_ARRAY 'E', 'P', 'H', ' '
#define MQEPH_LENGTH_1 68
#define MQEPH_CURRENT_LENGTH 68

typedef struct tagMQEPH {
    MQCHAR4 StrucId;       /* "EPH " */
    MQLONG Version;        /* MQEPH_VERSION_1 */
    MQLONG StrucLength;    /* The header and its PCF parameters, bytes */
    MQLONG Encoding;       /* Of the data that follows */
    MQLONG CodedCharSetId; /* Of the data that follows */
    MQCHAR8 Format;        /* Of the data that follows */
    MQLONG Flags;          /* MQEPH_* */
    MQCFH PCFHeader;       /* The PCF header; its parameters follow the MQEPH */
} MQEPH;
typedef MQEPH *PMQEPH;
#define MQEPH_DEFAULT                                                                      \
    {MQEPH_STRUC_ID_ARRAY}, MQEPH_VERSION_1, MQEPH_STRUC_LENGTH_FIXED, 0, MQCCSI_UNDEFINED, \
     {MQFMT_NONE_ARRAY}, MQEPH_NONE,                                                        \
     {MQCFT_COMMAND, MQCFH_STRUC_LENGTH, MQCFH_VERSION_3, MQCMD_NONE, 1, MQCFC_LAST,        \
      MQCC_OK, MQRC_NONE, 0}

/* ---- Parameter structures -------------------------------------------------------------- */

#define MQCFIN_STRUC_LENGTH 16
typedef struct tagMQCFIN {
    MQLONG Type;        /* MQCFT_INTEGER */
    MQLONG StrucLength; /* MQCFIN_STRUC_LENGTH */
    MQLONG Parameter;   /* Parameter identifier */
    MQLONG Value;
} MQCFIN;
typedef MQCFIN *PMQCFIN;
#define MQCFIN_DEFAULT MQCFT_INTEGER, MQCFIN_STRUC_LENGTH, 0, 0

#define MQCFIN64_STRUC_LENGTH 24
typedef struct tagMQCFIN64 {
    MQLONG Type;        /* MQCFT_INTEGER64 */
    MQLONG StrucLength; /* MQCFIN64_STRUC_LENGTH */
    MQLONG Parameter;
    MQLONG Reserved;
    MQINT64 Value;
} MQCFIN64;
typedef MQCFIN64 *PMQCFIN64;
#define MQCFIN64_DEFAULT MQCFT_INTEGER64, MQCFIN64_STRUC_LENGTH, 0, 0, 0

#define MQCFIL_STRUC_LENGTH_FIXED 16
typedef struct tagMQCFIL {
    MQLONG Type;        /* MQCFT_INTEGER_LIST */
    MQLONG StrucLength; /* MQCFIL_STRUC_LENGTH_FIXED + 4 * Count */
    MQLONG Parameter;
    MQLONG Count;     /* Values that follow */
    MQLONG Values[1]; /* Count values (the array's declared length is nominal) */
} MQCFIL;
typedef MQCFIL *PMQCFIL;
#define MQCFIL_DEFAULT MQCFT_INTEGER_LIST, MQCFIL_STRUC_LENGTH_FIXED, 0, 0, {0}

#define MQCFIL64_STRUC_LENGTH_FIXED 16
typedef struct tagMQCFIL64 {
    MQLONG Type;        /* MQCFT_INTEGER64_LIST */
    MQLONG StrucLength; /* MQCFIL64_STRUC_LENGTH_FIXED + 8 * Count */
    MQLONG Parameter;
    MQLONG Count;
    MQINT64 Values[1];
} MQCFIL64;
typedef MQCFIL64 *PMQCFIL64;
#define MQCFIL64_DEFAULT MQCFT_INTEGER64_LIST, MQCFIL64_STRUC_LENGTH_FIXED, 0, 0, {0}

#define MQCFST_STRUC_LENGTH_FIXED 20
typedef struct tagMQCFST {
    MQLONG Type;           /* MQCFT_STRING */
    MQLONG StrucLength;    /* MQCFST_STRUC_LENGTH_FIXED + StringLength, rounded up to 4 */
    MQLONG Parameter;
    MQLONG CodedCharSetId; /* MQCCSI_DEFAULT: the queue manager's */
    MQLONG StringLength;
    MQCHAR String[1]; /* StringLength characters (the array's declared length is nominal) */
} MQCFST;
typedef MQCFST *PMQCFST;
#define MQCFST_DEFAULT MQCFT_STRING, MQCFST_STRUC_LENGTH_FIXED, 0, MQCCSI_DEFAULT, 0, {""}

#define MQCFSL_STRUC_LENGTH_FIXED 24
typedef struct tagMQCFSL {
    MQLONG Type;        /* MQCFT_STRING_LIST */
    MQLONG StrucLength; /* MQCFSL_STRUC_LENGTH_FIXED + Count * StringLength, rounded up */
    MQLONG Parameter;
    MQLONG CodedCharSetId;
    MQLONG Count;        /* Strings that follow */
    MQLONG StringLength; /* Length of each string */
    MQCHAR Strings[1];
} MQCFSL;
typedef MQCFSL *PMQCFSL;
#define MQCFSL_DEFAULT                                                                             \
    MQCFT_STRING_LIST, MQCFSL_STRUC_LENGTH_FIXED, 0, MQCCSI_DEFAULT, 0, 0, {""}

#define MQCFBS_STRUC_LENGTH_FIXED 16
typedef struct tagMQCFBS {
    MQLONG Type;        /* MQCFT_BYTE_STRING */
    MQLONG StrucLength; /* MQCFBS_STRUC_LENGTH_FIXED + StringLength, rounded up to 4 */
    MQLONG Parameter;
    MQLONG StringLength;
    MQBYTE String[1];
} MQCFBS;
typedef MQCFBS *PMQCFBS;
#define MQCFBS_DEFAULT MQCFT_BYTE_STRING, MQCFBS_STRUC_LENGTH_FIXED, 0, 0, {0}

#define MQCFGR_STRUC_LENGTH 16
typedef struct tagMQCFGR {
    MQLONG Type;           /* MQCFT_GROUP */
    MQLONG StrucLength;    /* MQCFGR_STRUC_LENGTH */
    MQLONG Parameter;      /* Group identifier */
    MQLONG ParameterCount; /* Parameter structures in the group */
} MQCFGR;
typedef MQCFGR *PMQCFGR;
#define MQCFGR_DEFAULT MQCFT_GROUP, MQCFGR_STRUC_LENGTH, 0, 0

/* Filter operators */
#define MQCFOP_LESS 1
#define MQCFOP_EQUAL 2
#define MQCFOP_GREATER 4
#define MQCFOP_NOT_GREATER 3
#define MQCFOP_NOT_EQUAL 5
#define MQCFOP_NOT_LESS 6
#define MQCFOP_CONTAINS 10
#define MQCFOP_EXCLUDES 13
#define MQCFOP_LIKE 18
#define MQCFOP_NOT_LIKE 21
#define MQCFOP_CONTAINS_GEN 26
#define MQCFOP_EXCLUDES_GEN 29

#define MQCFIF_STRUC_LENGTH 20
typedef struct tagMQCFIF {
    MQLONG Type;        /* MQCFT_INTEGER_FILTER */
    MQLONG StrucLength; /* MQCFIF_STRUC_LENGTH */
    MQLONG Parameter;
    MQLONG Operator; /* MQCFOP_* */
    MQLONG FilterValue;
} MQCFIF;
typedef MQCFIF *PMQCFIF;
#define MQCFIF_DEFAULT MQCFT_INTEGER_FILTER, MQCFIF_STRUC_LENGTH, 0, 0, 0

#define MQCFSF_STRUC_LENGTH_FIXED 24
typedef struct tagMQCFSF {
    MQLONG Type;        /* MQCFT_STRING_FILTER */
    MQLONG StrucLength; /* MQCFSF_STRUC_LENGTH_FIXED + FilterValueLength, rounded up to 4 */
    MQLONG Parameter;
    MQLONG Operator;
    MQLONG CodedCharSetId;
    MQLONG FilterValueLength;
    MQCHAR FilterValue[1];
} MQCFSF;
typedef MQCFSF *PMQCFSF;
#define MQCFSF_DEFAULT                                                                             \
    MQCFT_STRING_FILTER, MQCFSF_STRUC_LENGTH_FIXED, 0, 0, MQCCSI_DEFAULT, 0, {""}

#define MQCFBF_STRUC_LENGTH_FIXED 20
typedef struct tagMQCFBF {
    MQLONG Type;        /* MQCFT_BYTE_STRING_FILTER */
    MQLONG StrucLength; /* MQCFBF_STRUC_LENGTH_FIXED + FilterValueLength, rounded up to 4 */
    MQLONG Parameter;
    MQLONG Operator;
    MQLONG FilterValueLength;
    MQBYTE FilterValue[1];
} MQCFBF;
typedef MQCFBF *PMQCFBF;
#define MQCFBF_DEFAULT MQCFT_BYTE_STRING_FILTER, MQCFBF_STRUC_LENGTH_FIXED, 0, 0, 0, {0}

/* ---- Command codes --------------------------------------------------------------------- */

#define MQCMD_NONE 0
#define MQCMD_CHANGE_Q_MGR 1
#define MQCMD_INQUIRE_Q_MGR 2
#define MQCMD_CHANGE_PROCESS 3
#define MQCMD_COPY_PROCESS 4
#define MQCMD_CREATE_PROCESS 5
#define MQCMD_DELETE_PROCESS 6
#define MQCMD_INQUIRE_PROCESS 7
#define MQCMD_CHANGE_Q 8
#define MQCMD_CLEAR_Q 9
#define MQCMD_COPY_Q 10
#define MQCMD_CREATE_Q 11
#define MQCMD_DELETE_Q 12
#define MQCMD_INQUIRE_Q 13
#define MQCMD_REFRESH_Q_MGR 16
#define MQCMD_RESET_Q_STATS 17
#define MQCMD_INQUIRE_Q_NAMES 18
#define MQCMD_INQUIRE_PROCESS_NAMES 19
#define MQCMD_INQUIRE_CHANNEL_NAMES 20
#define MQCMD_CHANGE_CHANNEL 21
#define MQCMD_COPY_CHANNEL 22
#define MQCMD_CREATE_CHANNEL 23
#define MQCMD_DELETE_CHANNEL 24
#define MQCMD_INQUIRE_CHANNEL 25
#define MQCMD_PING_CHANNEL 26
#define MQCMD_RESET_CHANNEL 27
#define MQCMD_START_CHANNEL 28
#define MQCMD_STOP_CHANNEL 29
#define MQCMD_START_CHANNEL_INIT 30
#define MQCMD_START_CHANNEL_LISTENER 31
#define MQCMD_CHANGE_NAMELIST 32
#define MQCMD_COPY_NAMELIST 33
#define MQCMD_CREATE_NAMELIST 34
#define MQCMD_DELETE_NAMELIST 35
#define MQCMD_INQUIRE_NAMELIST 36
#define MQCMD_ESCAPE 38
#define MQCMD_RESOLVE_CHANNEL 39
#define MQCMD_PING_Q_MGR 40
#define MQCMD_INQUIRE_Q_STATUS 41
#define MQCMD_INQUIRE_CHANNEL_STATUS 42
#define MQCMD_PERFM_EVENT 45
#define MQCMD_COMMAND_EVENT 99
#define MQCMD_INQUIRE_CONNECTION 85
#define MQCMD_STOP_CONNECTION 86
#define MQCMD_RESET_Q_MGR 92
#define MQCMD_CHANGE_LISTENER 93
#define MQCMD_CREATE_LISTENER 95
#define MQCMD_DELETE_LISTENER 96
#define MQCMD_INQUIRE_LISTENER 97
#define MQCMD_INQUIRE_LISTENER_STATUS 98
#define MQCMD_INQUIRE_Q_MGR_STATUS 161
#define MQCMD_INQUIRE_TOPIC 174
#define MQCMD_INQUIRE_SUBSCRIPTION 176

/* ---- Group parameters (MQCFGR) ---------------------------------------------------------------- */
#define MQGACF_FIRST 8001
#define MQGACF_COMMAND_CONTEXT 8001
#define MQGACF_COMMAND_DATA 8002

/* ---- Event origins (MQIACF_EVENT_ORIGIN) ------------------------------------------------------- */
#define MQEVO_OTHER 0
#define MQEVO_CONSOLE 1
#define MQEVO_INIT 2
#define MQEVO_MSG 3
#define MQEVO_MQSET 4
#define MQEVO_INTERNAL 5

/* ---- Parameter identifiers (integer: MQIACF_*, MQIACH_*; string: MQCACF_*, MQCACH_*) -------- */

#define MQIACF_FIRST 1001
#define MQIACF_Q_MGR_ATTRS 1001
#define MQIACF_Q_ATTRS 1002
#define MQIACF_PROCESS_ATTRS 1003
#define MQIACF_NAMELIST_ATTRS 1004
#define MQIACF_FORCE 1005
#define MQIACF_REPLACE 1006
#define MQIACF_PURGE 1007
#define MQIACF_QUIESCE 1008
#define MQIACF_MODE 1008
#define MQIACF_ALL 1009
#define MQIACF_PARAMETER_ID 1012
#define MQIACF_ERROR_ID 1013
#define MQIACF_ERROR_IDENTIFIER 1013
#define MQIACF_SELECTOR 1014
#define MQIACF_CHANNEL_ATTRS 1015
#define MQIACF_OBJECT_TYPE 1016
#define MQIACF_ERROR_OFFSET 1018
#define MQIACF_REASON_QUALIFIER 1020
#define MQIACF_COMMAND 1021
#define MQIACF_EVENT_APPL_TYPE 1010
#define MQIACF_EVENT_ORIGIN 1011
#define MQIACF_OPEN_OPTIONS 1022
#define MQIACF_PROCESS_ID 1024
#define MQIACF_THREAD_ID 1025
#define MQIACF_Q_STATUS_ATTRS 1026
#define MQIACF_UNCOMMITTED_MSGS 1027
#define MQIACF_HANDLE_STATE 1028
#define MQIACF_INQUIRY 1074
#define MQIACF_OPEN_INPUT_TYPE 1098
#define MQIACF_Q_STATUS_TYPE 1103
#define MQIACF_Q_HANDLE 1104
#define MQIACF_Q_STATUS 1105
#define MQIACF_CONNECTION_ATTRS 1107
#define MQIACF_LISTENER_ATTRS 1222
#define MQIACF_LISTENER_STATUS_ATTRS 1223
#define MQIACF_OLDEST_MSG_AGE 1227
#define MQIACF_Q_TYPES 1261

#define MQIACH_FIRST 1501
#define MQIACH_XMIT_PROTOCOL_TYPE 1501
#define MQIACH_BATCH_SIZE 1502
#define MQIACH_CHANNEL_TYPE 1511
#define MQIACH_CHANNEL_STATUS 1527
#define MQIACH_MSGS 1534

#define MQCACF_FIRST 3001
#define MQCACF_FROM_Q_NAME 3001
#define MQCACF_TO_Q_NAME 3002
#define MQCACF_Q_NAMES 3011
#define MQCACF_USER_IDENTIFIER 3025
#define MQCACF_EVENT_USER_ID 3045
#define MQCACF_EVENT_Q_MGR 3047
#define MQCACF_EVENT_APPL_IDENTITY 3049
#define MQCACF_EVENT_APPL_NAME 3050
#define MQCACF_EVENT_APPL_ORIGIN 3051
#define MQCACF_COMMAND_MQSC 3075
#define MQCACF_APPL_TAG 3058

#define MQCACH_FIRST 3501
#define MQCACH_CHANNEL_NAME 3501
#define MQCACH_XMIT_Q_NAME 3505
#define MQCACH_CONNECTION_NAME 3506

/* Queue status type (MQIACF_Q_STATUS_TYPE) and open type */
#define MQQSOT_ALL 1
#define MQQSOT_INPUT 2
#define MQQSOT_OUTPUT 3

/* Channel status (MQIACH_CHANNEL_STATUS) */
#define MQCHS_INACTIVE 0
#define MQCHS_BINDING 1
#define MQCHS_STARTING 2
#define MQCHS_RUNNING 3
#define MQCHS_STOPPING 4
#define MQCHS_RETRYING 5
#define MQCHS_STOPPED 6
#define MQCHS_REQUESTING 7
#define MQCHS_PAUSED 8
#define MQCHS_DISCONNECTED 9
#define MQCHS_INITIALIZING 13
#define MQCHS_SWITCHING 14

/* ---- Reason codes of commands (MQRCCF_*) ------------------------------------------------ */

#define MQRCCF_CFH_TYPE_ERROR 3001
#define MQRCCF_CFH_LENGTH_ERROR 3002
#define MQRCCF_CFH_VERSION_ERROR 3003
#define MQRCCF_CFH_MSG_SEQ_NUMBER_ERR 3004
#define MQRCCF_CFH_CONTROL_ERROR 3005
#define MQRCCF_CFH_PARM_COUNT_ERROR 3006
#define MQRCCF_CFH_COMMAND_ERROR 3007
#define MQRCCF_COMMAND_FAILED 3008
#define MQRCCF_CFIN_LENGTH_ERROR 3009
#define MQRCCF_CFST_LENGTH_ERROR 3010
#define MQRCCF_CFST_STRING_LENGTH_ERR 3011
#define MQRCCF_FORCE_VALUE_ERROR 3012
#define MQRCCF_STRUCTURE_TYPE_ERROR 3013
#define MQRCCF_CFIN_PARM_ID_ERROR 3014
#define MQRCCF_CFST_PARM_ID_ERROR 3015
#define MQRCCF_MSG_LENGTH_ERROR 3016
#define MQRCCF_CFIN_DUPLICATE_PARM 3017
#define MQRCCF_CFST_DUPLICATE_PARM 3018
#define MQRCCF_PARM_COUNT_TOO_SMALL 3019
#define MQRCCF_PARM_COUNT_TOO_BIG 3020
#define MQRCCF_Q_TYPE_ERROR 3022
#define MQRCCF_MD_FORMAT_ERROR 3023
#define MQRCCF_REPLACE_VALUE_ERROR 3025
#define MQRCCF_MSG_SEQ_NUMBER_ERROR 3030
#define MQRCCF_CHANNEL_TYPE_ERROR 3034
#define MQRCCF_PARM_SEQUENCE_ERROR 3035
#define MQRCCF_BATCH_SIZE_ERROR 3037
#define MQRCCF_DISC_INT_ERROR 3038
#define MQRCCF_SHORT_RETRY_ERROR 3039
#define MQRCCF_LISTENER_STARTED 3233
#define MQRCCF_LISTENER_STOPPED 3234
#define MQRCCF_LISTENER_RUNNING 3249

#if defined(__cplusplus)
}
#endif

#endif /* FERRY_CMQCFC_H */
