# Issue 39: the tap with 300 connections held open. Half connect and send
# nothing, half send half a request head; meanwhile whole requests are
# timed; then how long the tap holds the 300, its threads and its CPU.
#
#     python3 benches/support/idle300.py target/release/agent-loop-sim [NOFILE]
#
# NOFILE sets the tap's descriptor limit (soft and hard), e.g. 256.
import json, os, resource, socket, subprocess, sys, tempfile, threading, time

binary = sys.argv[1]
nofile = int(sys.argv[2]) if len(sys.argv) > 2 else 0
BODY = b'{"model":"m","messages":[{"role":"user","content":"hi"}]}'
ANSWER = b'{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}'

# Upstream: answers every request once, then closes.
up = socket.socket(); up.bind(("127.0.0.1", 0)); up.listen(1024)
def upstream():
    while True:
        c, _ = up.accept()
        def serve(c):
            data = b""
            while b"\r\n\r\n" not in data:
                d = c.recv(65536)
                if not d: return
                data += d
            head, rest = data.split(b"\r\n\r\n", 1)
            n = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"): n = int(line.split(b":")[1])
            while len(rest) < n: rest += c.recv(65536)
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(ANSWER), ANSWER))
            c.close()
        threading.Thread(target=serve, args=(c,), daemon=True).start()
threading.Thread(target=upstream, daemon=True).start()

def preexec():
    if nofile:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
out = os.path.join(tempfile.gettempdir(), "idle300-%d.jsonl" % os.getpid())
tap = subprocess.Popen([binary, "tap", "--upstream", "http://127.0.0.1:%d" % up.getsockname()[1], "--out", out],
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, preexec_fn=preexec)
line = tap.stderr.readline().decode()
addr = line.split("tap: http://")[1].split()[0]
host, port = addr.split(":"); port = int(port)

def cpu():
    f = open("/proc/%d/stat" % tap.pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
def threads():
    for l in open("/proc/%d/status" % tap.pid):
        if l.startswith("Threads:"): return int(l.split()[1])

def request(timeout=10):
    try:
        return request_(timeout)
    except OSError as e:
        return type(e).__name__, 0.0
def request_(timeout=10):
    t = time.time()
    s = socket.create_connection((host, port), timeout=timeout)
    s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(BODY), BODY))
    data = b""
    try:
        while True:
            d = s.recv(65536)
            if not d: break
            data += d
    except socket.timeout:
        return None, time.time() - t
    s.close()
    return data.split(b" ", 2)[1].decode() if data else "closed", time.time() - t

base = [request()[1] for _ in range(20)]
held = []
for i in range(300):
    try:
        s = socket.create_connection((host, port), timeout=5)
        if i % 2: s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        held.append(s)
    except OSError as e:
        print("connect", i, e); break
time.sleep(1)
c0 = cpu(); th = threads()
during = [request() for _ in range(20)]
statuses = {}
for st, _ in during: statuses[st] = statuses.get(st, 0) + 1
lat = sorted(t for _, t in during)
print(json.dumps({"binary": binary, "nofile": nofile,
    "baseline_ms_median": round(sorted(base)[10]*1e3, 2),
    "with_300_held": {"statuses": statuses, "ms_median": round(lat[10]*1e3, 2), "ms_max": round(lat[-1]*1e3, 2)},
    "tap_threads_with_300_held": th}))
# How long the tap holds them: poll until each is closed (60 s at most).
start = time.time(); open_ = list(held)
for s in open_: s.setblocking(False)
closed_at = []
while open_ and time.time() - start < 60:
    for s in list(open_):
        try:
            d = s.recv(4096)
            if d == b"" or d.startswith(b"HTTP/1.1 408") or d.startswith(b"HTTP/1.1 4"):
                closed_at.append(time.time() - start); open_.remove(s)
        except BlockingIOError:
            pass
        except OSError:
            closed_at.append(time.time() - start); open_.remove(s)
    time.sleep(0.2)
c1 = cpu()
print(json.dumps({"held_closed_by_tap": len(closed_at), "still_held_after_60s": len(open_),
    "last_closed_after_s": round(max(closed_at), 1) if closed_at else None,
    "tap_cpu_s_over_the_minute": round(c1 - c0, 2), "tap_threads_after": threads(),
    "request_after": request()[0]}))
tap.kill()
