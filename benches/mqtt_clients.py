"""MQTT 3.1.1 clients for benches/mqtt-scale.sh, N of them in one process.

    mqtt_clients.py PORT N USER SRC TAG FIRST MODE [ARGS...]

Opens N connections from source address SRC (IP_BIND_ADDRESS_NO_PORT: the port is chosen at
connect, so each source address has its own ephemeral ports), each a clean-session CONNECT as
USER without a password, keep-alive 300 s, client id idle-TAG-i, at most 500 unanswered; checks
every CONNACK and prints "connected N in S s = R/s". Client i is number FIRST+i of the run.
Then, by MODE:

  idle             holds them until a line (or end of file) on standard input, then closes.
  sub QOS          each also subscribed (in the same write as its CONNECT) to scale/<FIRST+i> at
                   QOS; counts the publications that reach them (acknowledging QoS 1; a line
                   "progress R" each second the count grew) until standard input has a line or
                   ends, then prints
                   "received R first T0 last T1" (times since the epoch) and closes.
  watch QOS        (N = 1) subscribed to scale/in/# at QOS, as sub, and also prints
                   "latency ms p50 .. p99 .. p999 .. max .." from each publication's time to its
                   arrival (the clocks are one: the same machine).
  pub RATE SECS    at the first line on standard input, publishes RATE QoS 1 messages a second,
                   256 bytes each (the first 8 the time, a big-endian double), from its clients in
                   turn, each on scale/in/<FIRST+i>, for SECS seconds; prints
                   "published P acked A unacked U in S s"; closes at the next line or end of file.
"""
import selectors
import socket
import struct
import sys
import time

port, n, user, src, tag, first, mode = (
    int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5],
    int(sys.argv[6]), sys.argv[7])
args = sys.argv[8:]


def field(b):
    return struct.pack(">H", len(b)) + b


def length(n):
    out = bytearray()
    while True:
        b, n = n % 128, n // 128
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)


def packet(head, body):
    return bytes([head]) + length(len(body)) + body


def connect_packet(i):
    body = field(b"MQTT") + bytes([4, 0x82]) + struct.pack(">H", 300)
    body += field(f"idle-{tag}-{i:06d}".encode()) + field(user.encode())
    return packet(0x10, body)


def subscribe_packet(topic, qos):
    return packet(0x82, struct.pack(">H", 1) + field(topic.encode()) + bytes([qos]))


def read_exact(s, k):
    got = b""
    while len(got) < k:
        b = s.recv(k - len(got))
        if not b:
            sys.exit("the broker closed a connection before answering")
        got += b
    return got


def open_all(extra):
    socks, pending = [], []

    def settle(batch):
        for p in batch:
            ack = read_exact(p, 4)
            if ack != b"\x20\x02\x00\x00":
                sys.exit(f"CONNACK refused or missing: {ack!r}")
            if extra:
                sub = read_exact(p, 5)
                if sub[0] != 0x90 or sub[4] > 2:
                    sys.exit(f"SUBACK refused or missing: {sub!r}")
            socks.append(p)

    t0 = time.time()
    for i in range(n):
        s = socket.socket()
        s.setsockopt(socket.SOL_IP, 24, 1)  # IP_BIND_ADDRESS_NO_PORT
        s.bind((src, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(connect_packet(i) + (extra(i) if extra else b""))
        pending.append(s)
        if len(pending) >= 500:
            settle(pending)
            pending = []
    settle(pending)
    dt = time.time() - t0
    print(f"connected {len(socks)} in {dt:.2f} s = {len(socks) / dt:.0f}/s", flush=True)
    return socks


def packets(buf):
    """Complete packets at the head of buf: [(first byte, body)], and the rest."""
    out, at = [], 0
    while True:
        if len(buf) - at < 2:
            break
        k, mult, pos = 0, 1, at + 1
        while pos < len(buf):
            b = buf[pos]
            k += (b & 0x7F) * mult
            mult *= 128
            pos += 1
            if not b & 0x80:
                break
        else:
            break
        if len(buf) - pos < k:
            break
        out.append((buf[at], buf[pos:pos + k]))
        at = pos + k
    return out, buf[at:]


def serve(socks, on_packet, until, tick=None):
    """Reads every socket until until() is true, handing each packet to on_packet(sock, head,
    body), which returns what to answer (written once for all a read brought, as a client
    that acknowledges what it has read does); tick() runs about every millisecond."""
    sel = selectors.DefaultSelector()
    bufs = {}
    for s in socks:
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
        bufs[s] = b""
    while not until():
        for key, _ in sel.select(timeout=0.001):
            s = key.fileobj
            try:
                data = s.recv(1 << 16)
            except BlockingIOError:
                continue
            if not data:
                sys.exit("the broker closed a connection")
            got, bufs[s] = packets(bufs[s] + data)
            acks = b"".join(on_packet(s, head, body) or b"" for head, body in got)
            if acks:
                s.send(acks)
        if tick:
            tick()
    for s in socks:
        sel.unregister(s)
        s.setblocking(True)


_stdin_sel = selectors.DefaultSelector()
_stdin_sel.register(sys.stdin, selectors.EVENT_READ)


def _stdin_ready():
    return bool(_stdin_sel.select(timeout=0))


def run_sub(qos, watch):
    topic = (lambda i: "scale/in/#") if watch else (lambda i: f"scale/{first + i}")
    socks = open_all(lambda i: subscribe_packet(topic(i), qos))
    seen = {"n": 0, "first": 0.0, "last": 0.0}
    latencies = []

    def on_packet(s, head, body):
        if head & 0xF0 != 0x30:
            return
        now = time.time()
        seen["n"] += 1
        seen["first"] = seen["first"] or now
        seen["last"] = now
        tl = struct.unpack(">H", body[:2])[0]
        at = 2 + tl + (2 if head & 0x06 else 0)
        if watch:
            latencies.append(now - struct.unpack(">d", body[at:at + 8])[0])
        if head & 0x06:
            return b"\x40\x02" + body[2 + tl:4 + tl]

    checks = {"k": 0, "shown": 0, "at": time.time()}

    def until():
        checks["k"] += 1
        if time.time() - checks["at"] >= 1 and seen["n"] != checks["shown"]:
            checks["at"], checks["shown"] = time.time(), seen["n"]
            print(f"progress {seen['n']}", flush=True)
        return checks["k"] % 64 == 0 and _stdin_ready()

    serve(socks, on_packet, until)
    print(f"received {seen['n']} first {seen['first']:.6f} last {seen['last']:.6f}", flush=True)
    if latencies:
        latencies.sort()
        q = lambda f: latencies[min(len(latencies) - 1, int(f * len(latencies)))] * 1000
        print(f"latency ms p50 {q(0.5):.2f} p99 {q(0.99):.2f} p999 {q(0.999):.2f} "
              f"max {latencies[-1] * 1000:.2f}", flush=True)
    for s in socks:
        s.close()


def run_pub(rate, secs):
    socks = open_all(None)
    sys.stdin.readline()
    state = {"sent": 0, "acked": 0, "turn": 0}
    t0 = time.time()
    filler = b"x" * 248

    def on_packet(s, head, body):
        if head == 0x40:
            state["acked"] += 1

    def tick():
        due = min(int((time.time() - t0) * rate), int(rate * secs)) - state["sent"]
        for _ in range(due):
            i = state["turn"]
            state["turn"] = (i + 1) % len(socks)
            pid = state["sent"] % 65535 + 1
            body = field(f"scale/in/{first + i}".encode()) + struct.pack(">H", pid)
            body += struct.pack(">d", time.time()) + filler
            socks[i].send(packet(0x32, body))
            state["sent"] += 1

    serve(socks, on_packet, lambda: time.time() - t0 > secs + 2, tick)
    dt = time.time() - t0
    print(f"published {state['sent']} acked {state['acked']} unacked "
          f"{state['sent'] - state['acked']} in {dt:.2f} s", flush=True)
    sys.stdin.readline()
    for s in socks:
        s.close()


if mode == "idle":
    socks = open_all(None)
    sys.stdin.readline()
    for s in socks:
        s.close()
elif mode == "sub":
    run_sub(int(args[0]), False)
elif mode == "watch":
    run_sub(int(args[0]), True)
elif mode == "pub":
    run_pub(float(args[0]), float(args[1]))
else:
    sys.exit(f"unknown mode {mode}")
