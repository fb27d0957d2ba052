/* ferryccdturl: MQCONNX naming a client channel definition table by URL (MQCNO version 6
 * CCDTUrl), then puts one message. Usage: ferryccdturl URL QMGR QUEUE */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <string.h>
#include "cmqc.h"

int main(int argc, char **argv) {
    MQCNO cno = {MQCNO_DEFAULT};
    MQCHAR48 qmgr = "";
    MQHCONN hc;
    MQHOBJ ho;
    MQLONG cc, rc;
    MQOD od = {MQOD_DEFAULT};
    MQMD md = {MQMD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    char body[] = "named by CCDTUrl";

    if (argc < 4) return 2;
    cno.Version = MQCNO_VERSION_6;
    cno.CCDTUrlPtr = argv[1];
    cno.CCDTUrlLength = (MQLONG)strlen(argv[1]);
    memcpy(qmgr, argv[2], strnlen(argv[2], sizeof(qmgr) - 1));
    MQCONNX(qmgr, &cno, &hc, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQCONNX failed with reason %d\n", (int)rc);
        return 1;
    }
    memcpy(od.ObjectName, argv[3], strnlen(argv[3], sizeof(od.ObjectName)));
    MQOPEN(hc, &od, MQOO_OUTPUT, &ho, &cc, &rc);
    if (cc == MQCC_FAILED) {
        printf("MQOPEN failed with reason %d\n", (int)rc);
        return 1;
    }
    MQPUT(hc, ho, &md, &pmo, (MQLONG)strlen(body), body, &cc, &rc);
    printf("MQPUT completion %d reason %d\n", (int)cc, (int)rc);
    MQCLOSE(hc, &ho, MQCO_NONE, &cc, &rc);
    MQDISC(&hc, &cc, &rc);
    return 0;
}
