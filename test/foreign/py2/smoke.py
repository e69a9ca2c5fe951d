#!/usr/bin/env python3
"""Smoke test: starts server.py (conformant unless DEVIATIONS is given on the command line),
exercises every route, exits 0 when every answer matches the spec as read by this implementer.
Usage: python3 smoke.py [DEVIATIONS]"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
import urllib.error
from datetime import datetime, timezone, timedelta
from urllib.parse import quote

HERE = os.path.dirname(os.path.abspath(__file__))
FAIL = []
N = [0]


def check(cond, what):
    N[0] += 1
    if not cond:
        FAIL.append(what)
        print("FAIL:", what)


def start(devs=None):
    kf = tempfile.mktemp(suffix=".json")
    env = dict(os.environ)
    env.pop("DEVIATIONS", None)
    if devs:
        env["DEVIATIONS"] = devs
    env.update({"PORT": "0", "KEYS_FILE": kf, "SEED": env.get("SEED", "1")})
    p = subprocess.Popen([sys.executable, "server.py"], cwd=HERE, env=env, stdout=subprocess.PIPE)
    line = p.stdout.readline().decode().strip()
    assert line.startswith("listening http://127.0.0.1:"), line
    keys = json.load(open(kf))
    os.unlink(kf)
    return p, line.split(" ", 1)[1], keys


def req(base, method, path, key=None, body=None, raw=None, headers=None):
    h = dict(headers or {})
    if key is not None:
        h["X-API-Key"] = key
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        h["Content-Type"] = "application/json"
    if raw is not None:
        data = raw
    r = urllib.request.Request(base + path, data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(r, timeout=30) as resp:
            st, txt, ct = resp.status, resp.read(), resp.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        st, txt, ct = e.code, e.read(), e.headers.get("Content-Type", "")
    try:
        js = json.loads(txt)
    except ValueError:
        js = None
    return st, js, txt, ct


def is_err(st, js, code):
    return st == code and isinstance(js, dict) and js.get("success") is False and isinstance(js.get("error"), str)


def ts(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


SUMMARY_KEYS = ["actionId", "actionTitle", "actionSummary", "status", "platform", "recordType", "isPublicPost",
                "serviceURL", "sourceURL", "queue", "initialQueue", "sentiment", "sentimentScore", "moderation",
                "assigneeName", "assigneeEmail", "assigneeUserId", "assigneeRole", "userName", "userUsername", "userId",
                "userEmail", "userFollowerCount", "createdAt", "updatedAt", "initialMessageTime", "initialResponseTime",
                "closeTime", "claimTime", "firstResponseTime", "handleTime", "serverName", "channelName", "csatScore",
                "csatFeedback", "estimatedCSAT", "totalMessages", "totalUserMessages", "totalAgentMessages", "tags",
                "closingTags", "customFields", "rootMessageText", "conversationJson"]


def case(ext, **over):
    c = {"externalId": ext, "sourceSystem": "adsync", "sourcePlatform": "snap", "sourceAdId": "ad-" + ext,
         "advertiserName": "Acme Outdoor", "market": "US", "placement": "feed", "landingPageUrl": "https://acme.example/x",
         "title": "Spring hiking boots", "media": [{"url": "https://cdn.example.com/a.jpg", "type": "image", "position": 1}],
         "attachment": {"type": "web_view", "destinationUrl": "https://acme.example/x"},
         "targeting": {"ageMin": 18, "geos": ["US"]}, "copy": {"body": "Trail ready."}}
    c.update(over)
    return c


def run(devs=None):
    p, base, K = start(devs)
    R, W, I, B, C, X, V, RW = (K["CCA_READ_KEY"], K["CCA_WRITE_KEY"], K["CCA_INGEST_KEY"], K["CCA_OTHER_ORG_READ_KEY"],
                               K["CCA_NO_MODERATION_WRITE_KEY"], K["CCA_EXPIRED_KEY"], K["CCA_REVOKED_KEY"],
                               K["CCA_READ_WRITE_KEY"])
    try:
        g = lambda path, key=R: req(base, "GET", path, key)
        now = datetime.now(timezone.utc)
        # ---- auth
        for k, name in ((None, "missing"), ("nope", "invalid"), (X, "expired"), (V, "revoked")):
            st, js, _, _ = g("/v0/action/list", k)
            check(is_err(st, js, 401), "401 for %s key (got %s)" % (name, st))
        st, js, _, _ = g("/v0/action/list", I)
        check(is_err(st, js, 403), "ingest key cannot read reporting data")
        # ---- action list
        st, js, _, _ = g("/v0/action/list")
        check(st == 200 and js["pageSize"] == 50 and js["currentPage"] == 1, "action list default pageSize 50")
        data = js["data"]
        check(len(data) == min(50, js["totalRecords"]) and js["totalRecords"] > 50, "action list has data")
        check(js["totalPages"] == -(-js["totalRecords"] // 50), "totalPages")
        check(all(set(SUMMARY_KEYS) <= set(d) for d in data), "summary keys present")
        check(all(d["initialResponseTime"] is not None for d in data), "default responded only")
        check(all(ts(d["createdAt"]) >= now - timedelta(days=7, minutes=1) for d in data), "default 7-day window")
        check(all(d["conversationJson"] is None for d in data), "conversationJson null by default")
        cs = [d["createdAt"] for d in data]
        check(cs == sorted(cs, reverse=True), "newest first")
        check(all(isinstance(d["actionId"], str) and isinstance(d["userId"], str) for d in data), "ids are strings")
        for ps, code in (("0", 400), ("501", 400), ("abc", 400), ("500", 200), ("1", 200)):
            st, js, _, _ = g("/v0/action/list?pageSize=" + ps)
            check(st == code and (code != 200 or js["pageSize"] == int(ps)), "pageSize=%s -> %d (got %s)" % (ps, code, st))
        st, js, _, _ = g("/v0/action/list?pageSize=3&includeFullConversation=true")
        check(st == 200 and all(isinstance(json.loads(d["conversationJson"]), list) for d in js["data"]),
              "includeFullConversation fills conversationJson")
        st, js, _, _ = g("/v0/action/list?sortBy=updatedAt&pageSize=100")
        us = [d["updatedAt"] for d in js["data"]]
        check(st == 200 and None not in us and us == sorted(us, reverse=True), "sortBy=updatedAt order")
        for bad in ("sortBy=foo", "from=yesterday", "to=2026-13-45", "includeFullConversation=maybe",
                    "fullFilter=platform%3DSLACK&filter=responded%3Dtrue", "filterJson=%7Bbad"):
            st, js, _, _ = g("/v0/action/list?" + bad)
            check(is_err(st, js, 400), "400 for " + bad)
        ff = "text=" + "a" * 9995
        st, js, _, _ = g("/v0/action/list?fullFilter=" + ff)
        check(st == 200, "fullFilter of exactly 10000 chars accepted (got %s)" % st)
        st, js, _, _ = g("/v0/action/list?fullFilter=" + ff + "a")
        check(is_err(st, js, 400), "fullFilter of 10001 chars rejected")
        # legacy filters
        st, js, _, _ = g("/v0/action/list?filter=responded%3Dfalse&pageSize=500")
        check(st == 200 and js["data"] and all(d["initialResponseTime"] is None for d in js["data"]), "filter responded=false")
        st, js, _, _ = g("/v0/action/list?filter=platform%3DSLACK&pageSize=500")
        check(st == 200 and all(d["initialResponseTime"] is not None for d in js["data"]) and
              len(set(d["platform"] for d in js["data"])) > 1, "legacy filter ignores platform, keeps responded default")
        st, js, _, _ = g("/v0/action/list?filterJson=" + quote('{"responded":false}'))
        check(st == 200 and all(d["initialResponseTime"] is None for d in js["data"]), "filterJson responded=false")
        st, js, _, _ = g("/v0/action/list?fullFilter=platform%3DZENDESK&pageSize=500")
        check(st == 200 and js["data"] and all(d["platform"] == "ZENDESK" for d in js["data"]), "fullFilter platform")
        st, js2, _, _ = g("/v0/action/list?fullFilter=platform%3DZENDESK%2Bresponded%3Dfalse&pageSize=500")
        check(st == 200 and js2["data"] and all(d["initialResponseTime"] is None and d["platform"] == "ZENDESK"
                                                for d in js2["data"]), "fullFilter adds no responded default")
        # windows: to inclusive, date-only midnight
        st, js, _, _ = g("/v0/action/list?pageSize=500")
        all7 = js["data"]
        x = all7[10]
        st, js, _, _ = g("/v0/action/list?pageSize=5&to=" + quote(x["createdAt"]))
        check(st == 200 and js["data"] and js["data"][0]["createdAt"] == x["createdAt"] and
              x["actionId"] in [d["actionId"] for d in js["data"]], "to is inclusive")
        today = now.strftime("%Y-%m-%d")
        st, js, _, _ = g("/v0/action/list?pageSize=500&to=" + today)
        mid = datetime.strptime(today, "%Y-%m-%d").replace(tzinfo=timezone.utc)
        check(st == 200 and js["data"] and all(ts(d["createdAt"]) <= mid for d in js["data"]), "to date-only = midnight")
        check(ts(js["data"][-1]["createdAt"]) >= mid - timedelta(days=7), "only-to window is 7 days back")
        st, js, _, _ = g("/v0/action/list?pageSize=500&from=" + (now - timedelta(days=40)).strftime("%Y-%m-%d"))
        check(st == 200 and js["totalRecords"] > len(all7), "explicit from widens window")
        # moving-window pagination reaches every record exactly once
        seen, to, rounds = {}, None, 0
        while rounds < 30:
            rounds += 1
            st, js, _, _ = g("/v0/action/list?pageSize=37" + ("&to=" + quote(to) if to else "") +
                             "&from=" + quote((now - timedelta(days=7)).strftime("%Y-%m-%dT%H:%M:%SZ")))
            new = [d for d in js["data"] if d["actionId"] not in seen]
            for d in js["data"]:
                seen[d["actionId"]] = 1
            if not new:
                break
            to = js["data"][-1]["createdAt"]
        st, js, _, _ = g("/v0/action/list?pageSize=500&from=" + quote((now - timedelta(days=7)).strftime("%Y-%m-%dT%H:%M:%SZ")))
        check(set(seen) == set(d["actionId"] for d in js["data"]), "moving windows cover all records")
        # other org
        st, jsb, _, _ = g("/v0/action/list?pageSize=500", B)
        check(st == 200 and jsb["data"] and not (set(d["actionId"] for d in jsb["data"]) & set(seen)), "org B isolated")
        # ---- action detail
        st, js, _, _ = g("/v0/conversations/search?pageSize=100&filter=platform%3DZENDESK")
        z = js["data"][0]
        check(z["actionId"].startswith("0"), "leading-zero ids exist")
        st, js, _, _ = g("/v0/conversations/search?pageSize=100&filter=platform%3DTWITTER")
        tw = js["data"][0]
        check(int(tw["actionId"]) > 2 ** 53 and int(tw["userId"]) > 2 ** 53, "big ids exist")
        for a in (z, tw, all7[0]):
            st, d, _, _ = g("/v0/action/" + quote(a["actionId"], safe=""))
            check(st == 200 and d["actionId"] == a["actionId"] and d["user"]["userId"] == a["userId"] and
                  d["assignee"]["userId"] == a["assigneeUserId"], "detail preserves ids for " + a["actionId"])
            check(all(k in d for k in ("user", "assignee", "comments", "messages", "tags", "closingTags", "customFields"))
                  and all(set(("id", "timestamp", "author", "authorType", "message", "mediaUrls")) <= set(m)
                          for m in d["messages"]), "detail shape")
        st, js, _, _ = g("/v0/action/" + quote(z["actionId"].lstrip("0")))
        check(is_err(st, js, 404), "stripped id is not found")
        st, js, _, _ = g("/v0/action/" + quote(all7[0]["actionId"], safe=""), B)
        check(is_err(st, js, 404), "other org action 404")
        aid = quote(all7[0]["actionId"], safe="")
        # ---- custom fields
        st, js, _, _ = g("/v0/actions/%s/custom-fields" % aid)
        check(st == 200 and js["actionId"] == all7[0]["actionId"] and js["fields"] and
              all(set(("fieldName", "displayName", "fieldType", "value")) <= set(f) for f in js["fields"]), "cf get")
        st, js, _, _ = g("/v0/actions/%s/custom-fields" % aid, W)
        check(is_err(st, js, 403), "cf get needs read scope")
        st, js, _, _ = g("/v0/actions/nope-404/custom-fields")
        check(is_err(st, js, 404), "cf get 404")
        pt = lambda body, key=W, a=aid: req(base, "PATCH", "/v0/actions/%s/custom-fields" % a, key, body)
        st, js, _, _ = pt({"fields": [{"fieldName": "priority_level", "value": "high", "confidence": 0.9,
                                       "rationale": "VIP"}, {"fieldName": "revenue_impact", "value": 1200.5}]})
        check(st == 200 and js["updated"] == [{"fieldName": "priority_level", "value": "high"},
                                              {"fieldName": "revenue_impact", "value": 1200.5}], "cf patch ok")
        st, js, _, _ = g("/v0/actions/%s/custom-fields" % aid)
        f = dict((x["fieldName"], x) for x in js["fields"])
        check(f["priority_level"]["value"] == "high" and f["revenue_impact"]["value"] == 1200.5, "cf patch persisted")
        st, js, _, _ = pt({"fields": [{"fieldName": "priority_level", "value": "x"}]}, R)
        check(is_err(st, js, 403), "cf patch read key 403")
        st, js, _, _ = pt({"fields": [{"fieldName": "priority_level", "value": "x"}]}, RW)
        check(is_err(st, js, 422) and "priority_level" in js.get("fieldErrors", {}), "cf wrong value 422 fieldErrors")
        st, js, _, _ = pt({"fields": [{"fieldName": "revenue_impact", "value": 5, "confidence": 1.5}]})
        check(is_err(st, js, 422) and "revenue_impact" in js.get("fieldErrors", {}), "cf confidence>1 422 fieldErrors")
        st, js, _, _ = pt({"fields": []})
        check(is_err(st, js, 422), "cf empty fields 422")
        st, js, _, _ = pt({"fields": [{"fieldName": "no_such", "value": 1}]})
        check(is_err(st, js, 422) and "no_such" in js.get("fieldErrors", {}), "cf unknown field 422")
        st, js, _, _ = pt({"fields": [{"fieldName": "revenue_impact", "value": 1}]}, W, "nope-404")
        check(is_err(st, js, 404), "cf patch 404")
        st, js, _, _ = req(base, "PATCH", "/v0/actions/%s/custom-fields" % aid, W, raw=b"{not json")
        check(st in (400, 422) and js and js.get("success") is False, "cf patch garbage body")
        # ---- agents / queues
        st, js, _, _ = g("/v0/agents")
        check(st == 200 and js["success"] is True and js["data"], "agents")
        ids = [a["agentId"] for a in js["data"]]
        check("00731" in ids and "9007199254740993" in ids, "agent ids preserved")
        for a in js["data"]:
            w = a["workload"]
            check(w["active"] + w["closed"] + w["cancelled"] == a["metrics"]["totalActions"] and
                  "totalActionsWithResponse" in a["metrics"], "agent workload adds up " + a["agentId"])
        check(any(a["workload"]["cancelled"] > 0 for a in js["data"]), "some cancelled")
        st, js, _, _ = g("/v0/agents/00731")
        check(st == 200 and set(js["data"]) >= {"metrics", "aggregatedMetrics", "currentWorkload", "queues"}, "agent detail")
        st, js, _, _ = g("/v0/agents/731")
        check(is_err(st, js, 404), "agent 731 not 00731")
        st, js, _, _ = g("/v0/agents", I)
        check(is_err(st, js, 403), "agents ingest key 403")
        st, js, _, _ = g("/v0/queues")
        check(st == 200 and js["data"] and all("averageSentimentScore" in q["metrics"] for q in js["data"]) and
              any(q["queueId"] is None for q in js["data"]), "queues")
        for q in js["data"]:
            w = q["workload"]
            check(w["active"] + w["closed"] + w["cancelled"] == q["metrics"]["totalActions"], "queue workload adds up")
        # ---- analytics
        st, js, _, _ = g("/v0/analytics/tags?limit=5&offset=2")
        d = js["data"]
        check(st == 200 and len(d["tagBreakdown"]) == 5 and d["pagination"]["offset"] == 2 and
              d["pagination"]["limit"] == 5 and d["pagination"]["hasMore"] is True, "tags pagination")
        for v in d["volumeByTag"]:
            check(v["total"] == v["responded"] + v["notResponded"], "volumeByTag adds up " + v["tagId"])
        st, js, _, _ = g("/v0/analytics/tags?from=" + (now - timedelta(days=3)).strftime("%Y-%m-%d") + "&limit=100")
        for v in js["data"]["volumeByTag"]:
            check(v["total"] == v["responded"] + v["notResponded"], "volumeByTag adds up (3 days) " + v["tagId"])
        tagcounts = dict((t["tagName"], t["count"]) for t in js["data"]["tagBreakdown"])
        st, js, _, _ = g("/v0/analytics/tags?respondedOnly=true&limit=100")
        check(st == 200 and all(v["notResponded"] == 0 for v in js["data"]["volumeByTag"]), "respondedOnly")
        st, js, _, _ = g("/v0/analytics/tags?search=bill")
        check(st == 200 and js["data"]["tagBreakdown"] and all("bill" in t["tagName"] or "Finance" == t["groupName"]
                                                             for t in js["data"]["tagBreakdown"]), "tags search")
        st, js, _, _ = g("/v0/analytics/tags/volume?topTagsLimit=3")
        check(st == 200 and len(js["data"]["tags"]) == 3 and js["data"]["data"], "tags volume")
        st, js, _, _ = g("/v0/analytics/tags/volume?tagIds=0001,0003")
        check(st == 200 and js["data"]["tags"] == ["bug", "billing"], "tags volume tagIds")
        st, js, _, _ = g("/v0/analytics/sentiment")
        check(st == 200 and js["data"] and all(set(("day", "Very Negative", "Negative", "Neutral", "Positive")) <= set(r)
                                              for r in js["data"]), "sentiment")
        st, js, _, _ = g("/v0/analytics/sentiment/by-tag?from=" + (now - timedelta(days=3)).strftime("%Y-%m-%d"))
        check(st == 200 and js["data"], "sentiment by tag")
        for r in js["data"]:
            check(r["totalMentions"] == r["veryNegative"] + r["negative"] + r["neutral"] + r["positive"] and
                  r["totalMentions"] <= tagcounts.get(r["tagName"], 0), "by-tag figures for " + r["tagName"])
        st, js, _, _ = g("/v0/analytics/engagement?platforms=SLACK,ZENDESK")
        d = js["data"]
        check(st == 200 and d["engagementPercentiles"] and set(x["platform"] for x in d["engagementPercentiles"]) <=
              {"SLACK", "ZENDESK"} and d["conversionFunnel"], "engagement")
        check(all("T" in x["week"] and ts(x["week"]) for x in d["growthTrends"]), "growth week is date-time")
        # ---- search
        st, js, _, _ = g("/v0/conversations/search")
        check(st == 200 and js["currentPage"] == 1 and js["pageSize"] == 50 and js["totalRecordsCapped"] is True and
              all(set(SUMMARY_KEYS + ["threadId", "easyId", "contributors"]) <= set(x) for x in js["data"]), "search default")
        st, a1, _, _ = g("/v0/conversations/search?pageSize=10&page=1")
        st, a2, _, _ = g("/v0/conversations/search?pageSize=10&page=2")
        st, a3, _, _ = g("/v0/conversations/search?pageSize=20&page=1")
        check([x["actionId"] for x in a1["data"] + a2["data"]] == [x["actionId"] for x in a3["data"]], "search pages contiguous")
        for qs, code in (("page=0", 400), ("page=10001", 400), ("page=10000", 200), ("pageSize=101", 400),
                         ("pageSize=100", 200), ("pageSize=0", 400), ("filter=bogus%3D1", 400), ("filter=nokey", 400)):
            st, js, _, _ = g("/v0/conversations/search?" + qs)
            check(st == code, "search %s -> %d (got %s)" % (qs, code, st))
        st, js, _, _ = g("/v0/conversations/search?filter=platform%3DZENDESK%2Bstatus%3DOPEN&pageSize=100")
        check(st == 200 and js["data"] and all(x["platform"] == "ZENDESK" and x["status"] == "OPEN" for x in js["data"])
              and js["totalRecordsCapped"] is False, "search filter all terms hold")
        st, js, _, _ = g("/v0/conversations/search", I)
        check(is_err(st, js, 403), "search ingest key 403")
        # ---- moderation
        mp = lambda body, key=W, path="/v0/moderation/cases": req(base, "POST", path, key, body)
        ext = "ext-%d" % int(time.time() * 1000)
        st, js, _, _ = mp(case(ext), R)
        check(is_err(st, js, 403), "moderation read key 403")
        st, js, _, _ = mp(case(ext), C)
        check(is_err(st, js, 403), "moderation non-ad_policy org refused")
        st, ack, _, _ = mp(case(ext))
        check(st == 202 and ack["status"] == "accepted" and ack["analysisStatus"] == "pending" and
              ack["idempotency"]["replayed"] is False and ack["externalId"] == ext and ack["caseId"], "moderation accepted")
        st, js, _, _ = g("/v0/moderation/cases/" + quote(ack["caseId"]), RW)
        check(st == 200 and js["analysisStatus"] == "pending" and "decision" not in js, "new case pending")
        st, js, _, _ = g("/v0/moderation/cases/" + quote(ack["caseId"]), W)
        check(is_err(st, js, 403), "case read needs read scope")
        st, js, _, _ = g("/v0/moderation/cases/" + quote(ack["caseId"]), B)
        check(is_err(st, js, 404), "case of other org 404")
        st, dup, _, _ = mp(case(ext))
        check(st == 202 and dup["status"] == "duplicate" and dup["caseId"] == ack["caseId"] and
              dup["idempotency"]["replayed"] is True, "exact resubmission duplicate")
        st, js, _, _ = mp(case(ext, copy={"body": "Different body"}))
        check(is_err(st, js, 409), "changed copy conflicts (got %s)" % st)
        st, js, _, _ = mp(case(ext, title="Other title"))
        check(is_err(st, js, 409), "changed title conflicts")
        c2 = case("x2")
        del c2["targeting"]
        st, js, _, _ = mp(c2)
        check(is_err(st, js, 422) and js.get("code") == "MODERATION_INPUT_INCOMPLETE" and
              "targeting" in js.get("missingFields", []), "missing field 422")
        st, js, _, _ = mp(case("x3", media=[{"url": "ftp://x/a.png", "type": "gif", "position": 21}]))
        check(is_err(st, js, 422) and js.get("code") == "MODERATION_INPUT_INVALID" and js.get("invalidFields"), "invalid 422")
        st, js, _, _ = req(base, "POST", "/v0/moderation/cases", W, raw=b"{oops")
        check(is_err(st, js, 400), "moderation bad JSON 400")
        st, js, _, _ = mp([case("x4")])
        check(is_err(st, js, 400), "moderation array body 400 (got %s)" % st)
        bp = "/v0/moderation/cases/batch"
        bad = case("b-bad")
        del bad["title"]
        st, js, _, _ = mp({"cases": [case(ext, title="Changed"), case(ext + "-b1"), bad, case(ext)]}, W, bp)
        check(st == 202 and [r["status"] for r in js["results"]] == ["rejected", "accepted", "rejected", "duplicate"],
              "batch per-item results (got %s %s)" % (st, js and [r.get("status") for r in js.get("results", [])]))
        if st == 202:
            check(js["results"][2].get("code") == "MODERATION_INPUT_INCOMPLETE" and js["results"][1]["externalId"] == ext + "-b1",
                  "batch result detail")
        for body in ({"cases": []}, {"cases": [case("n%d" % i) for i in range(101)]}, {"nocases": 1}):
            st, js, _, _ = mp(body, W, bp)
            check(is_err(st, js, 400), "batch bounds 400")
        st, js, _, _ = mp({"cases": [case("%s-h%d" % (ext, i)) for i in range(100)]}, W, bp)
        check(st == 202 and len(js["results"]) == 100, "batch of 100 accepted")
        st, js, _, _ = mp({"cases": [case(ext)]}, C, bp)
        check(is_err(st, js, 403), "batch non-ad_policy 403")
        time.sleep(3.3)
        st, js, _, _ = g("/v0/moderation/cases/" + quote(ack["caseId"]), RW)
        check(st == 200 and js["analysisStatus"] == "completed" and js["decision"]["disposition"] in
              ("age_gate", "approve", "escalate", "reject") and js["decision"]["decisionSource"] == "model", "case completed")
        st, dup, _, _ = mp(case(ext))
        check(st == 202 and dup["status"] == "duplicate" and dup["analysisStatus"] == "pending", "duplicate ack pending")
        st, js, _, _ = g("/v0/moderation/cases/no-such", RW)
        check(is_err(st, js, 404), "case 404")
        # ---- ingest
        ing = lambda body, key=I: req(base, "POST", "/v0/ingest/records", key, body)
        rec = lambda i, **o: dict({"externalId": "r%d" % i, "authorId": "u1", "authorName": "U One", "body": "hi",
                                   "createdAt": "2026-12-01T10:00:00Z", "recordType": "POST"}, **o)
        env = lambda recs, **o: dict({"platform": "DISCORD", "serverId": "srv-001", "serverName": "Acme", "records": recs}, **o)
        st, js, _, _ = ing(env([rec(1), rec(2, score=5, url="https://x.example/1")], source={"system": "zap"},
                               processingLevel="STATS_ONLY"))
        check(st == 202 and js == {"status": "accepted", "accepted": 2}, "ingest accepted")
        for k, nm in ((R, "read"), (W, "write"), (RW, "read+write")):
            st, js, _, _ = ing(env([rec(1)]), k)
            check(is_err(st, js, 403), "ingest with %s key 403" % nm)
        for bodyx, nm in ((env([rec(1)], platform="MYSPACE"), "platform"), (env([rec(1, score=5.5)]), "score"),
                          (env([rec(1, url="ftp://x.example/1")]), "url ftp"), (env([rec(1, url="/rel")]), "url rel"),
                          (env([]), "empty"), (env([rec(i) for i in range(501)]), "501"),
                          (env([{"externalId": "z"}]), "missing fields"), (env([rec(1)], serverId=""), "serverId")):
            st, js, _, _ = ing(bodyx)
            check(is_err(st, js, 422), "ingest invalid %s -> 422 (got %s)" % (nm, st))
        st, js, _, _ = ing(env([rec(i) for i in range(500)]))
        check(st == 202 and js["accepted"] == 500, "ingest 500 records")
        st, js, _, _ = req(base, "POST", "/v0/ingest/records", I, raw=b"\xff\xfe")
        check(st == 422 and js["success"] is False, "ingest garbage")
        # ---- docs
        st, js, txt, ct = g("/docs/json", None)
        check(st == 200 and js and js.get("openapi", "").startswith("3"), "openapi json")
        want = {"/v0/action/list": ["get"], "/v0/action/{id}": ["get"],
                "/v0/actions/{actionId}/custom-fields": ["get", "patch"], "/v0/agents": ["get"],
                "/v0/agents/{id}": ["get"], "/v0/queues": ["get"], "/v0/analytics/tags": ["get"],
                "/v0/analytics/tags/volume": ["get"], "/v0/analytics/sentiment": ["get"],
                "/v0/analytics/sentiment/by-tag": ["get"], "/v0/analytics/engagement": ["get"],
                "/v0/conversations/search": ["get"], "/v0/moderation/cases": ["post"],
                "/v0/moderation/cases/batch": ["post"], "/v0/moderation/cases/{caseId}": ["get"],
                "/v0/ingest/records": ["post"]}
        for pth, ms in want.items():
            check(pth in js["paths"] and all(m in js["paths"][pth] for m in ms), "openapi documents %s %s" % (ms, pth))
        pmax = lambda pth, nm: [x for x in js["paths"][pth]["get"]["parameters"] if x["name"] == nm][0]["schema"].get("maximum")
        check(pmax("/v0/action/list", "pageSize") == 500 and pmax("/v0/conversations/search", "pageSize") == 100 and
              pmax("/v0/conversations/search", "page") == 10000, "openapi bounds")
        check("ApiKeyAuth" in js["components"]["securitySchemes"], "openapi security scheme")
        st, js, txt, ct = g("/docs", None)
        check(st == 200 and "text/html" in ct and b"swagger" in txt.lower(), "swagger ui")
        # ---- garbage
        for m, pth, k, raw in (("GET", "/v0/nope", R, None), ("DELETE", "/v0/agents", R, None),
                               ("GET", "/v0/action/%ff%fe", R, None), ("GET", "/v0/action/list?pageSize=%ff", R, None),
                               ("POST", "/v0/moderation/cases", W, b"\x00\x01"), ("PATCH", "/v0/actions/x/custom-fields", W, b"[]"),
                               ("GET", "/v0/conversations/search?filter=%2B%2B%3D", R, None)):
            st, js, _, _ = req(base, m, pth, k, raw=raw)
            check(st < 500 and isinstance(js, dict) and js.get("success") is False, "garbage %s %s -> %s" % (m, pth, st))
    finally:
        p.terminate()
        p.wait(10)


if __name__ == "__main__":
    run(sys.argv[1] if len(sys.argv) > 1 else None)
    print("%d checks, %d failed" % (N[0], len(FAIL)))
    sys.exit(1 if FAIL else 0)
