"""Idle MQTT 3.1.1 clients for benches/mqtt-scale.sh: opens N connections from source address
SRC (IP_BIND_ADDRESS_NO_PORT, so the port is chosen at connect and each source address has its
own ephemeral ports), sends a clean-session CONNECT (keep-alive 300 s, user USER, no password)
with at most 500 unanswered, checks every CONNACK, prints "connected N in S s = R/s", then holds
them until a line arrives on standard input and closes them."""
import socket
import struct
import sys
import time

port, n, user, src, tag = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]


def field(b):
    return struct.pack(">H", len(b)) + b


socks, pending = [], []
t0 = time.time()


def settle(batch):
    for p in batch:
        ack = p.recv(4)
        if ack != b"\x20\x02\x00\x00":
            sys.exit(f"CONNACK refused or missing: {ack!r}")
        socks.append(p)


for i in range(n):
    s = socket.socket()
    s.setsockopt(socket.SOL_IP, 24, 1)  # IP_BIND_ADDRESS_NO_PORT
    s.bind((src, 0))
    s.connect(("127.0.0.1", port))
    body = field(b"MQTT") + bytes([4, 0x82]) + struct.pack(">H", 300)
    body += field(f"idle-{tag}-{i:06d}".encode()) + field(user.encode())
    s.sendall(bytes([0x10, len(body)]) + body)
    pending.append(s)
    if len(pending) >= 500:
        settle(pending)
        pending = []
settle(pending)
dt = time.time() - t0
print(f"connected {len(socks)} in {dt:.2f} s = {len(socks) / dt:.0f}/s", flush=True)
sys.stdin.readline()
for s in socks:
    s.close()
