#!/usr/bin/env bash
# Smoke test: builds (if needed), runs every route against a clean server, then checks
# that each planted deviation is observable (check passes clean, fails with the deviation on).
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --offline -q
BIN="$PWD/target/release/cca-blind2" exec python3 - "$@" <<'PY'
import json, os, socket, subprocess, sys, tempfile, time, urllib.parse, http.client, math

BIN = os.environ["BIN"]

class Srv:
    def __init__(self, devs=""):
        self.kf = tempfile.mktemp(suffix=".json")
        env = dict(os.environ, PORT="0", KEYS_FILE=self.kf, DEVIATIONS=devs)
        self.p = subprocess.Popen([BIN], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.p.stdout.readline().strip()
        assert line.startswith("listening http://127.0.0.1:"), line
        self.port = int(line.rsplit(":", 1)[1])
        self.keys = json.load(open(self.kf))
        self.c = None
    def stop(self):
        self.p.terminate()
        try: self.p.wait(2)
        except subprocess.TimeoutExpired: self.p.kill(); raise AssertionError("SIGTERM did not stop server in 2s")
        os.unlink(self.kf)
    def req(self, method, path, key="CCA_READ_KEY", q=None, body=None, raw=None):
        if q: path += "?" + urllib.parse.urlencode(q, quote_via=urllib.parse.quote)
        h = {}
        if key: h["X-API-Key"] = self.keys.get(key, key)
        data = None
        if body is not None: data = json.dumps(body); h["Content-Type"] = "application/json"
        if raw is not None: data = raw
        for attempt in range(2):
            try:
                if self.c is None: self.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                self.c.request(method, path, body=data, headers=h)
                r = self.c.getresponse(); b = r.read()
                try: j = json.loads(b)
                except Exception: j = None
                return r.status, j
            except (http.client.HTTPException, ConnectionError):
                self.c = None
                if attempt: raise
    def raw(self, payload):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5); s.sendall(payload)
        out = b""
        while True:
            d = s.recv(65536)
            if not d: break
            out += d
        s.close(); return out

def seg(x): return urllib.parse.quote(x, safe="")
def iso_now(): return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
def day(off): return time.strftime("%Y-%m-%d", time.gmtime(time.time() + off * 86400))

def case(ext, **kw):
    c = {"externalId": ext, "sourceSystem": "smoke", "sourcePlatform": "snap", "sourceAdId": "ad-" + ext, "advertiserName": "Acme",
         "market": "US", "placement": "feed", "landingPageUrl": "https://acme.example.com", "title": "Great shoes",
         "media": [{"url": "https://cdn.example.com/a.png", "type": "image", "position": 1}],
         "attachment": {"type": "web_view", "destinationUrl": "https://acme.example.com"},
         "targeting": {"ageMin": 18, "geos": ["US"]}, "copy": {"body": "Buy now"}}
    c.update(kw); return c

def ingest_body(n=1, **rk):
    rec = {"externalId": "ext-1", "authorId": "a1", "authorName": "Author", "body": "hello", "createdAt": iso_now(), "recordType": "POST"}
    rec.update(rk)
    return {"platform": "DISCORD", "serverId": "srv1", "serverName": "Server", "records": [dict(rec, externalId="ext-%d" % i) for i in range(n)]}

# ---------- deviation checks: return True when behaviour is conformant ----------
def c_R01(s): return s.req("GET", "/v0/action/list", q={"pageSize": "500"})[0] == 200
def c_R02(s):
    a = s.req("GET", "/v0/action/list", q={"pageSize": "5"})[1]["data"][0]
    d = s.req("GET", "/v0/action/list", q={"from": a["createdAt"], "to": a["createdAt"]})[1]["data"]
    return any(x["actionId"] == a["actionId"] for x in d)
def c_R03(s):
    f = day(-8); t = day(-1)
    a = sum(x["metrics"]["totalActions"] for x in s.req("GET", "/v0/queues", q={"from": f, "to": t})[1]["data"])
    b = sum(x["metrics"]["totalActions"] for x in s.req("GET", "/v0/queues", q={"from": f, "to": t + "T00:00:00Z"})[1]["data"])
    return a == b
def c_R04(s):
    d = s.req("GET", "/v0/action/" + seg("9007199254740993"))[1]
    r = s.req("GET", "/v0/conversations/search", q={"filter": "actionId=9007199254740993"})[1]["data"]
    return len(r) == 1 and r[0]["userId"] == d["user"]["userId"]
def c_R05(s):
    st, j = s.req("GET", "/v0/actions/" + seg("a b+c%d?e#f&g=h") + "/custom-fields")
    return st == 200 and j["actionId"] == "a b+c%d?e#f&g=h"
def c_R06(s): return s.req("GET", "/v0/queues", key="CCA_INGEST_KEY")[0] == 403
def c_R07(s):
    q = {"from": day(-30), "to": iso_now()}
    bt = {r["tagName"]: r["totalMentions"] for r in s.req("GET", "/v0/analytics/sentiment/by-tag", q=q)[1]["data"]}
    tb = s.req("GET", "/v0/analytics/tags", q=dict(q, search="billing"))[1]["data"]["tagBreakdown"]
    c = [x["count"] for x in tb if x["tagName"] == "billing"][0]
    return bt.get("billing") == c
def c_R08(s):
    f = "tag=billing+from=" + day(-20)
    j = s.req("GET", "/v0/conversations/search", q={"filter": f, "pageSize": "100"})[1]
    n = len(j["data"]); p = 2
    while len(j["data"]) == 100:
        j = s.req("GET", "/v0/conversations/search", q={"filter": f, "pageSize": "100", "page": str(p)})[1]; n += len(j["data"]); p += 1
    return j["totalRecords"] == n
def c_R09(s):
    c = case("dup-" + str(time.time()))
    a = s.req("POST", "/v0/moderation/cases", key="CCA_WRITE_KEY", body=c)
    b = s.req("POST", "/v0/moderation/cases", key="CCA_WRITE_KEY", body=c)
    return a[0] == 202 and b[0] == 202 and b[1]["status"] == "duplicate" and b[1]["caseId"] == a[1]["caseId"]
def c_R10(s):
    c = case("pos0", media=[{"url": "https://cdn.example.com/a.png", "type": "image", "position": 0}])
    st, j = s.req("POST", "/v0/moderation/cases", key="CCA_WRITE_KEY", body=c)
    return st == 422 and "media[0].position" in j["invalidFields"]
def c_R11(s): return s.req("POST", "/v0/ingest/records", key="CCA_INGEST_KEY", body=ingest_body(1, score=5))[0] == 202
def c_R12(s): return s.req("GET", "/v0/action/list", key="CCA_EXPIRED_KEY")[0] == 401
def c_R13(s):
    q = {"from": day(-30), "to": iso_now()}
    for a in s.req("GET", "/v0/agents", q=q)[1]["data"]:
        d = s.req("GET", "/v0/agents/" + seg(a["agentId"]), q=q)[1]["data"]
        if d["aggregatedMetrics"]["totalActions"] != a["metrics"]["totalActions"]: return False
    return True
def c_R14(s):
    d = s.req("GET", "/docs/json", key=None)[1]
    p = [x for x in d["paths"]["/v0/action/list"]["get"]["parameters"] if x["name"] == "pageSize"][0]
    return p["schema"]["maximum"] == 500
def c_R15(s):
    j = s.req("GET", "/v0/conversations/search", q={"filter": "platform=TWITTER", "pageSize": "7"})[1]
    return j["totalPages"] == math.ceil(j["totalRecords"] / 7)
def c_R16(s):
    d = s.req("GET", "/v0/action/list", q={"fullFilter": "platform=DISCORD", "from": day(-60), "pageSize": "500"})[1]["data"]
    return any(x["initialResponseTime"] is None for x in d)
def c_R17(s):
    st, j = s.req("GET", "/v0/agents/" + seg("no-such-agent"))
    return st == 404 and j.get("success") is False and isinstance(j.get("error"), str)

CHECKS = {k[2:]: v for k, v in sorted(globals().items()) if k.startswith("c_R")}

# ---------- clean route exercise ----------
def exercise(s):
    fails = []
    def ok(cond, msg):
        if not cond: fails.append(msg)
    st, j = s.req("GET", "/v0/action/list", key=None); ok(st == 401 and j == {"success": False, "error": j.get("error")} and j["error"], "401 missing key")
    ok(s.req("GET", "/v0/action/list", key="bogus")[0] == 401, "401 bad key")
    ok(s.req("GET", "/v0/action/list", key="CCA_REVOKED_KEY")[0] == 401, "401 revoked")
    st, j = s.req("GET", "/v0/action/list"); ok(st == 200 and j["pageSize"] == 50 and len(j["data"]) <= 50 and j["currentPage"] == 1, "list default")
    ok(all(x["initialResponseTime"] is not None and x["conversationJson"] is None for x in j["data"]), "list responded default / conversationJson null")
    ok(s.req("GET", "/v0/action/list", q={"pageSize": "501"})[0] == 400, "pageSize 501")
    ok(s.req("GET", "/v0/action/list", q={"pageSize": "0"})[0] == 400, "pageSize 0")
    ok(s.req("GET", "/v0/action/list", q={"from": "2024-13-01"})[0] == 400, "bad date")
    ok(s.req("GET", "/v0/action/list", q={"fullFilter": "platform=TWITTER", "filter": "responded=true"})[0] == 400, "fullFilter+filter")
    ok(s.req("GET", "/v0/action/list", q={"fullFilter": "platform=" + "X" * 10000})[0] == 400, "fullFilter too long")
    st, j = s.req("GET", "/v0/action/list", q={"includeFullConversation": "true", "pageSize": "3"})
    ok(st == 200 and all(isinstance(x["conversationJson"], str) for x in j["data"]), "includeFullConversation")
    st, j = s.req("GET", "/v0/action/list", q={"filterJson": '{"responded": false}'})
    ok(st == 200 and all(x["initialResponseTime"] is None for x in j["data"]), "filterJson responded false")
    st, j = s.req("GET", "/v0/action/list", q={"sortBy": "updatedAt", "pageSize": "20"})
    ok(st == 200 and [x["updatedAt"] for x in j["data"]] == sorted([x["updatedAt"] for x in j["data"]], reverse=True), "sortBy updatedAt")
    for aid in ["9007199254740993", "123456789012345678901234567890", "000042", "ação/日本 🚀", "a b+c%d?e#f&g=h", "x%2Fy"]:
        st, j = s.req("GET", "/v0/action/" + seg(aid)); ok(st == 200 and j["actionId"] == aid, "detail id " + aid)
    a = s.req("GET", "/v0/action/000042")[1]; b = s.req("GET", "/v0/action/000042", key="CCA_OTHER_ORG_READ_KEY")[1]
    ok(a["actionTitle"] != b["actionTitle"] or a["user"] != b["user"], "colliding ids are different records")
    ok(s.req("GET", "/v0/action/" + seg("ação/日本 🚀"), key="CCA_OTHER_ORG_READ_KEY")[0] == 404, "org isolation detail")
    ok(s.req("GET", "/v0/action/nope")[0] == 404, "detail 404")
    st, j = s.req("GET", "/v0/actions/000042/custom-fields"); ok(st == 200 and j["actionId"] == "000042" and len(j["fields"]) >= 5, "cf get")
    ok(s.req("GET", "/v0/actions/000042/custom-fields", key="CCA_INGEST_KEY")[0] == 403, "cf get ingest key 403")
    ok(s.req("PATCH", "/v0/actions/000042/custom-fields", body={"fields": [{"fieldName": "notes", "value": "x"}]})[0] == 403, "read key PATCH 403")
    st, j = s.req("PATCH", "/v0/actions/000042/custom-fields", key="CCA_WRITE_KEY", body={"fields": [{"fieldName": "notes", "value": "hi ✓", "confidence": 0.5, "rationale": "r"}, {"fieldName": "seat_count", "value": 12}]})
    ok(st == 200 and j["updated"] == [{"fieldName": "notes", "value": "hi ✓"}, {"fieldName": "seat_count", "value": 12}], "cf patch")
    ok([f["value"] for f in s.req("GET", "/v0/actions/000042/custom-fields")[1]["fields"] if f["fieldName"] == "notes"] == ["hi ✓"], "cf readback")
    st, j = s.req("PATCH", "/v0/actions/000042/custom-fields", key="CCA_WRITE_KEY", body={"fields": [{"fieldName": "seat_count", "value": "12"}]})
    ok(st == 422 and "seat_count" in j["fieldErrors"] and j["success"] is False, "cf 422")
    ok(s.req("PATCH", "/v0/actions/000042/custom-fields", key="CCA_WRITE_KEY", body={"fields": []})[0] == 422, "cf empty")
    ok(s.req("PATCH", "/v0/actions/000042/custom-fields", key="CCA_WRITE_KEY", body={"fields": [{"fieldName": "notes", "value": 1, "confidence": 1.5}]})[0] == 422, "cf confidence")
    ok(s.req("PATCH", "/v0/actions/nope/custom-fields", key="CCA_WRITE_KEY", body={"fields": [{"fieldName": "notes", "value": "x"}]})[0] == 404, "cf 404")
    st, j = s.req("GET", "/v0/agents"); ok(st == 200 and j["success"] and all("totalActionsWithResponse" in x["metrics"] for x in j["data"]), "agents")
    aid = j["data"][0]["agentId"]
    st, d = s.req("GET", "/v0/agents/" + seg(aid)); ok(st == 200 and set(d["data"]) == {"metrics", "aggregatedMetrics", "currentWorkload", "queues"}, "agent detail")
    ok(d["data"]["currentWorkload"] == j["data"][0]["workload"], "agent workload agrees")
    st, j = s.req("GET", "/v0/queues"); ok(st == 200 and all("averageSentimentScore" in x["metrics"] for x in j["data"]), "queues")
    ok(s.req("GET", "/v0/queues", key="CCA_WRITE_KEY")[0] == 403, "write-only key cannot read")
    st, j = s.req("GET", "/v0/analytics/tags", q={"limit": "2", "offset": "1"}); ok(st == 200 and len(j["data"]["tagBreakdown"]) == 2 and j["data"]["pagination"]["offset"] == 1, "tags")
    st, j = s.req("GET", "/v0/analytics/tags/volume", q={"topTagsLimit": "3"}); ok(st == 200 and len(j["data"]["tags"]) == 3, "tag volume")
    st, j = s.req("GET", "/v0/analytics/sentiment"); ok(st == 200 and all(set(r) == {"day", "Very Negative", "Negative", "Neutral", "Positive"} for r in j["data"]), "sentiment")
    st, j = s.req("GET", "/v0/analytics/sentiment/by-tag"); ok(st == 200 and len(j["data"]) > 0, "sentiment by tag")
    st, j = s.req("GET", "/v0/analytics/engagement", q={"platforms": "TWITTER,DISCORD"}); ok(st == 200 and {x["platform"] for x in j["data"]["engagementPercentiles"]} <= {"TWITTER", "DISCORD"}, "engagement")
    ok(s.req("GET", "/v0/analytics/engagement", q={"platforms": "MYSPACE"})[0] == 400, "engagement bad platform")
    st, j = s.req("GET", "/v0/conversations/search", q={"filter": "platform=TWITTER+status=OPEN", "pageSize": "5"})
    ok(st == 200 and all(x["platform"] == "TWITTER" and x["status"] == "OPEN" and "threadId" in x for x in j["data"]), "search")
    ok(s.req("GET", "/v0/conversations/search", q={"pageSize": "101"})[0] == 400, "search pageSize 101")
    ok(s.req("GET", "/v0/conversations/search", q={"page": "10001"})[0] == 400, "search page 10001")
    ok(s.req("GET", "/v0/conversations/search", q={"filter": "bogus"})[0] == 400, "search bad filter")
    # moderation
    st, a = s.req("POST", "/v0/moderation/cases", key="CCA_OTHER_ORG_WRITE_KEY", body=case("m1", title="Guaranteed miracle results"))
    ok(st == 202 and a["status"] == "accepted" and a["analysisStatus"] == "pending" and a["idempotency"]["replayed"] is False, "mod submit")
    ok(s.req("POST", "/v0/moderation/cases", key="CCA_OTHER_ORG_WRITE_KEY", body=case("m1", title="Other"))[0] == 409, "mod conflict 409")
    ok(s.req("POST", "/v0/moderation/cases", key="CCA_NO_MODERATION_WRITE_KEY", body=case("m1"))[0] == 403, "mod mode 403")
    ok(s.req("POST", "/v0/moderation/cases", key="CCA_OTHER_ORG_READ_KEY", body=case("m1"))[0] == 403, "mod read key 403")
    st, j = s.req("POST", "/v0/moderation/cases", key="CCA_WRITE_KEY", body={"externalId": "x"})
    ok(st == 422 and j["code"] == "MODERATION_INPUT_INCOMPLETE" and "title" in j["missingFields"], "mod incomplete")
    ok(s.req("POST", "/v0/moderation/cases", key="CCA_WRITE_KEY", raw="{bad")[0] == 400, "mod bad json")
    st, j = s.req("POST", "/v0/moderation/cases/batch", key="CCA_OTHER_ORG_WRITE_KEY", body={"cases": [case("b1"), case("m1", title="x"), {"externalId": "b3"}]})
    ok(st == 202 and [r["status"] for r in j["results"]] == ["accepted", "rejected", "rejected"], "mod batch")
    ok(s.req("POST", "/v0/moderation/cases/batch", key="CCA_OTHER_ORG_WRITE_KEY", body={"cases": [case("c%d" % i) for i in range(101)]})[0] == 400, "batch 101")
    ok(s.req("GET", "/v0/moderation/cases/" + a["caseId"], key="CCA_READ_KEY")[0] == 404, "mod isolation")
    t0 = time.time(); st = None
    while time.time() - t0 < 5:
        st, j = s.req("GET", "/v0/moderation/cases/" + a["caseId"], key="CCA_OTHER_ORG_READ_KEY")
        if j["analysisStatus"] == "completed": break
        ok("decision" not in j, "no decision before completed"); time.sleep(0.2)
    ok(j["analysisStatus"] == "completed" and j["decision"]["disposition"] == "reject", "mod completes")
    # ingestion
    ok(s.req("POST", "/v0/ingest/records", key="CCA_WRITE_KEY", body=ingest_body())[0] == 403, "ingest write key 403")
    ok(s.req("POST", "/v0/ingest/records", key="CCA_INGEST_KEY", body=ingest_body(501))[0] == 422, "ingest 501")
    st, j = s.req("POST", "/v0/ingest/records", key="CCA_INGEST_KEY", body=ingest_body(1, score=6)); ok(st == 422 and j["success"] is False, "ingest score 6")
    st, j = s.req("POST", "/v0/ingest/records", key="CCA_INGEST_KEY", body=ingest_body(3, title="Ingested smoke"))
    ok(st == 202 and j == {"status": "accepted", "accepted": 3}, "ingest ok")
    time.sleep(1.2)
    st, j = s.req("GET", "/v0/conversations/search", q={"filter": "text=Ingested smoke"}); ok(j["totalRecords"] == 3, "ingest visible")
    s.req("POST", "/v0/ingest/records", key="CCA_INGEST_KEY", body=ingest_body(3, title="Ingested smoke")); time.sleep(1.2)
    st, j = s.req("GET", "/v0/conversations/search", q={"filter": "text=Ingested smoke"}); ok(j["totalRecords"] == 3, "ingest idempotent identity")
    # docs, protocol
    st, j = s.req("GET", "/docs/json", key=None); ok(st == 200 and "/v0/action/list" in j["paths"], "docs json")
    ok(s.req("GET", "/docs", key=None)[0] == 200, "docs ui")
    k = s.keys["CCA_READ_KEY"]
    r = s.raw(("GET http://127.0.0.1:%d/v0/action/%s HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\nConnection: close\r\n\r\n" % (s.port, seg("x%2Fy"), k)).encode())
    ok(r.startswith(b"HTTP/1.1 200") and b'"actionId":"x%2Fy"' in r, "absolute-form")
    body = json.dumps({"fields": [{"fieldName": "is_vip", "value": True}]}).encode()
    chunks = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (5, body[:5], len(body) - 5, body[5:])
    r = s.raw(b"PATCH /v0/actions/000042/custom-fields HTTP/1.1\r\nHost: x\r\nX-API-Key: " + s.keys["CCA_WRITE_KEY"].encode() + b"\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks)
    ok(r.startswith(b"HTTP/1.1 200"), "chunked body")
    r = s.raw(b"GET /v0/action/list HTTP/1.1\r\nX-API-Key: " + k.encode() + b"\r\n\r\nGET /v0/queues HTTP/1.1\r\nX-API-Key: " + k.encode() + b"\r\nConnection: close\r\n\r\n")
    ok(r.count(b"HTTP/1.1 200") == 2, "keep-alive pipelining")
    ok(s.raw(b"GARBAGE\r\n\r\n").startswith(b"HTTP/1.1 400"), "malformed request")
    return fails

failed = 0
s = Srv("")
fails = exercise(s)
for f in fails: print("FAIL clean route:", f)
failed += len(fails)
print("clean route exercise: %d failures" % len(fails))
for rid, fn in CHECKS.items():
    try: r = fn(s)
    except Exception as e: r = "error %r" % e
    if r is not True: print("FAIL clean check", rid, r); failed += 1
s.stop()
ids = [l.split()[0] for l in open("IDS.txt") if l.strip()]
for rid in ids:
    s = Srv(rid)
    try: r = CHECKS[rid](s)
    except Exception as e: r = "error %r" % e
    s.stop()
    observed = r is not True
    print("%s %s" % (rid, "observable" if observed else "NOT OBSERVED"))
    if not observed: failed += 1
print("SMOKE", "PASS" if failed == 0 else "FAIL (%d)" % failed)
sys.exit(1 if failed else 0)
PY
