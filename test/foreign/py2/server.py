#!/usr/bin/env python3
"""Customer-Conversation Analytics Service - independent blind REST implementation.

Standard library only. Data model: SQLite in memory (see seed.py)."""
import hashlib
import json
import math
import os
import re
import signal
import sqlite3
import sys
import threading
import time
from datetime import datetime, timezone, timedelta
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
from urllib.parse import urlsplit, parse_qsl, unquote, quote

import seed as seedmod
import docs as docsmod
import moderation as modmod

DAY = 86400000
DEV = set()


def dev(d):
    return d in DEV or "all" in DEV


class HTTPError(Exception):
    def __init__(self, status, message, extra=None, headers=None):
        Exception.__init__(self, message)
        self.status = status
        self.message = message
        self.extra = extra or {}
        self.headers = headers or {}


def now_ms():
    return int(time.time() * 1000)


def iso(ms):
    if ms is None:
        return None
    ms = int(ms)
    d = datetime.fromtimestamp(ms // 1000, tz=timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%03dZ" % (ms % 1000)


def duration(s):
    if s is None:
        return None
    h, r = divmod(int(s), 3600)
    m, sec = divmod(r, 60)
    out = "PT"
    if h:
        out += "%dH" % h
    if m:
        out += "%dM" % m
    if sec or out == "PT":
        out += "%dS" % sec
    return out


DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})?$")


def parse_when(name, s, is_to=False):
    """Returns epoch milliseconds (float) for an ISO 8601 date or timestamp."""
    s = s.strip()
    try:
        if DATE_RE.match(s):
            d = datetime.strptime(s, "%Y-%m-%d").replace(tzinfo=timezone.utc)
            ms = d.timestamp() * 1000
            if is_to and dev("D01"):
                ms += DAY - 1
            return ms
        if TS_RE.match(s):
            t = s.replace("t", "T").replace(" ", "T")
            if t[-1] in "zZ":
                t = t[:-1] + "+00:00"
            m = re.match(r"^(.*T\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(.*)$", t)
            base, frac, tz = m.group(1), m.group(2) or "", m.group(3)
            if tz and ":" not in tz:
                tz = tz[:3] + ":" + tz[3:]
            d = datetime.fromisoformat(base + (tz or "+00:00"))
            ms = d.timestamp() * 1000
            if frac:
                ms += float("0" + frac) * 1000
            return ms
    except (ValueError, OverflowError):
        pass
    raise HTTPError(400, "Invalid '%s': expected an ISO 8601 date or timestamp" % name)


def window(q, default_days):
    f, t = q.get("from"), q.get("to")
    to_ms = parse_when("to", t, True) if t not in (None, "") else float(now_ms())
    from_ms = parse_when("from", f) if f not in (None, "") else to_ms - default_days * DAY
    if from_ms > to_ms:
        raise HTTPError(400, "'from' must not be after 'to'")
    return from_ms, to_ms


def in_window(ms, w):
    if ms is None:
        return False
    if dev("D03"):
        return w[0] <= ms < w[1]
    return w[0] <= ms <= w[1]


def parse_int(q, name, default, lo, hi):
    v = q.get(name)
    if v is None or v == "":
        return default
    if not re.match(r"^[+-]?\d+$", v.strip()):
        raise HTTPError(400, "'%s' must be an integer" % name)
    n = int(v)
    if n < lo or n > hi:
        raise HTTPError(400, "'%s' must be between %d and %d" % (name, lo, hi))
    return n


def parse_bool(q, name, default):
    v = q.get(name)
    if v is None or v == "":
        return default
    lv = v.strip().lower()
    if lv == "true":
        return True
    if lv == "false":
        return False
    raise HTTPError(400, "'%s' must be true or false" % name)


def _finite(x):
    f = float(x)
    if math.isinf(f) or math.isnan(f):
        raise ValueError("non-finite number")
    return f


def _noconst(x):
    raise ValueError("non-standard JSON constant")


def safe_loads(data):
    """json.loads that raises ValueError for bad UTF-8, excessive nesting and non-finite numbers."""
    try:
        if isinstance(data, bytes):
            data = data.decode("utf-8")
        return json.loads(data, parse_float=_finite, parse_constant=_noconst)
    except (ValueError, UnicodeDecodeError, RecursionError, TypeError):
        raise ValueError("invalid JSON")


# ---------------------------------------------------------------- database

class Store:
    def __init__(self, seed, keys):
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.lock = threading.RLock()
        self.now = now_ms()
        seedmod.build(self.db, seed, self.now, keys)

    def q(self, sql, args=()):
        with self.lock:
            return self.db.execute(sql, args).fetchall()

    def one(self, sql, args=()):
        with self.lock:
            return self.db.execute(sql, args).fetchone()

    def x(self, sql, args=()):
        with self.lock:
            cur = self.db.execute(sql, args)
            self.db.commit()
            return cur


STORE = None

# ---------------------------------------------------------------- auth

def authenticate(headers):
    key = headers.get("X-API-Key")
    if key is None or key == "":
        raise HTTPError(401, "Missing API key")
    row = STORE.one("SELECT * FROM api_keys WHERE key_value=?", (key,))
    if row is None:
        raise HTTPError(401, "Invalid API key")
    if row["revoked"]:
        raise HTTPError(403 if dev("D21") else 401, "API key has been revoked")
    if row["expires_ms"] is not None and row["expires_ms"] <= now_ms():
        raise HTTPError(401, "API key has expired")
    org = STORE.one("SELECT * FROM orgs WHERE org_id=?", (row["org_id"],))
    return {"org": row["org_id"], "scopes": set(row["scopes"].split()), "mode": org["moderation_mode"]}


def need(ctx, scope):
    if scope not in ctx["scopes"]:
        raise HTTPError(403, "Forbidden: this key lacks the '%s' scope" % scope)


# ---------------------------------------------------------------- action rendering

def fetch_tags(org, ids):
    out = {}
    for i in range(0, len(ids), 400):
        chunk = ids[i:i + 400]
        rows = STORE.q("SELECT at.action_id, at.closing, t.name, t.grp FROM action_tags at JOIN tags t "
                       "ON t.org_id=at.org_id AND t.tag_id=at.tag_id WHERE at.org_id=? AND at.action_id IN (%s) "
                       "ORDER BY t.tag_id" % ",".join("?" * len(chunk)), [org] + chunk)
        for r in rows:
            d = out.setdefault(r["action_id"], ([], []))
            d[1 if r["closing"] else 0].append({"value": r["name"], "group": r["grp"] if r["grp"] is not None else ""})
    return out


def fetch_cfs(org, ids):
    out = {}
    for i in range(0, len(ids), 400):
        chunk = ids[i:i + 400]
        rows = STORE.q("SELECT action_id, field_name, value_json FROM custom_field_values WHERE org_id=? AND "
                       "action_id IN (%s)" % ",".join("?" * len(chunk)), [org] + chunk)
        for r in rows:
            out.setdefault(r["action_id"], {})[r["field_name"]] = json.loads(r["value_json"])
    return out


def fetch_messages(org, aid):
    return STORE.q("SELECT * FROM messages WHERE org_id=? AND action_id=? ORDER BY seq", (org, aid))


def conversation_of(msgs):
    return [{"id": m["msg_id"], "timestamp": iso(m["ts_ms"]), "author": m["author"], "authorId": m["author_id"],
             "authorType": m["author_type"], "message": m["message"], "parentMessageId": m["parent_id"],
             "mediaUrls": json.loads(m["media_urls"])} for m in msgs]


def service_url(aid):
    return "https://app.cca.example/actions/" + quote(aid, safe="")


AGENT_CACHE = {}


def agent_of(org, agent_id):
    if agent_id is None:
        return None
    k = (org, agent_id)
    if k not in AGENT_CACHE:
        AGENT_CACHE[k] = STORE.one("SELECT * FROM agents WHERE org_id=? AND agent_id=?", k)
    return AGENT_CACHE[k]


QUEUE_CACHE = {}


def queue_name(org, qid):
    if qid is None:
        return None
    k = (org, qid)
    if k not in QUEUE_CACHE:
        r = STORE.one("SELECT name FROM queues WHERE org_id=? AND queue_id=?", k)
        QUEUE_CACHE[k] = r["name"] if r else qid
    return QUEUE_CACHE[k]


def summary(r, tags, cfs, include_conv=False, search=False):
    org = r["org_id"]
    a = agent_of(org, r["assignee_id"])
    tg = tags.get(r["action_id"], ([], []))
    d = {
        "actionId": r["action_id"], "actionTitle": r["title"], "actionSummary": r["summary"], "status": r["status"],
        "platform": r["platform"], "recordType": r["record_type"], "isPublicPost": bool(r["is_public"]),
        "serviceURL": service_url(r["action_id"]), "sourceURL": r["source_url"] if r["is_public"] else None,
        "queue": queue_name(org, r["queue_id"]), "initialQueue": queue_name(org, r["initial_queue_id"]),
        "sentiment": r["sentiment"], "sentimentScore": r["sentiment_score"], "moderation": r["moderation"],
        "assigneeName": a["name"] if a else None, "assigneeEmail": a["email"] if a else None,
        "assigneeUserId": a["agent_id"] if a else None, "assigneeRole": a["role"] if a else None,
        "userName": r["user_name"], "userUsername": r["user_username"], "userId": r["user_id"],
        "userEmail": r["user_email"], "userFollowerCount": r["user_followers"],
        "createdAt": iso(r["created_ms"]), "updatedAt": iso(r["updated_ms"]),
        "initialMessageTime": iso(r["initial_message_ms"]), "initialResponseTime": iso(r["initial_response_ms"]),
        "closeTime": iso(r["close_ms"]), "claimTime": iso(r["claim_ms"]),
        "firstResponseTime": duration(r["first_response_s"]), "handleTime": duration(r["handle_s"]),
        "serverName": r["server_name"], "channelName": r["channel_name"],
        "csatScore": r["csat_score"], "csatFeedback": r["csat_feedback"], "estimatedCSAT": r["estimated_csat"],
        "totalMessages": r["total_messages"], "totalUserMessages": r["total_user_messages"],
        "totalAgentMessages": r["total_agent_messages"],
        "tags": tg[0], "closingTags": tg[1], "customFields": cfs.get(r["action_id"], {}),
        "rootMessageText": r["root_message_text"], "conversationJson": None,
    }
    if include_conv:
        d["conversationJson"] = json.dumps(conversation_of(fetch_messages(org, r["action_id"])))
    if search:
        d["threadId"] = r["thread_id"]
        d["easyId"] = r["easy_id"]
        d["contributors"] = r["contributors"]
    return d


def detail(r):
    org, aid = r["org_id"], r["action_id"]
    s = summary(r, fetch_tags(org, [aid]), fetch_cfs(org, [aid]))
    msgs = fetch_messages(org, aid)
    uid = s["userId"]
    if dev("D04") and re.match(r"^\d+$", uid or ""):
        uid = str(int(float(uid))) if len(uid) > 15 else uid
    d = {
        "user": {"name": s["userName"], "username": s["userUsername"], "userId": uid, "email": s["userEmail"],
                 "followerCount": s["userFollowerCount"]},
        "assignee": {"name": s["assigneeName"], "email": s["assigneeEmail"], "userId": s["assigneeUserId"],
                     "role": s["assigneeRole"]},
        "comments": [{"text": c["text"], "authorNativeId": c["author_native_id"],
                      "authorNativeName": c["author_native_name"]}
                     for c in STORE.q("SELECT * FROM comments WHERE org_id=? AND action_id=? ORDER BY seq", (org, aid))],
        "messages": [],
    }
    for m in msgs:
        mm = {"id": m["msg_id"], "timestamp": iso(m["ts_ms"]), "author": m["author"],
              "authorType": m["author_type"], "message": m["message"], "mediaUrls": json.loads(m["media_urls"])}
        if m["author_id"] is not None:
            mm["authorId"] = m["author_id"]
        d["messages"].append(mm)
    for k in ("actionId", "actionTitle", "actionSummary", "platform", "recordType", "isPublicPost", "sentiment",
              "sentimentScore", "queue", "initialQueue", "status", "createdAt", "serviceURL", "sourceURL",
              "updatedAt", "initialMessageTime", "initialResponseTime", "closeTime", "firstResponseTime",
              "handleTime", "claimTime", "serverName", "channelName", "tags", "closingTags", "moderation",
              "rootMessageText", "customFields", "csatScore", "csatFeedback", "estimatedCSAT", "totalMessages",
              "totalUserMessages", "totalAgentMessages"):
        d[k] = s[k]
    if not r["is_public"]:
        d["conversation"] = conversation_of(msgs)
    return d


# ---------------------------------------------------------------- DSL

DSL_KEYS = {"platform", "status", "queue", "sentiment", "tag", "tagGroup", "assigneeUserId", "userId", "responded",
            "recordType", "threadId", "easyId", "isPublicPost", "text", "channelName", "serverName"}


def parse_dsl(s, pname):
    s = s.strip()
    if s == "":
        return []
    parts = [p for p in re.split(r"\s*\+\s*|\s+(?=[A-Za-z]+=)", s) if p != ""]
    terms = []
    for p in parts:
        if "=" not in p:
            raise HTTPError(400, "Invalid %s term '%s': expected key=value" % (pname, p[:80]))
        k, v = p.split("=", 1)
        k = k.strip()
        if k not in DSL_KEYS:
            raise HTTPError(400, "Unknown %s key '%s'" % (pname, k[:80]))
        if k in ("responded", "isPublicPost") and v.lower() not in ("true", "false"):
            raise HTTPError(400, "%s key '%s' expects true or false" % (pname, k))
        terms.append((k, v))
    return terms


def dsl_sql(terms, org):
    where, args = [], []
    for k, v in terms:
        col = {"platform": "platform", "status": "status", "sentiment": "sentiment", "userId": "user_id",
               "assigneeUserId": "assignee_id", "recordType": "record_type", "threadId": "thread_id",
               "easyId": "easy_id", "channelName": "channel_name", "serverName": "server_name"}.get(k)
        if col:
            where.append("a.%s = ?" % col)
            args.append(v)
        elif k == "queue":
            where.append("a.queue_id IN (SELECT queue_id FROM queues WHERE org_id=a.org_id AND (name=? OR queue_id=?))")
            args += [v, v]
        elif k == "tag":
            where.append("EXISTS (SELECT 1 FROM action_tags at JOIN tags t ON t.org_id=at.org_id AND t.tag_id=at.tag_id "
                         "WHERE at.org_id=a.org_id AND at.action_id=a.action_id AND (t.name=? OR t.tag_id=?))")
            args += [v, v]
        elif k == "tagGroup":
            where.append("EXISTS (SELECT 1 FROM action_tags at JOIN tags t ON t.org_id=at.org_id AND t.tag_id=at.tag_id "
                         "WHERE at.org_id=a.org_id AND at.action_id=a.action_id AND t.grp=?)")
            args.append(v)
        elif k == "responded":
            where.append("a.initial_response_ms IS %s NULL" % ("NOT" if v.lower() == "true" else ""))
        elif k == "isPublicPost":
            where.append("a.is_public = ?")
            args.append(1 if v.lower() == "true" else 0)
        elif k == "text":
            where.append("(instr(lower(a.title), lower(?)) > 0 OR instr(lower(a.summary), lower(?)) > 0 OR "
                         "instr(lower(coalesce(a.root_message_text,'')), lower(?)) > 0)")
            args += [v, v, v]
    return where, args


# ---------------------------------------------------------------- handlers: actions

def legacy_responded(q):
    """Returns True (responded only), False (not responded only), None (all), or 'unset'."""
    val = "unset"
    f = q.get("filter")
    if f is not None and f != "":
        m = re.search(r"(?:^|[\s+&,;])responded\s*[=:]\s*(true|false|all)\b", f, re.I)
        if m:
            val = {"true": True, "false": False, "all": None}[m.group(1).lower()]
        elif dev("D14"):
            val = None
    fj = q.get("filterJson")
    if fj is not None and fj != "":
        try:
            obj = safe_loads(fj)
        except ValueError:
            raise HTTPError(400, "filterJson is not valid JSON")
        if not isinstance(obj, dict):
            raise HTTPError(400, "filterJson must be a JSON object")
        if "responded" in obj:
            rv = obj["responded"]
            if rv is not None and not isinstance(rv, bool):
                raise HTTPError(400, "filterJson.responded must be a boolean or null")
            val = rv
        elif dev("D14"):
            val = None
    return val


def h_action_list(ctx, q, params, body):
    need(ctx, "read")
    page_size = parse_int(q, "pageSize", 50, 1, 500)
    sort_by = q.get("sortBy") or "createdAt"
    if sort_by not in ("createdAt", "updatedAt"):
        raise HTTPError(400, "sortBy must be createdAt or updatedAt")
    include = parse_bool(q, "includeFullConversation", False)
    full = q.get("fullFilter")
    has_legacy = (q.get("filter") not in (None, "")) or (q.get("filterJson") not in (None, ""))
    if full is not None and full != "":
        limit = 9999 if dev("D19") else 10000
        if len(full) > limit:
            raise HTTPError(400, "fullFilter exceeds 10000 characters")
        if has_legacy:
            raise HTTPError(400, "fullFilter cannot be combined with filter or filterJson")
        terms = parse_dsl(full, "fullFilter")
        responded = None
    else:
        terms = []
        responded = legacy_responded(q)
        if responded == "unset":
            responded = True
    w = window(q, 7)
    col = "created_ms" if sort_by == "createdAt" else "updated_ms"
    where, args = dsl_sql(terms, ctx["org"])
    where = ["a.org_id = ?", "a.%s IS NOT NULL" % col, "a.%s >= ?" % col,
             ("a.%s < ?" if dev("D03") else "a.%s <= ?") % col] + where
    args = [ctx["org"], w[0], w[1]] + args
    if responded is True:
        where.append("a.initial_response_ms IS NOT NULL")
    elif responded is False:
        where.append("a.initial_response_ms IS NULL")
    wsql = " AND ".join(where)
    total = STORE.one("SELECT count(*) c FROM actions a WHERE " + wsql, args)["c"]
    rows = STORE.q("SELECT a.* FROM actions a WHERE %s ORDER BY a.%s DESC, a.action_id DESC LIMIT ?" % (wsql, col),
                   args + [page_size])
    ids = [r["action_id"] for r in rows]
    tags, cfs = fetch_tags(ctx["org"], ids), fetch_cfs(ctx["org"], ids)
    return 200, {"data": [summary(r, tags, cfs, include) for r in rows], "totalRecords": total, "currentPage": 1,
                 "pageSize": page_size, "totalPages": int(math.ceil(total / float(page_size)))}


def get_action(ctx, aid):
    r = STORE.one("SELECT * FROM actions WHERE org_id=? AND action_id=?", (ctx["org"], aid))
    if r is None:
        raise HTTPError(404, "Action not found")
    return r


def h_action_get(ctx, q, params, body):
    need(ctx, "read")
    return 200, detail(get_action(ctx, params[0]))


def cf_defs(org):
    return STORE.q("SELECT * FROM custom_field_defs WHERE org_id=? ORDER BY seq", (org,))


def h_cf_get(ctx, q, params, body):
    need(ctx, "read")
    aid = params[0]
    get_action(ctx, aid)
    vals = {r["field_name"]: r for r in STORE.q("SELECT * FROM custom_field_values WHERE org_id=? AND action_id=?",
                                                 (ctx["org"], aid))}
    fields = []
    for d in cf_defs(ctx["org"]):
        f = {"fieldName": d["field_name"], "displayName": d["display_name"], "fieldType": d["field_type"],
             "value": None}
        v = vals.get(d["field_name"])
        if v is not None:
            f["value"] = json.loads(v["value_json"])
            if v["provenance_json"]:
                f["provenance"] = json.loads(v["provenance_json"])
        fields.append(f)
    return 200, {"actionId": aid, "fields": fields}


def check_cf_value(d, v):
    t = d["field_type"]
    opts = json.loads(d["options"]) if d["options"] else None
    if v is None:
        return None
    if t == "number":
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return "expected a number"
    elif t == "boolean":
        if not isinstance(v, bool):
            return "expected a boolean"
    elif t == "text":
        if not isinstance(v, str):
            return "expected a string"
    elif t == "select":
        if not isinstance(v, str) or v not in opts:
            return "expected one of: " + ", ".join(opts)
    elif t == "multi_select":
        if not isinstance(v, list) or any((not isinstance(x, str)) or x not in opts for x in v):
            return "expected an array of: " + ", ".join(opts)
    elif t == "date":
        if not isinstance(v, str) or not DATE_RE.match(v):
            return "expected a date (YYYY-MM-DD)"
        try:
            datetime.strptime(v, "%Y-%m-%d")
        except ValueError:
            return "expected a valid calendar date"
    return None


def h_cf_patch(ctx, q, params, body):
    need(ctx, "write")
    aid = params[0]
    get_action(ctx, aid)
    try:
        obj = safe_loads(body) if body else None
    except ValueError:
        raise HTTPError(422, "Request body must be valid JSON", {"fieldErrors": {"body": "invalid JSON"}})
    if not isinstance(obj, dict):
        raise HTTPError(422, "Request body must be a JSON object", {"fieldErrors": {"body": "expected an object"}})
    fields = obj.get("fields")
    if not isinstance(fields, list) or len(fields) < 1:
        raise HTTPError(422, "fields must be a non-empty array", {"fieldErrors": {"fields": "at least 1 item required"}})
    defs = {d["field_name"]: d for d in cf_defs(ctx["org"])}
    errors = {}
    bare = False
    seen = set()
    for i, f in enumerate(fields):
        if not isinstance(f, dict):
            errors["fields[%d]" % i] = "expected an object"
            continue
        name = f.get("fieldName")
        if not isinstance(name, str) or len(name) < 1:
            errors["fields[%d].fieldName" % i] = "fieldName is required (string, min length 1)"
            continue
        if name in seen:
            errors[name] = "field given more than once"
            continue
        seen.add(name)
        if name not in defs:
            errors[name] = "unknown custom field"
            continue
        if "value" not in f:
            errors[name] = "value is required"
            continue
        msg = check_cf_value(defs[name], f["value"])
        if msg:
            errors[name] = msg
            continue
        if "confidence" in f:
            c = f["confidence"]
            if isinstance(c, bool) or not isinstance(c, (int, float)) or c < 0 or c > 1:
                errors[name] = "confidence must be a number between 0 and 1"
                bare = True
                continue
        if "rationale" in f and not isinstance(f["rationale"], str):
            errors[name] = "rationale must be a string"
    if errors:
        if dev("D13") and bare:
            raise HTTPError(422, "Validation failed")
        raise HTTPError(422, "Validation failed", {"fieldErrors": errors})
    updated = []
    ts = iso(now_ms())
    for f in fields:
        prov = {"source": "api", "updatedAt": ts}
        if "confidence" in f:
            prov["confidence"] = f["confidence"]
        if "rationale" in f:
            prov["rationale"] = f["rationale"]
        if f["value"] is None:
            STORE.x("DELETE FROM custom_field_values WHERE org_id=? AND action_id=? AND field_name=?",
                    (ctx["org"], aid, f["fieldName"]))
        else:
            STORE.x("INSERT OR REPLACE INTO custom_field_values VALUES (?,?,?,?,?)",
                    (ctx["org"], aid, f["fieldName"], json.dumps(f["value"]), json.dumps(prov)))
        updated.append({"fieldName": f["fieldName"], "value": f["value"]})
    return 200, {"actionId": aid, "updated": updated}


# ---------------------------------------------------------------- agents / queues

def _avg(vals):
    vals = [v for v in vals if v is not None]
    return round(sum(vals) / len(vals), 4) if vals else 0


def metrics_of(rows):
    return {
        "totalActions": len(rows),
        "totalMessages": sum(r["total_messages"] or 0 for r in rows),
        "totalAgentMessages": sum(r["total_agent_messages"] or 0 for r in rows),
        "totalUserMessages": sum(r["total_user_messages"] or 0 for r in rows),
        "averageCsat": _avg([float(r["csat_score"]) if r["csat_score"] else None for r in rows]),
        "averageResponseTime": _avg([r["first_response_s"] for r in rows]),
        "averageHandleTime": _avg([r["handle_s"] for r in rows]),
        "averageEstimatedCsat": _avg([r["estimated_csat"] for r in rows]),
        "averageResolutionQuality": _avg([r["resolution_quality"] for r in rows]),
        "averageSentimentChange": _avg([r["sentiment_change"] for r in rows]),
        "averageRubricScore": _avg([r["rubric_score"] for r in rows]),
    }


def workload_of(rows):
    w = {"active": 0, "closed": 0, "cancelled": 0}
    for r in rows:
        s = r["status"]
        if s == "CLOSED":
            w["closed"] += 1
        elif s == "CANCELLED":
            w["closed" if dev("D12") else "cancelled"] += 1
        else:
            w["active"] += 1
    return w


def window_rows(ctx, q, days=30):
    w = window(q, days)
    return STORE.q("SELECT * FROM actions WHERE org_id=? AND created_ms >= ? AND created_ms <= ? "
                   "ORDER BY created_ms", (ctx["org"], w[0], w[1])), w


def ext_agent_id(aid):
    if dev("D05") and re.match(r"^0+\d", aid):
        return aid.lstrip("0")
    return aid


def h_agents(ctx, q, params, body):
    need(ctx, "read")
    rows, w = window_rows(ctx, q)
    out = []
    for a in STORE.q("SELECT * FROM agents WHERE org_id=? ORDER BY agent_id", (ctx["org"],)):
        mine = [r for r in rows if r["assignee_id"] == a["agent_id"]]
        m = metrics_of(mine)
        m["totalActionsWithResponse"] = sum(1 for r in mine if r["initial_response_ms"] is not None)
        out.append({"agentId": ext_agent_id(a["agent_id"]), "metrics": m, "workload": workload_of(mine)})
    return 200, {"success": True, "data": out}


def h_agent(ctx, q, params, body):
    need(ctx, "read")
    aid = params[0]
    a = STORE.one("SELECT * FROM agents WHERE org_id=? AND agent_id=?", (ctx["org"], aid))
    if a is None and dev("D05"):
        for cand in STORE.q("SELECT * FROM agents WHERE org_id=?", (ctx["org"],)):
            if cand["agent_id"].lstrip("0") == aid.lstrip("0") and aid.lstrip("0"):
                a = cand
    if a is None:
        raise HTTPError(404, "Agent not found")
    rows, w = window_rows(ctx, q)
    mine = [r for r in rows if r["assignee_id"] == a["agent_id"]]
    days = {}
    for r in mine:
        days.setdefault(iso(r["created_ms"])[:10], []).append(r)
    daily = []
    for d in sorted(days):
        m = metrics_of(days[d])
        m["date"] = d
        daily.append(m)
    qs = {}
    for r in mine:
        qs.setdefault(r["queue_id"], []).append(r)
    queues = [{"queueId": k, "queueName": queue_name(ctx["org"], k), "totalActions": len(v)}
              for k, v in sorted(qs.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))]
    allrows = STORE.q("SELECT status FROM actions WHERE org_id=? AND assignee_id=?", (ctx["org"], a["agent_id"]))
    return 200, {"success": True, "data": {"metrics": daily, "aggregatedMetrics": metrics_of(mine),
                                           "currentWorkload": workload_of(allrows), "queues": queues}}


def h_queues(ctx, q, params, body):
    need(ctx, "read")
    rows, w = window_rows(ctx, q)
    out = []
    groups = {}
    for r in rows:
        groups.setdefault(r["queue_id"], []).append(r)
    for qr in STORE.q("SELECT * FROM queues WHERE org_id=? ORDER BY queue_id", (ctx["org"],)):
        groups.setdefault(qr["queue_id"], [])
    for qid in sorted(groups, key=lambda k: (k is None, k or "")):
        mine = groups[qid]
        m = metrics_of(mine)
        m["averageSentimentScore"] = _avg([r["sentiment_score"] for r in mine])
        out.append({"queueId": qid, "queueName": queue_name(ctx["org"], qid), "metrics": m,
                    "workload": workload_of(mine)})
    return 200, {"success": True, "data": out}


# ---------------------------------------------------------------- analytics

def tag_rows(org, w, responded_only, extra_orgs=False):
    sql = ("SELECT t.tag_id, t.name, t.grp, a.action_id, a.initial_response_ms, a.sentiment, a.sentiment_score, "
           "a.actionability, a.relevance, a.created_ms FROM action_tags at JOIN tags t ON t.org_id=at.org_id AND "
           "t.tag_id=at.tag_id JOIN actions a ON a.org_id=at.org_id AND a.action_id=at.action_id WHERE at.closing=0 "
           "AND a.created_ms >= ? AND a.created_ms <= ?")
    args = [w[0], w[1]]
    if not extra_orgs:
        sql += " AND at.org_id=?"
        args.append(org)
    else:
        sql += " AND t.name IN (SELECT name FROM tags WHERE org_id=?)"
        args.append(org)
    if responded_only:
        sql += " AND a.initial_response_ms IS NOT NULL"
    return STORE.q(sql, args)


def h_tags(ctx, q, params, body):
    need(ctx, "read")
    w = window(q, 30)
    ro = parse_bool(q, "respondedOnly", False)
    limit = parse_int(q, "limit", 25, 1, 1000)
    offset = parse_int(q, "offset", 0, 0, 10 ** 9)
    search = (q.get("search") or "").strip().lower()
    rows = tag_rows(ctx["org"], w, ro)
    wide = tag_rows(ctx["org"], (0, w[1]), ro) if dev("D18") else None
    acts = STORE.q("SELECT action_id FROM actions WHERE org_id=? AND created_ms>=? AND created_ms<=?" +
                   (" AND initial_response_ms IS NOT NULL" if ro else ""), (ctx["org"], w[0], w[1]))
    per = {}
    for r in rows:
        if search and search not in r["name"].lower() and search not in (r["grp"] or "").lower():
            continue
        per.setdefault(r["tag_id"], {"rows": [], "name": r["name"], "grp": r["grp"]})["rows"].append(r)
    total_apps = sum(len(v["rows"]) for v in per.values())
    tagged = len(set(r["action_id"] for v in per.values() for r in v["rows"]))
    order = sorted(per, key=lambda k: (-len(per[k]["rows"]), k))
    page = order[offset:offset + limit]
    breakdown, volume = [], []
    for k in page:
        v = per[k]
        c = len(v["rows"])
        breakdown.append({"tagId": k, "tagName": v["name"], "groupName": v["grp"], "count": c,
                          "percentage": round(100.0 * c / total_apps, 2) if total_apps else 0})
        resp = sum(1 for r in v["rows"] if r["initial_response_ms"] is not None)
        notresp = c - resp
        if wide is not None:
            notresp = sum(1 for r in wide if r["tag_id"] == k and r["initial_response_ms"] is None)
        sc = [r["sentiment_score"] for r in v["rows"] if r["sentiment_score"] is not None]
        volume.append({"tagId": k, "tagName": v["name"], "total": c, "responded": resp, "notResponded": notresp,
                       "avgSentiment": round(sum(sc) / len(sc), 4) if sc else None,
                       "avgActionability": round(sum(r["actionability"] for r in v["rows"]) / c, 4) if c else None,
                       "avgRelevance": round(sum(r["relevance"] for r in v["rows"]) / c, 4) if c else None})
    groups = set(per[k]["grp"] for k in per if per[k]["grp"] is not None)
    return 200, {"success": True, "data": {
        "summary": {"totalTags": len(per), "totalTagGroups": len(groups), "totalTaggedRecords": tagged,
                    "totalActions": len(acts)},
        "tagBreakdown": breakdown, "volumeByTag": volume,
        "pagination": {"total": len(order), "limit": limit, "offset": offset, "hasMore": offset + limit < len(order)}}}


def days_between(w):
    d0 = datetime.fromtimestamp(w[0] / 1000.0, tz=timezone.utc).date()
    d1 = datetime.fromtimestamp(w[1] / 1000.0, tz=timezone.utc).date()
    if (d1 - d0).days > 3660:
        d0 = d1 - timedelta(days=3660)
    out = []
    while d0 <= d1:
        out.append(d0.isoformat())
        d0 += timedelta(days=1)
    return out


def h_tags_volume(ctx, q, params, body):
    need(ctx, "read")
    w = window(q, 30)
    ro = parse_bool(q, "respondedOnly", False)
    top = parse_int(q, "topTagsLimit", 5, 1, 100)
    ids = q.get("tagIds")
    rows = tag_rows(ctx["org"], w, ro)
    if ids not in (None, ""):
        wanted = [x.strip() for x in ids.split(",") if x.strip() != ""]
        known = {r["tag_id"]: (r["name"]) for r in STORE.q("SELECT * FROM tags WHERE org_id=?", (ctx["org"],))}
        sel = [(i, known[i]) for i in wanted if i in known]
    else:
        cnt = {}
        for r in rows:
            cnt.setdefault((r["tag_id"], r["name"]), 0)
            cnt[(r["tag_id"], r["name"])] += 1
        sel = [k for k, _ in sorted(cnt.items(), key=lambda kv: (-kv[1], kv[0][0]))[:top]]
    names = [n for _, n in sel]
    data = {d: dict((n, 0) for n in names) for d in days_between(w)}
    selids = dict(sel)
    for r in rows:
        if r["tag_id"] in selids:
            d = iso(r["created_ms"])[:10]
            if d in data:
                data[d][selids[r["tag_id"]]] += 1
    out = []
    for d in sorted(data):
        row = {"date": d}
        row.update(data[d])
        out.append(row)
    return 200, {"success": True, "data": {"data": out, "tags": names}}


def h_sentiment(ctx, q, params, body):
    need(ctx, "read")
    rows, w = window_rows(ctx, q)
    days = {}
    for r in rows:
        if r["sentiment"] is None:
            continue
        d = days.setdefault(iso(r["created_ms"])[:10], {"Very Negative": 0, "Negative": 0, "Neutral": 0, "Positive": 0})
        d[r["sentiment"]] += 1
    out = []
    for k in sorted(days):
        row = {"day": k}
        row.update(days[k])
        out.append(row)
    return 200, {"success": True, "data": out}


def h_sentiment_tag(ctx, q, params, body):
    need(ctx, "read")
    w = window(q, 30)
    rows = tag_rows(ctx["org"], w, False, extra_orgs=dev("D07"))
    per = {}
    keymap = {"Very Negative": "veryNegative", "Negative": "negative", "Neutral": "neutral", "Positive": "positive"}
    for r in rows:
        if r["sentiment"] is None:
            continue
        d = per.setdefault(r["name"], {"tagName": r["name"], "veryNegative": 0, "negative": 0, "neutral": 0,
                                       "positive": 0, "totalMentions": 0})
        d[keymap[r["sentiment"]]] += 1
        d["totalMentions"] += 1
    out = sorted(per.values(), key=lambda d: (-d["totalMentions"], d["tagName"]))
    return 200, {"success": True, "data": out}


def pct(vals, p):
    if not vals:
        return 0
    vals = sorted(vals)
    k = (len(vals) - 1) * p
    f = int(math.floor(k))
    c = min(f + 1, len(vals) - 1)
    return round(vals[f] + (vals[c] - vals[f]) * (k - f), 4)


def h_engagement(ctx, q, params, body):
    need(ctx, "read")
    rows, w = window_rows(ctx, q)
    plats = q.get("platforms")
    if plats not in (None, ""):
        ps = set(p.strip().upper() for p in plats.split(",") if p.strip())
        rows = [r for r in rows if r["platform"] in ps]
    per = {}
    for r in rows:
        per.setdefault(r["platform"], {}).setdefault(r["user_id"], 0)
        per[r["platform"]][r["user_id"]] += r["total_user_messages"] or 0
    perc = [{"platform": p, "p25MessagesPerUser": pct(list(u.values()), 0.25),
             "medianMessagesPerUser": pct(list(u.values()), 0.5), "p75MessagesPerUser": pct(list(u.values()), 0.75)}
            for p, u in sorted(per.items())]
    weeks = {}
    for r in rows:
        d = datetime.fromtimestamp(r["created_ms"] / 1000.0, tz=timezone.utc).date()
        wk = d - timedelta(days=d.weekday())
        weeks.setdefault((wk, r["platform"]), set()).add(r["user_id"])
    trends = []
    for (wk, p) in sorted(weeks):
        cur = len(weeks[(wk, p)])
        prev = len(weeks.get((wk - timedelta(days=7), p), ()))
        g = round(100.0 * (cur - prev) / prev, 2) if prev else (100.0 if cur else 0.0)
        trends.append({"week": wk.isoformat() + "T00:00:00.000Z", "platform": p, "currentWeekUsers": cur,
                       "previousWeekUsers": prev, "growthPercentage": g})
    funnel = [{"stage": "conversations", "count": len(rows)},
              {"stage": "responded", "count": sum(1 for r in rows if r["initial_response_ms"] is not None)},
              {"stage": "closed", "count": sum(1 for r in rows if r["status"] == "CLOSED")},
              {"stage": "csatReported", "count": sum(1 for r in rows if r["csat_score"] is not None)}]
    return 200, {"success": True, "data": {"engagementPercentiles": perc, "growthTrends": trends,
                                           "conversionFunnel": funnel}}


SEARCH_CAP = 300


def h_search(ctx, q, params, body):
    need(ctx, "read")
    page = parse_int(q, "page", 1, 1, 9999 if dev("D02") else 10000)
    page_size = parse_int(q, "pageSize", 50, 1, 100)
    terms = parse_dsl(q.get("filter") or "", "filter")
    where, args = dsl_sql(terms, ctx["org"])
    wsql = " AND ".join(["a.org_id = ?"] + where)
    args = [ctx["org"]] + args
    total = STORE.one("SELECT count(*) c FROM actions a WHERE " + wsql, args)["c"]
    capped = total > SEARCH_CAP
    shown = min(total, SEARCH_CAP)
    off = (page - 1) * page_size
    if dev("D17") and page > 1:
        off += 1
    rows = STORE.q("SELECT a.* FROM actions a WHERE %s ORDER BY a.created_ms DESC, a.action_id DESC LIMIT ? OFFSET ?"
                   % wsql, args + [page_size, off])
    ids = [r["action_id"] for r in rows]
    tags, cfs = fetch_tags(ctx["org"], ids), fetch_cfs(ctx["org"], ids)
    return 200, {"success": True, "data": [summary(r, tags, cfs, search=True) for r in rows],
                 "totalRecords": shown, "totalRecordsCapped": capped, "currentPage": page, "pageSize": page_size,
                 "totalPages": int(math.ceil(shown / float(page_size)))}


# ---------------------------------------------------------------- moderation

def mod_prereq(ctx):
    if "write" not in ctx["scopes"]:
        raise HTTPError(403, "Forbidden: moderation intake requires a write-scoped key",
                        {"message": "This key does not carry the write scope."})
    if ctx["mode"] != "ad_policy":
        raise HTTPError(403, "Moderation is not available for this organization",
                        {"message": "Organization moderation mode is not ad_policy.", "supported": ["ad_policy"]})


def parse_body_json(body):
    try:
        return safe_loads(body)
    except ValueError:
        raise HTTPError(400, "Request body must be valid JSON")


def submit_one(ctx, sub, in_batch=False):
    """sub: validated normalized submission. Returns (kind, result) kind in accepted|duplicate|conflict."""
    chash = modmod.content_hash(sub)
    cmp_hash = modmod.content_hash(sub, ignore=("copy",)) if dev("D08") else chash
    with STORE.lock:
        ex = STORE.one("SELECT * FROM moderation_cases WHERE org_id=? AND external_id=?", (ctx["org"], sub["externalId"]))
        if ex is not None:
            if ex["copy_hash"] == cmp_hash:
                st = "pending"
                if dev("D15"):
                    st = modmod.status_of(ex["created_ms"], json.loads(ex["content_json"]), now_ms())[0]
                return "duplicate", {"caseId": ex["case_id"], "externalId": ex["external_id"], "status": "duplicate",
                                     "analysisStatus": st, "evaluationId": ex["evaluation_id"],
                                     "idempotency": {"key": ex["idem_key"], "replayed": True}}
            return "conflict", ex
        n = STORE.one("SELECT count(*) c FROM moderation_cases")["c"] + 1
        case_id = "%020d" % (n * 7919)
        ev = "ev_" + hashlib.sha256(("%s|%s|%s" % (ctx["org"], case_id, chash)).encode()).hexdigest()[:24]
        ikey = hashlib.sha256(("%s\n%s\n%s" % (ctx["org"], sub["externalId"], chash)).encode()).hexdigest()
        STORE.x("INSERT INTO moderation_cases VALUES (?,?,?,?,?,?,?,?,?,?)",
                (ctx["org"], case_id, sub["externalId"], chash, cmp_hash, json.dumps(sub), ev, ikey, now_ms(), 1))
    return "accepted", {"caseId": case_id, "externalId": sub["externalId"], "status": "accepted",
                        "analysisStatus": "pending", "evaluationId": ev,
                        "idempotency": {"key": ikey, "replayed": False}}


def h_mod_case(ctx, q, params, body):
    mod_prereq(ctx)
    obj = parse_body_json(body)
    if not isinstance(obj, dict):
        raise HTTPError(400, "Request body must be a JSON object")
    sub, missing, invalid, errs = modmod.validate(obj)
    if missing or invalid:
        raise HTTPError(422, "Moderation input failed validation", modmod.err_extra(missing, invalid, errs))
    kind, res = submit_one(ctx, sub)
    if kind == "conflict":
        raise HTTPError(409, "externalId already exists with different content",
                        {"message": "externalId '%s' is immutable; the submitted content differs from case %s"
                                    % (sub["externalId"][:256], res["case_id"])})
    return 202, res


def h_mod_batch(ctx, q, params, body):
    mod_prereq(ctx)
    obj = parse_body_json(body)
    if not isinstance(obj, dict):
        raise HTTPError(400, "Request body must be a JSON object with a 'cases' array")
    cases = obj.get("cases")
    if not isinstance(cases, list):
        raise HTTPError(400, "'cases' must be an array")
    if len(cases) < 1 or len(cases) > 100:
        raise HTTPError(400, "'cases' must contain between 1 and 100 items")
    validated = []
    for c in cases:
        if not isinstance(c, dict):
            validated.append((None, None, [], ["(item)"], ["item must be an object"]))
            continue
        sub, missing, invalid, errs = modmod.validate(c)
        ext = c.get("externalId") if isinstance(c.get("externalId"), str) else None
        validated.append((ext, sub, missing, invalid, errs))
    if dev("D09"):
        for ext, sub, missing, invalid, errs in validated:
            if sub is not None and not missing and not invalid:
                ex = STORE.one("SELECT * FROM moderation_cases WHERE org_id=? AND external_id=?",
                               (ctx["org"], sub["externalId"]))
                if ex is not None and ex["content_hash"] != modmod.content_hash(sub):
                    raise HTTPError(409, "externalId already exists with different content",
                                    {"message": "externalId '%s' conflicts" % sub["externalId"]})
    results = []
    for ext, sub, missing, invalid, errs in validated:
        if missing or invalid:
            r = {"externalId": ext, "caseId": None, "status": "rejected", "errors": errs}
            r.update(modmod.err_extra(missing, invalid, errs))
            results.append(r)
            continue
        kind, res = submit_one(ctx, sub, True)
        if kind == "conflict":
            results.append({"externalId": sub["externalId"], "caseId": res["case_id"], "status": "rejected",
                            "errors": ["externalId already exists with different content"],
                            "message": "externalId is immutable per organization; content differs from the existing case"})
        else:
            results.append(res)
    return 202, {"results": results}


def h_mod_get(ctx, q, params, body):
    if not dev("D06"):
        need(ctx, "read")
    cid = params[0]
    r = STORE.one("SELECT * FROM moderation_cases WHERE org_id=? AND case_id=?", (ctx["org"], cid))
    if r is None:
        raise HTTPError(404, "Moderation case not found")
    st, decision, fcode = modmod.status_of(r["created_ms"], json.loads(r["content_json"]), now_ms())
    out = {"caseId": r["case_id"], "externalId": r["external_id"], "analysisStatus": st,
           "evaluationId": r["evaluation_id"]}
    if st == "completed":
        out["decision"] = decision
    if st == "failed":
        out["failureCode"] = fcode
    return 200, out


# ---------------------------------------------------------------- ingestion

INGEST_PLATFORMS = ["DISCORD", "SLACK", "GITHUB", "ZENDESK", "TELEGRAM", "FACEBOOK_GROUP", "TWITTER_COMMUNITY",
                    "SALESFORCE", "FACEBOOK", "TWITTER", "THREADS", "TIKTOK", "INSTAGRAM", "LINKEDIN", "WHATSAPP",
                    "YOUTUBE", "GAINSIGHT", "APPSTORE", "GOOGLE_PLAY", "HIGHER_LOGIC", "DISCOURSE", "CUSTOM_FORM",
                    "MODERATION_API", "CHROME_WEB_STORE", "CANNY"]
HTTP_URL = re.compile(r"^https?://[^\s/?#]+[^\s]*$", re.I)


def is_http_url(u):
    if dev("D10"):
        return isinstance(u, str) and "://" in u
    return isinstance(u, str) and bool(HTTP_URL.match(u))


def h_ingest(ctx, q, params, body):
    if "ingest" not in ctx["scopes"] and not (dev("D11") and "write" in ctx["scopes"]):
        raise HTTPError(403, "Forbidden: this key lacks the 'ingest' scope")
    try:
        obj = safe_loads(body)
    except ValueError:
        raise HTTPError(422, "Request body must be valid JSON")
    if not isinstance(obj, dict):
        raise HTTPError(422, "Request body must be a JSON object")
    errs = []

    def s(o, k, req, mn, path):
        if k not in o:
            if req:
                errs.append("%s is required" % path)
            return
        v = o[k]
        if not isinstance(v, str):
            errs.append("%s must be a string" % path)
        elif len(v) < mn:
            errs.append("%s must have at least %d character(s)" % (path, mn))

    p = obj.get("platform")
    if "platform" not in obj:
        errs.append("platform is required")
    elif p not in INGEST_PLATFORMS:
        errs.append("platform must be one of " + ", ".join(INGEST_PLATFORMS))
    s(obj, "serverId", True, 1, "serverId")
    s(obj, "serverName", True, 1, "serverName")
    s(obj, "channelId", False, 0, "channelId")
    s(obj, "channelName", False, 0, "channelName")
    if "processingLevel" in obj and obj["processingLevel"] not in ("INSIGHTS", "STATS_ONLY"):
        errs.append("processingLevel must be INSIGHTS or STATS_ONLY")
    if "source" in obj:
        src = obj["source"]
        if not isinstance(src, dict):
            errs.append("source must be an object")
        else:
            s(src, "system", True, 1, "source.system")
            s(src, "sourceId", False, 0, "source.sourceId")
    recs = obj.get("records")
    if not isinstance(recs, list):
        errs.append("records is required (array of 1..500 items)")
        recs = []
    elif len(recs) < 1 or len(recs) > 500:
        errs.append("records must contain between 1 and 500 items")
        recs = []
    for i, r in enumerate(recs):
        pth = "records[%d]" % i
        if not isinstance(r, dict):
            errs.append("%s must be an object" % pth)
            continue
        s(r, "externalId", True, 1, pth + ".externalId")
        s(r, "threadExternalId", False, 0, pth + ".threadExternalId")
        s(r, "parentExternalId", False, 0, pth + ".parentExternalId")
        s(r, "authorId", True, 1, pth + ".authorId")
        s(r, "authorName", True, 1, pth + ".authorName")
        s(r, "title", False, 0, pth + ".title")
        s(r, "body", True, 0, pth + ".body")
        s(r, "createdAt", True, 1, pth + ".createdAt")
        s(r, "recordType", True, 1, pth + ".recordType")
        if "score" in r:
            sc = r["score"]
            if isinstance(sc, bool) or not isinstance(sc, (int, float)) or not (0 <= sc <= 5):
                errs.append("%s.score must be a number between 0 and 5" % pth)
        if "url" in r and not is_http_url(r["url"]):
            errs.append("%s.url must be an absolute HTTP or HTTPS URL" % pth)
        if "customFields" in r and not isinstance(r["customFields"], dict):
            errs.append("%s.customFields must be an object" % pth)
        if len(errs) > 50:
            break
    if errs:
        raise HTTPError(422, "Validation failed: " + "; ".join(errs[:20]))
    with STORE.lock:
        cur = STORE.db.execute("INSERT INTO ingest_batches (org_id, platform, server_id, server_name, channel_id, "
                               "channel_name, processing_level, source_json, received_ms) VALUES (?,?,?,?,?,?,?,?,?)",
                               (ctx["org"], p, obj["serverId"], obj["serverName"], obj.get("channelId"),
                                obj.get("channelName"), obj.get("processingLevel", "INSIGHTS"),
                                json.dumps(obj.get("source")), now_ms()))
        bid = cur.lastrowid
        distinct = set()
        for r in recs:
            distinct.add(r["externalId"])
            STORE.db.execute("INSERT OR REPLACE INTO ingested_records VALUES (?,?,?,?,?,?)",
                             (ctx["org"], p, obj["serverId"], r["externalId"], bid, json.dumps(r)))
        STORE.db.commit()
    return 202, {"status": "accepted", "accepted": len(distinct)}


# ---------------------------------------------------------------- routing

ROUTES = [
    ("GET", r"/v0/action/list", h_action_list),
    ("GET", r"/v0/action/([^/]+)", h_action_get),
    ("GET", r"/v0/actions/([^/]+)/custom-fields", h_cf_get),
    ("PATCH", r"/v0/actions/([^/]+)/custom-fields", h_cf_patch),
    ("GET", r"/v0/agents", h_agents),
    ("GET", r"/v0/agents/([^/]+)", h_agent),
    ("GET", r"/v0/queues", h_queues),
    ("GET", r"/v0/analytics/tags", h_tags),
    ("GET", r"/v0/analytics/tags/volume", h_tags_volume),
    ("GET", r"/v0/analytics/sentiment", h_sentiment),
    ("GET", r"/v0/analytics/sentiment/by-tag", h_sentiment_tag),
    ("GET", r"/v0/analytics/engagement", h_engagement),
    ("GET", r"/v0/conversations/search", h_search),
    ("POST", r"/v0/moderation/cases", h_mod_case),
    ("POST", r"/v0/moderation/cases/batch", h_mod_batch),
    ("GET", r"/v0/moderation/cases/([^/]+)", h_mod_get),
    ("POST", r"/v0/ingest/records", h_ingest),
]
COMPILED = [(m, re.compile("^" + p + "$"), h) for m, p, h in ROUTES]
MAX_BODY = 8 * 1024 * 1024


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "cca-blind-py2/1.0"
    sys_version = ""

    def log_message(self, fmt, *args):
        pass

    def send(self, status, payload, ctype="application/json; charset=utf-8", headers=None):
        if isinstance(payload, (dict, list)):
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        elif isinstance(payload, str):
            data = payload.encode("utf-8")
        else:
            data = payload
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_error(self, code, message=None, explain=None):
        # replaces the stdlib HTML error page (malformed request line, unsupported method, ...)
        try:
            self.close_connection = True
            msgs = {400: "Bad request", 404: "Not found", 405: "Method not allowed", 408: "Request timeout",
                    414: "Request-URI too long", 431: "Request header fields too large", 501: "Not implemented",
                    505: "HTTP version not supported"}
            self.send(code, {"success": False, "error": msgs.get(code, message or "Error")},
                      headers={"Connection": "close"})
        except Exception:
            pass

    def handle_any(self):
        try:
            self._handle()
        except HTTPError as e:
            b = {"success": False, "error": e.message}
            b.update(e.extra)
            self.send(e.status, b, headers=e.headers)
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception:
            import traceback
            traceback.print_exc(file=sys.stderr)
            try:
                self.send(500, {"success": False, "error": "Internal server error"})
            except Exception:
                pass

    def read_body(self):
        te = self.headers.get("Transfer-Encoding", "")
        if "chunked" in te.lower():
            chunks, total = [], 0
            while True:
                line = self.rfile.readline(65537).strip()
                try:
                    n = int(line.split(b";")[0], 16)
                except ValueError:
                    self.close_connection = True
                    raise HTTPError(400, "Malformed chunked body")
                if n == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass
                    break
                total += n
                if total > MAX_BODY:
                    self.close_connection = True
                    raise HTTPError(413, "Request body too large")
                chunks.append(self.rfile.read(n))
                self.rfile.readline(3)
            return b"".join(chunks)
        cl = self.headers.get("Content-Length")
        if not cl:
            return b""
        try:
            n = int(cl)
            if n < 0:
                raise ValueError
        except ValueError:
            self.close_connection = True
            raise HTTPError(400, "Invalid Content-Length")
        if n > MAX_BODY:
            self.close_connection = True
            raise HTTPError(413, "Request body too large")
        return self.rfile.read(n)

    def _handle(self):
        parts = urlsplit(self.path)
        raw_path = parts.path
        if len(raw_path) > 1 and raw_path.endswith("/"):
            raw_path = raw_path.rstrip("/") or "/"
        body = self.read_body()
        if raw_path in ("/docs", "/docs/", "/docs/json"):
            if self.command not in ("GET", "HEAD"):
                raise HTTPError(405, "Method not allowed", headers={"Allow": "GET"})
            if raw_path == "/docs/json":
                return self.send(200, docsmod.openapi(dev))
            return self.send(200, docsmod.swagger_html(), "text/html; charset=utf-8")
        try:
            q = {}
            for k, v in parse_qsl(parts.query, keep_blank_values=True, strict_parsing=False, errors="strict"):
                q.setdefault(k, v)
        except (UnicodeDecodeError, ValueError):
            raise HTTPError(400, "Malformed query string")
        segs = raw_path.split("/")
        try:
            segs = [unquote(s, errors="strict") for s in segs]
        except UnicodeDecodeError:
            raise HTTPError(400, "Malformed path encoding")
        matched, allowed = None, []
        for m, rx, h in COMPILED:
            mm = rx.match("/".join(raw_path.split("/")))
            if mm:
                allowed.append(m)
                if m == self.command or (m == "GET" and self.command == "HEAD"):
                    matched = (h, mm)
                    break
        if matched is None:
            if allowed:
                raise HTTPError(405, "Method not allowed", headers={"Allow": ", ".join(sorted(set(allowed)))})
            raise HTTPError(404, "Not found")
        h, mm = matched
        params = []
        for g in mm.groups():
            try:
                params.append(unquote(g, errors="strict"))
            except UnicodeDecodeError:
                raise HTTPError(400, "Malformed path encoding")
        ctx = authenticate(self.headers)
        status, payload = h(ctx, q, params, body)
        self.send(status, payload)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = do_OPTIONS = handle_any


def make_keys():
    t = now_ms()
    return {
        "CCA_READ_KEY": ("cca_r~A.7f3c9e2b-41d0+read/=", "org_A", "read", t + 90 * DAY, 0),
        "CCA_WRITE_KEY": ("CCAw_" + "9" * 16 + "_Zx!$&'()*" + "q" * 60, "org_A", "write", None, 0),
        "CCA_INGEST_KEY": ("ingest.A." + hashlib.sha256(b"ingest").hexdigest(), "org_A", "ingest ingest:read",
                           t + 30 * DAY, 0),
        "CCA_OTHER_ORG_READ_KEY": ("cca_r~B.00000000000000000042", "org_B", "read", t + 90 * DAY, 0),
        "CCA_OTHER_ORG_WRITE_KEY": ("cca_w~B.write.00000000000000000043", "org_B", "write", t + 90 * DAY, 0),
        "CCA_NO_MODERATION_WRITE_KEY": ("cca_w~C|no-mod|" + "x" * 7, "org_C", "write", t + 90 * DAY, 0),
        "CCA_EXPIRED_KEY": ("cca_r~A.expired.2025", "org_A", "read write", t - DAY, 0),
        "CCA_REVOKED_KEY": ("cca_r~A.revoked#1", "org_A", "read write", t + 90 * DAY, 1),
        "CCA_READ_WRITE_KEY": ("cca_rw~A:" + "0" * 10 + "1", "org_A", "read write", None, 0),
    }


def main():
    global STORE
    for d in (os.environ.get("DEVIATIONS") or "").split(","):
        if d.strip():
            DEV.add(d.strip())
    modmod.DEV = DEV
    try:
        seed = int(os.environ.get("SEED") or "1")
    except ValueError:
        seed = 1
    keys = make_keys()
    STORE = Store(seed, keys)
    kf = os.environ.get("KEYS_FILE")
    if kf:
        with open(kf, "w") as f:
            json.dump({k: v[0] for k, v in keys.items()}, f, indent=2)
    port = int(os.environ.get("PORT") or "0")
    srv = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    srv.daemon_threads = True

    def stop(*_):
        threading.Thread(target=srv.shutdown, daemon=True).start()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    sys.stdout.write("listening http://127.0.0.1:%d\n" % srv.server_address[1])
    sys.stdout.flush()
    srv.serve_forever()
    srv.server_close()


if __name__ == "__main__":
    main()
