/*
 * cmqxc.h — FerryMQ's MQI channel definition structure (MQCD), for MQCONNX with a client
 * channel definition (MQCNO ClientConnPtr).
 *
 * Written for FerryMQ from the public MQI reference documentation (the MQCD field list and
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
#define MQSCO_CURRENT_VERSION 5
#define MQSCO_LENGTH_1 536
#define MQSCO_LENGTH_2 544
#define MQSCO_LENGTH_3 560
#define MQSCO_LENGTH_4 568
#define MQSCO_LENGTH_5 632
#define MQSCO_CURRENT_LENGTH 632

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
     MQ_CERT_VAL_POLICY_DEFAULT, {""}

#define MQCHT_SENDER 1
#define MQCHT_SERVER 2
#define MQCHT_RECEIVER 3
#define MQCHT_REQUESTER 4
#define MQCHT_CLNTCONN 6
#define MQCHT_SVRCONN 7
#define MQXPT_LOCAL 0
#define MQXPT_LU62 1
#define MQXPT_TCP 2
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

#if defined(__cplusplus)
}
#endif

#endif /* FERRY_CMQXC_H */
