/*
 * cmqxc.h — FerryMQ's MQI channel definition structure (MQCD), for MQCONNX with a client
 * channel definition (MQCNO ClientConnPtr); the TLS configuration (MQSCO); and the exit
 * interface: the parameter structures of channel, API, data-conversion, pre-connect, publish and
 * cluster workload exits (MQCXP, MQACH, MQAXC, MQAXP, MQDXP, MQNXP, MQPSXP, MQPBC, MQSBC, MQWXP,
 * MQWDR, MQWQR, MQWCR), MQXEPO, the interface entry points (MQIEP), the calls MQXCNVC, MQXEP and
 * MQXCLWLN, and the exit function types (MQ_CHANNEL_EXIT, MQ_INIT_EXIT, ...).
 *
 * Written for FerryMQ from the public MQI reference documentation (the field lists and
 * documented lengths); it is not IBM's header and contains none of its text. Layouts assume
 * LP64; tests check every version's length against the documented values.
 *
 * FerryMQ reads ChannelName and ConnectionName ("host(port)"; the first of a comma-separated
 * list); an SSLCipherSpec asks for TLS 1.3, checked against the CA certificates MQSCO's
 * KeyRepository (or the MQSSLKEYR environment variable) names, and SSLPeerName ("CN=name")
 * names the certificate the server must present. Other fields are accepted and not used.
 */
#ifndef FERRY_CMQXC_H
#define FERRY_CMQXC_H

#include "cmqc.h"

#if defined(__cplusplus)
extern "C" {
#endif

#define MQ_CHANNEL_NAME_LENGTH 20
#define MQ_CONN_NAME_LENGTH 264
#define MQ_SSL_CIPHER_SPEC_LENGTH 32

#define MQCD_VERSION_1 1
#define MQCD_VERSION_2 2
#define MQCD_VERSION_3 3
#define MQCD_VERSION_4 4
#define MQCD_VERSION_5 5
#define MQCD_VERSION_6 6
#define MQCD_VERSION_7 7
#define MQCD_VERSION_8 8
#define MQCD_VERSION_9 9
#define MQCD_VERSION_10 10
#define MQCD_VERSION_11 11
#define MQCD_VERSION_12 12
#define MQCD_CURRENT_VERSION 12
#define MQCD_LENGTH_1 984
#define MQCD_LENGTH_2 1312
#define MQCD_LENGTH_3 1480
#define MQCD_LENGTH_4 1568
#define MQCD_LENGTH_5 1584
#define MQCD_LENGTH_6 1688
#define MQCD_LENGTH_7 1792
#define MQCD_LENGTH_8 1888
#define MQCD_LENGTH_9 1912
#define MQCD_LENGTH_10 1920
#define MQCD_LENGTH_11 1984
#define MQCD_LENGTH_12 1992
#define MQCD_CURRENT_LENGTH 1992

typedef struct tagMQCD {
    MQCHAR20 ChannelName;        /* Channel name */
    MQLONG Version;              /* MQCD_VERSION_* */
    MQLONG ChannelType;          /* MQCHT_* */
    MQLONG TransportType;        /* MQXPT_* */
    MQCHAR64 Desc;               /* Description */
    MQCHAR48 QMgrName;           /* Queue manager name */
    MQCHAR48 XmitQName;          /* Transmission queue */
    MQCHAR20 ShortConnectionName; /* First 20 characters of ConnectionName */
    MQCHAR20 MCAName;            /* Reserved */
    MQCHAR8 ModeName;            /* LU 6.2 mode */
    MQCHAR64 TpName;             /* LU 6.2 transaction program */
    MQLONG BatchSize;            /* BATCHSZ */
    MQLONG DiscInterval;         /* DISCINT */
    MQLONG ShortRetryCount;      /* SHORTRTY */
    MQLONG ShortRetryInterval;   /* SHORTTMR */
    MQLONG LongRetryCount;       /* LONGRTY */
    MQLONG LongRetryInterval;    /* LONGTMR */
    MQCHAR128 SecurityExit;      /* Channel exits ... */
    MQCHAR128 MsgExit;
    MQCHAR128 SendExit;
    MQCHAR128 ReceiveExit;
    MQLONG SeqNumberWrap;        /* SEQWRAP */
    MQLONG MaxMsgLength;         /* MAXMSGL */
    MQLONG PutAuthority;         /* PUTAUT */
    MQLONG DataConversion;       /* CONVERT */
    MQCHAR32 SecurityUserData;   /* Exit data ... */
    MQCHAR32 MsgUserData;
    MQCHAR32 SendUserData;
    MQCHAR32 ReceiveUserData;
    /* Version 2 */
    MQCHAR12 UserIdentifier;       /* User for the partner */
    MQCHAR12 Password;             /* Its password */
    MQCHAR12 MCAUserIdentifier;    /* MCAUSER */
    MQLONG MCAType;                /* MCATYPE */
    MQCHAR ConnectionName[264];    /* CONNAME: host(port) */
    MQCHAR12 RemoteUserIdentifier; /* Reserved */
    MQCHAR12 RemotePassword;       /* Reserved */
    /* Version 3 */
    MQCHAR128 MsgRetryExit;   /* MREXIT */
    MQCHAR32 MsgRetryUserData; /* MRDATA */
    MQLONG MsgRetryCount;     /* MRRTY */
    MQLONG MsgRetryInterval;  /* MRTMR */
    /* Version 4 */
    MQLONG HeartbeatInterval;     /* HBINT */
    MQLONG BatchInterval;         /* BATCHINT */
    MQLONG NonPersistentMsgSpeed; /* NPMSPEED */
    MQLONG StrucLength;           /* Length of this structure */
    MQLONG ExitNameLength;        /* Length of exit names */
    MQLONG ExitDataLength;        /* Length of exit data */
    MQLONG MsgExitsDefined;       /* Number of message exits */
    MQLONG SendExitsDefined;      /* Number of send exits */
    MQLONG ReceiveExitsDefined;   /* Number of receive exits */
    MQPTR MsgExitPtr;             /* Exit name and data lists ... */
    MQPTR MsgUserDataPtr;
    MQPTR SendExitPtr;
    MQPTR SendUserDataPtr;
    MQPTR ReceiveExitPtr;
    MQPTR ReceiveUserDataPtr;
    /* Version 5 */
    MQPTR ClusterPtr;       /* Cluster records */
    MQLONG ClustersDefined; /* Number of them */
    MQLONG NetworkPriority; /* NETPRTY */
    /* Version 6 */
    MQLONG LongMCAUserIdLength;    /* Long MCA user id ... */
    MQLONG LongRemoteUserIdLength;
    MQPTR LongMCAUserIdPtr;
    MQPTR LongRemoteUserIdPtr;
    MQBYTE40 MCASecurityId;        /* Security ids */
    MQBYTE40 RemoteSecurityId;
    /* Version 7 */
    MQCHAR32 SSLCipherSpec;     /* SSLCIPH */
    MQPTR SSLPeerNamePtr;       /* SSLPEER */
    MQLONG SSLPeerNameLength;   /* Its length */
    MQLONG SSLClientAuth;       /* SSLCAUTH */
    MQLONG KeepAliveInterval;   /* KAINT */
    MQCHAR48 LocalAddress;      /* LOCLADDR */
    MQLONG BatchHeartbeat;      /* BATCHHB */
    /* Version 8 */
    MQLONG HdrCompList[2];      /* COMPHDR */
    MQLONG MsgCompList[16];     /* COMPMSG */
    MQLONG CLWLChannelRank;     /* CLWLRANK */
    MQLONG CLWLChannelPriority; /* CLWLPRTY */
    MQLONG CLWLChannelWeight;   /* CLWLWGHT */
    MQLONG ChannelMonitoring;   /* MONCHL */
    MQLONG ChannelStatistics;   /* STATCHL */
    /* Version 9 */
    MQLONG SharingConversations;  /* SHARECNV */
    MQLONG PropertyControl;       /* PROPCTL */
    MQLONG MaxInstances;          /* MAXINST */
    MQLONG MaxInstancesPerClient; /* MAXINSTC */
    MQLONG ClientChannelWeight;   /* CLNTWGHT */
    MQLONG ConnectionAffinity;    /* AFFINITY */
    /* Version 10 */
    MQLONG BatchDataLimit; /* BATCHLIM */
    MQLONG UseDLQ;         /* USEDLQ */
    MQLONG DefReconnect;   /* DEFRECON */
    /* Version 11 */
    MQCHAR64 CertificateLabel; /* CERTLABL */
    /* Version 12 */
    MQLONG SPLProtection; /* SPLPROT */
} MQCD;
typedef MQCD *PMQCD;

/* ---- MQSCO: TLS configuration for a client connection (MQCNO SSLConfigPtr) ----------------
 * FerryMQ reads KeyRepository as a PEM file of trusted CA certificates (the path as given, or
 * with ".pem" added). Other fields are accepted and not used. */

#define MQSCO_STRUC_ID "SCO "
#define MQSCO_STRUC_ID_ARRAY 'S', 'C', 'O', ' '
#define MQSCO_VERSION_1 1
#define MQSCO_VERSION_2 2
#define MQSCO_VERSION_3 3
#define MQSCO_VERSION_4 4
#define MQSCO_VERSION_5 5
#define MQSCO_VERSION_6 6
#define MQSCO_CURRENT_VERSION 6
#define MQSCO_LENGTH_1 536
#define MQSCO_LENGTH_2 544
#define MQSCO_LENGTH_3 560
#define MQSCO_LENGTH_4 568
#define MQSCO_LENGTH_5 632
#define MQSCO_LENGTH_6 648
#define MQSCO_CURRENT_LENGTH 648

typedef struct tagMQSCO {
    MQCHAR4 StrucId;                 /* "SCO " */
    MQLONG Version;                  /* MQSCO_VERSION_* */
    MQCHAR256 KeyRepository;         /* Trusted certificates (FerryMQ: a PEM file) */
    MQCHAR256 CryptoHardware;        /* Cryptographic hardware */
    MQLONG AuthInfoRecCount;         /* Authentication information records ... */
    MQLONG AuthInfoRecOffset;
    MQPTR AuthInfoRecPtr;
    /* Version 2 */
    MQLONG KeyResetCount;            /* Bytes before the secret key is renegotiated */
    MQLONG FipsRequired;             /* FIPS-certified cryptography only */
    /* Version 3 */
    MQLONG EncryptionPolicySuiteB[4]; /* Suite B policy */
    /* Version 4 */
    MQLONG CertificateValPolicy;     /* Certificate validation policy */
    /* Version 5 */
    MQCHAR64 CertificateLabel;       /* Label of this client's certificate */
    /* Version 6 (FerryMQ reads PEM files, which have no password: accepted, not used) */
    MQPTR KeyRepoPasswordPtr;        /* Address of the key repository's password */
    MQLONG KeyRepoPasswordOffset;    /* Offset of the key repository's password */
    MQLONG KeyRepoPasswordLength;    /* Length of the key repository's password */
} MQSCO;
typedef MQSCO *PMQSCO;

#define MQ_SUITE_B_NOT_AVAILABLE 0
#define MQ_SUITE_B_NONE 1
#define MQSSL_FIPS_NO 0
#define MQ_CERT_VAL_POLICY_DEFAULT 0
#define MQSCO_RESET_COUNT_DEFAULT 0
#define MQRC_KEY_REPOSITORY_ERROR 2381

#define MQSCO_DEFAULT                                                                      \
    {MQSCO_STRUC_ID_ARRAY}, MQSCO_VERSION_1, {""}, {""}, 0, 0, NULL,                      \
     MQSCO_RESET_COUNT_DEFAULT, MQSSL_FIPS_NO,                                             \
     {MQ_SUITE_B_NONE, MQ_SUITE_B_NOT_AVAILABLE, MQ_SUITE_B_NOT_AVAILABLE,                 \
      MQ_SUITE_B_NOT_AVAILABLE},                                                           \
     MQ_CERT_VAL_POLICY_DEFAULT, {""}, NULL, 0, 0

#define MQCHT_SENDER 1
#define MQCHT_SERVER 2
#define MQCHT_RECEIVER 3
#define MQCHT_REQUESTER 4
#define MQCHT_CLNTCONN 6
#define MQCHT_SVRCONN 7
#define MQXPT_LOCAL 0
#define MQXPT_LU62 1
#define MQXPT_TCP 2
/* FerryMQ's: a channel over QUIC (TRPTYPE(QUIC)). */
#define MQXPT_QUIC 100
#define MQPA_DEFAULT 1
#define MQCDC_NO_SENDER_CONVERSION 0
#define MQMCAT_PROCESS 1
#define MQNPMS_NORMAL 1
#define MQNPMS_FAST 2
#define MQSCA_REQUIRED 0
#define MQSCA_OPTIONAL 1
#define MQKAI_AUTO (-1)
#define MQCOMPRESS_NOT_AVAILABLE (-1)
#define MQCOMPRESS_NONE 0
#define MQCOMPRESS_RLE 1
#define MQCOMPRESS_ZLIBFAST 2
#define MQCOMPRESS_ZLIBHIGH 4
#define MQCOMPRESS_SYSTEM 8
#define MQCOMPRESS_LZ4FAST 16
#define MQCOMPRESS_LZ4HIGH 32
#define MQMON_OFF 0
#define MQPROP_COMPATIBILITY 0
#define MQCAFTY_PREFERRED 1
#define MQUSEDLQ_YES 2
#define MQRCN_NO 0
#define MQSPL_PASSTHRU 0

#define MQCD_COMP_LIST_NONE                                                                \
    {MQCOMPRESS_NONE, MQCOMPRESS_NOT_AVAILABLE, MQCOMPRESS_NOT_AVAILABLE,                  \
     MQCOMPRESS_NOT_AVAILABLE, MQCOMPRESS_NOT_AVAILABLE, MQCOMPRESS_NOT_AVAILABLE,         \
     MQCOMPRESS_NOT_AVAILABLE, MQCOMPRESS_NOT_AVAILABLE, MQCOMPRESS_NOT_AVAILABLE,         \
     MQCOMPRESS_NOT_AVAILABLE, MQCOMPRESS_NOT_AVAILABLE, MQCOMPRESS_NOT_AVAILABLE,         \
     MQCOMPRESS_NOT_AVAILABLE, MQCOMPRESS_NOT_AVAILABLE, MQCOMPRESS_NOT_AVAILABLE,         \
     MQCOMPRESS_NOT_AVAILABLE}

/* A client-connection channel definition with the documented initial values. */
#define MQCD_CLIENT_CONN_DEFAULT                                                           \
    {""}, MQCD_VERSION_11, MQCHT_CLNTCONN, MQXPT_TCP, {""}, {""}, {""}, {""}, {""}, {""},    \
     {""}, 50, 6000, 10, 60, 999999999, 1200, {""}, {""}, {""}, {""}, 999999999, 4194304,     \
     MQPA_DEFAULT, MQCDC_NO_SENDER_CONVERSION, {""}, {""}, {""}, {""}, {""}, {""}, {""},       \
     MQMCAT_PROCESS, {""}, {""}, {""}, {""}, {""}, 10, 1000, 1, 0, MQNPMS_FAST,                \
     MQCD_LENGTH_11, MQ_EXIT_NAME_LENGTH, MQ_EXIT_DATA_LENGTH, 0, 0, 0, NULL, NULL, NULL,     \
     NULL, NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL, {0}, {0}, {""}, NULL, 0, MQSCA_REQUIRED, \
     MQKAI_AUTO, {""}, 0, {MQCOMPRESS_NONE, MQCOMPRESS_NOT_AVAILABLE}, MQCD_COMP_LIST_NONE,   \
     0, 0, 50, MQMON_OFF, MQMON_OFF, 10, MQPROP_COMPATIBILITY, 999999999, 999999999, 0,      \
     MQCAFTY_PREFERRED, 5000, MQUSEDLQ_YES, MQRCN_NO, {""}, MQSPL_PASSTHRU

/* ==== Exits ============================================================================
 * The parameter structures and calls of channel, API, data-conversion, pre-connect, publish
 * and cluster workload exits, and the forms of the exit functions themselves, so that exit
 * source written for the MQI compiles against these headers. FerryMQ does not load or call
 * user exits in this version. */

typedef PMQCD *PPMQCD;

/* The interface entry points (MQIEP, below) and the configuration handle exits receive */
typedef struct tagMQIEP MQIEP;
typedef MQIEP *PMQIEP;
typedef PMQIEP *PPMQIEP;
typedef PMQIEP MQHCONFIG;
typedef MQHCONFIG *PMQHCONFIG;

/* Exit identifiers (ExitId) */
#define MQXT_API_CROSSING_EXIT 1
#define MQXT_API_EXIT 2
#define MQXT_CHANNEL_SEC_EXIT 11
#define MQXT_CHANNEL_MSG_EXIT 12
#define MQXT_CHANNEL_SEND_EXIT 13
#define MQXT_CHANNEL_RCV_EXIT 14
#define MQXT_CHANNEL_MSG_RETRY_EXIT 15
#define MQXT_CHANNEL_AUTO_DEF_EXIT 16
#define MQXT_CLUSTER_WORKLOAD_EXIT 20
#define MQXT_PUBSUB_ROUTING_EXIT 21
#define MQXT_PUBLISH_EXIT 22
#define MQXT_PRECONNECT_EXIT 23

/* Reasons an exit is called (ExitReason) */
#define MQXR_BEFORE 1
#define MQXR_AFTER 2
#define MQXR_CONNECTION 3
#define MQXR_BEFORE_CONVERT 4
#define MQXR_INIT 11
#define MQXR_TERM 12
#define MQXR_MSG 13
#define MQXR_XMIT 14
#define MQXR_SEC_MSG 15
#define MQXR_INIT_SEC 16
#define MQXR_RETRY 17
#define MQXR_AUTO_CLUSSDR 18
#define MQXR_AUTO_RECEIVER 19
#define MQXR_CLWL_OPEN 20
#define MQXR_CLWL_PUT 21
#define MQXR_CLWL_MOVE 22
#define MQXR_CLWL_REPOS 23
#define MQXR_CLWL_REPOS_MOVE 24
#define MQXR_END_BATCH 25
#define MQXR_ACK_RECEIVED 26
#define MQXR_AUTO_SVRCONN 27
#define MQXR_AUTO_CLUSRCVR 28
#define MQXR_SEC_PARMS 29
#define MQXR_PUBLICATION 30
#define MQXR_PRECONNECT 31

/* Exit responses (ExitResponse) */
#define MQXCC_OK 0
#define MQXCC_SUPPRESS_FUNCTION (-1)
#define MQXCC_SKIP_FUNCTION (-2)
#define MQXCC_SEND_AND_REQUEST_SEC_MSG (-3)
#define MQXCC_SEND_SEC_MSG (-4)
#define MQXCC_SUPPRESS_EXIT (-5)
#define MQXCC_CLOSE_CHANNEL (-6)
#define MQXCC_REQUEST_ACK (-7)
#define MQXCC_FAILED (-8)

/* Secondary exit responses (ExitResponse2) */
#define MQXR2_PUT_WITH_DEF_ACTION 0
#define MQXR2_PUT_WITH_DEF_USERID 1
#define MQXR2_PUT_WITH_MSG_USERID 2
#define MQXR2_USE_AGENT_BUFFER 0
#define MQXR2_USE_EXIT_BUFFER 4
#define MQXR2_DEFAULT_CONTINUATION 0
#define MQXR2_CONTINUE_CHAIN 8
#define MQXR2_SUPPRESS_CHAIN 16
#define MQXR2_STATIC_CACHE 0
#define MQXR2_DYNAMIC_CACHE 32

/* Exit user area (ExitUserArea) */
#define MQXUA_NONE_ARRAY 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0

/* Capability flags (MQCXP CapabilityFlags) */
#define MQCF_NONE 0x00000000
#define MQCF_DIST_LISTS 0x00000001

/* Sources of the MCA user (MQCXP MCAUserSource) */
#define MQUSRC_MAP 0
#define MQUSRC_NOACCESS 1
#define MQUSRC_CHANNEL 2

/* ---- MQCXP: channel exit parameter -------------------------------------------------------- */

#define MQCXP_STRUC_ID "CXP "
#define MQCXP_STRUC_ID_ARRAY 'C', 'X', 'P', ' '
#define MQCXP_VERSION_1 1
#define MQCXP_VERSION_2 2
#define MQCXP_VERSION_3 3
#define MQCXP_VERSION_4 4
#define MQCXP_VERSION_5 5
#define MQCXP_VERSION_6 6
#define MQCXP_VERSION_7 7
#define MQCXP_VERSION_8 8
#define MQCXP_VERSION_9 9
#define MQCXP_CURRENT_VERSION 9
#define MQCXP_LENGTH_3 156
#define MQCXP_LENGTH_4 156
#define MQCXP_LENGTH_5 160
#define MQCXP_LENGTH_6 200
#define MQCXP_LENGTH_7 208
#define MQCXP_LENGTH_8 224
#define MQCXP_LENGTH_9 240
#define MQCXP_CURRENT_LENGTH 240

typedef struct tagMQCXP {
    MQCHAR4 StrucId;          /* "CXP " */
    MQLONG Version;           /* MQCXP_VERSION_* */
    MQLONG ExitId;            /* MQXT_CHANNEL_* */
    MQLONG ExitReason;        /* MQXR_* */
    MQLONG ExitResponse;      /* MQXCC_* */
    MQLONG ExitResponse2;     /* MQXR2_* */
    MQLONG Feedback;          /* Feedback code */
    MQLONG MaxSegmentLength;  /* Longest transmission */
    MQBYTE16 ExitUserArea;    /* The exit's own area */
    MQCHAR32 ExitData;        /* Exit data from the channel definition */
    MQLONG MsgRetryCount;     /* Times the message has been retried */
    MQLONG MsgRetryInterval;  /* Milliseconds before the next retry */
    MQLONG MsgRetryReason;    /* Reason of the previous attempt */
    MQLONG HeaderLength;      /* Length of header information */
    MQCHAR48 PartnerName;     /* Partner name */
    MQLONG FAPLevel;          /* Negotiated formats and protocols level */
    MQLONG CapabilityFlags;   /* MQCF_* */
    MQLONG ExitNumber;        /* Position of the exit in its list */
    /* Version 5 */
    MQLONG ExitSpace; /* Bytes reserved for the exit in a transmission */
    /* Version 6 */
    MQCHAR12 SSLCertUserid;         /* User id of the partner's certificate */
    MQLONG SSLRemCertIssNameLength; /* Length of the issuer name */
    MQPTR SSLRemCertIssNamePtr;     /* Address of the issuer name */
    PMQCSP SecurityParms;           /* Security parameters */
    MQLONG CurHdrCompression;       /* Header compression in use (MQCOMPRESS_*) */
    MQLONG CurMsgCompression;       /* Message compression in use (MQCOMPRESS_*) */
    /* Version 7 */
    MQHCONN Hconn;               /* Connection handle */
    MQBOOL SharingConversations; /* Conversations share the channel instance */
    /* Version 8 */
    MQLONG MCAUserSource; /* MQUSRC_* */
    PMQIEP pEntryPoints;  /* Interface entry points */
    /* Version 9 */
    MQCHAR4 RemoteProduct; /* Product of the partner */
    MQCHAR8 RemoteVersion; /* Version of the partner */
} MQCXP;
typedef MQCXP *PMQCXP;
#define MQCXP_DEFAULT                                                                      \
    {MQCXP_STRUC_ID_ARRAY}, MQCXP_VERSION_5, 0, 0, MQXCC_OK, 0, 0, 0, {MQXUA_NONE_ARRAY},  \
     {""}, 0, 0, 0, 0, {""}, 0, MQCF_NONE, 1, 0, {""}, 0, NULL, NULL, MQCOMPRESS_NONE,     \
     MQCOMPRESS_NONE, MQHC_UNUSABLE_HCONN, 0, MQUSRC_MAP, NULL, {""}, {""}

/* ---- MQACH / MQAXC / MQAXP: API exits ---------------------------------------------------- */

#define MQACH_STRUC_ID "ACH "
#define MQACH_STRUC_ID_ARRAY 'A', 'C', 'H', ' '
#define MQACH_VERSION_1 1
#define MQACH_CURRENT_VERSION 1
#define MQACH_LENGTH_1 72
#define MQACH_CURRENT_LENGTH 72

/* Chain area header: API exits pass data to each other in a chain of these */
typedef struct tagMQACH MQACH;
typedef MQACH *PMQACH;
struct tagMQACH {
    MQCHAR4 StrucId;         /* "ACH " */
    MQLONG Version;          /* MQACH_VERSION_1 */
    MQLONG StrucLength;      /* Length of this header */
    MQLONG ChainAreaLength;  /* Length of the chain area, header included */
    MQCHAR48 ExitInfoName;   /* Exit information name */
    PMQACH NextChainAreaPtr; /* Next chain area */
};
#define MQACH_DEFAULT                                                                      \
    {MQACH_STRUC_ID_ARRAY}, MQACH_VERSION_1, MQACH_LENGTH_1, 0, {""}, NULL

#define MQAXC_STRUC_ID "AXC "
#define MQAXC_STRUC_ID_ARRAY 'A', 'X', 'C', ' '
#define MQAXC_VERSION_1 1
#define MQAXC_VERSION_2 2
#define MQAXC_CURRENT_VERSION 2
#define MQAXC_LENGTH_1 392
#define MQAXC_LENGTH_2 424
#define MQAXC_CURRENT_LENGTH 424

/* Environments (MQAXC Environment) */
#define MQXE_OTHER 0
#define MQXE_MCA 1
#define MQXE_MCA_SVRCONN 2
#define MQXE_COMMAND_SERVER 3
#define MQXE_MQSC 4
#define MQXE_MCA_CLNTCONN 5

/* API exit context */
typedef struct tagMQAXC {
    MQCHAR4 StrucId;                            /* "AXC " */
    MQLONG Version;                             /* MQAXC_VERSION_* */
    MQLONG Environment;                         /* MQXE_* */
    MQCHAR12 UserId;                            /* User id of the application */
    MQBYTE40 SecurityId;                        /* Its security id */
    MQCHAR ConnectionName[MQ_CONN_NAME_LENGTH]; /* Connection name of a client */
    MQLONG LongMCAUserIdLength;                 /* Length of the long MCA user id */
    MQLONG LongRemoteUserIdLength;              /* Length of the long remote user id */
    MQPTR LongMCAUserIdPtr;                     /* Address of the long MCA user id */
    MQPTR LongRemoteUserIdPtr;                  /* Address of the long remote user id */
    MQCHAR28 ApplName;                          /* Application name */
    MQLONG ApplType;                            /* Application type (MQAT_*) */
    MQPID ProcessId;                            /* Process id */
    MQTID ThreadId;                             /* Thread id */
    /* Version 2 */
    MQCHAR ChannelName[MQ_CHANNEL_NAME_LENGTH]; /* Channel of a client connection */
    MQBYTE4 Reserved1;                          /* Reserved */
    PMQCD pChannelDefinition;                   /* Its channel definition */
} MQAXC;
typedef MQAXC *PMQAXC;
#define MQAXC_DEFAULT                                                                      \
    {MQAXC_STRUC_ID_ARRAY}, MQAXC_VERSION_1, MQXE_OTHER, {""}, {0}, {""}, 0, 0, NULL,    \
     NULL, {""}, MQAT_DEFAULT, 0, 0, {""}, {0}, NULL

#define MQAXP_STRUC_ID "AXP "
#define MQAXP_STRUC_ID_ARRAY 'A', 'X', 'P', ' '
#define MQAXP_VERSION_1 1
#define MQAXP_VERSION_2 2
#define MQAXP_CURRENT_VERSION 2
#define MQAXP_LENGTH_1 256
#define MQAXP_CURRENT_LENGTH 256

/* API caller types (MQAXP APICallerType) */
#define MQXACT_EXTERNAL 1
#define MQXACT_INTERNAL 2

/* API exit function identifiers (MQAXP Function, MQXEP Function) */
#define MQXF_INIT 1
#define MQXF_TERM 2
#define MQXF_CONN 3
#define MQXF_CONNX 4
#define MQXF_DISC 5
#define MQXF_OPEN 6
#define MQXF_CLOSE 7
#define MQXF_PUT1 8
#define MQXF_PUT 9
#define MQXF_GET 10
#define MQXF_DATA_CONV_ON_GET 11
#define MQXF_INQ 12
#define MQXF_SET 13
#define MQXF_BEGIN 14
#define MQXF_CMIT 15
#define MQXF_BACK 16
#define MQXF_STAT 18
#define MQXF_CB 19
#define MQXF_CTL 20
#define MQXF_CALLBACK 21
#define MQXF_SUB 22
#define MQXF_SUBRQ 23
#define MQXF_XACLOSE 24
#define MQXF_XACOMMIT 25
#define MQXF_XACOMPLETE 26
#define MQXF_XAEND 27
#define MQXF_XAFORGET 28
#define MQXF_XAOPEN 29
#define MQXF_XAPREPARE 30
#define MQXF_XARECOVER 31
#define MQXF_XAROLLBACK 32
#define MQXF_XASTART 33
#define MQXF_AXREG 34
#define MQXF_AXUNREG 35

/* API exit parameter */
typedef struct tagMQAXP {
    MQCHAR4 StrucId;          /* "AXP " */
    MQLONG Version;           /* MQAXP_VERSION_* */
    MQLONG ExitId;            /* MQXT_API_EXIT */
    MQLONG ExitReason;        /* MQXR_* */
    MQLONG ExitResponse;      /* MQXCC_* */
    MQLONG ExitResponse2;     /* MQXR2_* */
    MQLONG Feedback;          /* Feedback code */
    MQLONG APICallerType;     /* MQXACT_* */
    MQBYTE16 ExitUserArea;    /* The exit's own area */
    MQCHAR32 ExitData;        /* Exit data from the configuration */
    MQCHAR48 ExitInfoName;    /* Exit information name */
    MQBYTE48 ExitPDArea;      /* Problem determination area */
    MQCHAR48 QMgrName;        /* Local queue manager */
    PMQACH ExitChainAreaPtr;  /* Chain area shared by the exits */
    MQHCONFIG Hconfig;        /* Configuration handle (for MQXEP) */
    MQLONG Function;          /* MQXF_* */
    /* Version 2 */
    MQHMSG ExitMsgHandle; /* Handle of the exit's message properties */
} MQAXP;
typedef MQAXP *PMQAXP;
#define MQAXP_DEFAULT                                                                      \
    {MQAXP_STRUC_ID_ARRAY}, MQAXP_VERSION_1, MQXT_API_EXIT, 0, MQXCC_OK,                 \
     MQXR2_DEFAULT_CONTINUATION, MQFB_NONE, MQXACT_EXTERNAL, {MQXUA_NONE_ARRAY}, {""},     \
     {""}, {0}, {""}, NULL, NULL, 0, MQHM_NONE

/* ---- MQDXP: data-conversion exit parameter ------------------------------------------------ */

#define MQDXP_STRUC_ID "DXP "
#define MQDXP_STRUC_ID_ARRAY 'D', 'X', 'P', ' '
#define MQDXP_VERSION_1 1
#define MQDXP_VERSION_2 2
#define MQDXP_CURRENT_VERSION 2
#define MQDXP_LENGTH_1 44
#define MQDXP_LENGTH_2 56
#define MQDXP_CURRENT_LENGTH 56

/* Data-conversion exit responses (MQDXP ExitResponse) */
#define MQXDR_OK 0
#define MQXDR_CONVERSION_FAILED 1

typedef struct tagMQDXP {
    MQCHAR4 StrucId;       /* "DXP " */
    MQLONG Version;        /* MQDXP_VERSION_* */
    MQLONG ExitOptions;    /* Reserved */
    MQLONG AppOptions;     /* The application's MQGMO Options */
    MQLONG Encoding;       /* Encoding the application asked for */
    MQLONG CodedCharSetId; /* Character set the application asked for */
    MQLONG DataLength;     /* Length of the message data */
    MQLONG CompCode;       /* Completion code to return */
    MQLONG Reason;         /* Reason code to return */
    MQLONG ExitResponse;   /* MQXDR_* */
    MQHCONN Hconn;         /* Connection handle (for MQXCNVC) */
    /* Version 2 */
    PMQIEP pEntryPoints; /* Interface entry points */
} MQDXP;
typedef MQDXP *PMQDXP;
#define MQDXP_DEFAULT                                                                      \
    {MQDXP_STRUC_ID_ARRAY}, MQDXP_VERSION_1, 0, 0, 0, 0, 0, MQCC_OK, MQRC_NONE,           \
     MQXDR_CONVERSION_FAILED, MQHC_DEF_HCONN, NULL

/* ---- MQNXP: pre-connect exit parameter ---------------------------------------------------- */

#define MQNXP_STRUC_ID "NXP "
#define MQNXP_STRUC_ID_ARRAY 'N', 'X', 'P', ' '
#define MQNXP_VERSION_1 1
#define MQNXP_VERSION_2 2
#define MQNXP_CURRENT_VERSION 2
#define MQNXP_LENGTH_1 64
#define MQNXP_LENGTH_2 72
#define MQNXP_CURRENT_LENGTH 72

typedef struct tagMQNXP {
    MQCHAR4 StrucId;         /* "NXP " */
    MQLONG Version;          /* MQNXP_VERSION_* */
    MQLONG ExitId;           /* MQXT_PRECONNECT_EXIT */
    MQLONG ExitReason;       /* MQXR_INIT, MQXR_PRECONNECT, MQXR_TERM */
    MQLONG ExitResponse;     /* MQXCC_* */
    MQLONG ExitResponse2;    /* MQXR2_* */
    MQLONG Feedback;         /* Feedback code */
    MQLONG ExitDataLength;   /* Length of the exit data */
    PMQCHAR pExitDataPtr;    /* Exit data from the client configuration */
    MQPTR pExitUserAreaPtr;  /* The exit's own area */
    PPMQCD ppMQCDArrayPtr;   /* Channel definitions the exit returns */
    MQLONG MQCDArrayCount;   /* How many */
    MQLONG MaxMQCDVersion;   /* Highest MQCD version the caller accepts */
    /* Version 2 */
    PMQIEP pEntryPoints; /* Interface entry points */
} MQNXP;
typedef MQNXP *PMQNXP;
#define MQNXP_DEFAULT                                                                      \
    {MQNXP_STRUC_ID_ARRAY}, MQNXP_VERSION_1, MQXT_PRECONNECT_EXIT, 0, MQXCC_OK, 0, 0, 0,  \
     NULL, NULL, NULL, 0, MQCD_CURRENT_VERSION, NULL

/* ---- MQPSXP / MQPBC / MQSBC: publish exit ------------------------------------------------- */

#define MQPSXP_STRUC_ID "PSXP"
#define MQPSXP_STRUC_ID_ARRAY 'P', 'S', 'X', 'P'
#define MQPSXP_VERSION_1 1
#define MQPSXP_VERSION_2 2
#define MQPSXP_CURRENT_VERSION 2
#define MQPSXP_LENGTH_1 176
#define MQPSXP_LENGTH_2 184
#define MQPSXP_CURRENT_LENGTH 184

typedef struct tagMQPSXP {
    MQCHAR4 StrucId;       /* "PSXP" */
    MQLONG Version;        /* MQPSXP_VERSION_* */
    MQLONG ExitId;         /* MQXT_PUBLISH_EXIT */
    MQLONG ExitReason;     /* MQXR_INIT, MQXR_PUBLICATION, MQXR_TERM */
    MQLONG ExitResponse;   /* MQXCC_* */
    MQLONG ExitResponse2;  /* Reserved */
    MQLONG Feedback;       /* Feedback code */
    MQHCONN Hconn;         /* Connection handle */
    MQBYTE16 ExitUserArea; /* The exit's own area */
    MQCHAR32 ExitData;     /* Exit data from the configuration */
    MQCHAR48 QMgrName;     /* Local queue manager */
    MQHMSG MsgHandle;      /* Handle of the publication's properties */
    PMQMD MsgDescPtr;      /* Descriptor of the publication */
    PMQVOID MsgInPtr;      /* The publication as published */
    MQLONG MsgInLength;    /* Its length */
    PMQVOID MsgOutPtr;     /* The publication to deliver, if the exit replaces it */
    MQLONG MsgOutLength;   /* Its length */
    /* Version 2 */
    PMQIEP pEntryPoints; /* Interface entry points */
} MQPSXP;
typedef MQPSXP *PMQPSXP;
#define MQPSXP_DEFAULT                                                                     \
    {MQPSXP_STRUC_ID_ARRAY}, MQPSXP_VERSION_1, MQXT_PUBLISH_EXIT, 0, MQXCC_OK, 0, 0,      \
     MQHC_UNUSABLE_HCONN, {MQXUA_NONE_ARRAY}, {""}, {""}, MQHM_NONE, NULL, NULL, 0, NULL,  \
     0, NULL

#define MQPBC_STRUC_ID "PBC "
#define MQPBC_STRUC_ID_ARRAY 'P', 'B', 'C', ' '
#define MQPBC_VERSION_1 1
#define MQPBC_VERSION_2 2
#define MQPBC_CURRENT_VERSION 2
#define MQPBC_LENGTH_1 32
#define MQPBC_LENGTH_2 40
#define MQPBC_CURRENT_LENGTH 40

/* Publication context */
typedef struct tagMQPBC {
    MQCHAR4 StrucId;        /* "PBC " */
    MQLONG Version;         /* MQPBC_VERSION_* */
    MQCHARV PubTopicString; /* Topic string published to */
    /* Version 2 */
    PMQMD MsgDescPtr; /* Descriptor of the message as published */
} MQPBC;
typedef MQPBC *PMQPBC;
#define MQPBC_DEFAULT {MQPBC_STRUC_ID_ARRAY}, MQPBC_VERSION_1, {MQCHARV_DEFAULT}, NULL

#define MQSBC_STRUC_ID "SBC "
#define MQSBC_STRUC_ID_ARRAY 'S', 'B', 'C', ' '
#define MQSBC_VERSION_1 1
#define MQSBC_CURRENT_VERSION 1
#define MQSBC_LENGTH_1 288
#define MQSBC_CURRENT_LENGTH 288

/* Subscription context */
typedef struct tagMQSBC {
    MQCHAR4 StrucId;              /* "SBC " */
    MQLONG Version;               /* MQSBC_VERSION_1 */
    MQCHAR48 DestinationQMgrName; /* Queue manager of the subscriber's queue */
    MQCHAR48 DestinationQName;    /* The subscriber's queue */
    MQLONG SubType;               /* Type of subscription */
    MQLONG SubOptions;            /* MQSO_* */
    MQCHAR48 ObjectName;          /* Topic object */
    MQCHARV ObjectString;         /* Topic string */
    MQCHARV SubTopicString;       /* Topic string subscribed to */
    MQCHARV SubName;              /* Subscription name */
    MQBYTE24 SubId;               /* Subscription identifier */
    MQCHARV SelectionString;      /* Selection string */
    MQLONG SubLevel;              /* Subscription level */
    MQLONG PSProperties;          /* Publish/subscribe properties delivered */
} MQSBC;
typedef MQSBC *PMQSBC;
#define MQSBC_DEFAULT                                                                      \
    {MQSBC_STRUC_ID_ARRAY}, MQSBC_VERSION_1, {""}, {""}, 0, 0, {""}, {MQCHARV_DEFAULT},   \
     {MQCHARV_DEFAULT}, {MQCHARV_DEFAULT}, {0}, {MQCHARV_DEFAULT}, 1, 0

/* ---- Cluster workload exit: MQWXP and the records it points to (MQWDR, MQWQR, MQWCR) -----
 * MQWXP, MQWDR and MQWQR are the current versions; MQWXP1-4, MQWDR1-2 and MQWQR1-4 are the
 * same structures fixed at a version, for exits that declare the version they were written
 * for. */

/* Cluster cache types (MQWXP CacheType) */
#define MQCLCT_STATIC 0
#define MQCLCT_DYNAMIC 1

/* Flags (MQWXP Flags) */
#define MQWXP_PUT_BY_CLUSTER_CHL 0x00000002

/* Queue manager flags (MQWDR QMgrFlags) */
#define MQQMF_REPOSITORY_Q_MGR 0x00000002
#define MQQMF_CLUSSDR_USER_DEFINED 0x00000008
#define MQQMF_CLUSSDR_AUTO_DEFINED 0x00000010
#define MQQMF_AVAILABLE 0x00000020

/* Queue flags (MQWQR QFlags) */
#define MQQF_LOCAL_Q 0x00000001
#define MQQF_CLWL_USEQ_ANY 0x00000040
#define MQQF_CLWL_USEQ_LOCAL 0x00000080

#define MQWDR_STRUC_ID "WDR "
#define MQWDR_STRUC_ID_ARRAY 'W', 'D', 'R', ' '
#define MQWDR_VERSION_1 1
#define MQWDR_VERSION_2 2
#define MQWDR_CURRENT_VERSION 2
#define MQWDR_LENGTH_1 124
#define MQWDR_LENGTH_2 136
#define MQWDR_CURRENT_LENGTH 136
#define MQWDR1_LENGTH_1 124
#define MQWDR1_CURRENT_LENGTH 124
#define MQWDR2_LENGTH_1 124
#define MQWDR2_LENGTH_2 136
#define MQWDR2_CURRENT_LENGTH 136

/* Destination record: one queue manager that hosts an instance of the queue */
typedef struct tagMQWDR {
    MQCHAR4 StrucId;         /* "WDR " */
    MQLONG Version;          /* MQWDR_VERSION_* */
    MQLONG StrucLength;      /* Length of this record */
    MQLONG QMgrFlags;        /* MQQMF_* */
    MQCHAR48 QMgrIdentifier; /* Queue manager identifier */
    MQCHAR48 QMgrName;       /* Queue manager name */
    MQLONG ClusterRecOffset; /* Offset of its first cluster record (MQWCR) */
    MQLONG ChannelState;     /* State of the channel to it (MQCHS_*) */
    MQLONG ChannelDefOffset; /* Offset of its channel definition (MQCD) */
    /* Version 2 */
    MQLONG DestSeqNumber;   /* Channel destination sequence number */
    MQINT64 DestSeqFactor;  /* Channel destination sequence factor */
} MQWDR;
typedef MQWDR *PMQWDR;
typedef PMQWDR *PPMQWDR;
#define MQWDR_DEFAULT                                                                      \
    {MQWDR_STRUC_ID_ARRAY}, MQWDR_VERSION_1, MQWDR_CURRENT_LENGTH, 0, {""}, {""}, 0, 0, 0, \
     0, 0

typedef struct tagMQWDR1 {
    MQCHAR4 StrucId;         /* "WDR " */
    MQLONG Version;          /* MQWDR_VERSION_1 */
    MQLONG StrucLength;      /* MQWDR1_LENGTH_1 */
    MQLONG QMgrFlags;        /* MQQMF_* */
    MQCHAR48 QMgrIdentifier; /* Queue manager identifier */
    MQCHAR48 QMgrName;       /* Queue manager name */
    MQLONG ClusterRecOffset; /* Offset of its first cluster record (MQWCR) */
    MQLONG ChannelState;     /* State of the channel to it (MQCHS_*) */
    MQLONG ChannelDefOffset; /* Offset of its channel definition (MQCD) */
} MQWDR1;
typedef MQWDR1 *PMQWDR1;
#define MQWDR1_DEFAULT                                                                     \
    {MQWDR_STRUC_ID_ARRAY}, MQWDR_VERSION_1, MQWDR1_CURRENT_LENGTH, 0, {""}, {""}, 0, 0, 0

typedef struct tagMQWDR2 {
    MQCHAR4 StrucId;         /* "WDR " */
    MQLONG Version;          /* MQWDR_VERSION_2 */
    MQLONG StrucLength;      /* MQWDR2_LENGTH_2 */
    MQLONG QMgrFlags;        /* MQQMF_* */
    MQCHAR48 QMgrIdentifier; /* Queue manager identifier */
    MQCHAR48 QMgrName;       /* Queue manager name */
    MQLONG ClusterRecOffset; /* Offset of its first cluster record (MQWCR) */
    MQLONG ChannelState;     /* State of the channel to it (MQCHS_*) */
    MQLONG ChannelDefOffset; /* Offset of its channel definition (MQCD) */
    MQLONG DestSeqNumber;    /* Channel destination sequence number */
    MQINT64 DestSeqFactor;   /* Channel destination sequence factor */
} MQWDR2;
typedef MQWDR2 *PMQWDR2;
#define MQWDR2_DEFAULT                                                                     \
    {MQWDR_STRUC_ID_ARRAY}, MQWDR_VERSION_2, MQWDR2_CURRENT_LENGTH, 0, {""}, {""}, 0, 0, 0, \
     0, 0

#define MQWQR_STRUC_ID "WQR "
#define MQWQR_STRUC_ID_ARRAY 'W', 'Q', 'R', ' '
#define MQWQR_VERSION_1 1
#define MQWQR_VERSION_2 2
#define MQWQR_VERSION_3 3
#define MQWQR_VERSION_4 4
#define MQWQR_CURRENT_VERSION 4
#define MQWQR_LENGTH_1 200
#define MQWQR_LENGTH_2 208
#define MQWQR_LENGTH_3 212
#define MQWQR_LENGTH_4 216
#define MQWQR_CURRENT_LENGTH 216
#define MQWQR1_LENGTH_1 200
#define MQWQR1_CURRENT_LENGTH 200
#define MQWQR2_LENGTH_1 200
#define MQWQR2_LENGTH_2 208
#define MQWQR2_CURRENT_LENGTH 208
#define MQWQR3_LENGTH_1 200
#define MQWQR3_LENGTH_2 208
#define MQWQR3_LENGTH_3 212
#define MQWQR3_CURRENT_LENGTH 212
#define MQWQR4_LENGTH_1 200
#define MQWQR4_LENGTH_2 208
#define MQWQR4_LENGTH_3 212
#define MQWQR4_LENGTH_4 216
#define MQWQR4_CURRENT_LENGTH 216

/* Queue record: one instance of the queue */
typedef struct tagMQWQR {
    MQCHAR4 StrucId;         /* "WQR " */
    MQLONG Version;          /* MQWQR_VERSION_* */
    MQLONG StrucLength;      /* Length of this record */
    MQLONG QFlags;           /* MQQF_* */
    MQCHAR48 QName;          /* Queue name */
    MQCHAR48 QMgrIdentifier; /* Identifier of the queue manager hosting it */
    MQLONG ClusterRecOffset; /* Offset of its first cluster record (MQWCR) */
    MQLONG QType;            /* Queue type (MQCQT_*) */
    MQCHAR64 QDesc;          /* Queue description */
    MQLONG DefBind;          /* Default binding (MQBND_*) */
    MQLONG DefPersistence;   /* Default persistence */
    MQLONG DefPriority;      /* Default priority */
    MQLONG InhibitPut;       /* Puts inhibited (MQQA_PUT_*) */
    /* Version 2 */
    MQLONG CLWLQueuePriority; /* CLWLPRTY */
    MQLONG CLWLQueueRank;     /* CLWLRANK */
    /* Version 3 */
    MQLONG DefPutResponse; /* MQPRT_* */
    /* Version 4 */
    MQLONG CapExpiry; /* MQCEX_* or tenths of a second */
} MQWQR;
typedef MQWQR *PMQWQR;
typedef PMQWQR *PPMQWQR;
#define MQWQR_DEFAULT                                                                      \
    {MQWQR_STRUC_ID_ARRAY}, MQWQR_VERSION_1, MQWQR_CURRENT_LENGTH, 0, {""}, {""}, 0, 0,   \
     {""}, 0, 0, 0, 0, 0, 0, MQPRT_SYNC_RESPONSE, MQCEX_NOLIMIT

typedef struct tagMQWQR1 {
    MQCHAR4 StrucId;         /* "WQR " */
    MQLONG Version;          /* MQWQR_VERSION_1 */
    MQLONG StrucLength;      /* MQWQR1_LENGTH_1 */
    MQLONG QFlags;           /* MQQF_* */
    MQCHAR48 QName;          /* Queue name */
    MQCHAR48 QMgrIdentifier; /* Identifier of the queue manager hosting it */
    MQLONG ClusterRecOffset; /* Offset of its first cluster record (MQWCR) */
    MQLONG QType;            /* Queue type */
    MQCHAR64 QDesc;          /* Queue description */
    MQLONG DefBind;          /* Default binding */
    MQLONG DefPersistence;   /* Default persistence */
    MQLONG DefPriority;      /* Default priority */
    MQLONG InhibitPut;       /* Puts inhibited */
} MQWQR1;
typedef MQWQR1 *PMQWQR1;
#define MQWQR1_DEFAULT                                                                     \
    {MQWQR_STRUC_ID_ARRAY}, MQWQR_VERSION_1, MQWQR1_CURRENT_LENGTH, 0, {""}, {""}, 0, 0,  \
     {""}, 0, 0, 0, 0

typedef struct tagMQWQR2 {
    MQCHAR4 StrucId;          /* "WQR " */
    MQLONG Version;           /* MQWQR_VERSION_2 */
    MQLONG StrucLength;       /* MQWQR2_LENGTH_2 */
    MQLONG QFlags;            /* MQQF_* */
    MQCHAR48 QName;           /* Queue name */
    MQCHAR48 QMgrIdentifier;  /* Identifier of the queue manager hosting it */
    MQLONG ClusterRecOffset;  /* Offset of its first cluster record (MQWCR) */
    MQLONG QType;             /* Queue type */
    MQCHAR64 QDesc;           /* Queue description */
    MQLONG DefBind;           /* Default binding */
    MQLONG DefPersistence;    /* Default persistence */
    MQLONG DefPriority;       /* Default priority */
    MQLONG InhibitPut;        /* Puts inhibited */
    MQLONG CLWLQueuePriority; /* CLWLPRTY */
    MQLONG CLWLQueueRank;     /* CLWLRANK */
} MQWQR2;
typedef MQWQR2 *PMQWQR2;
#define MQWQR2_DEFAULT                                                                     \
    {MQWQR_STRUC_ID_ARRAY}, MQWQR_VERSION_2, MQWQR2_CURRENT_LENGTH, 0, {""}, {""}, 0, 0,  \
     {""}, 0, 0, 0, 0, 0, 0

typedef struct tagMQWQR3 {
    MQCHAR4 StrucId;          /* "WQR " */
    MQLONG Version;           /* MQWQR_VERSION_3 */
    MQLONG StrucLength;       /* MQWQR3_LENGTH_3 */
    MQLONG QFlags;            /* MQQF_* */
    MQCHAR48 QName;           /* Queue name */
    MQCHAR48 QMgrIdentifier;  /* Identifier of the queue manager hosting it */
    MQLONG ClusterRecOffset;  /* Offset of its first cluster record (MQWCR) */
    MQLONG QType;             /* Queue type */
    MQCHAR64 QDesc;           /* Queue description */
    MQLONG DefBind;           /* Default binding */
    MQLONG DefPersistence;    /* Default persistence */
    MQLONG DefPriority;       /* Default priority */
    MQLONG InhibitPut;        /* Puts inhibited */
    MQLONG CLWLQueuePriority; /* CLWLPRTY */
    MQLONG CLWLQueueRank;     /* CLWLRANK */
    MQLONG DefPutResponse;    /* MQPRT_* */
} MQWQR3;
typedef MQWQR3 *PMQWQR3;
#define MQWQR3_DEFAULT                                                                     \
    {MQWQR_STRUC_ID_ARRAY}, MQWQR_VERSION_3, MQWQR3_CURRENT_LENGTH, 0, {""}, {""}, 0, 0,  \
     {""}, 0, 0, 0, 0, 0, 0, MQPRT_SYNC_RESPONSE

typedef struct tagMQWQR4 {
    MQCHAR4 StrucId;          /* "WQR " */
    MQLONG Version;           /* MQWQR_VERSION_4 */
    MQLONG StrucLength;       /* MQWQR4_LENGTH_4 */
    MQLONG QFlags;            /* MQQF_* */
    MQCHAR48 QName;           /* Queue name */
    MQCHAR48 QMgrIdentifier;  /* Identifier of the queue manager hosting it */
    MQLONG ClusterRecOffset;  /* Offset of its first cluster record (MQWCR) */
    MQLONG QType;             /* Queue type */
    MQCHAR64 QDesc;           /* Queue description */
    MQLONG DefBind;           /* Default binding */
    MQLONG DefPersistence;    /* Default persistence */
    MQLONG DefPriority;       /* Default priority */
    MQLONG InhibitPut;        /* Puts inhibited */
    MQLONG CLWLQueuePriority; /* CLWLPRTY */
    MQLONG CLWLQueueRank;     /* CLWLRANK */
    MQLONG DefPutResponse;    /* MQPRT_* */
    MQLONG CapExpiry;         /* MQCEX_* or tenths of a second */
} MQWQR4;
typedef MQWQR4 *PMQWQR4;
#define MQWQR4_DEFAULT                                                                     \
    {MQWQR_STRUC_ID_ARRAY}, MQWQR_VERSION_4, MQWQR4_CURRENT_LENGTH, 0, {""}, {""}, 0, 0,  \
     {""}, 0, 0, 0, 0, 0, 0, MQPRT_SYNC_RESPONSE, MQCEX_NOLIMIT

/* Cluster record: one cluster a queue or queue manager is in */
typedef struct tagMQWCR {
    MQCHAR48 ClusterName;    /* Cluster name */
    MQLONG ClusterRecOffset; /* Offset of the next cluster record */
    MQLONG ClusterFlags;     /* Flags (MQQF_*, MQQMF_*) */
} MQWCR;
typedef MQWCR *PMQWCR;
#define MQWCR_DEFAULT {""}, 0, 0

#define MQWXP_STRUC_ID "WXP "
#define MQWXP_STRUC_ID_ARRAY 'W', 'X', 'P', ' '
#define MQWXP_VERSION_1 1
#define MQWXP_VERSION_2 2
#define MQWXP_VERSION_3 3
#define MQWXP_VERSION_4 4
#define MQWXP_CURRENT_VERSION 4
#define MQWXP_LENGTH_1 224
#define MQWXP_LENGTH_2 240
#define MQWXP_LENGTH_3 240
#define MQWXP_LENGTH_4 248
#define MQWXP_CURRENT_LENGTH 248
#define MQWXP1_LENGTH_1 224
#define MQWXP1_CURRENT_LENGTH 224
#define MQWXP2_LENGTH_1 224
#define MQWXP2_LENGTH_2 240
#define MQWXP2_CURRENT_LENGTH 240
#define MQWXP3_LENGTH_1 224
#define MQWXP3_LENGTH_2 240
#define MQWXP3_LENGTH_3 240
#define MQWXP3_CURRENT_LENGTH 240
#define MQWXP4_LENGTH_1 224
#define MQWXP4_LENGTH_2 240
#define MQWXP4_LENGTH_3 240
#define MQWXP4_LENGTH_4 248
#define MQWXP4_CURRENT_LENGTH 248

/* Cluster workload exit parameter */
typedef struct tagMQWXP {
    MQCHAR4 StrucId;             /* "WXP " */
    MQLONG Version;              /* MQWXP_VERSION_* */
    MQLONG ExitId;               /* MQXT_CLUSTER_WORKLOAD_EXIT */
    MQLONG ExitReason;           /* MQXR_* */
    MQLONG ExitResponse;         /* MQXCC_* */
    MQLONG ExitResponse2;        /* MQXR2_* */
    MQLONG Feedback;             /* Reserved */
    MQLONG Flags;                /* MQWXP_* */
    MQBYTE16 ExitUserArea;       /* The exit's own area */
    MQCHAR32 ExitData;           /* Exit data (CLWLDATA) */
    PMQMD MsgDescPtr;            /* Descriptor of the message */
    PMQVOID MsgBufferPtr;        /* The message data */
    MQLONG MsgBufferLength;      /* Length of the buffer */
    MQLONG MsgLength;            /* Length of the message */
    MQCHAR48 QName;              /* Queue name */
    MQCHAR48 QMgrName;           /* Local queue manager */
    MQLONG DestinationCount;     /* Destinations to choose from */
    MQLONG DestinationChosen;    /* The one chosen (1-based) */
    PPMQWDR DestinationArrayPtr; /* Destination records */
    PPMQWQR QArrayPtr;           /* Queue records */
    /* Version 2 */
    MQPTR CacheContext; /* Context for MQXCLWLN */
    MQLONG CacheType;   /* MQCLCT_* */
    /* Version 3 */
    MQLONG CLWLMRUChannels; /* Most recently used channels (CLWLMRUC) */
    /* Version 4 */
    PMQIEP pEntryPoints; /* Interface entry points */
} MQWXP;
typedef MQWXP *PMQWXP;
#define MQWXP_DEFAULT                                                                      \
    {MQWXP_STRUC_ID_ARRAY}, MQWXP_VERSION_2, 0, 0, MQXCC_OK, 0, 0, 0, {MQXUA_NONE_ARRAY},  \
     {""}, NULL, NULL, 0, 0, {""}, {""}, 0, 0, NULL, NULL, NULL, MQCLCT_DYNAMIC, 0, NULL

typedef struct tagMQWXP1 {
    MQCHAR4 StrucId;             /* "WXP " */
    MQLONG Version;              /* MQWXP_VERSION_1 */
    MQLONG ExitId;               /* MQXT_CLUSTER_WORKLOAD_EXIT */
    MQLONG ExitReason;           /* MQXR_* */
    MQLONG ExitResponse;         /* MQXCC_* */
    MQLONG ExitResponse2;        /* MQXR2_* */
    MQLONG Feedback;             /* Reserved */
    MQLONG Flags;                /* MQWXP_* */
    MQBYTE16 ExitUserArea;       /* The exit's own area */
    MQCHAR32 ExitData;           /* Exit data */
    PMQMD MsgDescPtr;            /* Descriptor of the message */
    PMQVOID MsgBufferPtr;        /* The message data */
    MQLONG MsgBufferLength;      /* Length of the buffer */
    MQLONG MsgLength;            /* Length of the message */
    MQCHAR48 QName;              /* Queue name */
    MQCHAR48 QMgrName;           /* Local queue manager */
    MQLONG DestinationCount;     /* Destinations to choose from */
    MQLONG DestinationChosen;    /* The one chosen */
    PPMQWDR DestinationArrayPtr; /* Destination records */
    PPMQWQR QArrayPtr;           /* Queue records */
} MQWXP1;
typedef MQWXP1 *PMQWXP1;
#define MQWXP1_DEFAULT                                                                     \
    {MQWXP_STRUC_ID_ARRAY}, MQWXP_VERSION_1, 0, 0, MQXCC_OK, 0, 0, 0, {MQXUA_NONE_ARRAY},  \
     {""}, NULL, NULL, 0, 0, {""}, {""}, 0, 0, NULL, NULL

typedef struct tagMQWXP2 {
    MQCHAR4 StrucId;             /* "WXP " */
    MQLONG Version;              /* MQWXP_VERSION_2 */
    MQLONG ExitId;               /* MQXT_CLUSTER_WORKLOAD_EXIT */
    MQLONG ExitReason;           /* MQXR_* */
    MQLONG ExitResponse;         /* MQXCC_* */
    MQLONG ExitResponse2;        /* MQXR2_* */
    MQLONG Feedback;             /* Reserved */
    MQLONG Flags;                /* MQWXP_* */
    MQBYTE16 ExitUserArea;       /* The exit's own area */
    MQCHAR32 ExitData;           /* Exit data */
    PMQMD MsgDescPtr;            /* Descriptor of the message */
    PMQVOID MsgBufferPtr;        /* The message data */
    MQLONG MsgBufferLength;      /* Length of the buffer */
    MQLONG MsgLength;            /* Length of the message */
    MQCHAR48 QName;              /* Queue name */
    MQCHAR48 QMgrName;           /* Local queue manager */
    MQLONG DestinationCount;     /* Destinations to choose from */
    MQLONG DestinationChosen;    /* The one chosen */
    PPMQWDR DestinationArrayPtr; /* Destination records */
    PPMQWQR QArrayPtr;           /* Queue records */
    MQPTR CacheContext;          /* Context for MQXCLWLN */
    MQLONG CacheType;            /* MQCLCT_* */
} MQWXP2;
typedef MQWXP2 *PMQWXP2;
#define MQWXP2_DEFAULT                                                                     \
    {MQWXP_STRUC_ID_ARRAY}, MQWXP_VERSION_2, 0, 0, MQXCC_OK, 0, 0, 0, {MQXUA_NONE_ARRAY},  \
     {""}, NULL, NULL, 0, 0, {""}, {""}, 0, 0, NULL, NULL, NULL, MQCLCT_DYNAMIC

typedef struct tagMQWXP3 {
    MQCHAR4 StrucId;             /* "WXP " */
    MQLONG Version;              /* MQWXP_VERSION_3 */
    MQLONG ExitId;               /* MQXT_CLUSTER_WORKLOAD_EXIT */
    MQLONG ExitReason;           /* MQXR_* */
    MQLONG ExitResponse;         /* MQXCC_* */
    MQLONG ExitResponse2;        /* MQXR2_* */
    MQLONG Feedback;             /* Reserved */
    MQLONG Flags;                /* MQWXP_* */
    MQBYTE16 ExitUserArea;       /* The exit's own area */
    MQCHAR32 ExitData;           /* Exit data */
    PMQMD MsgDescPtr;            /* Descriptor of the message */
    PMQVOID MsgBufferPtr;        /* The message data */
    MQLONG MsgBufferLength;      /* Length of the buffer */
    MQLONG MsgLength;            /* Length of the message */
    MQCHAR48 QName;              /* Queue name */
    MQCHAR48 QMgrName;           /* Local queue manager */
    MQLONG DestinationCount;     /* Destinations to choose from */
    MQLONG DestinationChosen;    /* The one chosen */
    PPMQWDR DestinationArrayPtr; /* Destination records */
    PPMQWQR QArrayPtr;           /* Queue records */
    MQPTR CacheContext;          /* Context for MQXCLWLN */
    MQLONG CacheType;            /* MQCLCT_* */
    MQLONG CLWLMRUChannels;      /* Most recently used channels */
} MQWXP3;
typedef MQWXP3 *PMQWXP3;
#define MQWXP3_DEFAULT                                                                     \
    {MQWXP_STRUC_ID_ARRAY}, MQWXP_VERSION_3, 0, 0, MQXCC_OK, 0, 0, 0, {MQXUA_NONE_ARRAY},  \
     {""}, NULL, NULL, 0, 0, {""}, {""}, 0, 0, NULL, NULL, NULL, MQCLCT_DYNAMIC, 0

typedef struct tagMQWXP4 {
    MQCHAR4 StrucId;             /* "WXP " */
    MQLONG Version;              /* MQWXP_VERSION_4 */
    MQLONG ExitId;               /* MQXT_CLUSTER_WORKLOAD_EXIT */
    MQLONG ExitReason;           /* MQXR_* */
    MQLONG ExitResponse;         /* MQXCC_* */
    MQLONG ExitResponse2;        /* MQXR2_* */
    MQLONG Feedback;             /* Reserved */
    MQLONG Flags;                /* MQWXP_* */
    MQBYTE16 ExitUserArea;       /* The exit's own area */
    MQCHAR32 ExitData;           /* Exit data */
    PMQMD MsgDescPtr;            /* Descriptor of the message */
    PMQVOID MsgBufferPtr;        /* The message data */
    MQLONG MsgBufferLength;      /* Length of the buffer */
    MQLONG MsgLength;            /* Length of the message */
    MQCHAR48 QName;              /* Queue name */
    MQCHAR48 QMgrName;           /* Local queue manager */
    MQLONG DestinationCount;     /* Destinations to choose from */
    MQLONG DestinationChosen;    /* The one chosen */
    PPMQWDR DestinationArrayPtr; /* Destination records */
    PPMQWQR QArrayPtr;           /* Queue records */
    MQPTR CacheContext;          /* Context for MQXCLWLN */
    MQLONG CacheType;            /* MQCLCT_* */
    MQLONG CLWLMRUChannels;      /* Most recently used channels */
    PMQIEP pEntryPoints;         /* Interface entry points */
} MQWXP4;
typedef MQWXP4 *PMQWXP4;
#define MQWXP4_DEFAULT                                                                     \
    {MQWXP_STRUC_ID_ARRAY}, MQWXP_VERSION_4, 0, 0, MQXCC_OK, 0, 0, 0, {MQXUA_NONE_ARRAY},  \
     {""}, NULL, NULL, 0, 0, {""}, {""}, 0, 0, NULL, NULL, NULL, MQCLCT_DYNAMIC, 0, NULL

/* ---- MQXEPO: options of MQXEP ----------------------------------------------------------- */

#define MQXEPO_STRUC_ID "XEPO"
#define MQXEPO_STRUC_ID_ARRAY 'X', 'E', 'P', 'O'
#define MQXEPO_VERSION_1 1
#define MQXEPO_CURRENT_VERSION 1
#define MQXEPO_LENGTH_1 40
#define MQXEPO_CURRENT_LENGTH 40
#define MQXEPO_NONE 0x00000000

typedef struct tagMQXEPO {
    MQCHAR4 StrucId;        /* "XEPO" */
    MQLONG Version;         /* MQXEPO_VERSION_1 */
    MQLONG Options;         /* MQXEPO_NONE */
    MQCHARV ExitProperties; /* Property group the exit wants its own handle for */
} MQXEPO;
typedef MQXEPO *PMQXEPO;
#define MQXEPO_DEFAULT                                                                     \
    {MQXEPO_STRUC_ID_ARRAY}, MQXEPO_VERSION_1, MQXEPO_NONE, {MQCHARV_DEFAULT}

/* ---- Exit calls: MQXCNVC (convert characters), MQXEP (register an API exit function),
 *      MQXCLWLN (navigate cluster workload records) ------------------------------------- */

/* Data-conversion options (MQXCNVC Options) */
#define MQDCC_NONE 0x00000000
#define MQDCC_DEFAULT_CONVERSION 0x00000001
#define MQDCC_FILL_TARGET_BUFFER 0x00000002
#define MQDCC_INT_DEFAULT_CONVERSION 0x00000004
#define MQDCC_SOURCE_ENC_NATIVE 0x00000020
#define MQDCC_SOURCE_ENC_NORMAL 0x00000010
#define MQDCC_SOURCE_ENC_REVERSED 0x00000020
#define MQDCC_SOURCE_ENC_UNDEFINED 0x00000000
#define MQDCC_TARGET_ENC_NATIVE 0x00000200
#define MQDCC_TARGET_ENC_NORMAL 0x00000100
#define MQDCC_TARGET_ENC_REVERSED 0x00000200
#define MQDCC_TARGET_ENC_UNDEFINED 0x00000000
#define MQDCC_SOURCE_ENC_MASK 0x000000F0
#define MQDCC_TARGET_ENC_MASK 0x00000F00
#define MQDCC_SOURCE_ENC_FACTOR 16
#define MQDCC_TARGET_ENC_FACTOR 256

void MQENTRY MQXCNVC(MQHCONN Hconn, MQLONG Options, MQLONG SourceCCSID, MQLONG SourceLength,
                     PMQCHAR pSourceBuffer, MQLONG TargetCCSID, MQLONG TargetLength,
                     PMQCHAR pTargetBuffer, PMQLONG pDataLength, PMQLONG pCompCode,
                     PMQLONG pReason);
void MQENTRY MQXEP(MQHCONFIG Hconfig, MQLONG ExitReason, MQLONG Function, PMQFUNC pEntryPoint,
                   PMQXEPO pExitOpts, PMQLONG pCompCode, PMQLONG pReason);
void MQENTRY MQXCLWLN(PMQWXP pExitParms, MQPTR CurrentRecord, MQLONG NextOffset,
                      PMQPTR pNextRecord, PMQLONG pCompCode, PMQLONG pReason);

typedef void MQENTRY MQ_XCNVC_CALL(MQHCONN Hconn, MQLONG Options, MQLONG SourceCCSID,
                                   MQLONG SourceLength, PMQCHAR pSourceBuffer,
                                   MQLONG TargetCCSID, MQLONG TargetLength,
                                   PMQCHAR pTargetBuffer, PMQLONG pDataLength,
                                   PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_XCNVC_CALL *PMQ_XCNVC_CALL;
typedef void MQENTRY MQ_XEP_CALL(MQHCONFIG Hconfig, MQLONG ExitReason, MQLONG Function,
                                 PMQFUNC pEntryPoint, PMQXEPO pExitOpts, PMQLONG pCompCode,
                                 PMQLONG pReason);
typedef MQ_XEP_CALL *PMQ_XEP_CALL;
typedef void MQENTRY MQ_XCLWLN_CALL(PMQWXP pExitParms, MQPTR CurrentRecord, MQLONG NextOffset,
                                    PMQPTR pNextRecord, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_XCLWLN_CALL *PMQ_XCLWLN_CALL;
/* The data-conversion exit called through MQIEP, and the installable-services entry point
 * registration call; FerryMQ provides neither as an exported function. */
typedef void MQENTRY MQ_XDX_CALL(PMQDXP pDataConvExitParms, PMQMD pMsgDesc,
                                 MQLONG InBufferLength, PMQVOID pInBuffer,
                                 MQLONG OutBufferLength, PMQVOID pOutBuffer);
typedef MQ_XDX_CALL *PMQ_XDX_CALL;
typedef void MQENTRY MQ_ZEP_CALL(MQHCONFIG Hconfig, MQLONG Function, PMQFUNC pEntryPoint,
                                 PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_ZEP_CALL *PMQ_ZEP_CALL;

/* ---- MQIEP: interface entry points (the MQI calls, by address, for exits) ---------------- */

#define MQIEP_STRUC_ID "IEP "
#define MQIEP_STRUC_ID_ARRAY 'I', 'E', 'P', ' '
#define MQIEP_VERSION_1 1
#define MQIEP_CURRENT_VERSION 1
#define MQIEP_LENGTH_1 264
#define MQIEP_CURRENT_LENGTH 264

/* Flags (MQIEP Flags) */
#define MQIEPF_NONE 0x00000000
#define MQIEPF_NON_THREADED_LIBRARY 0x00000000
#define MQIEPF_THREADED_LIBRARY 0x00000001
#define MQIEPF_CLIENT_LIBRARY 0x00000000
#define MQIEPF_LOCAL_LIBRARY 0x00000002

struct tagMQIEP {
    MQCHAR4 StrucId;                /* "IEP " */
    MQLONG Version;                 /* MQIEP_VERSION_1 */
    MQLONG StrucLength;             /* MQIEP_LENGTH_1 */
    MQLONG Flags;                   /* MQIEPF_* */
    MQPTR Reserved;                 /* Reserved */
    PMQ_BACK_CALL MQBACK_Call;      /* MQBACK */
    PMQ_BEGIN_CALL MQBEGIN_Call;    /* MQBEGIN */
    PMQ_BUFMH_CALL MQBUFMH_Call;    /* MQBUFMH */
    PMQ_CB_CALL MQCB_Call;          /* MQCB */
    PMQ_CLOSE_CALL MQCLOSE_Call;    /* MQCLOSE */
    PMQ_CMIT_CALL MQCMIT_Call;      /* MQCMIT */
    PMQ_CONN_CALL MQCONN_Call;      /* MQCONN */
    PMQ_CONNX_CALL MQCONNX_Call;    /* MQCONNX */
    PMQ_CRTMH_CALL MQCRTMH_Call;    /* MQCRTMH */
    PMQ_CTL_CALL MQCTL_Call;        /* MQCTL */
    PMQ_DISC_CALL MQDISC_Call;      /* MQDISC */
    PMQ_DLTMH_CALL MQDLTMH_Call;    /* MQDLTMH */
    PMQ_DLTMP_CALL MQDLTMP_Call;    /* MQDLTMP */
    PMQ_GET_CALL MQGET_Call;        /* MQGET */
    PMQ_INQ_CALL MQINQ_Call;        /* MQINQ */
    PMQ_INQMP_CALL MQINQMP_Call;    /* MQINQMP */
    PMQ_MHBUF_CALL MQMHBUF_Call;    /* MQMHBUF */
    PMQ_OPEN_CALL MQOPEN_Call;      /* MQOPEN */
    PMQ_PUT_CALL MQPUT_Call;        /* MQPUT */
    PMQ_PUT1_CALL MQPUT1_Call;      /* MQPUT1 */
    PMQ_SET_CALL MQSET_Call;        /* MQSET */
    PMQ_SETMP_CALL MQSETMP_Call;    /* MQSETMP */
    PMQ_STAT_CALL MQSTAT_Call;      /* MQSTAT */
    PMQ_SUB_CALL MQSUB_Call;        /* MQSUB */
    PMQ_SUBRQ_CALL MQSUBRQ_Call;    /* MQSUBRQ */
    PMQ_XCLWLN_CALL MQXCLWLN_Call;  /* MQXCLWLN */
    PMQ_XCNVC_CALL MQXCNVC_Call;    /* MQXCNVC */
    PMQ_XDX_CALL MQXDX_Call;        /* Data-conversion exit */
    PMQ_XEP_CALL MQXEP_Call;        /* MQXEP */
    PMQ_ZEP_CALL MQZEP_Call;        /* Installable services registration */
};
#define MQIEP_DEFAULT                                                                      \
    {MQIEP_STRUC_ID_ARRAY}, MQIEP_VERSION_1, MQIEP_LENGTH_1, MQIEPF_NONE, NULL, NULL,     \
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,   \
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,   \
     NULL

/* ---- Exit functions: the forms of the functions an exit provides --------------------------
 * A program declares its exit with one of these ("MQ_CHANNEL_EXIT MyExit;") so the compiler
 * checks its parameters. */

typedef void MQENTRY MQ_CHANNEL_EXIT(PMQVOID pChannelExitParms, PMQVOID pChannelDefinition,
                                     PMQLONG pDataLength, PMQLONG pAgentBufferLength,
                                     PMQVOID pAgentBuffer, PMQLONG pExitBufferLength,
                                     PMQPTR pExitBufferAddr);
typedef MQ_CHANNEL_EXIT *PMQ_CHANNEL_EXIT;
typedef void MQENTRY MQ_CHANNEL_AUTO_DEF_EXIT(PMQVOID pChannelExitParms,
                                              PMQVOID pChannelDefinition);
typedef MQ_CHANNEL_AUTO_DEF_EXIT *PMQ_CHANNEL_AUTO_DEF_EXIT;
typedef void MQENTRY MQ_TRANSPORT_EXIT(PMQVOID pExitParms, MQLONG DestAddressLength,
                                       PMQCHAR pDestAddress);
typedef MQ_TRANSPORT_EXIT *PMQ_TRANSPORT_EXIT;
typedef void MQENTRY MQ_CLUSTER_WORKLOAD_EXIT(PMQWXP pExitParms);
typedef MQ_CLUSTER_WORKLOAD_EXIT *PMQ_CLUSTER_WORKLOAD_EXIT;
typedef void MQENTRY MQ_DATA_CONV_EXIT(PMQDXP pDataConvExitParms, PMQMD pMsgDesc,
                                       MQLONG InBufferLength, PMQVOID pInBuffer,
                                       MQLONG OutBufferLength, PMQVOID pOutBuffer);
typedef MQ_DATA_CONV_EXIT *PMQ_DATA_CONV_EXIT;
typedef void MQENTRY MQ_PUBLISH_EXIT(PMQPSXP pExitParms, PMQPBC pPubContext,
                                     PMQSBC pSubContext);
typedef MQ_PUBLISH_EXIT *PMQ_PUBLISH_EXIT;
typedef void MQENTRY MQ_PRECONNECT_EXIT(PMQNXP pExitParms, PMQCHAR pQMgrName,
                                        PPMQCNO ppConnectOpts, PMQLONG pCompCode,
                                        PMQLONG pReason);
typedef MQ_PRECONNECT_EXIT *PMQ_PRECONNECT_EXIT;

/* API exit functions, registered with MQXEP for an MQXF_* function */
typedef void MQENTRY MQ_INIT_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQLONG pCompCode,
                                  PMQLONG pReason);
typedef MQ_INIT_EXIT *PMQ_INIT_EXIT;
typedef void MQENTRY MQ_TERM_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQLONG pCompCode,
                                  PMQLONG pReason);
typedef MQ_TERM_EXIT *PMQ_TERM_EXIT;
typedef void MQENTRY MQ_BACK_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                  PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_BACK_EXIT *PMQ_BACK_EXIT;
typedef void MQENTRY MQ_BEGIN_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                   PPMQBO ppBeginOptions, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_BEGIN_EXIT *PMQ_BEGIN_EXIT;
typedef void MQENTRY MQ_CALLBACK_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                      PPMQMD ppMsgDesc, PPMQGMO ppGetMsgOpts,
                                      PPMQVOID ppBuffer, PPMQCBC ppMQCBContext);
typedef MQ_CALLBACK_EXIT *PMQ_CALLBACK_EXIT;
typedef void MQENTRY MQ_CB_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                PMQLONG pOperation, PPMQCBD ppCallbackDesc, PMQHOBJ pHobj,
                                PPMQMD ppMsgDesc, PPMQGMO ppGetMsgOpts, PMQLONG pCompCode,
                                PMQLONG pReason);
typedef MQ_CB_EXIT *PMQ_CB_EXIT;
typedef void MQENTRY MQ_CLOSE_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                   PPMQHOBJ ppHobj, PMQLONG pOptions, PMQLONG pCompCode,
                                   PMQLONG pReason);
typedef MQ_CLOSE_EXIT *PMQ_CLOSE_EXIT;
typedef void MQENTRY MQ_CMIT_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                  PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_CMIT_EXIT *PMQ_CMIT_EXIT;
typedef void MQENTRY MQ_CONNX_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQCHAR pQMgrName,
                                   PPMQCNO ppConnectOpts, PPMQHCONN ppHconn, PMQLONG pCompCode,
                                   PMQLONG pReason);
typedef MQ_CONNX_EXIT *PMQ_CONNX_EXIT;
typedef void MQENTRY MQ_CTL_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                 PMQLONG pOperation, PPMQCTLO ppCtlOpts, PMQLONG pCompCode,
                                 PMQLONG pReason);
typedef MQ_CTL_EXIT *PMQ_CTL_EXIT;
typedef void MQENTRY MQ_DISC_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PPMQHCONN ppHconn,
                                  PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_DISC_EXIT *PMQ_DISC_EXIT;
typedef void MQENTRY MQ_GET_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                 PMQHOBJ pHobj, PPMQMD ppMsgDesc, PPMQGMO ppGetMsgOpts,
                                 PMQLONG pBufferLength, PPMQVOID ppBuffer,
                                 PPMQLONG ppDataLength, PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_GET_EXIT *PMQ_GET_EXIT;
typedef void MQENTRY MQ_INQ_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                 PMQHOBJ pHobj, PMQLONG pSelectorCount, PPMQLONG ppSelectors,
                                 PMQLONG pIntAttrCount, PPMQLONG ppIntAttrs,
                                 PMQLONG pCharAttrLength, PPMQCHAR ppCharAttrs,
                                 PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_INQ_EXIT *PMQ_INQ_EXIT;
typedef void MQENTRY MQ_OPEN_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                  PPMQOD ppObjDesc, PMQLONG pOptions, PPMQHOBJ ppHobj,
                                  PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_OPEN_EXIT *PMQ_OPEN_EXIT;
typedef void MQENTRY MQ_PUT_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                 PMQHOBJ pHobj, PPMQMD ppMsgDesc, PPMQPMO ppPutMsgOpts,
                                 PMQLONG pBufferLength, PPMQVOID ppBuffer, PMQLONG pCompCode,
                                 PMQLONG pReason);
typedef MQ_PUT_EXIT *PMQ_PUT_EXIT;
typedef void MQENTRY MQ_PUT1_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                  PPMQOD ppObjDesc, PPMQMD ppMsgDesc, PPMQPMO ppPutMsgOpts,
                                  PMQLONG pBufferLength, PPMQVOID ppBuffer, PMQLONG pCompCode,
                                  PMQLONG pReason);
typedef MQ_PUT1_EXIT *PMQ_PUT1_EXIT;
typedef void MQENTRY MQ_SET_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                 PMQHOBJ pHobj, PMQLONG pSelectorCount, PPMQLONG ppSelectors,
                                 PMQLONG pIntAttrCount, PPMQLONG ppIntAttrs,
                                 PMQLONG pCharAttrLength, PPMQCHAR ppCharAttrs,
                                 PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_SET_EXIT *PMQ_SET_EXIT;
typedef void MQENTRY MQ_STAT_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                  PMQLONG pType, PPMQSTS ppStatus, PMQLONG pCompCode,
                                  PMQLONG pReason);
typedef MQ_STAT_EXIT *PMQ_STAT_EXIT;
typedef void MQENTRY MQ_SUB_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                 PPMQSD ppSubDesc, PPMQHOBJ ppHobj, PPMQHOBJ ppHsub,
                                 PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_SUB_EXIT *PMQ_SUB_EXIT;
typedef void MQENTRY MQ_SUBRQ_EXIT(PMQAXP pExitParms, PMQAXC pExitContext, PMQHCONN pHconn,
                                   PMQHOBJ pHsub, PMQLONG pAction, PPMQSRO ppSubRqOpts,
                                   PMQLONG pCompCode, PMQLONG pReason);
typedef MQ_SUBRQ_EXIT *PMQ_SUBRQ_EXIT;

#if defined(__cplusplus)
}
#endif

/* ---- The rest of the reference's constants, generated by gen-constants.py from reference/mqi-constants.tsv ---- */

#define MQCAFTY_NONE 0
#define MQCDC_CURRENT_LENGTH 1992
#define MQCDC_CURRENT_VERSION 12
#define MQCDC_LENGTH_1 984
#define MQCDC_LENGTH_10 1920
#define MQCDC_LENGTH_11 1984
#define MQCDC_LENGTH_12 1992
#define MQCDC_LENGTH_2 1312
#define MQCDC_LENGTH_3 1480
#define MQCDC_LENGTH_4 1568
#define MQCDC_LENGTH_5 1584
#define MQCDC_LENGTH_6 1688
#define MQCDC_LENGTH_7 1792
#define MQCDC_LENGTH_8 1888
#define MQCDC_LENGTH_9 1912
#define MQCDC_SENDER_CONVERSION 1
#define MQCDC_VERSION_1 1
#define MQCDC_VERSION_10 10
#define MQCDC_VERSION_11 11
#define MQCDC_VERSION_12 12
#define MQCDC_VERSION_2 2
#define MQCDC_VERSION_3 3
#define MQCDC_VERSION_4 4
#define MQCDC_VERSION_5 5
#define MQCDC_VERSION_6 6
#define MQCDC_VERSION_7 7
#define MQCDC_VERSION_8 8
#define MQCDC_VERSION_9 9
#define MQCHRR_RESET_NOT_REQUESTED 0
#define MQCHT_ALL 5
#define MQCHT_AMQP 11
#define MQCHT_CLUSRCVR 8
#define MQCHT_CLUSSDR 9
#define MQCHT_MQTT 10
#define MQCOMPRESS_ANY 268435455
#define MQMCAT_THREAD 2
#define MQMON_DISABLED 0
#define MQMON_ENABLED 1
#define MQMON_HIGH 65
#define MQMON_LOW 17
#define MQMON_MEDIUM 33
#define MQMON_NONE (-1)
#define MQMON_NOT_AVAILABLE (-1)
#define MQMON_ON 1
#define MQMON_Q_MGR (-3)
#define MQPA_ALTERNATE_OR_MCA 4
#define MQPA_CONTEXT 2
#define MQPA_ONLY_MCA 3
#define MQRCN_DISABLED 3
#define MQRCN_Q_MGR 2
#define MQRCN_YES 1
#define MQSCA_NEVER_REQUIRED 2
#define MQSCO_CELL 2
#define MQSCO_Q_MGR 1
#define MQSPL_AS_POLICY 2
#define MQSPL_REMOVE 1
#define MQUSEDLQ_AS_PARENT 0
#define MQUSEDLQ_NO 1
#define MQXPT_ALL (-1)
#define MQXPT_DECNET 5
#define MQXPT_NETBIOS 3
#define MQXPT_SPX 4
#define MQXPT_UDP 6

/* ---- end of generated constants ---- */

#endif /* FERRY_CMQXC_H */
