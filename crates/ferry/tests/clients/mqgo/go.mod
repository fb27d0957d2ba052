module ferrymq.test/mqgo

go 1.21

require github.com/ibm-messaging/mq-golang/v5 v5.6.0
