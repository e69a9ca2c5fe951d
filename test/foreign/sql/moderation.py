"""Moderation-case intake (ad_policy) and status reads."""
import datetime as dt
import hashlib
import json
import re
import time
import uuid
from urllib.parse import urlsplit

from common import ApiError, flag, fmt, is_int, now

CTA = ["APPLY_NOW", "BOOK_NOW", "GET_NOW", "INSTALL_NOW", "MORE", "SHOP_NOW", "SIGN_UP", "VIEW", "WATCH"]
ATTACH = ["web_view", "deep_link", "app_install", "lens", "long_form_video"]
MEDIA_TYPES = ["image", "video"]
PENDING_SECONDS = 0.8
RUNNING_SECONDS = 0.8
MAX_BATCH = 100

_DT_RE = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def _is_http_url(v):
    if not isinstance(v, str) or not v or any(c.isspace() for c in v):
        return False
    try:
        u = urlsplit(v)
    except ValueError:
        return False
    return u.scheme.lower() in ("http", "https") and bool(u.netloc) and bool(u.hostname)


def _is_uri(v):
    if not isinstance(v, str) or not v or any(c.isspace() for c in v):
        return False
    try:
        u = urlsplit(v)
    except ValueError:
        return False
    return bool(re.match(r"^[A-Za-z][A-Za-z0-9+.-]*$", u.scheme or "")) and bool(u.netloc or u.path)


def _is_datetime(v):
    if not isinstance(v, str) or not _DT_RE.match(v):
        return False
    try:
        dt.datetime.fromisoformat(v.replace("Z", "+00:00").replace("z", "+00:00").replace("t", "T"))
    except ValueError:
        return False
    return True


class _V:
    def __init__(self):
        self.missing, self.invalid, self.errors, self.supported = [], [], [], None

    def miss(self, path):
        self.missing.append(path)
        self.errors.append("%s is required" % path)

    def bad(self, path, msg):
        if path not in self.invalid:
            self.invalid.append(path)
        self.errors.append("%s %s" % (path, msg))

    def string(self, obj, key, path, lo, hi, required, nullable=False):
        if key not in obj:
            if required:
                self.miss(path)
            return
        v = obj[key]
        if v is None:
            if nullable:
                return
            if required:
                self.miss(path)
            else:
                self.bad(path, "must be a string")
            return
        if not isinstance(v, str):
            self.bad(path, "must be a string")
            return
        if len(v) < lo or (hi is not None and len(v) > hi):
            if hi is None:
                self.bad(path, "must be at least %d characters" % lo)
            else:
                self.bad(path, "must be %d..%d characters" % (lo, hi))

    def boolean(self, obj, key, path):
        if key in obj and not isinstance(obj[key], bool):
            self.bad(path, "must be a boolean")

    def obj(self, obj, key, path, required):
        if key not in obj or obj[key] is None:
            if required:
                self.miss(path)
            elif key in obj:
                self.bad(path, "must be an object")
            return None
        if not isinstance(obj[key], dict):
            self.bad(path, "must be an object")
            return None
        return obj[key]


def validate_case(c):
    v = _V()
    if not isinstance(c, dict):
        v.bad("(case)", "must be a JSON object")
        return v
    v.string(c, "externalId", "externalId", 1, 256, True)
    v.string(c, "sourceSystem", "sourceSystem", 1, 128, True)
    v.string(c, "sourcePlatform", "sourcePlatform", 1, 128, True)
    v.string(c, "sourceAdId", "sourceAdId", 1, 256, True)
    v.string(c, "advertiserId", "advertiserId", 1, 256, False)
    v.string(c, "advertiserName", "advertiserName", 1, 500, True)
    v.string(c, "campaignId", "campaignId", 1, 256, False)
    v.string(c, "market", "market", 1, 128, True)
    v.string(c, "placement", "placement", 1, 128, True)
    v.string(c, "language", "language", 1, 64, False)
    if "providerMetadata" in c and not isinstance(c["providerMetadata"], dict):
        v.bad("providerMetadata", "must be an object")
    if "landingPageUrl" not in c:
        v.miss("landingPageUrl")
    elif c["landingPageUrl"] is not None and not isinstance(c["landingPageUrl"], str):
        v.bad("landingPageUrl", "must be a string or null")
    v.string(c, "title", "title", 1, 500, True)
    v.string(c, "headline", "headline", 1, 500, False)
    v.string(c, "brandName", "brandName", 1, 500, False)
    if "callToAction" in c:
        if c["callToAction"] not in CTA:
            v.bad("callToAction", "must be one of %s" % ", ".join(CTA))
            v.supported = CTA
    pp = v.obj(c, "publicProfile", "publicProfile", False)
    if pp is not None:
        v.string(pp, "displayName", "publicProfile.displayName", 1, 500, False)
        if "logoUrl" in pp and not _is_uri(pp["logoUrl"]):
            v.bad("publicProfile.logoUrl", "must be a URI")
        v.boolean(pp, "verified", "publicProfile.verified")
    # media
    if "media" not in c or c["media"] is None:
        v.miss("media")
    elif not isinstance(c["media"], list):
        v.bad("media", "must be an array")
    elif not (1 <= len(c["media"]) <= 20):
        v.bad("media", "must contain 1..20 items")
    else:
        for i, m in enumerate(c["media"]):
            p = "media[%d]" % i
            if not isinstance(m, dict):
                v.bad(p, "must be an object")
                continue
            if "url" not in m or m["url"] is None:
                v.miss(p + ".url")
            elif not _is_http_url(m["url"]):
                v.bad(p + ".url", "must be an absolute HTTP or HTTPS URL")
            if "type" not in m or m["type"] is None:
                v.miss(p + ".type")
            elif m["type"] not in MEDIA_TYPES:
                v.bad(p + ".type", "must be image or video")
            if "position" not in m or m["position"] is None:
                v.miss(p + ".position")
            elif not is_int(m["position"]) or not (1 <= m["position"] <= 20):
                v.bad(p + ".position", "must be an integer 1..20")
    at = v.obj(c, "attachment", "attachment", True)
    if at is not None:
        if "type" not in at or at["type"] is None:
            v.miss("attachment.type")
        elif at["type"] not in ATTACH:
            v.bad("attachment.type", "must be one of %s" % ", ".join(ATTACH))
            if v.supported is None:
                v.supported = ATTACH
        if "destinationUrl" not in at:
            v.miss("attachment.destinationUrl")
        elif at["destinationUrl"] is not None and not isinstance(at["destinationUrl"], str):
            v.bad("attachment.destinationUrl", "must be a string or null")
    tg = v.obj(c, "targeting", "targeting", True)
    if tg is not None:
        if "ageMin" not in tg:
            v.miss("targeting.ageMin")
        elif tg["ageMin"] is not None and not is_int(tg["ageMin"]):
            v.bad("targeting.ageMin", "must be an integer or null")
        if "ageMax" in tg and tg["ageMax"] is not None and not is_int(tg["ageMax"]):
            v.bad("targeting.ageMax", "must be an integer or null")
        if "geos" not in tg or tg["geos"] is None:
            v.miss("targeting.geos")
        elif not isinstance(tg["geos"], list) or not all(isinstance(x, str) for x in tg["geos"]):
            v.bad("targeting.geos", "must be an array of strings")
        elif not (1 <= len(tg["geos"]) <= 250):
            v.bad("targeting.geos", "must contain 1..250 items")
        if "languages" in tg:
            lg = tg["languages"]
            if not isinstance(lg, list) or not all(isinstance(x, str) for x in lg):
                v.bad("targeting.languages", "must be an array of strings")
            elif not (1 <= len(lg) <= 100):
                v.bad("targeting.languages", "must contain 1..100 items")
    cp = v.obj(c, "copy", "copy", True)
    if cp is not None:
        for k in ("body", "caption", "linkDescription", "sourceTitle"):
            v.string(cp, k, "copy." + k, 0, 20000, False)
    v.boolean(c, "discoverTile", "discoverTile")
    v.boolean(c, "partnershipAd", "partnershipAd")
    for k in ("format", "arLens"):
        if k in c and c[k] is not None and not isinstance(c[k], str):
            v.bad(k, "must be a string or null")
    if "submittedAt" in c and not _is_datetime(c["submittedAt"]):
        v.bad("submittedAt", "must be an RFC 3339 date-time string")
    return v


def _error_fields(v):
    code = "MODERATION_INPUT_INCOMPLETE" if v.missing else "MODERATION_INPUT_INVALID"
    msg = "; ".join(v.errors)
    d = {"message": msg, "code": code, "missingFields": v.missing, "invalidFields": v.invalid}
    if v.supported:
        d["supported"] = v.supported
    return d


def content_hash(c):
    n = dict(c)
    n.setdefault("language", "en")
    canon = json.dumps(n, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- evaluation (deterministic)

REJECT_WORDS = ["guaranteed", "miracle", "get rich", "risk-free", "cure"]
AGE_WORDS = ["beer", "wine", "casino", "alcohol", "gambling", "vodka", "betting"]


def _texts(c):
    out = [("title", c.get("title") or ""), ("headline", c.get("headline") or "")]
    for k, val in (c.get("copy") or {}).items():
        if isinstance(val, str):
            out.append(("copy." + k, val))
    return out


def evaluate(c):
    meta = c.get("providerMetadata") or {}
    sim = meta.get("simulate") if isinstance(meta, dict) else None
    if sim == "failure":
        return "failed", None, "EVALUATION_FAILED"
    hits = []
    disposition, confidence, reason, title = "approve", "high", "No policy concerns found.", None
    for field, text in _texts(c):
        low = text.lower()
        for w in REJECT_WORDS:
            i = low.find(w)
            if i >= 0:
                hits.append({"ruleId": "rule_misleading_claims", "ruleSlug": "misleading-claims",
                             "polarity": "NEGATIVE", "confidence": "high",
                             "reasoning": "Copy contains the claim '%s'." % w,
                             "evidence": [{"modality": "text", "claim": "Uses '%s'" % w,
                                           "locator": {"textSpan": {"field": field, "start": i,
                                                                    "end": i + len(w)}}}]})
        for w in AGE_WORDS:
            i = low.find(w)
            if i >= 0:
                hits.append({"ruleId": "rule_age_restricted", "ruleSlug": "age-restricted-products",
                             "polarity": "AMBIGUOUS", "confidence": "medium",
                             "reasoning": "Mentions an age-restricted product ('%s')." % w,
                             "evidence": [{"modality": "text", "claim": "Mentions '%s'" % w,
                                           "locator": {"textSpan": {"field": field, "start": i,
                                                                    "end": i + len(w)}}}]})
    source = "model"
    fcode = fmsg = None
    if any(h["ruleId"] == "rule_misleading_claims" for h in hits):
        disposition, reason, title = "reject", "Misleading or exaggerated claims.", "Misleading claims"
    elif any(h["ruleId"] == "rule_age_restricted" for h in hits):
        disposition, confidence, reason, title = "age_gate", "medium", "Age-restricted product.", "Age restricted"
    elif c.get("landingPageUrl") is None:
        disposition, confidence, reason = "escalate", "low", "No landing page is available to assess."
    if sim == "fail_closed":
        disposition, confidence, reason, title = "escalate", "low", "The model was unavailable; failed closed.", None
        source, fcode, fmsg = "fail_closed", "MODEL_UNAVAILABLE", "Policy model did not answer in time."
        hits = []
    lp = c.get("landingPageUrl")
    decision = {
        "disposition": disposition, "confidence": confidence, "title": title, "reason": reason, "hits": hits,
        "advertiserAssessment": {"polarity": "NEGATIVE" if disposition == "reject" else "POSITIVE",
                                 "reasoning": "Advertiser '%s' assessed from submitted metadata."
                                              % (c.get("advertiserName") or "")[:200]},
        "landingAssessment": {"polarity": "AMBIGUOUS" if lp is None else "POSITIVE",
                              "reasoning": "No landing page submitted." if lp is None
                              else "Landing page URL is present and well formed."},
        "decisionSource": source, "failureCode": fcode, "failureMessage": fmsg,
    }
    return "completed", decision, None


# ---------------------------------------------------------------- intake

def _require_mode(ctx):
    row = ctx.db.execute("SELECT moderation_mode FROM orgs WHERE org_id=?", (ctx.org,)).fetchone()
    if row is None or row["moderation_mode"] != "ad_policy":
        raise ApiError(403, "Moderation is not available: the organization is not in ad_policy moderation mode")


def _find_case(db, org, external_id):
    if flag("S14"):
        return db.execute("SELECT * FROM mod_cases WHERE external_id=? ORDER BY created_at LIMIT 1",
                          (external_id,)).fetchone()
    return db.execute("SELECT * FROM mod_cases WHERE org_id=? AND external_id=?", (org, external_id)).fetchone()


def _active_workflow(db, org):
    row = db.execute("SELECT active_workflow FROM orgs WHERE org_id=?", (org,)).fetchone()
    return row["active_workflow"] if row else None


def _current_eval(db, case):
    wf = _active_workflow(db, case["org_id"])
    if wf is None:
        return None
    return db.execute("SELECT * FROM mod_evaluations WHERE case_id=? AND workflow_id=? ORDER BY created_epoch DESC "
                      "LIMIT 1", (case["case_id"], wf)).fetchone()


def _ack(case, ev, status):
    replayed = status == "duplicate" and not flag("S21")
    return {"caseId": case["case_id"], "externalId": case["external_id"], "status": status,
            "analysisStatus": "pending", "evaluationId": ev["evaluation_id"] if ev else None,
            "idempotency": {"key": case["external_id"], "replayed": replayed}}


def _intake(ctx, c):
    """Returns ('accepted'|'duplicate', case_row, eval_row) or ('conflict', case_row, None)."""
    db, org = ctx.db, ctx.org
    h = content_hash(c)
    existing = _find_case(db, org, c["externalId"])
    if existing is not None:
        if existing["content_hash"] == h or flag("S13"):
            return "duplicate", existing, _current_eval(db, existing)
        return "conflict", existing, None
    case_id = "mc_" + uuid.uuid4().hex
    ts = fmt(now())
    db.execute("INSERT INTO mod_cases VALUES(?,?,?,?,?,?,?)",
               (case_id, org, c["externalId"], h, json.dumps(c), ts, ctx.key["key_name"]))
    wf = _active_workflow(db, org) or "none"
    final_status, decision, fcode = evaluate(c)
    ev_id = "ev_" + uuid.uuid4().hex
    t = time.time()
    db.execute("INSERT INTO mod_evaluations VALUES(?,?,?,?,?,?,?,?,?)",
               (ev_id, org, case_id, wf, "pending", json.dumps({"final": final_status, "decision": decision,
                                                               "failureCode": fcode}), None, t, t))
    case = db.execute("SELECT * FROM mod_cases WHERE case_id=?", (case_id,)).fetchone()
    ev = db.execute("SELECT * FROM mod_evaluations WHERE evaluation_id=?", (ev_id,)).fetchone()
    return "accepted", case, ev


def submit_single(ctx):
    _require_mode(ctx)
    try:
        body = ctx.json()
    except ValueError as e:
        raise ApiError(400, "Request body must be valid JSON", message=str(e))
    if not isinstance(body, dict):
        raise ApiError(400, "Request body must be a JSON object", message="Expected a moderation case object")
    v = validate_case(body)
    if v.errors:
        raise ApiError(422, "Moderation input failed validation", **_error_fields(v))
    ctx.db.execute("BEGIN")
    try:
        status, case, ev = _intake(ctx, body)
        ctx.db.execute("COMMIT")
    except Exception:
        ctx.db.execute("ROLLBACK")
        raise
    if status == "conflict":
        raise ApiError(409, "externalId already exists with different content",
                       message="externalId '%s' is immutable; submit a new externalId for changed content"
                               % body["externalId"][:256], caseId=case["case_id"])
    return 202, _ack(case, ev, status)


def submit_batch(ctx):
    if not flag("S19"):
        _require_mode(ctx)
    try:
        body = ctx.json()
    except ValueError as e:
        raise ApiError(400, "Request body must be valid JSON", message=str(e))
    if not isinstance(body, dict):
        raise ApiError(400, "Request body must be a JSON object with a 'cases' array")
    cases = body.get("cases")
    if not isinstance(cases, list):
        raise ApiError(400, "'cases' must be an array of 1..%d moderation cases" % MAX_BATCH)
    if not (1 <= len(cases) <= MAX_BATCH):
        raise ApiError(400, "'cases' must contain 1..%d items" % MAX_BATCH)
    checks = [validate_case(c) for c in cases]
    results = []
    ctx.db.execute("BEGIN")
    try:
        for c, v in zip(cases, checks):
            ext = c.get("externalId") if isinstance(c, dict) and isinstance(c.get("externalId"), str) else None
            if v.errors:
                entry = {"externalId": ext, "caseId": None, "status": "rejected", "errors": v.errors}
                entry.update(_error_fields(v))
                results.append(entry)
                continue
            status, case, ev = _intake(ctx, c)
            if status == "conflict":
                results.append({"externalId": ext, "caseId": case["case_id"], "status": "rejected",
                                "errors": ["externalId already exists with different content"],
                                "message": "externalId '%s' is immutable; submit a new externalId for changed "
                                           "content" % ext})
            else:
                a = _ack(case, ev, status)
                results.append({"externalId": a["externalId"], "caseId": a["caseId"], "status": status,
                                "analysisStatus": "pending", "evaluationId": a["evaluationId"],
                                "idempotency": a["idempotency"]})
        ctx.db.execute("COMMIT")
    except Exception:
        ctx.db.execute("ROLLBACK")
        raise
    if flag("S15"):
        results.sort(key=lambda e: e.get("externalId") or "")
    return 202, {"results": results}


def _advance(db, ev):
    """Move an evaluation along pending -> running -> completed/failed by elapsed time."""
    if ev["status"] in ("completed", "failed"):
        return ev
    age = time.time() - ev["created_epoch"]
    plan = json.loads(ev["decision_json"]) if ev["decision_json"] else {}
    if age >= PENDING_SECONDS + RUNNING_SECONDS:
        new = plan.get("final", "completed")
        db.execute("UPDATE mod_evaluations SET status=?, failure_code=?, updated_epoch=? WHERE evaluation_id=?",
                   (new, plan.get("failureCode"), time.time(), ev["evaluation_id"]))
    elif age >= PENDING_SECONDS and ev["status"] == "pending":
        db.execute("UPDATE mod_evaluations SET status='running', updated_epoch=? WHERE evaluation_id=?",
                   (time.time(), ev["evaluation_id"]))
    return db.execute("SELECT * FROM mod_evaluations WHERE evaluation_id=?", (ev["evaluation_id"],)).fetchone()


def case_status(ctx, case_id):
    db, org = ctx.db, ctx.org
    _require_mode(ctx)
    case = db.execute("SELECT * FROM mod_cases WHERE org_id=? AND case_id=?", (org, case_id)).fetchone()
    if case is None:
        raise ApiError(404, "Moderation case not found")
    wf = _active_workflow(db, org)
    out = {"caseId": case["case_id"], "externalId": case["external_id"]}
    if wf is None:
        out["analysisStatus"] = "policy_not_configured"
        return 200, out
    ev = _current_eval(db, case)
    if ev is None:
        out["analysisStatus"] = "pending"
        return 200, out
    ev = _advance(db, ev)
    out["analysisStatus"] = ev["status"]
    out["evaluationId"] = ev["evaluation_id"]
    plan = json.loads(ev["decision_json"]) if ev["decision_json"] else {}
    if plan.get("decision") is not None and (ev["status"] == "completed" or flag("S16")):
        out["decision"] = plan["decision"]
    if ev["status"] == "failed":
        out["failureCode"] = ev["failure_code"] or "EVALUATION_FAILED"
    return 200, out
