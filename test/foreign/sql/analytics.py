"""Agents, queues, tag / sentiment / engagement analytics."""
import datetime as dt

from common import ApiError, bool_param, flag, int_param, resolve_window

DEFAULT_DAYS = 30
ACTIVE = "('OPEN','ASSIGNED','IN_PROGRESS','SNOOZED','PENDING')"
CLOSED = "('CLOSED','RESOLVED')"
CANCELLED = "('CANCELLED')"

METRIC_SQL = """
 COUNT(a.action_id) AS totalActions,
 SUM(CASE WHEN a.initial_response_time IS NOT NULL THEN 1 ELSE 0 END) AS totalActionsWithResponse,
 SUM(a.total_messages) AS totalMessages,
 SUM(a.total_agent_messages) AS totalAgentMessages,
 SUM(a.total_user_messages) AS totalUserMessages,
 AVG(CAST(a.csat_score AS REAL)) AS averageCsat,
 AVG(a.frt_seconds) AS averageResponseTime,
 AVG(a.handle_seconds) AS averageHandleTime,
 AVG(a.estimated_csat) AS averageEstimatedCsat,
 AVG(a.resolution_quality) AS averageResolutionQuality,
 AVG(a.sentiment_change) AS averageSentimentChange,
 AVG(a.rubric_score) AS averageRubricScore,
 AVG(a.sentiment_score) AS averageSentimentScore,
 SUM(CASE WHEN a.status IN %s THEN 1 ELSE 0 END) AS wl_active,
 SUM(CASE WHEN a.status IN %s THEN 1 ELSE 0 END) AS wl_closed,
 SUM(CASE WHEN a.status IN %s THEN 1 ELSE 0 END) AS wl_cancelled
""" % (ACTIVE, CLOSED, CANCELLED)

METRIC_KEYS = ["totalActions", "totalMessages", "totalAgentMessages", "totalUserMessages", "averageCsat",
               "averageResponseTime", "averageHandleTime", "averageEstimatedCsat", "averageResolutionQuality",
               "averageSentimentChange", "averageRubricScore"]


def _n(v, digits=4):
    if v is None:
        return 0
    if isinstance(v, float):
        return round(v, digits)
    return v


def metrics_of(row, extra=()):
    m = {k: _n(row[k]) for k in METRIC_KEYS}
    for k in extra:
        m[k] = _n(row[k])
    return m


def workload_of(row):
    return {"active": _n(row["wl_active"]), "closed": _n(row["wl_closed"]), "cancelled": _n(row["wl_cancelled"])}


WIN = "a.created_at >= ? AND a.created_at <= ?"


def agents_list(ctx):
    db, org = ctx.db, ctx.org
    frm, to = resolve_window(ctx.query, DEFAULT_DAYS)
    rows = db.execute(
        "SELECT ag.user_id AS agentId," + METRIC_SQL +
        " FROM agents ag LEFT JOIN actions a ON a.org_id=ag.org_id AND a.assignee_user_id=ag.user_id AND " + WIN +
        " WHERE ag.org_id=? GROUP BY ag.user_id ORDER BY ag.user_id", (frm, to, org)).fetchall()
    data = []
    for r in rows:
        m = metrics_of(r)
        m["totalActionsWithResponse"] = _n(r["totalActionsWithResponse"])
        data.append({"agentId": r["agentId"], "metrics": m, "workload": workload_of(r)})
    return 200, {"success": True, "data": data}


def agent_detail(ctx, agent_id):
    db, org = ctx.db, ctx.org
    frm, to = resolve_window(ctx.query, DEFAULT_DAYS)
    if flag("S09"):
        found = db.execute("SELECT 1 FROM agents WHERE user_id=?", (agent_id,)).fetchone()
    else:
        found = db.execute("SELECT 1 FROM agents WHERE org_id=? AND user_id=?", (org, agent_id)).fetchone()
    if found is None:
        raise ApiError(404, "Agent not found")
    base = " FROM actions a WHERE a.org_id=? AND a.assignee_user_id=? AND " + WIN
    args = (org, agent_id, frm, to)
    agg = db.execute("SELECT " + METRIC_SQL + base, args).fetchone()
    daily = db.execute("SELECT substr(a.created_at,1,10) AS day," + METRIC_SQL + base +
                       " GROUP BY day ORDER BY day", args).fetchall()
    queues = db.execute(
        "SELECT a.queue_id AS queueId, q.name AS queueName, COUNT(*) AS totalActions, "
        "SUM(CASE WHEN a.initial_response_time IS NOT NULL THEN 1 ELSE 0 END) AS totalActionsWithResponse "
        "FROM actions a LEFT JOIN queues q ON q.org_id=a.org_id AND q.queue_id=a.queue_id "
        "WHERE a.org_id=? AND a.assignee_user_id=? AND " + WIN +
        " GROUP BY a.queue_id ORDER BY totalActions DESC, a.queue_id", args).fetchall()
    metrics = []
    for r in daily:
        m = {"date": r["day"]}
        m.update(metrics_of(r))
        m["totalActionsWithResponse"] = _n(r["totalActionsWithResponse"])
        metrics.append(m)
    return 200, {"success": True, "data": {
        "metrics": metrics,
        "aggregatedMetrics": metrics_of(agg),
        "currentWorkload": workload_of(agg),
        "queues": [{"queueId": r["queueId"], "queueName": r["queueName"], "totalActions": r["totalActions"],
                    "totalActionsWithResponse": r["totalActionsWithResponse"]} for r in queues],
    }}


def queues_list(ctx):
    db, org = ctx.db, ctx.org
    frm, to = resolve_window(ctx.query, DEFAULT_DAYS)
    rows = db.execute(
        "SELECT q.queue_id AS queueId, q.name AS queueName," + METRIC_SQL +
        " FROM queues q LEFT JOIN actions a ON a.org_id=q.org_id AND a.queue_id=q.queue_id AND " + WIN +
        " WHERE q.org_id=? GROUP BY q.queue_id"
        " UNION ALL "
        "SELECT NULL AS queueId, NULL AS queueName," + METRIC_SQL +
        " FROM actions a WHERE a.org_id=? AND a.queue_id IS NULL AND " + WIN + " HAVING COUNT(*) > 0",
        (frm, to, org, org, frm, to)).fetchall()
    rows = sorted(rows, key=lambda r: (r["queueName"] is None, r["queueName"] or "", r["queueId"] or ""))
    wl_override = {}
    if flag("S27"):
        for w in db.execute(
                "SELECT a.queue_id AS qid,"
                " SUM(CASE WHEN a.status IN %s THEN 1 ELSE 0 END) AS wl_active,"
                " SUM(CASE WHEN a.status IN %s THEN 1 ELSE 0 END) AS wl_closed,"
                " SUM(CASE WHEN a.status IN %s THEN 1 ELSE 0 END) AS wl_cancelled"
                " FROM actions a LEFT JOIN action_tags at ON at.org_id=a.org_id AND at.action_id=a.action_id"
                " WHERE a.org_id=? AND " % (ACTIVE, CLOSED, CANCELLED) + WIN + " GROUP BY a.queue_id",
                (org, frm, to)).fetchall():
            wl_override[w["qid"]] = w
    data = []
    for r in rows:
        m = metrics_of(r, ("averageSentimentScore",))
        wl = workload_of(wl_override[r["queueId"]]) if r["queueId"] in wl_override else workload_of(r)
        data.append({"queueId": r["queueId"], "queueName": r["queueName"], "metrics": m, "workload": wl})
    return 200, {"success": True, "data": data}


# ---------------------------------------------------------------- tags

TAG_JOIN = (" FROM action_tags at JOIN tags t ON t.org_id=at.org_id AND t.tag_id=at.tag_id"
            " JOIN actions a ON a.org_id=at.org_id AND a.action_id=at.action_id")


def _tag_where(org, frm, to, responded_only):
    w = " WHERE at.org_id=? AND at.closing=0 AND " + WIN
    p = [org, frm, to]
    if responded_only:
        w += " AND a.initial_response_time IS NOT NULL"
    return w, p


def _like(s):
    return "%" + s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def tags_analytics(ctx):
    db, org, q = ctx.db, ctx.org, ctx.query
    frm, to = resolve_window(q, DEFAULT_DAYS)
    responded_only = bool_param(q, "respondedOnly", False)
    limit = int_param(q, "limit", 50, 1, 500)
    offset = int_param(q, "offset", 0, 0, 1000000)
    search = q.get("search") or None
    if search is not None and len(search) > 500:
        raise ApiError(400, "'search' must be at most 500 characters")
    w, p = _tag_where(org, frm, to, responded_only)
    aw = " WHERE a.org_id=? AND " + WIN + (" AND a.initial_response_time IS NOT NULL" if responded_only else "")
    total_actions = db.execute("SELECT COUNT(*) FROM actions a" + aw, (org, frm, to)).fetchone()[0]
    s = db.execute("SELECT COUNT(DISTINCT at.tag_id) AS nt, COUNT(DISTINCT t.group_name) AS ng,"
                   " COUNT(DISTINCT at.action_id) AS nr" + TAG_JOIN + w, p).fetchone()
    sw, sp = w, list(p)
    if search:
        sw += " AND (t.name LIKE ? ESCAPE '\\' OR t.group_name LIKE ? ESCAPE '\\')"
        sp += [_like(search), _like(search)]
    total_tags = db.execute("SELECT COUNT(DISTINCT at.tag_id)" + TAG_JOIN + sw, sp).fetchone()[0]
    rows = db.execute(
        "SELECT t.tag_id, t.name, t.group_name, COUNT(DISTINCT a.action_id) AS cnt,"
        " COUNT(DISTINCT CASE WHEN a.initial_response_time IS NOT NULL THEN a.action_id END) AS resp,"
        " AVG(a.sentiment_score) AS s, AVG(a.actionability) AS ac, AVG(a.relevance) AS rl" + TAG_JOIN + sw +
        " GROUP BY t.tag_id ORDER BY cnt DESC, t.name ASC, t.tag_id ASC LIMIT ? OFFSET ?",
        sp + [limit, offset]).fetchall()
    breakdown, volume = [], []
    for r in rows:
        pct = round(r["cnt"] * 100.0 / total_actions, 2) if total_actions else 0
        breakdown.append({"tagId": r["tag_id"], "tagName": r["name"], "groupName": r["group_name"],
                          "count": r["cnt"], "percentage": pct})
        volume.append({"tagId": r["tag_id"], "tagName": r["name"], "total": r["cnt"], "responded": r["resp"],
                       "notResponded": r["cnt"] - r["resp"],
                       "avgSentiment": None if r["s"] is None else round(r["s"], 4),
                       "avgActionability": None if r["ac"] is None else round(r["ac"], 4),
                       "avgRelevance": None if r["rl"] is None else round(r["rl"], 4)})
    return 200, {"success": True, "data": {
        "summary": {"totalTags": s["nt"], "totalTagGroups": s["ng"], "totalTaggedRecords": s["nr"],
                    "totalActions": total_actions},
        "tagBreakdown": breakdown,
        "volumeByTag": volume,
        "pagination": {"total": total_tags, "limit": limit, "offset": offset,
                       "hasMore": offset + len(rows) < total_tags},
    }}


def tags_volume(ctx):
    db, org, q = ctx.db, ctx.org, ctx.query
    frm, to = resolve_window(q, DEFAULT_DAYS)
    responded_only = bool_param(q, "respondedOnly", False)
    top = int_param(q, "topTagsLimit", 10, 1, 100)
    tag_ids = q.get("tagIds")
    w, p = _tag_where(org, frm, to, responded_only)
    if tag_ids:
        wanted = [x.strip() for x in tag_ids.split(",") if x.strip()][:200]
        if not wanted:
            raise ApiError(400, "'tagIds' must be a comma-separated list of tag IDs")
        w += " AND at.tag_id IN (%s)" % ",".join("?" * len(wanted))
        p += wanted
        lim = len(wanted)
    else:
        lim = top
    sel = db.execute("SELECT t.tag_id, t.name, COUNT(DISTINCT a.action_id) AS cnt" + TAG_JOIN + w +
                     " GROUP BY t.tag_id ORDER BY cnt DESC, t.name ASC, t.tag_id ASC LIMIT ?", p + [lim]).fetchall()
    if tag_ids:
        # requested tags that exist but have no mentions in the window are still listed
        have = {r["tag_id"] for r in sel}
        extra = [t for t in wanted if t not in have]
        extra_rows = []
        if extra:
            extra_rows = db.execute("SELECT tag_id, name, 0 AS cnt FROM tags WHERE org_id=? AND tag_id IN (%s) "
                                    "ORDER BY name" % ",".join("?" * len(extra)), [org] + extra).fetchall()
        sel = list(sel) + list(extra_rows)
    names = [r["name"] for r in sel]
    ids = [r["tag_id"] for r in sel]
    aw = " WHERE a.org_id=? AND " + WIN + (" AND a.initial_response_time IS NOT NULL" if responded_only else "")
    days = [r[0] for r in db.execute("SELECT DISTINCT substr(a.created_at,1,10) AS d FROM actions a" + aw +
                                     " ORDER BY d", (org, frm, to)).fetchall()]
    rows = {d: {"date": d, **{n: 0 for n in names}} for d in days}
    if ids:
        w2, p2 = _tag_where(org, frm, to, responded_only)
        w2 += " AND at.tag_id IN (%s)" % ",".join("?" * len(ids))
        for r in db.execute("SELECT substr(a.created_at,1,10) AS d, t.name, COUNT(DISTINCT a.action_id) AS c" +
                            TAG_JOIN + w2 + " GROUP BY d, t.tag_id", p2 + ids).fetchall():
            if r["d"] in rows:
                rows[r["d"]][r["name"]] = r["c"]
    return 200, {"success": True, "data": {"data": [rows[d] for d in days], "tags": names}}


# ---------------------------------------------------------------- sentiment

LABELS = ["Very Negative", "Negative", "Neutral", "Positive"]


def sentiment_daily(ctx):
    db, org = ctx.db, ctx.org
    frm, to = resolve_window(ctx.query, DEFAULT_DAYS)
    rows = db.execute("SELECT substr(a.created_at,1,10) AS day, a.sentiment AS s, COUNT(*) AS c FROM actions a"
                      " WHERE a.org_id=? AND " + WIN + " AND a.sentiment IS NOT NULL GROUP BY day, a.sentiment"
                      " ORDER BY day", (org, frm, to)).fetchall()
    out = {}
    for r in rows:
        d = out.setdefault(r["day"], {"day": r["day"]} if flag("S18") else
                           {"day": r["day"], **{k: 0 for k in LABELS}})
        if r["s"] in LABELS:
            d[r["s"]] = d.get(r["s"], 0) + r["c"]
    return 200, {"success": True, "data": [out[k] for k in sorted(out)]}


def sentiment_by_tag(ctx):
    db, org = ctx.db, ctx.org
    frm, to = resolve_window(ctx.query, DEFAULT_DAYS)
    rows = db.execute(
        "SELECT t.name AS tagName,"
        " SUM(CASE WHEN a.sentiment='Very Negative' THEN 1 ELSE 0 END) AS veryNegative,"
        " SUM(CASE WHEN a.sentiment='Negative' THEN 1 ELSE 0 END) AS negative,"
        " SUM(CASE WHEN a.sentiment='Neutral' THEN 1 ELSE 0 END) AS neutral,"
        " SUM(CASE WHEN a.sentiment='Positive' THEN 1 ELSE 0 END) AS positive" + TAG_JOIN +
        " WHERE at.org_id=? AND at.closing=0 AND " + WIN + " AND a.sentiment IS NOT NULL"
        " GROUP BY t.tag_id", (org, frm, to)).fetchall()
    data = []
    for r in rows:
        d = {"tagName": r["tagName"], "veryNegative": r["veryNegative"], "negative": r["negative"],
             "neutral": r["neutral"], "positive": r["positive"]}
        d["totalMentions"] = d["veryNegative"] + d["negative"] + d["neutral"] + d["positive"]
        data.append(d)
    data.sort(key=lambda d: (-d["totalMentions"], d["tagName"]))
    return 200, {"success": True, "data": data}


# ---------------------------------------------------------------- engagement

def _pct(sorted_vals, p):
    if not sorted_vals:
        return 0
    k = (len(sorted_vals) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return round(sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (k - lo), 4)


def engagement(ctx):
    db, org, q = ctx.db, ctx.org, ctx.query
    frm, to = resolve_window(q, DEFAULT_DAYS)
    plats = q.get("platforms")
    w, p = " WHERE a.org_id=? AND " + WIN, [org, frm, to]
    if plats:
        vals = [x.strip().upper() for x in plats.split(",") if x.strip()][:100]
        if vals:
            w += " AND UPPER(a.platform) IN (%s)" % ",".join("?" * len(vals))
            p += vals
    per_user = db.execute(
        "SELECT a.platform, a.user_id, SUM(COALESCE(a.total_user_messages,0)) AS msgs,"
        " MAX(CASE WHEN a.initial_response_time IS NOT NULL THEN 1 ELSE 0 END) AS resp"
        " FROM actions a" + w + " GROUP BY a.platform, a.user_id ORDER BY a.platform, msgs", p).fetchall()
    by_plat = {}
    for r in per_user:
        by_plat.setdefault(r["platform"], []).append(r)
    percentiles, funnel = [], []
    for plat in sorted(by_plat):
        vals = sorted(r["msgs"] for r in by_plat[plat])
        percentiles.append({"platform": plat, "p25MessagesPerUser": _pct(vals, 0.25),
                            "medianMessagesPerUser": _pct(vals, 0.5), "p75MessagesPerUser": _pct(vals, 0.75)})
        users = len(vals)
        engaged = sum(1 for v in vals if v >= 2)
        responded = sum(1 for r in by_plat[plat] if r["resp"])
        funnel.append({"platform": plat, "totalUsers": users, "engagedUsers": engaged,
                       "respondedUsers": responded,
                       "responseRate": round(responded * 100.0 / users, 2) if users else 0})
    weeks = db.execute(
        "SELECT date(a.created_at, '-6 days', 'weekday 1') AS wk, a.platform AS platform,"
        " COUNT(DISTINCT a.user_id) AS users FROM actions a" + w + " GROUP BY wk, a.platform ORDER BY wk, a.platform",
        p).fetchall()
    counts = {(r["wk"], r["platform"]): r["users"] for r in weeks}
    trends = []
    for r in weeks:
        prev_day = (dt.date.fromisoformat(r["wk"]) - dt.timedelta(days=7)).isoformat()
        prev = counts.get((prev_day, r["platform"]), 0)
        cur = r["users"]
        growth = round((cur - prev) * 100.0 / prev, 2) if prev else (100.0 if cur else 0)
        trends.append({"week": r["wk"] + "T00:00:00.000Z", "platform": r["platform"], "currentWeekUsers": cur,
                       "previousWeekUsers": prev, "growthPercentage": growth})
    return 200, {"success": True, "data": {"engagementPercentiles": percentiles, "growthTrends": trends,
                                           "conversionFunnel": funnel}}
