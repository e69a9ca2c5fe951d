"""Normalized-record ingestion (POST /v0/ingest/records)."""
import json
from urllib.parse import urlsplit

from common import ApiError, flag, fmt, is_num, now

MAX_RECORDS = 500
LEVELS = ("INSIGHTS", "STATS_ONLY")


def _fail(msg):
    raise ApiError(422, msg)


def _req_str(obj, key, path, min_len=1):
    if key not in obj or obj[key] is None:
        _fail("%s is required" % path)
    if not isinstance(obj[key], str):
        _fail("%s must be a string" % path)
    if len(obj[key]) < min_len:
        _fail("%s must be at least %d character(s)" % (path, min_len))
    return obj[key]


def _opt_str(obj, key, path):
    if key in obj and obj[key] is not None and not isinstance(obj[key], str):
        _fail("%s must be a string" % path)
    return obj.get(key)


def _http_url(v):
    if not isinstance(v, str) or any(c.isspace() for c in v):
        return False
    try:
        u = urlsplit(v)
        return u.scheme.lower() in ("http", "https") and bool(u.hostname)
    except ValueError:
        return False


def _platform_ok(db, value):
    if flag("S28"):
        return db.execute("SELECT 1 FROM ingest_platforms WHERE name = ? COLLATE NOCASE", (value,)).fetchone()
    return db.execute("SELECT 1 FROM ingest_platforms WHERE name = ?", (value,)).fetchone()


def ingest_records(ctx):
    db = ctx.db
    try:
        body = ctx.json()
    except ValueError:
        _fail("Request body must be a valid JSON object")
    if not isinstance(body, dict):
        _fail("Request body must be a JSON object")
    platform = _req_str(body, "platform", "platform")
    if not _platform_ok(db, platform):
        _fail("platform must be one of the supported source platforms")
    server_id = _req_str(body, "serverId", "serverId")
    server_name = _req_str(body, "serverName", "serverName")
    channel_id = _opt_str(body, "channelId", "channelId")
    channel_name = _opt_str(body, "channelName", "channelName")
    level = body.get("processingLevel")
    if "processingLevel" in body and level not in LEVELS:
        _fail("processingLevel must be INSIGHTS or STATS_ONLY")
    source = body.get("source")
    if "source" in body:
        if not isinstance(source, dict):
            _fail("source must be an object")
        _req_str(source, "system", "source.system")
        _opt_str(source, "sourceId", "source.sourceId")
    records = body.get("records")
    if records is None:
        _fail("records is required")
    if not isinstance(records, list):
        _fail("records must be an array")
    limit = MAX_RECORDS - 1 if flag("S17") else MAX_RECORDS
    if len(records) < 1 or len(records) > limit:
        _fail("records must contain 1..%d items" % MAX_RECORDS)
    clean = []
    for i, r in enumerate(records):
        p = "records[%d]" % i
        if not isinstance(r, dict):
            _fail("%s must be an object" % p)
        ext = _req_str(r, "externalId", p + ".externalId")
        thread = _opt_str(r, "threadExternalId", p + ".threadExternalId")
        parent = _opt_str(r, "parentExternalId", p + ".parentExternalId")
        author_id = _req_str(r, "authorId", p + ".authorId")
        author_name = _req_str(r, "authorName", p + ".authorName")
        title = _opt_str(r, "title", p + ".title")
        body_text = _req_str(r, "body", p + ".body", 0)
        score = r.get("score")
        if "score" in r and score is not None:
            if not is_num(score):
                _fail("%s.score must be a number" % p)
            if score < 0 or score > 5:
                _fail("%s.score must be between 0 and 5" % p)
        created = _req_str(r, "createdAt", p + ".createdAt")
        url = r.get("url")
        if "url" in r and url is not None and not _http_url(url):
            _fail("%s.url must be an absolute HTTP or HTTPS URL" % p)
        rtype = _req_str(r, "recordType", p + ".recordType")
        cf = r.get("customFields")
        if "customFields" in r and cf is not None and not isinstance(cf, dict):
            _fail("%s.customFields must be an object" % p)
        clean.append((ext, thread, parent, author_id, author_name, title, body_text, score, created, url, rtype,
                      json.dumps(cf) if cf is not None else None))
    ts = fmt(now())
    db.execute("BEGIN")
    try:
        cur = db.execute("INSERT INTO ingest_batches(org_id,key_name,platform,server_id,server_name,channel_id,"
                         "channel_name,processing_level,source_json,record_count,received_at) "
                         "VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                         (ctx.org, ctx.key["key_name"], platform, server_id, server_name, channel_id, channel_name,
                          level or "INSIGHTS", json.dumps(source) if source is not None else None, len(clean), ts))
        batch_id = cur.lastrowid
        for c in clean:
            db.execute("INSERT INTO ingested_records VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
                       "ON CONFLICT(org_id, platform, server_id, external_id) DO UPDATE SET "
                       "batch_id=excluded.batch_id, thread_external_id=excluded.thread_external_id, "
                       "parent_external_id=excluded.parent_external_id, author_id=excluded.author_id, "
                       "author_name=excluded.author_name, title=excluded.title, body=excluded.body, "
                       "score=excluded.score, created_at=excluded.created_at, url=excluded.url, "
                       "record_type=excluded.record_type, custom_fields_json=excluded.custom_fields_json, "
                       "received_at=excluded.received_at",
                       (ctx.org, platform, server_id, c[0], batch_id) + c[1:] + (ts,))
        db.execute("COMMIT")
    except Exception:
        db.execute("ROLLBACK")
        raise
    return 202, {"status": "accepted", "accepted": len(clean)}
