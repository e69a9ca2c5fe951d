"""Actions, conversation search and custom fields."""
import datetime as dt
import json
import re

from common import (ApiError, bool_param, ceil_div, duration, flag, fmt, int_param, is_integral,
                    is_num, now, parse_bool_text, parse_dsl, resolve_window, split_terms)

SEARCH_CAP = 10000
FULL_FILTER_MAX = 10000


def _id_expr(col, alias):
    if flag("S06"):
        return (", CASE WHEN {c} <> '' AND {c} NOT GLOB '*[^0-9]*' THEN CAST({c} AS INTEGER) "
                "ELSE {c} END AS {a}").format(c=col, a=alias)
    return ", {c} AS {a}".format(c=col, a=alias)


def base_select():
    return ("SELECT a.*, ag.name AS ag_name, ag.email AS ag_email, ag.role AS ag_role, "
            "q.name AS q_name, iq.name AS iq_name"
            + _id_expr("a.user_id", "user_id_out") + _id_expr("a.assignee_user_id", "assignee_out") +
            " FROM actions a"
            " LEFT JOIN agents ag ON ag.org_id=a.org_id AND ag.user_id=a.assignee_user_id"
            " LEFT JOIN queues q ON q.org_id=a.org_id AND q.queue_id=a.queue_id"
            " LEFT JOIN queues iq ON iq.org_id=a.org_id AND iq.queue_id=a.initial_queue_id")


def _s(v):
    return None if v is None else str(v)


def _num(v):
    return v


def service_url(org, aid):
    from urllib.parse import quote
    return "https://app.cca.example/%s/actions/%s" % (org, quote(aid, safe=""))


def _chunks(seq, n=400):
    for i in range(0, len(seq), n):
        yield seq[i:i + n]


def load_tags(db, org, ids):
    out = {i: ([], []) for i in ids}
    for ch in _chunks(ids):
        rows = db.execute(
            "SELECT at.action_id, at.closing, t.name, t.group_name FROM action_tags at "
            "JOIN tags t ON t.org_id=at.org_id AND t.tag_id=at.tag_id "
            "WHERE at.org_id=? AND at.action_id IN (%s) ORDER BY t.group_name, t.name" % ",".join("?" * len(ch)),
            [org] + list(ch)).fetchall()
        for r in rows:
            out[r["action_id"]][1 if r["closing"] else 0].append(
                {"value": r["name"], "group": r["group_name"] if r["group_name"] is not None else ""})
    return out


def load_custom_values(db, org, ids):
    out = {i: {} for i in ids}
    for ch in _chunks(ids):
        rows = db.execute(
            "SELECT v.action_id, v.field_name, v.value_json FROM cf_values v "
            "JOIN cf_defs d ON d.org_id=v.org_id AND d.field_name=v.field_name "
            "WHERE v.org_id=? AND v.action_id IN (%s) ORDER BY d.sort_order" % ",".join("?" * len(ch)),
            [org] + list(ch)).fetchall()
        for r in rows:
            out[r["action_id"]][r["field_name"]] = json.loads(r["value_json"])
    return out


def load_messages(db, org, aid):
    return db.execute("SELECT * FROM messages WHERE org_id=? AND action_id=? ORDER BY seq",
                      (org, aid)).fetchall()


def conversation_items(msgs):
    return [{"id": m["msg_id"], "timestamp": m["ts"], "author": m["author"], "authorId": m["author_id"],
             "authorType": m["author_type"], "message": m["message"], "parentMessageId": m["parent_id"],
             "mediaUrls": json.loads(m["media_urls"])} for m in msgs]


def message_items(msgs):
    out = []
    for m in msgs:
        d = {"id": m["msg_id"], "timestamp": m["ts"], "author": m["author"]}
        if m["author_id"] is not None:
            d["authorId"] = m["author_id"]
        d.update({"authorType": m["author_type"], "message": m["message"],
                  "mediaUrls": json.loads(m["media_urls"])})
        out.append(d)
    return out


def summaries(db, org, rows, include_conversation=False, search=False):
    ids = [r["action_id"] for r in rows]
    tags = load_tags(db, org, ids)
    cfs = load_custom_values(db, org, ids)
    out = []
    for r in rows:
        aid = r["action_id"]
        d = {
            "actionId": aid,
            "actionTitle": r["title"],
            "actionSummary": r["summary"],
            "status": r["status"],
            "platform": r["platform"],
            "recordType": r["record_type"],
            "isPublicPost": bool(r["is_public"]),
            "serviceURL": service_url(org, aid),
            "sourceURL": r["source_url"] if r["is_public"] else None,
            "queue": r["q_name"],
            "initialQueue": r["iq_name"],
            "sentiment": r["sentiment"],
            "sentimentScore": r["sentiment_score"],
            "moderation": r["moderation"],
            "assigneeName": r["ag_name"] if r["assignee_user_id"] is not None else None,
            "assigneeEmail": r["ag_email"] if r["assignee_user_id"] is not None else None,
            "assigneeUserId": _s(r["assignee_out"]),
            "assigneeRole": r["ag_role"] if r["assignee_user_id"] is not None else None,
            "userName": r["user_name"],
            "userUsername": r["user_username"],
            "userId": _s(r["user_id_out"]),
            "userEmail": r["user_email"],
            "userFollowerCount": r["user_follower_count"],
            "createdAt": r["created_at"],
            "updatedAt": r["updated_at"],
            "initialMessageTime": r["initial_message_time"],
            "initialResponseTime": r["initial_response_time"],
            "closeTime": r["close_time"],
            "claimTime": r["claim_time"],
            "firstResponseTime": duration(r["frt_seconds"]),
            "handleTime": duration(r["handle_seconds"]),
            "serverName": r["server_name"],
            "channelName": r["channel_name"],
            "csatScore": r["csat_score"],
            "csatFeedback": r["csat_feedback"],
            "estimatedCSAT": r["estimated_csat"],
            "totalMessages": r["total_messages"],
            "totalUserMessages": r["total_user_messages"],
            "totalAgentMessages": r["total_agent_messages"],
            "tags": tags[aid][0],
            "closingTags": tags[aid][1],
            "customFields": cfs[aid],
            "rootMessageText": r["root_message_text"],
            "conversationJson": None,
        }
        if include_conversation:
            d["conversationJson"] = json.dumps(conversation_items(load_messages(db, org, aid)),
                                               separators=(",", ":"))
        if search:
            d["threadId"] = r["thread_id"]
            d["easyId"] = r["easy_id"]
            d["contributors"] = r["contributors"]
        out.append(d)
    return out


# ---------------------------------------------------------------- filter DSL to SQL

def _values(k, v):
    vals = [x.strip() for x in v.split(",") if x.strip()]
    if not vals:
        raise ApiError(400, "Filter term '%s' has an empty value" % k)
    return vals


def _in(col, vals, fn=None):
    ph = ",".join("?" * len(vals))
    if fn:
        return "%s(%s) IN (%s)" % (fn, col, ph), vals
    return "%s IN (%s)" % (col, ph), vals


def _like_escape(s):
    return "%" + s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


DSL_KEYS = ("platform, status, queue, queueId, sentiment, responded, assignee, assigneeUserId, userId, "
            "tag, tagId, recordType, isPublicPost, channelName, serverName, actionId, threadId, easyId, text")


def dsl_where(terms):
    clauses, params = [], []
    has_responded = False
    for k, v in terms:
        if k in ("platform", "source"):
            vals = [x.upper() for x in _values(k, v)]
            c, p = _in("a.platform", vals, "UPPER")
        elif k == "status":
            vals = [x.upper() for x in _values(k, v)]
            c, p = _in("a.status", vals, "UPPER")
        elif k == "sentiment":
            vals = [x.lower() for x in _values(k, v)]
            c, p = _in("a.sentiment", vals, "LOWER")
        elif k in ("responded", "ispublicpost"):
            lv = v.strip().lower()
            if k == "responded" and lv in ("all", "any"):
                has_responded = True
                continue
            b = parse_bool_text(lv)
            if b is None:
                raise ApiError(400, "Filter term '%s' must be true or false" % k)
            if k == "responded":
                has_responded = True
                c, p = ("a.initial_response_time IS NOT NULL" if b else "a.initial_response_time IS NULL"), []
            else:
                c, p = "a.is_public = ?", [1 if b else 0]
        elif k == "queue":
            vals = _values(k, v)
            ph = ",".join("?" * len(vals))
            c = ("a.queue_id IN (SELECT qq.queue_id FROM queues qq WHERE qq.org_id=a.org_id AND "
                 "(qq.queue_id IN (%s) OR qq.name IN (%s)))" % (ph, ph))
            p = vals + vals
        elif k == "queueid":
            c, p = _in("a.queue_id", _values(k, v))
        elif k in ("assignee", "assigneeuserid"):
            c, p = _in("a.assignee_user_id", _values(k, v))
        elif k == "userid":
            c, p = _in("a.user_id", _values(k, v))
        elif k in ("tag", "tagid"):
            vals = _values(k, v)
            ph = ",".join("?" * len(vals))
            cond = "t.tag_id IN (%s)" % ph if k == "tagid" else "(t.name IN (%s) OR t.tag_id IN (%s))" % (ph, ph)
            c = ("EXISTS (SELECT 1 FROM action_tags at JOIN tags t ON t.org_id=at.org_id AND t.tag_id=at.tag_id "
                 "WHERE at.org_id=a.org_id AND at.action_id=a.action_id AND at.closing=0 AND %s)" % cond)
            p = vals if k == "tagid" else vals + vals
        elif k == "recordtype":
            c, p = _in("a.record_type", _values(k, v))
        elif k == "channelname":
            c, p = _in("a.channel_name", _values(k, v))
        elif k == "servername":
            c, p = _in("a.server_name", _values(k, v))
        elif k == "actionid":
            c, p = _in("a.action_id", _values(k, v))
        elif k == "threadid":
            c, p = _in("a.thread_id", _values(k, v))
        elif k == "easyid":
            c, p = _in("a.easy_id", _values(k, v))
        elif k in ("text", "q", "search"):
            if not v:
                raise ApiError(400, "Filter term 'text' has an empty value")
            pat = _like_escape(v)
            c = ("(a.title LIKE ? ESCAPE '\\' OR a.summary LIKE ? ESCAPE '\\' OR "
                 "a.root_message_text LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM messages m WHERE "
                 "m.org_id=a.org_id AND m.action_id=a.action_id AND m.message LIKE ? ESCAPE '\\'))")
            p = [pat] * 4
        else:
            raise ApiError(400, "Unsupported filter key '%s'; supported keys: %s" % (k[:64], DSL_KEYS))
        clauses.append(c)
        params.extend(p)
    return clauses, params, has_responded


def _responded_value(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        lv = v.strip().lower()
        if lv in ("all", "any"):
            return None
        b = parse_bool_text(lv)
        if b is not None:
            return b
    raise ApiError(400, "The responded flag must be true, false or all")


def legacy_responded(f, fj):
    """Only the responded flag of the legacy filters is read."""
    val = True
    if f is not None:
        s = f.strip()
        obj = None
        if s.startswith("{"):
            try:
                obj = json.loads(s)
            except Exception:
                raise ApiError(400, "'filter' is not valid")
            if not isinstance(obj, dict):
                raise ApiError(400, "'filter' is not valid")
            if "responded" in obj:
                val = _responded_value(obj["responded"])
        else:
            for t in split_terms(s):
                m = re.match(r"^([A-Za-z_][A-Za-z0-9_.]*)\s*[=:]\s*(.*)$", t)
                if m:
                    if m.group(1).lower() == "responded":
                        val = _responded_value(m.group(2))
                elif t.lower() == "responded":
                    val = True
    if fj is not None:
        try:
            obj = json.loads(fj)
        except Exception:
            raise ApiError(400, "'filterJson' must be a JSON object")
        if not isinstance(obj, dict):
            raise ApiError(400, "'filterJson' must be a JSON object")
        if "responded" in obj:
            val = _responded_value(obj["responded"])
    return val


# ---------------------------------------------------------------- routes

def action_list(ctx):
    q, db, org = ctx.query, ctx.db, ctx.org
    full = q.get("fullFilter") or None
    legacy = q.get("filter") or None
    legacy_json = q.get("filterJson") or None
    if full is not None:
        if len(full) > FULL_FILTER_MAX:
            raise ApiError(400, "'fullFilter' must be at most %d characters" % FULL_FILTER_MAX)
        if legacy is not None or legacy_json is not None:
            raise ApiError(400, "'fullFilter' cannot be combined with 'filter' or 'filterJson'")
    page_size = int_param(q, "pageSize", 50, 1, 499 if flag("S02") else 500)
    include = bool_param(q, "includeFullConversation", False)
    sort_by = q.get("sortBy", "createdAt")
    if sort_by not in ("createdAt", "updatedAt"):
        raise ApiError(400, "'sortBy' must be createdAt or updatedAt")
    col = "a.created_at" if sort_by == "createdAt" else "a.updated_at"
    frm, to = resolve_window(q, 7, list_mode=True)
    where = ["a.org_id = ?", "%s >= ?" % col, "%s <= ?" % col]
    params = [org, frm, to]
    if full is not None:
        clauses, p, has_resp = dsl_where(parse_dsl(full))
        where += clauses
        params += p
        if flag("S05") and not has_resp:
            where.append("a.initial_response_time IS NOT NULL")
    else:
        resp = legacy_responded(legacy, legacy_json)
        if resp is True:
            where.append("a.initial_response_time IS NOT NULL")
        elif resp is False:
            where.append("a.initial_response_time IS NULL")
    wsql = " WHERE " + " AND ".join(where)
    total = db.execute("SELECT COUNT(*) FROM actions a" + wsql, params).fetchone()[0]
    rows = db.execute(base_select() + wsql + " ORDER BY %s DESC, a.action_id ASC LIMIT ?" % col,
                      params + [page_size]).fetchall()
    pages = total // page_size if flag("S22") else ceil_div(total, page_size)
    return 200, {"data": summaries(db, org, rows, include_conversation=include),
                 "totalRecords": total, "currentPage": 1, "pageSize": page_size, "totalPages": pages}


def action_detail(ctx, action_id):
    db, org = ctx.db, ctx.org
    key = action_id
    if flag("S07") and action_id.isdigit() and len(action_id) <= 18:
        key = int(action_id)
    r = db.execute(base_select() + " WHERE a.org_id = ? AND a.action_id = ?", (org, key)).fetchone()
    if r is None:
        raise ApiError(404, "Action not found")
    aid = r["action_id"]
    tags = load_tags(db, org, [aid])[aid]
    cfs = load_custom_values(db, org, [aid])[aid]
    msgs = load_messages(db, org, aid)
    comments = db.execute("SELECT * FROM comments WHERE org_id=? AND action_id=? ORDER BY seq",
                          (org, aid)).fetchall()
    assigned = r["assignee_user_id"] is not None
    body = {
        "actionId": aid,
        "actionTitle": r["title"],
        "actionSummary": r["summary"],
        "platform": r["platform"],
        "recordType": r["record_type"],
        "isPublicPost": bool(r["is_public"]),
        "sentiment": r["sentiment"],
        "sentimentScore": r["sentiment_score"],
        "queue": r["q_name"],
        "initialQueue": r["iq_name"],
        "status": r["status"],
        "createdAt": r["created_at"],
        "serviceURL": service_url(org, aid),
        "sourceURL": r["source_url"] if (r["is_public"] or flag("S24")) else None,
        "updatedAt": r["updated_at"],
        "initialMessageTime": r["initial_message_time"],
        "initialResponseTime": r["initial_response_time"],
        "closeTime": r["close_time"],
        "firstResponseTime": duration(r["frt_seconds"]),
        "handleTime": duration(r["handle_seconds"]),
        "claimTime": r["claim_time"],
        "user": {"name": r["user_name"], "username": r["user_username"], "userId": r["user_id"],
                 "email": r["user_email"], "followerCount": r["user_follower_count"]},
        "assignee": {"name": r["ag_name"] if assigned else None,
                     "email": r["ag_email"] if assigned else None,
                     "userId": r["assignee_user_id"],
                     "role": r["ag_role"] if assigned else None},
        "serverName": r["server_name"],
        "channelName": r["channel_name"],
        "tags": tags[0],
        "closingTags": tags[1],
        "moderation": r["moderation"],
        "comments": [{"text": c["text"], "authorNativeId": c["author_native_id"],
                      "authorNativeName": c["author_native_name"]} for c in comments],
        "messages": message_items(msgs),
        "conversation": conversation_items(msgs),
        "rootMessageText": r["root_message_text"],
        "customFields": cfs,
        "csatScore": r["csat_score"],
        "csatFeedback": r["csat_feedback"],
        "estimatedCSAT": r["estimated_csat"],
        "totalMessages": r["total_messages"],
        "totalUserMessages": r["total_user_messages"],
        "totalAgentMessages": r["total_agent_messages"],
    }
    return 200, body


def conversation_search(ctx):
    q, db, org = ctx.query, ctx.db, ctx.org
    page = int_param(q, "page", 1, 1, 10000)
    page_size = int_param(q, "pageSize", 50, 1, 500 if flag("S03") else 100)
    f = q.get("filter") or None
    where, params = ["a.org_id = ?"], [org]
    if f is not None:
        if len(f) > FULL_FILTER_MAX:
            raise ApiError(400, "'filter' must be at most %d characters" % FULL_FILTER_MAX)
        clauses, p, _ = dsl_where(parse_dsl(f))
        where += clauses
        params += p
    wsql = " WHERE " + " AND ".join(where)
    total = db.execute("SELECT COUNT(*) FROM (SELECT 1 FROM actions a%s LIMIT %d)" % (wsql, SEARCH_CAP + 1),
                       params).fetchone()[0]
    capped = total > SEARCH_CAP
    if capped:
        total = SEARCH_CAP
    rows = db.execute(base_select() + wsql + " ORDER BY a.created_at DESC, a.action_id ASC LIMIT ? OFFSET ?",
                      params + [page_size, (page - 1) * page_size]).fetchall()
    data = summaries(db, org, rows, include_conversation=flag("S20"), search=True)
    return 200, {"success": True, "data": data, "totalRecords": total, "totalRecordsCapped": capped,
                 "currentPage": page, "pageSize": page_size, "totalPages": ceil_div(total, page_size)}


# ---------------------------------------------------------------- custom fields

def _cf_action_exists(db, org, action_id):
    if flag("S08"):
        return db.execute("SELECT org_id FROM actions WHERE action_id = ? ORDER BY org_id LIMIT 1",
                          (action_id,)).fetchone()
    return db.execute("SELECT org_id FROM actions WHERE org_id = ? AND action_id = ?",
                      (org, action_id)).fetchone()


def custom_fields_get(ctx, action_id):
    db, org = ctx.db, ctx.org
    row = _cf_action_exists(db, org, action_id)
    if row is None:
        raise ApiError(404, "Action not found")
    value_org = row["org_id"]
    defs = db.execute("SELECT * FROM cf_defs WHERE org_id=? ORDER BY sort_order", (org,)).fetchall()
    vals = {r["field_name"]: r for r in db.execute(
        "SELECT * FROM cf_values WHERE org_id=? AND action_id=?", (value_org, action_id)).fetchall()}
    fields = []
    for d in defs:
        item = {"fieldName": d["field_name"], "displayName": d["display_name"], "fieldType": d["field_type"],
                "value": None}
        v = vals.get(d["field_name"])
        if v is not None:
            item["value"] = json.loads(v["value_json"])
            if v["provenance_json"]:
                item["provenance"] = json.loads(v["provenance_json"])
        fields.append(item)
    return 200, {"actionId": action_id, "fields": fields}


_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def check_value(ftype, options, v):
    """Return (normalized_value, error_message, is_type_error)."""
    if v is None:
        return None, None, False
    if ftype == "text":
        if not isinstance(v, str):
            return None, "expected a string", True
        if len(v) > 10000:
            return None, "must be at most 10000 characters", False
        return v, None, False
    if ftype == "number":
        if not is_num(v):
            return None, "expected a number", True
        return v, None, False
    if ftype == "integer":
        if not is_integral(v):
            return None, "expected an integer", True
        if abs(v) > 9007199254740991:
            return None, "must be between -9007199254740991 and 9007199254740991", False
        return int(v), None, False
    if ftype == "boolean":
        if not isinstance(v, bool):
            return None, "expected a boolean", True
        return v, None, False
    if ftype == "date":
        if not isinstance(v, str):
            return None, "expected a date string (YYYY-MM-DD)", True
        ok = bool(_DATE_ONLY.match(v))
        if ok:
            try:
                dt.date(int(v[:4]), int(v[5:7]), int(v[8:10]))
            except ValueError:
                ok = False
        if not ok:
            return None, "expected a date string (YYYY-MM-DD)", False
        return v, None, False
    if ftype == "select":
        if not isinstance(v, str):
            return None, "expected a string, one of: %s" % ", ".join(options), True
        if v not in options:
            return None, "must be one of: %s" % ", ".join(options), False
        return v, None, False
    if ftype == "multi_select":
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            return None, "expected an array of strings", True
        bad = [x for x in v if x not in options]
        if bad:
            return None, "values must be among: %s" % ", ".join(options), False
        if len(set(v)) != len(v):
            return None, "values must be unique", False
        return v, None, False
    return None, "unsupported field type", False


MAX_PATCH_FIELDS = 100


def custom_fields_patch(ctx, action_id):
    db, org = ctx.db, ctx.org
    try:
        body = ctx.json()
    except ValueError:
        raise ApiError(422, "Request body must be a JSON object", fieldErrors={
            "fields": "request body must be a JSON object with a 'fields' array"})
    if _cf_action_exists(db, org, action_id) is None:
        raise ApiError(404, "Action not found")
    if not isinstance(body, dict):
        raise ApiError(422, "Validation failed", fieldErrors={"fields": "request body must be a JSON object"})
    fields = body.get("fields")
    if not isinstance(fields, list) or len(fields) < 1:
        raise ApiError(422, "Validation failed", fieldErrors={"fields": "must be an array with at least 1 item"})
    if len(fields) > MAX_PATCH_FIELDS:
        raise ApiError(422, "Validation failed",
                       fieldErrors={"fields": "must contain at most %d items" % MAX_PATCH_FIELDS})
    defs = {r["field_name"]: r for r in db.execute("SELECT * FROM cf_defs WHERE org_id=?", (org,)).fetchall()}
    errors, type_error, updates, seen = {}, False, [], set()
    for i, item in enumerate(fields):
        label = "fields[%d]" % i
        if not isinstance(item, dict):
            errors[label] = "must be an object with fieldName and value"
            continue
        name = item.get("fieldName")
        if not isinstance(name, str) or len(name) < 1:
            errors[label] = "fieldName is required (non-empty string)"
            continue
        label = name
        if name in seen:
            errors[label] = "field appears more than once in the request"
            continue
        seen.add(name)
        if "value" not in item:
            errors[label] = "value is required"
            continue
        d = defs.get(name)
        if d is None:
            errors[label] = "unknown custom field"
            continue
        if "confidence" in item and item["confidence"] is not None:
            c = item["confidence"]
            if not is_num(c) or c < 0 or c > 1:
                errors[label] = "confidence must be a number between 0 and 1"
                continue
        if "rationale" in item and item["rationale"] is not None and not isinstance(item["rationale"], str):
            errors[label] = "rationale must be a string"
            continue
        options = json.loads(d["options"]) if d["options"] else []
        val, msg, is_type = check_value(d["field_type"], options, item["value"])
        if msg:
            errors[label] = "%s (field type %s)" % (msg, d["field_type"])
            type_error = type_error or is_type
            continue
        updates.append((name, val, item.get("confidence"), item.get("rationale")))
    if errors:
        status = 400 if (flag("S25") and type_error) else 422
        raise ApiError(status, "Validation failed", fieldErrors=errors)
    ts = fmt(now())
    prov = json.dumps({"source": "api", "apiKeyName": ctx.key["key_name"], "updatedAt": ts})
    out = []
    db.execute("BEGIN")
    try:
        for name, val, conf, rat in updates:
            if val is None:
                db.execute("DELETE FROM cf_values WHERE org_id=? AND action_id=? AND field_name=?",
                           (org, action_id, name))
            else:
                db.execute("INSERT INTO cf_values VALUES(?,?,?,?,?,?,?,?) ON CONFLICT(org_id, action_id, field_name) "
                           "DO UPDATE SET value_json=excluded.value_json, provenance_json=excluded.provenance_json, "
                           "confidence=excluded.confidence, rationale=excluded.rationale, updated_at=excluded.updated_at",
                           (org, action_id, name, json.dumps(val), prov, conf, rat, ts))
            out.append({"fieldName": name, "value": val})
        db.execute("COMMIT")
    except Exception:
        db.execute("ROLLBACK")
        raise
    return 200, {"actionId": action_id, "updated": out}
