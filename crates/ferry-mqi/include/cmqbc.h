/*
 * cmqbc.h — FerryMQ's administration interface (MQAI) declarations: data bags and the calls
 * that build and read them.
 *
 * Written for FerryMQ from the public MQAI reference documentation (call syntax, documented
 * constant values). It is not IBM's header and contains none of its text.
 *
 * What FerryMQ does: the data-bag calls below work on bags held in the calling process
 * (create, add, set, inquire, count, delete, clear, truncate); mqPad and mqTrim copy strings
 * to and from blank-padded fields. The calls that send a bag as a PCF command (mqExecute,
 * mqPutBag, mqGetBag, mqBagToBuffer, mqBufferToBag) answer MQRC_FUNCTION_NOT_SUPPORTED:
 * FerryMQ is administered with MQSC commands (`ferry admin`), not PCF, today.
 */
#ifndef FERRY_CMQBC_H
#define FERRY_CMQBC_H

#include "cmqc.h"

#if defined(__cplusplus)
extern "C" {
#endif

typedef MQLONG MQHBAG;
typedef MQHBAG *PMQHBAG;

/* Bag handles */
#define MQHB_UNUSABLE_HBAG (-1)
#define MQHB_NONE (-2)

/* mqCreateBag options */
#define MQCBO_NONE 0x00000000
#define MQCBO_USER_BAG 0x00000000
#define MQCBO_ADMIN_BAG 0x00000001
#define MQCBO_LIST_FORM_INHIBITED 0x00000000
#define MQCBO_LIST_FORM_ALLOWED 0x00000002
#define MQCBO_DO_NOT_REORDER 0x00000000
#define MQCBO_REORDER_AS_REQUIRED 0x00000004
#define MQCBO_DO_NOT_CHECK_SELECTORS 0x00000000
#define MQCBO_CHECK_SELECTORS 0x00000008
#define MQCBO_COMMAND_BAG 0x00000010
#define MQCBO_SYSTEM_BAG 0x00000020
#define MQCBO_GROUP_BAG 0x00000040

/* Buffer length meaning "the string ends at its first null" */
#define MQBL_NULL_TERMINATED (-1)

/* Item types (mqInquireItemInfo) */
#define MQITEM_INTEGER 1
#define MQITEM_STRING 2
#define MQITEM_BAG 3
#define MQITEM_BYTE_STRING 4
#define MQITEM_INTEGER_FILTER 5
#define MQITEM_STRING_FILTER 6
#define MQITEM_INTEGER64 7
#define MQITEM_BYTE_STRING_FILTER 8
#define MQIT_INTEGER 1
#define MQIT_STRING 2
#define MQIT_BAG 3

/* Handle selectors */
#define MQHA_FIRST 4001
#define MQHA_BAG_HANDLE 4001
#define MQHA_LAST_USED 4001
#define MQHA_LAST 6000

/* Limits for selectors of object attributes */
#define MQOA_FIRST 1
#define MQOA_LAST 9000

/* System selectors (negative): items the bag holds about itself */
#define MQIASY_FIRST (-1)
#define MQIASY_CODED_CHAR_SET_ID (-1)
#define MQIASY_TYPE (-2)
#define MQIASY_COMMAND (-3)
#define MQIASY_MSG_SEQ_NUMBER (-4)
#define MQIASY_CONTROL (-5)
#define MQIASY_COMP_CODE (-6)
#define MQIASY_REASON (-7)
#define MQIASY_BAG_OPTIONS (-8)
#define MQIASY_VERSION (-9)
#define MQIASY_LAST_USED (-9)
#define MQIASY_LAST (-2000)

/* Special selector values */
#define MQSEL_ANY_SELECTOR (-30001)
#define MQSEL_ANY_USER_SELECTOR (-30002)
#define MQSEL_ANY_SYSTEM_SELECTOR (-30003)
#define MQSEL_ALL_SELECTORS (-30001)
#define MQSEL_ALL_USER_SELECTORS (-30002)
#define MQSEL_ALL_SYSTEM_SELECTORS (-30003)

/* Special index values */
#define MQIND_NONE (-1)
#define MQIND_ALL (-2)

/* ---- Data-bag calls ---------------------------------------------------------------------- */

void mqCreateBag(MQLONG Options, PMQHBAG pBag, PMQLONG pCompCode, PMQLONG pReason);
void mqDeleteBag(PMQHBAG pBag, PMQLONG pCompCode, PMQLONG pReason);
void mqClearBag(MQHBAG Bag, PMQLONG pCompCode, PMQLONG pReason);
void mqTruncateBag(MQHBAG Bag, MQLONG ItemCount, PMQLONG pCompCode, PMQLONG pReason);
void mqCountItems(MQHBAG Bag, MQLONG Selector, PMQLONG pItemCount, PMQLONG pCompCode,
                  PMQLONG pReason);
void mqDeleteItem(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, PMQLONG pCompCode,
                  PMQLONG pReason);

void mqAddInteger(MQHBAG Bag, MQLONG Selector, MQLONG ItemValue, PMQLONG pCompCode,
                  PMQLONG pReason);
void mqAddInteger64(MQHBAG Bag, MQLONG Selector, MQINT64 ItemValue, PMQLONG pCompCode,
                    PMQLONG pReason);
void mqAddIntegerFilter(MQHBAG Bag, MQLONG Selector, MQLONG ItemValue, MQLONG Operator,
                        PMQLONG pCompCode, PMQLONG pReason);
void mqAddString(MQHBAG Bag, MQLONG Selector, MQLONG BufferLength, PMQCHAR pBuffer,
                 PMQLONG pCompCode, PMQLONG pReason);
void mqAddStringFilter(MQHBAG Bag, MQLONG Selector, MQLONG BufferLength, PMQCHAR pBuffer,
                       MQLONG Operator, PMQLONG pCompCode, PMQLONG pReason);
void mqAddByteString(MQHBAG Bag, MQLONG Selector, MQLONG BufferLength, PMQBYTE pBuffer,
                     PMQLONG pCompCode, PMQLONG pReason);
void mqAddByteStringFilter(MQHBAG Bag, MQLONG Selector, MQLONG BufferLength, PMQBYTE pBuffer,
                           MQLONG Operator, PMQLONG pCompCode, PMQLONG pReason);
void mqAddBag(MQHBAG Bag, MQLONG Selector, MQHBAG ItemValue, PMQLONG pCompCode,
              PMQLONG pReason);
void mqAddInquiry(MQHBAG Bag, MQLONG Selector, PMQLONG pCompCode, PMQLONG pReason);

void mqSetInteger(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQLONG ItemValue,
                  PMQLONG pCompCode, PMQLONG pReason);
void mqSetInteger64(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQINT64 ItemValue,
                    PMQLONG pCompCode, PMQLONG pReason);
void mqSetString(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQLONG BufferLength,
                 PMQCHAR pBuffer, PMQLONG pCompCode, PMQLONG pReason);
void mqSetByteString(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQLONG BufferLength,
                     PMQBYTE pBuffer, PMQLONG pCompCode, PMQLONG pReason);
void mqSetIntegerFilter(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQLONG ItemValue,
                        MQLONG Operator, PMQLONG pCompCode, PMQLONG pReason);
void mqSetStringFilter(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQLONG BufferLength,
                       PMQCHAR pBuffer, MQLONG Operator, PMQLONG pCompCode, PMQLONG pReason);
void mqSetByteStringFilter(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQLONG BufferLength,
                           PMQBYTE pBuffer, MQLONG Operator, PMQLONG pCompCode,
                           PMQLONG pReason);

void mqInquireInteger(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, PMQLONG pItemValue,
                      PMQLONG pCompCode, PMQLONG pReason);
void mqInquireInteger64(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQINT64 *pItemValue,
                        PMQLONG pCompCode, PMQLONG pReason);
void mqInquireIntegerFilter(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, PMQLONG pItemValue,
                            PMQLONG pOperator, PMQLONG pCompCode, PMQLONG pReason);
void mqInquireString(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQLONG BufferLength,
                     PMQCHAR pBuffer, PMQLONG pStringLength, PMQLONG pCodedCharSetId,
                     PMQLONG pCompCode, PMQLONG pReason);
void mqInquireStringFilter(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQLONG BufferLength,
                           PMQCHAR pBuffer, PMQLONG pStringLength, PMQLONG pCodedCharSetId,
                           PMQLONG pOperator, PMQLONG pCompCode, PMQLONG pReason);
void mqInquireByteString(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, MQLONG BufferLength,
                         PMQBYTE pBuffer, PMQLONG pByteStringLength, PMQLONG pCompCode,
                         PMQLONG pReason);
void mqInquireByteStringFilter(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex,
                               MQLONG BufferLength, PMQBYTE pBuffer,
                               PMQLONG pByteStringLength, PMQLONG pOperator, PMQLONG pCompCode,
                               PMQLONG pReason);
void mqInquireBag(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, PMQHBAG pItemValue,
                  PMQLONG pCompCode, PMQLONG pReason);
void mqInquireItemInfo(MQHBAG Bag, MQLONG Selector, MQLONG ItemIndex, PMQLONG pOutSelector,
                       PMQLONG pItemType, PMQLONG pCompCode, PMQLONG pReason);

/* ---- String utilities ---------------------------------------------------------------------- */

/* mqPad: copies the null-terminated string pString into the BufferLength bytes at pBuffer,
 * padded with blanks. mqTrim: copies the blank-padded field of BufferLength bytes at pBuffer
 * into pString (BufferLength + 1 bytes) without its trailing blanks, null-terminated. */
void mqPad(PMQCHAR pString, MQLONG BufferLength, PMQCHAR pBuffer, PMQLONG pCompCode,
           PMQLONG pReason);
void mqTrim(MQLONG BufferLength, PMQCHAR pBuffer, PMQCHAR pString, PMQLONG pCompCode,
            PMQLONG pReason);

/* ---- Command calls (PCF): MQRC_FUNCTION_NOT_SUPPORTED in this version ---------------------- */

void mqExecute(MQHCONN Hconn, MQLONG Command, MQHBAG OptionsBag, MQHBAG AdminBag,
               MQHBAG ResponseBag, MQHOBJ AdminQ, MQHOBJ ResponseQ, PMQLONG pCompCode,
               PMQLONG pReason);
void mqPutBag(MQHCONN Hconn, MQHOBJ Hobj, PMQVOID pMsgDesc, PMQVOID pPutMsgOpts, MQHBAG Bag,
              PMQLONG pCompCode, PMQLONG pReason);
void mqGetBag(MQHCONN Hconn, MQHOBJ Hobj, PMQVOID pMsgDesc, PMQVOID pGetMsgOpts, MQHBAG Bag,
              PMQLONG pCompCode, PMQLONG pReason);
void mqBagToBuffer(MQHBAG OptionsBag, MQHBAG DataBag, MQLONG BufferLength, PMQVOID pBuffer,
                   PMQLONG pDataLength, PMQLONG pCompCode, PMQLONG pReason);
void mqBufferToBag(MQHBAG OptionsBag, MQLONG BufferLength, PMQVOID pBuffer, MQHBAG DataBag,
                   PMQLONG pCompCode, PMQLONG pReason);

#if defined(__cplusplus)
}
#endif

/* ---- The rest of the reference's constants, generated by gen-constants.py from reference/mqi-constants.tsv ---- */

#define MQIT_CORREL_ID 2
#define MQIT_GROUP_ID 5
#define MQIT_MSG_ID 1
#define MQIT_MSG_TOKEN 4
#define MQIT_NONE 0

/* ---- end of generated constants ---- */

#endif /* FERRY_CMQBC_H */
