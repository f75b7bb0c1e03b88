#!/usr/bin/python3
"""A hostile pmproxy for the fleet's tests (issue 24): an HTTP server on
127.0.0.1 that answers /series (and /pmapi) the way PMWEBAPI(3) says, for
a small fleet of its own (host h01 and guest g001, their values moving on
every request), or in a way a broken or hostile server would.

Usage: hostile_pmproxy.py PORT_FILE [OPTION...]   (writes its port there)
  --mode fleet      a fleet (default); with --evil FIELD,... escape
                    sequences in those fields: labels (every label value),
                    label-names, units, instances, release, ids (after
                    the id), ids40 (in place of the id's last 24 digits)
  --mode raw        every answer is 200 with --body (default: escapes)
  --mode error-json every answer is HTTP 400 {"message": ESC..}
  --mode error-html every answer is HTTP 500, an HTML page with ESC.. in <p>
  --mode truncated  the fleet's answers cut in half
  --mode wrongtype  the fleet's answers with every field of another type
  --mode huge       every answer is a JSON array of --mb megabytes
  --mode huge-stream  the same without a Content-Length
  --mode endless    every answer a 200 whose body never ends (4 bytes a
                    0.1 s, no Content-Length)
  --mode lost       the fleet as its key-value server restarted empty
                    leaves it: values still come, no query finds a series
  --mode slow       the fleet, each answer after --slow S (3) seconds
  --mode close      every connection closed without an answer
  --delay S         each answer only after S seconds
  --ping-fast       but /series/ping at once (pmproxy up, its key-value
                    server stuck: the series requests wait on it)
  --empty           the fleet has no sources (every query answers [])
  --after N MODE    the first N requests as --mode says, then MODE
  --guest-name NAME the guest's parallax_name (default g001), e.g. UTF-8
Standard library only; stops on SIGTERM.
"""
import hashlib
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

EVIL = "\x1b]0;evil-title\x07\x1b[2J\x9b31m\u202e"  # OSC, CSI, C1, bidi
RAW_EVIL = b"\x1b]0;evil-title\x07\x1b[2J\xc2\x9b31m"

# name: (units, type, instances): what pmproxy 6.0.3's /series/descs says
# for the names fleet/pmlogger.conf logs (seen on fleet/farm.sh's farm)
NAMES = {
    "kernel.all.cpu.user": ("millisec", "u64", None),
    "kernel.all.cpu.sys": ("millisec", "u64", None),
    "kernel.all.cpu.idle": ("millisec", "u64", None),
    "kernel.all.cpu.wait.total": ("millisec", "u64", None),
    "kernel.all.cpu.steal": ("millisec", "u64", None),
    "kernel.all.pswitch": ("count", "u64", None),
    "kernel.all.sysfork": ("count", "u64", None),
    "kernel.all.intr": ("count", "u64", None),
    "kernel.all.runnable": ("none", "u32", None),
    "kernel.all.load": ("none", "float", ["1 minute", "5 minute", "15 minute"]),
    "disk.all.read_bytes": ("Kbyte", "u64", None),
    "disk.all.write_bytes": ("Kbyte", "u64", None),
    "mem.physmem": ("Kbyte", "u64", None),
    "mem.util.available": ("Kbyte", "u64", None),
    "hinv.ncpu": ("none", "u32", None),
    "kernel.uname.release": ("none", "string", None),
    "kernel.uname.nodename": ("none", "string", None),
}
SOURCES = {
    "h01": {"parallax_role": "host", "parallax_name": "h01",
            "parallax_host": "h01", "parallax_variant": "plain"},
    "g001": {"parallax_role": "guest", "parallax_name": "g001",
             "parallax_host": "h01", "parallax_variant": "plain"},
}


def sha(*parts):
    return hashlib.sha1(":".join(parts).encode()).hexdigest()


class Fleet:
    """The fleet's answers, as Python values, before any mutation."""

    def __init__(self, evil, empty):
        self.evil = set(evil)
        self.empty = empty
        self.t0 = time.time()
        self.series = {}  # series id -> (source, name)
        for src in SOURCES:
            for name in NAMES:
                self.series[sha(src, name)] = (src, name)

    def e(self, field, text):
        return text + EVIL if field in self.evil else text

    def query(self, expr, lost=False):
        if self.empty or lost or expr not in NAMES:
            return []
        return [sha(src, expr) for src in SOURCES]

    def descs(self, ids):
        out = []
        for sid in ids:
            if sid in self.series:
                src, name = self.series[sid]
                units, typ, _ = NAMES[name]
                out.append({"series": sid, "source": sha("source", src),
                            "pmid": "60.0.1", "indom": "none",
                            "semantics": "counter", "type": typ,
                            "units": self.e("units", units)})
        return out

    def instances(self, ids):
        out = []
        for sid in ids:
            src, name = self.series.get(sid, (None, None))
            for k, inst in enumerate((NAMES[name][2] or []) if name else []):
                out.append({"series": sid, "source": sha("source", src),
                            "instance": sha(sid, inst), "id": k,
                            "name": self.e("instances", inst)})
        return out

    def labels(self, ids):
        out = []
        for sid in ids:
            if sid not in self.series:
                continue
            src, _ = self.series[sid]
            lab = dict(SOURCES[src], hostname="vm", agent="linux",
                       parallax_pmcd="127.0.0.1:1")
            lab = {k: self.e("labels", v) for k, v in lab.items()}
            if "label-names" in self.evil:
                lab[EVIL] = EVIL
            out.append({"series": sid, "labels": lab})
        return out

    def values(self, ids):
        now = time.time()
        t = (self.t0 + int(now - self.t0)) * 1000.0  # a record a second
        out = []
        for sid in ids:
            if sid not in self.series:
                continue
            src, name = self.series[sid]
            units, typ, insts = NAMES[name]
            ticks = int(now - self.t0)
            if typ == "string":
                v = '"' + self.e("release", "6.1.0-hostile") + '"'
            elif typ == "float":
                v = "%e" % 0.5
            elif name == "hinv.ncpu":
                v = "2"
            else:
                v = str(1000000 + 400 * ticks)
            sid_out = self.e("ids", sid)
            if "ids40" in self.evil:
                # 40 bytes, the first 16 hex: only a full check refuses it
                sid_out = (sid[:16] + "\x1b]0;evil-title\x07\x1b[2J" +
                           "x" * 24)[:40]
            for inst in insts or [None]:
                item = {"series": sid_out, "timestamp": t, "value": v}
                if inst:
                    item["instance"] = sha(sid, inst)
                out.append(item)
        return out


def wrong_types(x):
    """Every field of another type than PMWEBAPI(3) says."""
    if isinstance(x, list):
        return {"not": "an array", "items": [wrong_types(i) for i in x]}
    if isinstance(x, dict):
        swap = {str: 12345, int: "12345", float: ["1.5"], dict: "labels"}
        return {k: swap.get(type(v), None) for k, v in x.items()}
    return x


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, ctype="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def answer(self, path, form, qs):
        srv = self.server
        with srv.lock:
            srv.requests += 1
            mode = srv.mode if srv.requests <= srv.after else srv.then
        delay = srv.delay + (srv.slow if mode == "slow" else 0)
        if delay and not (srv.ping_fast and path == "/series/ping"):
            time.sleep(delay)
        if mode == "close":
            self.close_connection = True
            self.wfile.flush()
            self.connection.shutdown(2)
            return
        if mode == "raw":
            return self.send(200, srv.body)
        if mode == "error-json":
            msg = json.dumps({"message": "bad" + EVIL, "success": False})
            return self.send(400, msg.encode())
        if mode == "error-html":
            page = b"<html><body><h1>500</h1><p>" + RAW_EVIL + b"</p></body></html>"
            return self.send(500, page, "text/html")
        if mode in ("huge", "huge-stream"):
            item = b'"' + b"a" * 1022 + b'",'
            n = srv.mb * 1024
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if mode == "huge":
                self.send_header("Content-Length", str(1 + n * len(item) + 4))
            else:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            try:
                self.wfile.write(b"[")
                for _ in range(n):
                    self.wfile.write(item)
                self.wfile.write(b'"a"]')
            except OSError:
                pass
            return
        if mode == "endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.close_connection = True
            self.end_headers()
            try:
                self.wfile.write(b"[")
                while True:
                    time.sleep(0.1)
                    self.wfile.write(b'"a",')
                    self.wfile.flush()
            except OSError:
                return
        fleet = srv.fleet
        ids = form.get("series", [""])[0].split(",") if form else []
        if path == "/series/ping":
            data = {"success": True}
        elif path == "/series/query":
            data = fleet.query(qs.get("expr", [""])[0], mode == "lost")
        elif path == "/series/descs":
            data = fleet.descs(ids)
        elif path == "/series/instances":
            data = fleet.instances(ids)
        elif path == "/series/labels":
            data = fleet.labels(ids)
        elif path == "/series/values":
            data = fleet.values(ids)
        else:
            return self.send(400, json.dumps(
                {"message": "no handler for " + path + EVIL,
                 "success": False}).encode())
        if mode == "wrongtype":
            data = wrong_types(data)
        body = json.dumps(data).encode()
        if mode == "truncated":
            body = body[: len(body) // 2]
        self.send(200, body)

    def do_GET(self):
        u = urlsplit(self.path)
        self.answer(u.path, None, parse_qs(u.query))

    def do_POST(self):
        u = urlsplit(self.path)
        n = int(self.headers.get("Content-Length", 0))
        form = parse_qs(self.rfile.read(n).decode("latin-1"))
        self.answer(u.path, form, parse_qs(u.query))


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a client that gave up (its timeout): nothing to say


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    port_file = args.pop(0)
    opt = {"mode": "fleet", "evil": [], "delay": 0.0, "mb": 50,
           "body": RAW_EVIL, "empty": False, "after": None, "ping_fast": False,
           "slow": 3.0}
    while args:
        a = args.pop(0)
        if a == "--mode":
            opt["mode"] = args.pop(0)
        elif a == "--evil":
            opt["evil"] += args.pop(0).split(",")
        elif a == "--delay":
            opt["delay"] = float(args.pop(0))
        elif a == "--mb":
            opt["mb"] = int(args.pop(0))
        elif a == "--body":
            opt["body"] = args.pop(0).encode("latin-1")
        elif a == "--slow":
            opt["slow"] = float(args.pop(0))
        elif a == "--ping-fast":
            opt["ping_fast"] = True
        elif a == "--empty":
            opt["empty"] = True
        elif a == "--after":
            opt["after"] = (int(args.pop(0)), args.pop(0))
        elif a == "--guest-name":
            SOURCES["g001"]["parallax_name"] = args.pop(0)
        else:
            sys.exit("hostile_pmproxy.py: unknown option " + a)
    srv = Server(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.lock = threading.Lock()
    srv.requests = 0
    srv.mode = opt["mode"]
    srv.after, srv.then = opt["after"] or (1 << 62, opt["mode"])
    srv.delay, srv.mb, srv.body = opt["delay"], opt["mb"], opt["body"]
    srv.ping_fast, srv.slow = opt["ping_fast"], opt["slow"]
    srv.fleet = Fleet(opt["evil"], opt["empty"])
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with open(port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
