"""Customer-Conversation Analytics Service - REST interface (Python stdlib + sqlite3).

Start:  PORT=0 KEYS_FILE=/tmp/keys.json python3 server.py
"""
import json
import os
import re
import signal
import sys
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote, urlsplit

import actions
import analytics
import docs
import ingest
import moderation
import store
from common import DB_LOCK, ApiError, flag, fmt, now, parse_json_body

MAX_BODY = 16 * 1024 * 1024
MAX_URL = 64 * 1024

DB = None


class Ctx:
    def __init__(self, method, query, headers, raw):
        self.method = method
        self.query = query
        self.headers = headers
        self.raw = raw
        self.db = DB
        self.key = None
        self.org = None
        self._json = None
        self._parsed = False

    def json(self):
        if not self._parsed:
            self._json = parse_json_body(self.raw)
            self._parsed = True
        return self._json


# (method, pattern, handler, scope)
ROUTES = [
    ("GET", r"/v0/action/list", actions.action_list, "read"),
    ("GET", r"/v0/action/([^/]+)", actions.action_detail, "read"),
    ("GET", r"/v0/actions/([^/]+)/custom-fields", actions.custom_fields_get, "read:cf"),
    ("PATCH", r"/v0/actions/([^/]+)/custom-fields", actions.custom_fields_patch, "write"),
    ("GET", r"/v0/agents", analytics.agents_list, "read"),
    ("GET", r"/v0/agents/([^/]+)", analytics.agent_detail, "read"),
    ("GET", r"/v0/queues", analytics.queues_list, "read"),
    ("GET", r"/v0/analytics/tags", analytics.tags_analytics, "read"),
    ("GET", r"/v0/analytics/tags/volume", analytics.tags_volume, "read"),
    ("GET", r"/v0/analytics/sentiment", analytics.sentiment_daily, "read"),
    ("GET", r"/v0/analytics/sentiment/by-tag", analytics.sentiment_by_tag, "read"),
    ("GET", r"/v0/analytics/engagement", analytics.engagement, "read"),
    ("GET", r"/v0/conversations/search", actions.conversation_search, "read"),
    ("POST", r"/v0/moderation/cases", moderation.submit_single, "write"),
    ("POST", r"/v0/moderation/cases/batch", moderation.submit_batch, "write"),
    ("GET", r"/v0/moderation/cases/([^/]+)", moderation.case_status, "read"),
    ("POST", r"/v0/ingest/records", ingest.ingest_records, "ingest"),
    ("GET", r"/docs", None, "docs-html"),
    ("GET", r"/docs/", None, "docs-html"),
    ("GET", r"/docs/json", None, "docs-json"),
]
COMPILED = [(m, re.compile("^" + p + "$"), h, s) for m, p, h, s in ROUTES]


def match(path, method):
    allowed = set()
    # literal routes take precedence over parameterised ones (e.g. /v0/action/list)
    hits = []
    for m, rx, h, s in COMPILED:
        mm = rx.match(path)
        if mm:
            hits.append((m, mm, h, s))
    if not hits:
        return None, None, allowed
    literal = [x for x in hits if not x[1].groups()]
    chosen = literal or hits
    for m, mm, h, s in chosen:
        allowed.add(m)
    for m, mm, h, s in chosen:
        if m == method:
            return (h, s), [unquote(g, errors="strict") for g in mm.groups()], allowed
    return None, None, allowed


def authenticate(ctx, method, path):
    value = ctx.headers.get("X-API-Key")
    if value is None or value.strip() == "":
        raise ApiError(401, "Missing API key: send it in the X-API-Key header")
    row = DB.execute("SELECT * FROM api_keys WHERE key_value = ?", (value.strip(),)).fetchone()
    if row is None:
        if flag("S23"):
            raise ApiError(403, "Forbidden")
        raise ApiError(401, "Invalid API key")
    t = fmt(now())
    if row["revoked_at"] is not None and row["revoked_at"] <= t:
        if not (flag("S12") and method == "GET"):
            raise ApiError(401, "Invalid API key: this key has been revoked")
    if row["expires_at"] is not None and row["expires_at"] <= t:
        raise ApiError(401, "Invalid API key: this key has expired")
    ctx.key = row
    ctx.org = row["org_id"]
    return row


def check_scope(ctx, scope):
    scopes = set(ctx.key["scopes"].split(","))
    if scope == "read:cf":
        ok = "read" in scopes or (flag("S10") and "write" in scopes)
        need = "read"
    elif scope == "ingest":
        ok = "ingest" in scopes or (flag("S11") and "write" in scopes)
        need = "ingest"
    else:
        ok = scope in scopes
        need = scope
    if not ok:
        raise ApiError(403, "Forbidden: this API key does not carry the '%s' scope" % need)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "CCA-REST/0.1"
    sys_version = ""

    def version_string(self):
        return self.server_version

    def send_error(self, code, message=None, explain=None):
        # protocol-level errors raised by http.server itself (bad request line, URI too long, ...)
        self.close_connection = True
        body = json.dumps({"success": False, "error": message or self.responses.get(code, ("Error",))[0]}).encode()
        try:
            self.send_response(code, message)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD" and code >= 200 and code not in (204, 304):
                self.wfile.write(body)
        except Exception:
            pass

    def log_message(self, fmt_, *args):
        if os.environ.get("ACCESS_LOG"):
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt_ % args))

    def _send(self, status, payload, ctype="application/json; charset=utf-8", extra=None, head=False):
        if isinstance(payload, (dict, list)):
            data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        elif isinstance(payload, str):
            data = payload.encode("utf-8")
        else:
            data = payload or b""
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def _read_body(self):
        te = (self.headers.get("Transfer-Encoding") or "").lower()
        if "chunked" in te:
            chunks, total = [], 0
            while True:
                line = self.rfile.readline(1024)
                if not line:
                    raise ApiError(400, "Malformed chunked body")
                try:
                    size = int(line.split(b";")[0].strip(), 16)
                except ValueError:
                    self.close_connection = True
                    raise ApiError(400, "Malformed chunked body")
                if size == 0:
                    while True:
                        trailer = self.rfile.readline(1024)
                        if trailer in (b"\r\n", b"\n", b""):
                            break
                    break
                total += size
                if total > MAX_BODY:
                    self.close_connection = True
                    raise ApiError(413, "Request body too large (limit %d bytes)" % MAX_BODY)
                chunks.append(self.rfile.read(size))
                self.rfile.readline(16)
            return b"".join(chunks)
        cl = self.headers.get("Content-Length")
        if cl is None:
            return b""
        try:
            n = int(cl.strip())
            if n < 0:
                raise ValueError
        except ValueError:
            self.close_connection = True
            raise ApiError(400, "Invalid Content-Length header")
        if n > MAX_BODY:
            self.close_connection = True
            raise ApiError(413, "Request body too large (limit %d bytes)" % MAX_BODY)
        return self.rfile.read(n) if n else b""

    def _dispatch(self, method):
        head = method == "HEAD"
        if head:
            method = "GET"
        extra = None
        try:
            if len(self.path) > MAX_URL:
                self.close_connection = True
                raise ApiError(414, "Request URI too long")
            raw = self._read_body()
            parts = urlsplit(self.path)
            path = parts.path or "/"
            try:
                route, params, allowed = match(path, method)
            except UnicodeDecodeError:
                raise ApiError(404, "Not found")
            if route is None:
                if allowed:
                    extra = {"Allow": ", ".join(sorted(allowed | ({"HEAD"} if "GET" in allowed else set())))}
                    raise ApiError(405, "Method %s not allowed on %s" % (method, path[:200]))
                raise ApiError(404, "Not found: %s %s" % (method, path[:200]))
            handler, scope = route
            if scope == "docs-html":
                self._send(200, docs.HTML, "text/html; charset=utf-8", head=head)
                return
            if scope == "docs-json":
                host = self.headers.get("Host") or "127.0.0.1:%d" % self.server.server_address[1]
                self._send(200, docs.openapi("http://" + host), head=head)
                return
            query = {}
            for k, v in parse_qsl(parts.query, keep_blank_values=True, errors="replace"):
                query.setdefault(k, v)
            ctx = Ctx(method, query, self.headers, raw)
            with DB_LOCK:
                authenticate(ctx, method, path)
                check_scope(ctx, scope)
                status, payload = handler(ctx, *params)
            self._send(status, payload, head=head)
        except ApiError as e:
            self._send(e.status, e.body(), extra=extra, head=head)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            try:
                self._send(500, {"success": False, "error": "Internal server error"}, head=head)
            except Exception:
                pass

    def do_GET(self):
        self._dispatch("GET")

    def do_HEAD(self):
        self._dispatch("HEAD")

    def do_POST(self):
        self._dispatch("POST")

    def do_PATCH(self):
        self._dispatch("PATCH")

    def do_PUT(self):
        self._dispatch("PUT")

    def do_DELETE(self):
        self._dispatch("DELETE")

    def do_OPTIONS(self):
        self._dispatch("OPTIONS")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


def main():
    global DB
    port = int(os.environ.get("PORT", "0") or 0)
    keys_file = os.environ.get("KEYS_FILE")
    t0 = now().replace(microsecond=0)
    DB = store.connect()
    store.seed(DB, t0)
    keys = store.make_keys(DB, t0)
    httpd = Server(("127.0.0.1", port), Handler)

    def stop(signum, frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if keys_file:
        tmp = keys_file + ".tmp"
        with open(tmp, "w") as f:
            json.dump(keys, f, indent=2)
        os.replace(tmp, keys_file)
    print("listening http://127.0.0.1:%d" % httpd.server_address[1], flush=True)
    try:
        httpd.serve_forever(poll_interval=0.2)
    except SystemExit:
        pass
    finally:
        try:
            httpd.server_close()
        except Exception:
            pass
    os._exit(0)


if __name__ == "__main__":
    main()
