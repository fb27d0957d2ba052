/*
 * cmqpsc.h — FerryMQ's names for the queued publish/subscribe command interface: the tags and
 * values of the name/value strings in an MQRFH header, the element names and values of the
 * <psc>, <pscr> and <mcd> folders of an MQRFH2 header, and the integer forms of the
 * registration and publication options.
 *
 * Written for FerryMQ from the public publish/subscribe reference documentation (the command
 * message descriptions and the published constant tables). It is not IBM's header and contains
 * none of its text.
 *
 * FerryMQ implements publish/subscribe through the MQI verbs: MQSUB (and MQSUBRQ) to subscribe,
 * MQOPEN of a topic and MQPUT to publish. Queued command messages (RegSub, Publish, ...) put to
 * SYSTEM.BROKER.CONTROL.QUEUE or a stream queue are not processed: nothing reads them and no
 * response comes back. This header exists so programs that use these names compile. It holds
 * only constants whose names and values the reference documents; a few names documented
 * without a value (for example the DeregSub/DeregPub command constants, the MQRFH2 folder-name
 * constants and the delete-option integers) are left out rather than guessed.
 */
#ifndef FERRY_CMQPSC_H
#define FERRY_CMQPSC_H

/* ---- MQRFH name/value strings: tag names (MQPS_*) ----------------------------------------- */

#define MQPS_COMMAND "MQPSCommand"
#define MQPS_COMP_CODE "MQPSCompCode"
#define MQPS_CORREL_ID "MQPSCorrelId"
#define MQPS_DELETE_OPTIONS "MQPSDelOpts"
#define MQPS_ERROR_ID "MQPSErrorId"
#define MQPS_ERROR_POS "MQPSErrorPos"
#define MQPS_INTEGER_DATA "MQPSIntData"
#define MQPS_PARAMETER_ID "MQPSParmId"
#define MQPS_PUBLICATION_OPTIONS "MQPSPubOpts"
#define MQPS_PUBLISH_TIMESTAMP "MQPSPubTime"
#define MQPS_Q_MGR_NAME "MQPSQMgrName"
#define MQPS_Q_NAME "MQPSQName"
#define MQPS_REASON "MQPSReason"
#define MQPS_REASON_TEXT "MQPSReasonText"
#define MQPS_REGISTRATION_OPTIONS "MQPSRegOpts"
#define MQPS_SEQUENCE_NUMBER "MQPSSeqNum"
#define MQPS_STREAM_NAME "MQPSStreamName"
#define MQPS_STRING_DATA "MQPSStringData"
#define MQPS_SUBSCRIPTION_IDENTITY "MQPSSubIdentity"
#define MQPS_SUBSCRIPTION_NAME "MQPSSubName"
#define MQPS_SUBSCRIPTION_USER_DATA "MQPSSubUserData"
#define MQPS_TOPIC "MQPSTopic"
#define MQPS_USER_ID "MQPSUserId"

/* The same tags with one blank before and one after, for building or scanning a
 * NameValueString where tags and values are separated by blanks. */
#define MQPS_COMMAND_B " MQPSCommand "
#define MQPS_COMP_CODE_B " MQPSCompCode "
#define MQPS_CORREL_ID_B " MQPSCorrelId "
#define MQPS_DELETE_OPTIONS_B " MQPSDelOpts "
#define MQPS_ERROR_ID_B " MQPSErrorId "
#define MQPS_ERROR_POS_B " MQPSErrorPos "
#define MQPS_INTEGER_DATA_B " MQPSIntData "
#define MQPS_PARAMETER_ID_B " MQPSParmId "
#define MQPS_PUBLICATION_OPTIONS_B " MQPSPubOpts "
#define MQPS_PUBLISH_TIMESTAMP_B " MQPSPubTime "
#define MQPS_Q_MGR_NAME_B " MQPSQMgrName "
#define MQPS_Q_NAME_B " MQPSQName "
#define MQPS_REASON_B " MQPSReason "
#define MQPS_REASON_TEXT_B " MQPSReasonText "
#define MQPS_REGISTRATION_OPTIONS_B " MQPSRegOpts "
#define MQPS_SEQUENCE_NUMBER_B " MQPSSeqNum "
#define MQPS_STREAM_NAME_B " MQPSStreamName "
#define MQPS_STRING_DATA_B " MQPSStringData "
#define MQPS_SUBSCRIPTION_IDENTITY_B " MQPSSubIdentity "
#define MQPS_SUBSCRIPTION_NAME_B " MQPSSubName "
#define MQPS_SUBSCRIPTION_USER_DATA_B " MQPSSubUserData "
#define MQPS_TOPIC_B " MQPSTopic "
#define MQPS_USER_ID_B " MQPSUserId "

/* ---- MQRFH name/value strings: values of MQPSCommand -------------------------------------- */

#define MQPS_PUBLISH "Publish"
#define MQPS_REGISTER_PUBLISHER "RegPub"
#define MQPS_REGISTER_SUBSCRIBER "RegSub"
#define MQPS_REQUEST_UPDATE "ReqUpdate"

/* ---- MQRFH name/value strings: values of MQPSRegOpts, MQPSPubOpts and MQPSDelOpts --------- */

#define MQPS_ADD_NAME "AddName"
#define MQPS_ANONYMOUS "Anon"
#define MQPS_CORREL_ID_AS_IDENTITY "CorrelAsId"
#define MQPS_DEREGISTER_ALL "DeregAll"
#define MQPS_DIRECT_REQUESTS "DirectReq"
#define MQPS_DUPLICATES_OK "DupsOK"
#define MQPS_FULL_RESPONSE "FullResp"
#define MQPS_IS_RETAINED_PUBLICATION "IsRetainedPub"
#define MQPS_LEAVE_ONLY "LeaveOnly"
#define MQPS_LOCAL "Local"
#define MQPS_NO_REGISTRATION "NoReg"
#define MQPS_OTHER_SUBSCRIBERS_ONLY "OtherSubsOnly"
#define MQPS_VARIABLE_USER_ID "VariableUserId"

/* ---- Registration options as integers (MQREGO_*), bit flags ------------------------------- */

#define MQREGO_NONE 0x00000000
#define MQREGO_CORREL_ID_AS_IDENTITY 0x00000001
#define MQREGO_ANONYMOUS 0x00000002
#define MQREGO_LOCAL 0x00000004
#define MQREGO_DIRECT_REQUESTS 0x00000008
#define MQREGO_NEW_PUBLICATIONS_ONLY 0x00000010
#define MQREGO_PUBLISH_ON_REQUEST_ONLY 0x00000020
#define MQREGO_DEREGISTER_ALL 0x00000040
#define MQREGO_INCLUDE_STREAM_NAME 0x00000080
#define MQREGO_INFORM_IF_RETAINED 0x00000100
#define MQREGO_DUPLICATES_OK 0x00000200
#define MQREGO_NON_PERSISTENT 0x00000400
#define MQREGO_PERSISTENT 0x00000800
#define MQREGO_PERSISTENT_AS_PUBLISH 0x00001000
#define MQREGO_PERSISTENT_AS_Q 0x00002000
#define MQREGO_ADD_NAME 0x00004000
#define MQREGO_NO_ALTERATION 0x00008000
#define MQREGO_FULL_RESPONSE 0x00010000
#define MQREGO_JOIN_SHARED 0x00020000
#define MQREGO_JOIN_EXCLUSIVE 0x00040000
#define MQREGO_LEAVE_ONLY 0x00080000
#define MQREGO_VARIABLE_USER_ID 0x00100000
#define MQREGO_LOCKED 0x00200000

/* ---- Publication options as integers (MQPUBO_*), bit flags -------------------------------- */

#define MQPUBO_NONE 0x00000000
#define MQPUBO_CORREL_ID_AS_IDENTITY 0x00000001
#define MQPUBO_RETAIN_PUBLICATION 0x00000002
#define MQPUBO_OTHER_SUBSCRIBERS_ONLY 0x00000004
#define MQPUBO_NO_REGISTRATION 0x00000008
#define MQPUBO_IS_RETAINED_PUBLICATION 0x00000010

/* ---- MQRFH2 name/value data ---------------------------------------------------------------- */

#define MQRFH2_NAME_VALUE_VERSION 1

/* ---- MQRFH2 <psc> folder (command): element names, as names and as XML tags ------------- */

#define MQPSC_COMMAND "Command"
#define MQPSC_REGISTRATION_OPTION "RegOpt"
#define MQPSC_PUBLICATION_OPTION "PubOpt"
#define MQPSC_DELETE_OPTION "DelOpt"
#define MQPSC_TOPIC "Topic"
#define MQPSC_SUBSCRIPTION_POINT "SubPoint"
#define MQPSC_FILTER "Filter"
#define MQPSC_Q_MGR_NAME "QMgrName"
#define MQPSC_Q_NAME "QName"
#define MQPSC_PUBLISH_TIMESTAMP "PubTime"
#define MQPSC_SEQUENCE_NUMBER "SeqNum"
#define MQPSC_SUBSCRIPTION_NAME "SubName"
#define MQPSC_SUBSCRIPTION_IDENTITY "SubIdentity"
#define MQPSC_SUBSCRIPTION_USER_DATA "SubUserData"
#define MQPSC_CORREL_ID "CorrelId"

#define MQPSC_COMMAND_B "<Command>"
#define MQPSC_COMMAND_E "</Command>"
#define MQPSC_REGISTRATION_OPTION_B "<RegOpt>"
#define MQPSC_REGISTRATION_OPTION_E "</RegOpt>"
#define MQPSC_PUBLICATION_OPTION_B "<PubOpt>"
#define MQPSC_PUBLICATION_OPTION_E "</PubOpt>"
#define MQPSC_DELETE_OPTION_B "<DelOpt>"
#define MQPSC_DELETE_OPTION_E "</DelOpt>"
#define MQPSC_TOPIC_B "<Topic>"
#define MQPSC_TOPIC_E "</Topic>"
#define MQPSC_SUBSCRIPTION_POINT_B "<SubPoint>"
#define MQPSC_SUBSCRIPTION_POINT_E "</SubPoint>"
#define MQPSC_FILTER_B "<Filter>"
#define MQPSC_FILTER_E "</Filter>"
#define MQPSC_Q_MGR_NAME_B "<QMgrName>"
#define MQPSC_Q_MGR_NAME_E "</QMgrName>"
#define MQPSC_Q_NAME_B "<QName>"
#define MQPSC_Q_NAME_E "</QName>"
#define MQPSC_PUBLISH_TIMESTAMP_B "<PubTime>"
#define MQPSC_PUBLISH_TIMESTAMP_E "</PubTime>"
#define MQPSC_SEQUENCE_NUMBER_B "<SeqNum>"
#define MQPSC_SEQUENCE_NUMBER_E "</SeqNum>"
#define MQPSC_SUBSCRIPTION_NAME_B "<SubName>"
#define MQPSC_SUBSCRIPTION_NAME_E "</SubName>"
#define MQPSC_SUBSCRIPTION_IDENTITY_B "<SubIdentity>"
#define MQPSC_SUBSCRIPTION_IDENTITY_E "</SubIdentity>"
#define MQPSC_SUBSCRIPTION_USER_DATA_B "<SubUserData>"
#define MQPSC_SUBSCRIPTION_USER_DATA_E "</SubUserData>"
#define MQPSC_CORREL_ID_B "<CorrelId>"
#define MQPSC_CORREL_ID_E "</CorrelId>"

/* ---- MQRFH2 <psc> folder: values of <Command> and <DelOpt> -------------------------------- */

#define MQPSC_REGISTER_SUBSCRIBER "RegSub"
#define MQPSC_PUBLISH "Publish"
#define MQPSC_DELETE_PUBLICATION "DeletePub"
#define MQPSC_REQUEST_UPDATE "ReqUpdate"

#define MQPSC_LOCAL "Local"
#define MQPSC_NONE "None"

/* ---- MQRFH2 <pscr> folder (response) ------------------------------------------------------ */

#define MQPSCR_FOLDER_VERSION 1

#define MQPSCR_COMPLETION "Completion"
#define MQPSCR_RESPONSE "Response"
#define MQPSCR_REASON "Reason"

#define MQPSCR_COMPLETION_B "<Completion>"
#define MQPSCR_COMPLETION_E "</Completion>"
#define MQPSCR_RESPONSE_B "<Response>"
#define MQPSCR_RESPONSE_E "</Response>"
#define MQPSCR_REASON_B "<Reason>"
#define MQPSCR_REASON_E "</Reason>"

/* Values of <Completion>. */
#define MQPSCR_OK "ok"
#define MQPSCR_WARNING "warning"
#define MQPSCR_ERROR "error"

/* ---- MQRFH2 <mcd> folder (message content descriptor) ------------------------------------- */

#define MQMCD_FOLDER_VERSION 1

#define MQMCD_MSG_DOMAIN "Msd"
#define MQMCD_MSG_SET "Set"
#define MQMCD_MSG_TYPE "Type"
#define MQMCD_MSG_FORMAT "Fmt"

#define MQMCD_MSG_DOMAIN_B "<Msd>"
#define MQMCD_MSG_DOMAIN_E "</Msd>"
#define MQMCD_MSG_SET_B "<Set>"
#define MQMCD_MSG_SET_E "</Set>"
#define MQMCD_MSG_TYPE_B "<Type>"
#define MQMCD_MSG_TYPE_E "</Type>"
#define MQMCD_MSG_FORMAT_B "<Fmt>"
#define MQMCD_MSG_FORMAT_E "</Fmt>"

/* Values of <Msd>. */
#define MQMCD_DOMAIN_NONE "none"
#define MQMCD_DOMAIN_NEON "neon"
#define MQMCD_DOMAIN_MRM "mrm"
#define MQMCD_DOMAIN_JMS_NONE "jms_none"
#define MQMCD_DOMAIN_JMS_TEXT "jms_text"
#define MQMCD_DOMAIN_JMS_OBJECT "jms_object"
#define MQMCD_DOMAIN_JMS_MAP "jms_map"
#define MQMCD_DOMAIN_JMS_STREAM "jms_stream"
#define MQMCD_DOMAIN_JMS_BYTES "jms_bytes"

/* ---- Reasons a <pscr> response can carry that the reference assigns to this header -------- */

#define MQRCCF_FILTER_ERROR 3150
#define MQRCCF_WRONG_USER 3151

/* ---- The rest of the reference's constants, generated by gen-constants.py from reference/mqi-constants.tsv ---- */

#define MQPS_STATUS_ACTIVE 3
#define MQPS_STATUS_COMPAT 4
#define MQPS_STATUS_ERROR 5
#define MQPS_STATUS_INACTIVE 0
#define MQPS_STATUS_REFUSED 6
#define MQPS_STATUS_STARTING 1
#define MQPS_STATUS_STOPPING 2

/* ---- end of generated constants ---- */

#endif /* FERRY_CMQPSC_H */
