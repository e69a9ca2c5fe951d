"""Quick robustness probe: random malformed requests must never yield 500 (conforming mode)."""
import json, os, random, subprocess, sys, time, urllib.request, urllib.error, http.client

keys_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".smoke", "fuzz-keys.json")
os.makedirs(os.path.dirname(keys_file), exist_ok=True)
env = dict(os.environ, PORT="0", KEYS_FILE=keys_file, DEVIATIONS=os.environ.get("FUZZ_DEVIATIONS", ""))
p = subprocess.Popen([sys.executable, "server.py"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
line = p.stdout.readline().strip()
port = int(line.rsplit(":", 1)[1])
keys = json.load(open(keys_file))
r = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
paths = ["/v0/action/list", "/v0/action/42", "/v0/actions/42/custom-fields", "/v0/agents", "/v0/agents/00731",
         "/v0/queues", "/v0/analytics/tags", "/v0/analytics/tags/volume", "/v0/analytics/sentiment",
         "/v0/analytics/sentiment/by-tag", "/v0/analytics/engagement", "/v0/conversations/search",
         "/v0/moderation/cases", "/v0/moderation/cases/batch", "/v0/moderation/cases/x", "/v0/ingest/records",
         "/docs", "/docs/json", "/", "//", "/v0/action/", "/v0/actions//custom-fields"]
params = ["from", "to", "pageSize", "page", "filter", "filterJson", "fullFilter", "includeFullConversation", "sortBy",
          "respondedOnly", "limit", "offset", "search", "topTagsLimit", "tagIds", "platforms"]
vals = ["", "0", "-1", "1", "1e9", "99999999999999999999999", "true", "abc", "2024-01-01", "2024-13-45",
        "2024-01-01T00:00:00%2B25:00", "%00", "%ff", "platform=", "=x", "a=b%2Bc", "{", "[]", "null", "%7B%22responded%22%3A%5B%5D%7D",
        "text=%25_%25", "tag=,,,", "responded=maybe", "x" * 3000, "2024-01-01T24:00:00Z", "0001-01-01", "9999-12-31T23:59:59Z"]
bodies = [b"", b"{", b"null", b"[]", b"1", b'"x"', b"{}", b'{"fields":null}', b'{"fields":[null]}',
          b'{"fields":[{"fieldName":1,"value":1}]}', b'{"fields":[{"fieldName":"labels","value":[1,{}]}]}',
          b'{"cases":{}}', b'{"cases":[null,1,"x",[]]}', b'{"records":"x"}', b'{"platform":"DISCORD","serverId":"a","serverName":"b","records":[{"score":"x"}]}',
          b'{"externalId":"a","media":[{"url":1}],"targeting":{"geos":"US","ageMin":true},"attachment":[],"copy":null}',
          b"\xff\xfe", b"NaN", b'{"a":Infinity}', b"[" * 5000, b'{"fields":[{"fieldName":"followUpDate","value":"2024-02-30"}]}',
          b'{"fields":[{"fieldName":"escalationCount","value":1e308}]}', b'{"fields":[{"fieldName":"priority","value":"low","confidence":"x"}]}']
methods = ["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS"]
bad = 0
for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 600):
    path = r.choice(paths)
    q = "&".join("%s=%s" % (r.choice(params), r.choice(vals)) for _ in range(r.randint(0, 3)))
    m = r.choice(methods) if r.random() < 0.4 else ("GET" if "cases" not in path and "ingest" not in path else r.choice(["POST", "PATCH", "GET"]))
    body = r.choice(bodies) if m in ("POST", "PATCH", "PUT") else None
    k = r.choice(list(keys.values()) + [None])
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    h = {"Content-Type": "application/json"}
    if k:
        h["X-API-Key"] = k
    try:
        c.request(m, path + ("?" + q if q else ""), body=body, headers=h)
        resp = c.getresponse()
        data = resp.read()
        if resp.status >= 500:
            bad += 1
            print("500:", m, path, q[:100], body[:80] if body else None, data[:200])
        elif m != "HEAD" and not path.startswith("/docs") or (path == "/docs/json" and m == "GET"):
            if m != "HEAD":
                json.loads(data)
    except Exception as e:
        bad += 1
        print("ERR:", m, path, q[:100], repr(e)[:200])
    finally:
        c.close()
p.terminate()
p.wait(5)
err = p.stderr.read()
if "Traceback" in err:
    print(err[:3000])
    bad += 1
print("fuzz done, problems:", bad)
sys.exit(1 if bad else 0)
