/* ferryconnx: MQCONNX with a client channel definition (MQCD in MQCNO ClientConnPtr), the way
 * client applications connect without MQSERVER: puts and gets a message back; a definition
 * asking for TLS connects with TLS 1.3, trusting the CA file MQSCO's KeyRepository names and
 * checking the server's name against SSLPeerName.
 * Usage: ferryconnx 'host(port)' QUEUE [CA.pem 'tlshost(port)']. Exit 0 when every check passes. */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <string.h>
#include "cmqc.h"
#include "cmqxc.h"

int main(int argc, char **argv) {
    MQCNO cno = {MQCNO_DEFAULT};
    MQCD cd = {MQCD_CLIENT_CONN_DEFAULT};
    MQHCONN hc;
    MQHOBJ ho;
    MQLONG cc, rc, len;
    MQOD od = {MQOD_DEFAULT};
    MQMD md = {MQMD_DEFAULT};
    MQPMO pmo = {MQPMO_DEFAULT};
    MQGMO gmo = {MQGMO_DEFAULT};
    char buf[64];
    int failures = 0;

    if (argc < 3) return 2;
    memcpy(cd.ChannelName, "DEV.APP.SVRCONN", 15);
    memcpy(cd.ConnectionName, argv[1], strnlen(argv[1], sizeof(cd.ConnectionName)));
    cno.Version = MQCNO_VERSION_2;
    cno.ClientConnPtr = &cd;
    MQCONNX("", &cno, &hc, &cc, &rc);
    if (cc != MQCC_OK) {
        printf("MQCONNX with an MQCD failed with reason %d\n", (int)rc);
        return 1;
    }
    memcpy(od.ObjectName, argv[2], strnlen(argv[2], sizeof(od.ObjectName)));
    MQOPEN(hc, &od, MQOO_OUTPUT | MQOO_INPUT_AS_Q_DEF, &ho, &cc, &rc);
    if (cc != MQCC_OK) failures++;
    MQPUT(hc, ho, &md, &pmo, 5, "hello", &cc, &rc);
    if (cc != MQCC_OK) failures++;
    memset(md.MsgId, 0, sizeof(md.MsgId));
    MQGET(hc, ho, &md, &gmo, sizeof(buf), buf, &len, &cc, &rc);
    if (cc != MQCC_OK || len != 5 || memcmp(buf, "hello", 5) != 0) failures++;
    MQCLOSE(hc, &ho, MQCO_NONE, &cc, &rc);
    MQDISC(&hc, &cc, &rc);

    /* TLS asked for, but no key repository anywhere: a clear reason, no plain-text
     * connection. */
    memcpy(cd.SSLCipherSpec, "ANY_TLS13", 9);
    MQCONNX("", &cno, &hc, &cc, &rc);
    if (cc != MQCC_FAILED || rc != MQRC_KEY_REPOSITORY_ERROR) {
        printf("MQCONNX with SSLCipherSpec, no repository: cc %d rc %d\n", (int)cc, (int)rc);
        failures++;
    }
    if (argc >= 5) {
        /* TLS with the CA in MQSCO's KeyRepository and the server's name in SSLPeerName. */
        MQSCO sco = {MQSCO_DEFAULT};
        char peer[] = "CN=localhost";
        char wrong[] = "CN=somebody.else.example";
        memset(cd.ConnectionName, ' ', sizeof(cd.ConnectionName));
        memcpy(cd.ConnectionName, argv[4], strnlen(argv[4], sizeof(cd.ConnectionName)));
        memcpy(sco.KeyRepository, argv[3], strnlen(argv[3], sizeof(sco.KeyRepository)));
        cd.SSLPeerNamePtr = peer;
        cd.SSLPeerNameLength = (MQLONG)strlen(peer);
        cno.Version = MQCNO_VERSION_4;
        cno.SSLConfigPtr = &sco;
        MQCONNX("", &cno, &hc, &cc, &rc);
        if (cc != MQCC_OK) {
            printf("MQCONNX over TLS: cc %d rc %d\n", (int)cc, (int)rc);
            failures++;
        } else {
            MQHOBJ h2;
            MQOD od2 = {MQOD_DEFAULT};
            MQMD md2 = {MQMD_DEFAULT};
            MQPMO pmo2 = {MQPMO_DEFAULT};
            memcpy(od2.ObjectName, argv[2], strnlen(argv[2], sizeof(od2.ObjectName)));
            MQOPEN(hc, &od2, MQOO_OUTPUT, &h2, &cc, &rc);
            MQPUT(hc, h2, &md2, &pmo2, 3, "tls", &cc, &rc);
            if (cc != MQCC_OK) {
                printf("MQPUT over TLS: %d\n", (int)rc);
                failures++;
            }
            MQCLOSE(hc, &h2, MQCO_NONE, &cc, &rc);
            MQDISC(&hc, &cc, &rc);
        }
        cd.SSLPeerNamePtr = wrong;
        cd.SSLPeerNameLength = (MQLONG)strlen(wrong);
        MQCONNX("", &cno, &hc, &cc, &rc);
        if (cc != MQCC_FAILED) {
            printf("MQCONNX over TLS to the wrong peer name succeeded\n");
            failures++;
        }
    }
    printf("%s: %d failures\n", argv[0], failures);
    return failures ? 1 : 0;
}
