"""pymqi's documented usage, run against a FerryMQ queue manager: put, get, request/reply by
correlation id (in and out of syncpoint), message properties and PCF administration
(PCFExecute through the command server), through a client connection
given two ways (pymqi.connect with channel and connection name, which passes an MQCD to
MQCONNX; and MQSERVER with pymqi.QueueManager). Exits non-zero on the first failure.

The first way authenticates with a user and password (pymqi passes them in an MQCSP), from
FERRY_TEST_USER and FERRY_TEST_PASSWORD; the second, which has no MQCSP, through FERRY_USER and
FERRY_PASSWORD, which FerryMQ's client library reads when a program passes none.

Usage: python3 pymqi_examples.py QMGR HOST(PORT)"""
import os
import sys

import pymqi
from pymqi import CMQC, CMQXC

qm_name, conn_info = sys.argv[1], sys.argv[2]
channel = "DEV.APP.SVRCONN"


def check(cond, what):
    if not cond:
        raise SystemExit(f"FAILED: {what}")
    print(f"ok: {what}")


# --- put and get (pymqi's "put a message" / "get a message" examples) -------------------
qmgr = pymqi.connect(
    qm_name,
    channel,
    conn_info,
    user=os.environ["FERRY_TEST_USER"],
    password=os.environ["FERRY_TEST_PASSWORD"],
)
for name in ("DEV.QUEUE.1", "DEV.QUEUE.2", "DEV.QUEUE.3"):  # start from empty queues
    q = pymqi.Queue(qmgr, name)
    try:
        while True:
            q.get()
    except pymqi.MQMIError as e:
        if e.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
            raise
    q.close()
put_q = pymqi.Queue(qmgr, "DEV.QUEUE.1")
put_q.put(b"Hello from Python!")
put_q.put("a text message")  # str: pymqi sets MQFMT_STRING and the CCSID
put_q.close()

get_q = pymqi.Queue(qmgr, "DEV.QUEUE.1")
md = pymqi.MD()
body = get_q.get(None, md)
check(body == b"Hello from Python!", "get returns the body put")
check(md.MsgId != CMQC.MQMI_NONE, "the queue manager gave the message an id")
md = pymqi.MD()
body = get_q.get(None, md)
check(body == b"a text message" and md.Format.strip() == b"MQSTR", "a str put is MQSTR text")
try:
    get_q.get()
    check(False, "an empty queue answers 2033")
except pymqi.MQMIError as e:
    check(e.comp == CMQC.MQCC_FAILED and e.reason == CMQC.MQRC_NO_MSG_AVAILABLE,
          f"an empty queue answers MQRC_NO_MSG_AVAILABLE ({e.reason})")
# wait with a timeout
gmo = pymqi.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_FAIL_IF_QUIESCING, WaitInterval=200)
try:
    get_q.get(None, pymqi.MD(), gmo)
    check(False, "a wait on an empty queue times out")
except pymqi.MQMIError as e:
    check(e.reason == CMQC.MQRC_NO_MSG_AVAILABLE, "a 200 ms wait on an empty queue times out")
get_q.close()

# truncation: a small buffer without ACCEPT_TRUNCATED fails with 2080, pymqi re-gets
q = pymqi.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_AS_Q_DEF)
q.put(b"x" * 10000)
check(q.get() == b"x" * 10000, "a 10 KB message comes back whole (pymqi re-gets after 2080)")
q.close()

# --- request/reply by correlation id (the request/reply example) ------------------------
def round_trip(syncpoint):
    requests = pymqi.Queue(qmgr, "DEV.QUEUE.2", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_AS_Q_DEF)
    replies = pymqi.Queue(qmgr, "DEV.QUEUE.3", CMQC.MQOO_INPUT_AS_Q_DEF)
    pmo = pymqi.PMO(Options=CMQC.MQPMO_SYNCPOINT if syncpoint else CMQC.MQPMO_NO_SYNCPOINT)
    req_md = pymqi.MD(MsgType=CMQC.MQMT_REQUEST, ReplyToQ=b"DEV.QUEUE.3",
                      Persistence=CMQC.MQPER_PERSISTENT)
    requests.put(b"ping", req_md, pmo)
    if syncpoint:
        qmgr.commit()
    # the responder
    got_md = pymqi.MD()
    gmo = pymqi.GMO(Options=CMQC.MQGMO_WAIT | (CMQC.MQGMO_SYNCPOINT if syncpoint else CMQC.MQGMO_NO_SYNCPOINT),
                    WaitInterval=2000)
    check(requests.get(None, got_md, gmo) == b"ping", "the responder gets the request")
    check(got_md.MsgType == CMQC.MQMT_REQUEST and got_md.ReplyToQ.strip() == b"DEV.QUEUE.3",
          "the request carries its type and reply-to queue")
    reply_md = pymqi.MD(MsgType=CMQC.MQMT_REPLY, CorrelId=got_md.MsgId)
    qmgr.put1(got_md.ReplyToQ.strip(), b"pong", reply_md, pymqi.PMO(Options=pmo.Options))
    if syncpoint:
        qmgr.commit()
    # the requester: the reply whose CorrelId is the request's MsgId
    other = pymqi.MD(MsgType=CMQC.MQMT_REPLY, CorrelId=b"not-this-one".ljust(24, b"\0"))
    qmgr.put1("DEV.QUEUE.3", b"someone else's reply", other)
    gmo = pymqi.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=2000,
                    Version=CMQC.MQGMO_VERSION_2, MatchOptions=CMQC.MQMO_MATCH_CORREL_ID)
    rmd = pymqi.MD(CorrelId=req_md.MsgId)
    check(replies.get(None, rmd, gmo) == b"pong", f"the reply is got by CorrelId = request MsgId (syncpoint={syncpoint})")
    check(rmd.CorrelId == req_md.MsgId, "the reply's CorrelId is the request's MsgId")
    check(replies.get() == b"someone else's reply", "the other reply stays on the queue")
    requests.close()
    replies.close()


round_trip(False)
round_trip(True)

# backout: a get under syncpoint that is backed out leaves the message, backout count 1
q = pymqi.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_AS_Q_DEF)
q.put(b"keep me")
q.get(None, pymqi.MD(), pymqi.GMO(Options=CMQC.MQGMO_SYNCPOINT))
qmgr.backout()
md = pymqi.MD()
check(q.get(None, md) == b"keep me" and md.BackoutCount == 1, "a backed-out get leaves the message (BackoutCount 1)")
q.close()

# inquire: current depth through MQINQ
q = pymqi.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE)
q.put(b"1")
q.put(b"2")
check(q.inquire(CMQC.MQIA_CURRENT_Q_DEPTH) == 2, "MQINQ reports the current depth")
q.close()
q = pymqi.Queue(qmgr, "DEV.QUEUE.1")
q.get()
q.get()
q.close()

# set: MQSET of the inhibit flag and of a trigger attribute, read back with MQINQ
q = pymqi.Queue(qmgr, "DEV.QUEUE.2", CMQC.MQOO_INQUIRE | CMQC.MQOO_SET)
q.set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_INHIBITED)
check(q.inquire(CMQC.MQIA_INHIBIT_PUT) == CMQC.MQQA_PUT_INHIBITED, "MQSET inhibits puts")
try:
    pymqi.Queue(qmgr, "DEV.QUEUE.2").put(b"refused")
    check(False, "a put to a put-inhibited queue is refused")
except pymqi.MQMIError as e:
    check(e.reason == CMQC.MQRC_PUT_INHIBITED, f"a put-inhibited queue answers 2051 ({e.reason})")
q.set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_ALLOWED)
q.set(CMQC.MQIA_TRIGGER_DEPTH, 7)
check(q.inquire(CMQC.MQIA_TRIGGER_DEPTH) == 7, "MQSET of MQIA_TRIGGER_DEPTH")
try:
    q.set(CMQC.MQIA_TRIGGER_DEPTH, 0)
    check(False, "a trigger depth of 0 is refused")
except pymqi.MQMIError as e:
    check(e.reason == CMQC.MQRC_TRIGGER_DEPTH_ERROR, f"MQSET of depth 0 answers 2076 ({e.reason})")
q.close()
pymqi.Queue(qmgr, "DEV.QUEUE.2").put(b"allowed again")
pymqi.Queue(qmgr, "DEV.QUEUE.2").get()

# --- message properties (the message-properties example) --------------------------------
put_msg_h = pymqi.MessageHandle(qmgr)
put_msg_h.properties.set(b"Colour", "blue")  # names are bytes, string values str
put_msg_h.properties.set(b"Count", 42, property_type=CMQC.MQTYPE_INT32, value_length=4)
pmo = pymqi.PMO(Version=CMQC.MQPMO_VERSION_3)
pmo.OriginalMsgHandle = put_msg_h.msg_handle
put_q = pymqi.Queue(qmgr, "DEV.QUEUE.1")
put_q.put(b"with properties", pymqi.MD(Version=CMQC.MQMD_CURRENT_VERSION), pmo)
put_q.close()

get_msg_h = pymqi.MessageHandle(qmgr)
gmo = pymqi.GMO(Version=CMQC.MQGMO_CURRENT_VERSION)
gmo.MsgHandle = get_msg_h.msg_handle
get_q = pymqi.Queue(qmgr, "DEV.QUEUE.1")
check(get_q.get(None, pymqi.MD(), gmo) == b"with properties", "the message with properties arrives")
colour = get_msg_h.properties.get(b"Colour")
check(colour in (b"blue", "blue"), f"string property Colour = {colour!r}")
count = get_msg_h.properties.get(b"Count", property_type=CMQC.MQTYPE_INT32)
check(count == 42, f"integer property Count = {count!r}")
get_q.close()

# --- PCF through the command server (pymqi's PCFExecute examples) -----------------------
from pymqi import CMQCFC

pcf = pymqi.PCFExecute(qmgr)  # a reply queue from SYSTEM.DEFAULT.MODEL.QUEUE
check(pcf.MQCMD_PING_Q_MGR() == [{}], "MQCMD_PING_Q_MGR answers")
pcf.MQCMD_CREATE_Q({CMQC.MQCA_Q_NAME: b"PYMQI.PCF.Q", CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL,
                    CMQC.MQIA_MAX_Q_DEPTH: 123, CMQC.MQCA_Q_DESC: b"made by pymqi",
                    CMQCFC.MQIACF_REPLACE: CMQCFC.MQRP_YES})
found = pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"PYMQI.*", CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL})
check(len(found) == 1 and found[0][CMQC.MQCA_Q_NAME].strip() == b"PYMQI.PCF.Q",
      "MQCMD_INQUIRE_Q finds the queue MQCMD_CREATE_Q made")
check(found[0][CMQC.MQIA_MAX_Q_DEPTH] == 123 and found[0][CMQC.MQCA_Q_DESC].strip() == b"made by pymqi",
      "its attributes are the ones given")
names = pcf.MQCMD_INQUIRE_Q_NAMES({CMQC.MQCA_Q_NAME: b"DEV.QUEUE.*"})
listed = sorted(n.strip() for n in names[0][CMQCFC.MQCACF_Q_NAMES])
check(listed == [b"DEV.QUEUE.1", b"DEV.QUEUE.2", b"DEV.QUEUE.3"], f"MQCMD_INQUIRE_Q_NAMES lists {listed}")
status = pcf.MQCMD_INQUIRE_Q_STATUS({CMQC.MQCA_Q_NAME: b"PYMQI.PCF.Q"})
check(status[0][CMQC.MQIA_CURRENT_Q_DEPTH] == 0, "MQCMD_INQUIRE_Q_STATUS reports the depth")
qm_attrs = pcf.MQCMD_INQUIRE_Q_MGR()
check(qm_attrs[0][CMQC.MQCA_Q_MGR_NAME].strip() == qm_name.encode(), "MQCMD_INQUIRE_Q_MGR names the queue manager")
pcf.MQCMD_DELETE_Q({CMQC.MQCA_Q_NAME: b"PYMQI.PCF.Q"})
try:  # pymqi's "how to check whether a queue exists"
    pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"PYMQI.PCF.Q"})
    check(False, "a deleted queue is unknown")
except pymqi.MQMIError as e:
    check(e.comp == CMQC.MQCC_FAILED and e.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME,
          f"a deleted queue answers MQRC_UNKNOWN_OBJECT_NAME ({e.reason})")
pcf.MQCMD_CREATE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"PYMQI.SVRCONN",
                          CMQCFC.MQIACH_CHANNEL_TYPE: CMQXC.MQCHT_SVRCONN,
                          CMQCFC.MQCACH_DESC: b"made by pymqi"})
channels = pcf.MQCMD_INQUIRE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"PYMQI.*"})
check(len(channels) == 1 and channels[0][CMQCFC.MQIACH_CHANNEL_TYPE] == CMQXC.MQCHT_SVRCONN
      and channels[0][CMQCFC.MQCACH_DESC].strip() == b"made by pymqi",
      "MQCMD_INQUIRE_CHANNEL finds the channel MQCMD_CREATE_CHANNEL made, with its type")
pcf.MQCMD_DELETE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"PYMQI.SVRCONN"})

# --- Statistics messages, read as pymqi reads MQ's (PCFExecute.unpack) --------------------
pcf.MQCMD_CHANGE_Q_MGR({CMQC.MQIA_STATISTICS_MQI: CMQC.MQMON_ON, CMQC.MQIA_STATISTICS_Q: CMQC.MQMON_ON})
attrs = pcf.MQCMD_INQUIRE_Q_MGR({CMQCFC.MQIACF_Q_MGR_ATTRS: [CMQC.MQIA_STATISTICS_MQI]})
check(attrs[0][CMQC.MQIA_STATISTICS_MQI] == CMQC.MQMON_ON, "STATMQI is ON through PCF")
stats_q = pymqi.Queue(qmgr, "SYSTEM.ADMIN.STATISTICS.QUEUE", CMQC.MQOO_INPUT_AS_Q_DEF)
while True:  # what earlier intervals left
    try:
        stats_q.get()
    except pymqi.MQMIError as e:
        check(e.reason == CMQC.MQRC_NO_MSG_AVAILABLE, "the statistics queue drained")
        break
pcf.MQCMD_RESET_Q_MGR({CMQCFC.MQIACF_ACTION: CMQCFC.MQACT_COLLECT_STATISTICS})  # start afresh
while True:
    try:
        stats_q.get()
    except pymqi.MQMIError:
        break
work_q = pymqi.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_AS_Q_DEF)
for _ in range(4):
    work_q.put(b"counted")
for _ in range(4):  # leaves the queue as it found it
    work_q.get()
work_q.close()
pcf.MQCMD_RESET_Q_MGR({CMQCFC.MQIACF_ACTION: CMQCFC.MQACT_COLLECT_STATISTICS})
by_command = {}
while True:
    md = pymqi.MD()
    try:
        body = stats_q.get(None, md)
    except pymqi.MQMIError:
        break
    check(md.Format.strip() == CMQC.MQFMT_ADMIN.strip(), "a statistics message is MQADMIN")
    res, head = pymqi.PCFExecute.unpack(body)
    check(head.Type == CMQCFC.MQCFT_STATISTICS, "MQCFT_STATISTICS")
    by_command[head.Command] = res
mqi = by_command.get(CMQCFC.MQCMD_STATISTICS_MQI)
check(mqi is not None, "an MQI statistics message")
check(mqi[CMQCFC.MQIAMO_PUTS][0] >= 4 and len(mqi[CMQCFC.MQIAMO_OPENS]) == 13,
      f"MQI statistics: puts {mqi[CMQCFC.MQIAMO_PUTS]}, opens by object type")
qstats = by_command.get(CMQCFC.MQCMD_STATISTICS_Q)
check(qstats is not None, "a queue statistics message")
groups = qstats[CMQCFC.MQGACF_Q_STATISTICS_DATA]
dev = [g for g in groups if g[CMQC.MQCA_Q_NAME].strip() == b"DEV.QUEUE.1"]
check(len(dev) == 1 and dev[0][CMQCFC.MQIAMO_PUTS] == [4, 0] and dev[0][CMQCFC.MQIAMO_GETS] == [4, 0],
      f"DEV.QUEUE.1's statistics: {dev}")
check(qstats[CMQCFC.MQIAMO_OBJECT_COUNT] == len(groups), "ObjectCount is the groups in the message")
stats_q.close()
pcf.MQCMD_CHANGE_Q_MGR({CMQC.MQIA_STATISTICS_MQI: CMQC.MQMON_OFF, CMQC.MQIA_STATISTICS_Q: CMQC.MQMON_OFF})
pcf.disconnect()
qmgr.disconnect()

# --- MQSERVER and the QueueManager class -------------------------------------------------
os.environ["MQSERVER"] = f"{channel}/TCP/{conn_info}"
qmgr = pymqi.QueueManager(qm_name)
check(qmgr.is_connected, "is_connected (pymqi pings the command server with PCF)")
q = pymqi.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_AS_Q_DEF)
q.put(b"via MQSERVER")
check(q.get() == b"via MQSERVER", "put and get through MQSERVER")
q.close()
# an unknown queue answers 2085 with pymqi's exception
try:
    pymqi.Queue(qmgr, "NO.SUCH.QUEUE", CMQC.MQOO_OUTPUT)
    check(False, "an unknown queue answers 2085")
except pymqi.MQMIError as e:
    check(e.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME, "an unknown queue answers MQRC_UNKNOWN_OBJECT_NAME")
qmgr.disconnect()
print("pymqi examples: all passed")
