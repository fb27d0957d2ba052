// mqttload: one MQTT publisher and one subscriber on one topic, through any broker, with the
// Eclipse Paho Go client. The publisher keeps at most -window QoS 1/2 publications
// unacknowledged (QoS 0: as fast as the client writes); the subscriber counts what arrives.
// Prints one line of JSON: what was sent and received, the seconds from the first publication
// to the last one received (waiting at most -wait for the rest), the delivered rate over that
// time and how many were lost.
//
//	go run . -broker tcp://127.0.0.1:1883 -user u -password p -qos 1 -n 200000 -window 1000
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

type result struct {
	Qos       int     `json:"qos"`
	Window    int     `json:"window"`
	Size      int     `json:"size"`
	Sent      int     `json:"sent"`
	Received  int64   `json:"received"`
	Lost      int64   `json:"lost"`
	Seconds   float64 `json:"seconds"`
	PerSecond float64 `json:"per_second"`
}

func client(broker, id, user, password string, window int) mqtt.Client {
	o := mqtt.NewClientOptions().AddBroker(broker).SetClientID(id).SetCleanSession(true)
	o.SetUsername(user).SetPassword(password).SetAutoReconnect(false)
	o.SetKeepAlive(60 * time.Second).SetWriteTimeout(30 * time.Second)
	o.SetMessageChannelDepth(uint(window) + 100)
	return mqtt.NewClient(o)
}

func must(t mqtt.Token, what string) {
	if !t.WaitTimeout(30*time.Second) || t.Error() != nil {
		fmt.Fprintf(os.Stderr, "mqttload: %s: %v\n", what, t.Error())
		os.Exit(2)
	}
}

func main() {
	broker := flag.String("broker", "tcp://127.0.0.1:1883", "broker URL")
	user := flag.String("user", "", "user name")
	password := flag.String("password", "", "password")
	qos := flag.Int("qos", 1, "QoS of the publications and the subscription (0, 1 or 2)")
	n := flag.Int("n", 100000, "publications")
	size := flag.Int("size", 256, "payload bytes")
	window := flag.Int("window", 1000, "QoS 1/2 publications unacknowledged at most")
	topic := flag.String("topic", "mqttload/t", "topic")
	wait := flag.Duration("wait", 60*time.Second, "how long the subscriber waits for the last one")
	flag.Parse()

	var got atomic.Int64
	done := make(chan struct{})
	var last atomic.Int64
	sub := client(*broker, fmt.Sprintf("mqttload-sub-%d", os.Getpid()), *user, *password, *window)
	must(sub.Connect(), "subscriber connect")
	must(sub.Subscribe(*topic, byte(*qos), func(_ mqtt.Client, _ mqtt.Message) {
		last.Store(time.Now().UnixNano())
		if got.Add(1) == int64(*n) {
			close(done)
		}
	}), "subscribe")
	pub := client(*broker, fmt.Sprintf("mqttload-pub-%d", os.Getpid()), *user, *password, *window)
	must(pub.Connect(), "publisher connect")

	payload := make([]byte, *size)
	for i := range payload {
		payload[i] = 'x'
	}
	slots := make(chan struct{}, *window)
	start := time.Now()
	for i := 0; i < *n; i++ {
		t := pub.Publish(*topic, byte(*qos), false, payload)
		if *qos == 0 {
			continue
		}
		slots <- struct{}{}
		go func(t mqtt.Token) {
			must(t, "publish")
			<-slots
		}(t)
	}
	for i := 0; i < cap(slots); i++ {
		slots <- struct{}{}
	}
	select {
	case <-done:
	case <-time.After(*wait):
		// The rate is over the time to the last one that came.
	}
	secs := float64(last.Load()-start.UnixNano()) / 1e9
	r := result{Qos: *qos, Window: *window, Size: *size, Sent: *n, Received: got.Load(),
		Lost: int64(*n) - got.Load(), Seconds: secs, PerSecond: float64(got.Load()) / secs}
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
	pub.Disconnect(100)
	sub.Disconnect(100)
}
