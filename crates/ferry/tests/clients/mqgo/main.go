// mq-golang against FerryMQ: connect (MQSERVER through libmqm_r, as IBM's Go users do, or an
// MQCD with -conn), put and get a message, request/reply by correlation id under syncpoint,
// a message property, MQINQ, asynchronous consume (MQCB and MQCTL, as mq-golang's amqscb
// sample does it), and the reason an unknown queue gives. Exits non-zero on the first failure.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ibm-messaging/mq-golang/v5/ibmmq"
)

func check(ok bool, what string, args ...interface{}) {
	if !ok {
		fmt.Printf("FAILED: "+what+"\n", args...)
		os.Exit(1)
	}
	fmt.Printf("ok: "+what+"\n", args...)
}

func must(err error, what string) {
	if err != nil {
		fmt.Printf("FAILED: %s: %v\n", what, err)
		os.Exit(1)
	}
}

func open(qMgr ibmmq.MQQueueManager, name string, opts int32) ibmmq.MQObject {
	od := ibmmq.NewMQOD()
	od.ObjectType = ibmmq.MQOT_Q
	od.ObjectName = name
	q, err := qMgr.Open(od, opts)
	must(err, "open "+name)
	return q
}

func main() {
	qmName := flag.String("qmgr", "QM1", "queue manager")
	conn := flag.String("conn", "", "host(port): connect with an MQCD instead of MQSERVER")
	flag.Parse()

	var qMgr ibmmq.MQQueueManager
	var err error
	if *conn == "" {
		qMgr, err = ibmmq.Conn(*qmName)
		must(err, "MQCONN through MQSERVER")
	} else {
		cno := ibmmq.NewMQCNO()
		cd := ibmmq.NewMQCD()
		cd.ChannelName = "DEV.APP.SVRCONN"
		cd.ConnectionName = *conn
		cno.ClientConn = cd
		cno.Options = ibmmq.MQCNO_CLIENT_BINDING
		cno.ApplName = "mq-golang test"
		qMgr, err = ibmmq.Connx(*qmName, cno)
		must(err, "MQCONNX with an MQCD")
	}
	defer qMgr.Disc()
	fmt.Println("connected to", qMgr.Name)

	// Start from an empty queue.
	q := open(qMgr, "DEV.QUEUE.1", ibmmq.MQOO_OUTPUT|ibmmq.MQOO_INPUT_AS_Q_DEF|ibmmq.MQOO_INQUIRE|ibmmq.MQOO_FAIL_IF_QUIESCING)
	buf := make([]byte, 4096)
	for {
		gmo := ibmmq.NewMQGMO()
		gmo.Options = ibmmq.MQGMO_NO_SYNCPOINT | ibmmq.MQGMO_ACCEPT_TRUNCATED_MSG
		if _, err := q.Get(ibmmq.NewMQMD(), gmo, buf); err != nil {
			break
		}
	}

	// Put and get (amqsput / amqsget).
	md := ibmmq.NewMQMD()
	pmo := ibmmq.NewMQPMO()
	pmo.Options = ibmmq.MQPMO_NO_SYNCPOINT | ibmmq.MQPMO_NEW_MSG_ID
	md.Format = ibmmq.MQFMT_STRING
	must(q.Put(md, pmo, []byte("hello from mq-golang")), "put")
	check(!bytes.Equal(md.MsgId, make([]byte, 24)), "the put returns a MsgId %x", md.MsgId)
	gmd := ibmmq.NewMQMD()
	gmo := ibmmq.NewMQGMO()
	gmo.Options = ibmmq.MQGMO_NO_SYNCPOINT | ibmmq.MQGMO_WAIT
	gmo.WaitInterval = 3000
	n, err := q.Get(gmd, gmo, buf)
	must(err, "get")
	check(string(buf[:n]) == "hello from mq-golang" && strings.TrimSpace(gmd.Format) == "MQSTR",
		"get returns the message put (%q, format %q)", string(buf[:n]), gmd.Format)
	check(bytes.Equal(gmd.MsgId, md.MsgId), "the message keeps its MsgId")

	// Empty queue: MQRC_NO_MSG_AVAILABLE as an *MQReturn.
	gmo = ibmmq.NewMQGMO()
	gmo.Options = ibmmq.MQGMO_NO_SYNCPOINT
	_, err = q.Get(ibmmq.NewMQMD(), gmo, buf)
	mqret, isRet := err.(*ibmmq.MQReturn)
	check(isRet && mqret.MQRC == ibmmq.MQRC_NO_MSG_AVAILABLE, "an empty queue answers 2033 (%v)", err)

	// Request/reply by CorrelId = request MsgId, under syncpoint.
	req := ibmmq.NewMQMD()
	req.MsgType = ibmmq.MQMT_REQUEST
	req.ReplyToQ = "DEV.QUEUE.1"
	pmo = ibmmq.NewMQPMO()
	pmo.Options = ibmmq.MQPMO_SYNCPOINT | ibmmq.MQPMO_NEW_MSG_ID
	must(q.Put(req, pmo, []byte("ping")), "put request")
	must(qMgr.Cmit(), "commit")
	got := ibmmq.NewMQMD()
	gmo = ibmmq.NewMQGMO()
	gmo.Options = ibmmq.MQGMO_SYNCPOINT | ibmmq.MQGMO_WAIT
	gmo.WaitInterval = 3000
	n, err = q.Get(got, gmo, buf)
	must(err, "get request")
	check(string(buf[:n]) == "ping" && got.MsgType == ibmmq.MQMT_REQUEST, "the responder gets the request")
	reply := ibmmq.NewMQMD()
	reply.MsgType = ibmmq.MQMT_REPLY
	reply.CorrelId = got.MsgId
	pmo = ibmmq.NewMQPMO()
	pmo.Options = ibmmq.MQPMO_SYNCPOINT
	od := ibmmq.NewMQOD()
	od.ObjectName = strings.TrimSpace(got.ReplyToQ)
	must(qMgr.Put1(od, reply, pmo, []byte("pong")), "put1 reply")
	must(qMgr.Cmit(), "commit reply")
	rmd := ibmmq.NewMQMD()
	rmd.CorrelId = req.MsgId
	gmo = ibmmq.NewMQGMO()
	gmo.Options = ibmmq.MQGMO_NO_SYNCPOINT | ibmmq.MQGMO_WAIT
	gmo.WaitInterval = 3000
	gmo.MatchOptions = ibmmq.MQMO_MATCH_CORREL_ID
	n, err = q.Get(rmd, gmo, buf)
	must(err, "get reply")
	check(string(buf[:n]) == "pong" && bytes.Equal(rmd.CorrelId, req.MsgId), "the reply is got by CorrelId = request MsgId")

	// A message property through a message handle.
	cmho := ibmmq.NewMQCMHO()
	putMh, err := qMgr.CrtMH(cmho)
	must(err, "MQCRTMH")
	must(putMh.SetMP(ibmmq.NewMQSMPO(), "colour", ibmmq.NewMQPD(), "blue"), "MQSETMP")
	pmo = ibmmq.NewMQPMO()
	pmo.OriginalMsgHandle = putMh
	must(q.Put(ibmmq.NewMQMD(), pmo, []byte("with a property")), "put with a property")
	getMh, err := qMgr.CrtMH(ibmmq.NewMQCMHO())
	must(err, "MQCRTMH for get")
	gmo = ibmmq.NewMQGMO()
	gmo.Options = ibmmq.MQGMO_NO_SYNCPOINT | ibmmq.MQGMO_PROPERTIES_IN_HANDLE
	gmo.MsgHandle = getMh
	_, err = q.Get(ibmmq.NewMQMD(), gmo, buf)
	must(err, "get with a property")
	impo := ibmmq.NewMQIMPO()
	impo.Options = ibmmq.MQIMPO_INQ_FIRST
	name, value, err := getMh.InqMP(impo, ibmmq.NewMQPD(), "%")
	must(err, "MQINQMP")
	check(name == "colour" && value == "blue", "the property arrives (%s = %v)", name, value)

	// MQINQ: the depth and the queue manager's command level.
	must(q.Put(ibmmq.NewMQMD(), ibmmq.NewMQPMO(), []byte("1")), "put for depth")
	vals, err := q.Inq([]int32{ibmmq.MQIA_CURRENT_Q_DEPTH})
	must(err, "MQINQ")
	check(vals[ibmmq.MQIA_CURRENT_Q_DEPTH] == int32(1), "MQINQ reports the depth (%v)", vals[ibmmq.MQIA_CURRENT_Q_DEPTH])
	gmo = ibmmq.NewMQGMO()
	_, _ = q.Get(ibmmq.NewMQMD(), gmo, buf)
	q.Close(0)

	asyncConsume(qMgr)

	// An unknown queue: 2085, named by cmqstrc.h's MQRC_STR.
	od = ibmmq.NewMQOD()
	od.ObjectName = "NO.SUCH.QUEUE"
	_, err = qMgr.Open(od, ibmmq.MQOO_OUTPUT)
	mqret, isRet = err.(*ibmmq.MQReturn)
	check(isRet && mqret.MQRC == ibmmq.MQRC_UNKNOWN_OBJECT_NAME && strings.Contains(err.Error(), "MQRC_UNKNOWN_OBJECT_NAME"),
		"an unknown queue answers %v", err)
	fmt.Println("mq-golang: all passed")
}

// asyncConsume registers a message consumer on DEV.QUEUE.3 with MQCB, starts it with MQCTL, and
// checks that the three messages put there arrive at the callback in order.
func asyncConsume(qMgr ibmmq.MQQueueManager) {
	q := open(qMgr, "DEV.QUEUE.3", ibmmq.MQOO_OUTPUT|ibmmq.MQOO_INPUT_AS_Q_DEF|ibmmq.MQOO_FAIL_IF_QUIESCING)
	defer q.Close(0)
	for i := 0; i < 3; i++ {
		pmo := ibmmq.NewMQPMO()
		pmo.Options = ibmmq.MQPMO_NO_SYNCPOINT
		must(q.Put(ibmmq.NewMQMD(), pmo, []byte(fmt.Sprintf("async %d", i))), "put for MQCB")
	}
	arrived := make(chan string, 10)
	cbd := ibmmq.NewMQCBD()
	cbd.CallbackFunction = func(_ *ibmmq.MQQueueManager, _ *ibmmq.MQObject, _ *ibmmq.MQMD,
		_ *ibmmq.MQGMO, body []byte, cbc *ibmmq.MQCBC, r *ibmmq.MQReturn) {
		if r.MQCC == ibmmq.MQCC_OK && cbc.CallType == ibmmq.MQCBCT_MSG_REMOVED {
			arrived <- string(body)
		}
	}
	gmo := ibmmq.NewMQGMO()
	gmo.Options = ibmmq.MQGMO_NO_SYNCPOINT
	must(q.CB(ibmmq.MQOP_REGISTER, cbd, ibmmq.NewMQMD(), gmo), "MQCB register")
	must(qMgr.Ctl(ibmmq.MQOP_START, ibmmq.NewMQCTLO()), "MQCTL start")
	var received []string
	deadline := time.After(10 * time.Second)
	for len(received) < 3 {
		select {
		case body := <-arrived:
			received = append(received, body)
		case <-deadline:
			check(false, "the consumer received only %v", received)
		}
	}
	must(qMgr.Ctl(ibmmq.MQOP_STOP, ibmmq.NewMQCTLO()), "MQCTL stop")
	must(q.CB(ibmmq.MQOP_DEREGISTER, cbd, ibmmq.NewMQMD(), gmo), "MQCB deregister")
	check(strings.Join(received, ",") == "async 0,async 1,async 2",
		"MQCB delivers the messages in order (%v)", received)
}
