"""Moderation submission validation and simulated evaluation."""
import hashlib
import json
import re
from datetime import datetime

DEV = set()

CTA = ["APPLY_NOW", "BOOK_NOW", "GET_NOW", "INSTALL_NOW", "MORE", "SHOP_NOW", "SIGN_UP", "VIEW", "WATCH"]
ATT = ["web_view", "deep_link", "app_install", "lens", "long_form_video"]
URL_RE = re.compile(r"^https?://[^\s/?#]+[^\s]*$", re.I)
ANY_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$")
DT_RE = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
MAXINT = 9007199254740991

# top-level: name -> (required, kind, min, max)
TOP = [
    ("externalId", True, "str", 1, 256), ("sourceSystem", True, "str", 1, 128), ("sourcePlatform", True, "str", 1, 128),
    ("sourceAdId", True, "str", 1, 256), ("advertiserId", False, "str", 1, 256), ("advertiserName", True, "str", 1, 500),
    ("campaignId", False, "str", 1, 256), ("market", True, "str", 1, 128), ("placement", True, "str", 1, 128),
    ("language", False, "str", 1, 64), ("providerMetadata", False, "obj", 0, 0), ("landingPageUrl", True, "strnull", 0, 0),
    ("title", True, "str", 1, 500), ("headline", False, "str", 1, 500), ("brandName", False, "str", 1, 500),
    ("callToAction", False, "enum", CTA, 0), ("publicProfile", False, "profile", 0, 0), ("media", True, "media", 0, 0),
    ("attachment", True, "attachment", 0, 0), ("targeting", True, "targeting", 0, 0), ("copy", True, "copy", 0, 0),
    ("discoverTile", False, "bool", 0, 0), ("partnershipAd", False, "bool", 0, 0), ("format", False, "strnull", 0, 0),
    ("arLens", False, "strnull", 0, 0), ("submittedAt", False, "datetime", 0, 0),
]


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def validate(obj):
    missing, invalid, errs = [], [], []

    def bad(path, msg):
        invalid.append(path)
        errs.append("%s: %s" % (path, msg))

    def miss(path):
        missing.append(path)
        errs.append("%s: required" % path)

    def chk_str(v, path, lo, hi):
        if not isinstance(v, str):
            bad(path, "must be a string")
        elif len(v) < lo or len(v) > hi:
            bad(path, "length must be %d..%d" % (lo, hi))

    out = {}
    for name, req, kind, a, b in TOP:
        if name not in obj:
            if req:
                miss(name)
            continue
        v = obj[name]
        out[name] = v
        if kind == "str":
            chk_str(v, name, a, b)
        elif kind == "strnull":
            if v is not None and not isinstance(v, str):
                bad(name, "must be a string or null")
        elif kind == "obj":
            if not isinstance(v, dict):
                bad(name, "must be an object")
        elif kind == "bool":
            if not isinstance(v, bool):
                bad(name, "must be a boolean")
        elif kind == "enum":
            if v not in a:
                bad(name, "must be one of " + ", ".join(a))
        elif kind == "datetime":
            if not isinstance(v, str) or not DT_RE.match(v):
                bad(name, "must be an RFC 3339 date-time")
            else:
                try:
                    datetime.fromisoformat(v.replace("Z", "+00:00").replace("z", "+00:00"))
                except ValueError:
                    bad(name, "must be a valid date-time")
        elif kind == "profile":
            if not isinstance(v, dict):
                bad(name, "must be an object")
            else:
                if "displayName" in v:
                    chk_str(v["displayName"], "publicProfile.displayName", 1, 500)
                if "logoUrl" in v and not (isinstance(v["logoUrl"], str) and ANY_URI.match(v["logoUrl"])):
                    bad("publicProfile.logoUrl", "must be a URI")
                if "verified" in v and not isinstance(v["verified"], bool):
                    bad("publicProfile.verified", "must be a boolean")
        elif kind == "media":
            if not isinstance(v, list):
                bad("media", "must be an array")
            elif len(v) < 1 or len(v) > 20:
                bad("media", "must contain 1..20 items")
            else:
                for i, m in enumerate(v):
                    p = "media[%d]" % i
                    if not isinstance(m, dict):
                        bad(p, "must be an object")
                        continue
                    for k in ("url", "type", "position"):
                        if k not in m:
                            miss(p + "." + k)
                    if "url" in m and not (isinstance(m["url"], str) and URL_RE.match(m["url"])):
                        bad(p + ".url", "must be an absolute HTTP/HTTPS URL")
                    if "type" in m and m["type"] not in ("image", "video"):
                        bad(p + ".type", "must be image or video")
                    if "position" in m and not (_is_int(m["position"]) and 1 <= m["position"] <= 20):
                        bad(p + ".position", "must be an integer 1..20")
        elif kind == "attachment":
            if not isinstance(v, dict):
                bad("attachment", "must be an object")
            else:
                if "type" not in v:
                    miss("attachment.type")
                elif v["type"] not in ATT:
                    bad("attachment.type", "must be one of " + ", ".join(ATT))
                if "destinationUrl" not in v:
                    miss("attachment.destinationUrl")
                elif v["destinationUrl"] is not None and not isinstance(v["destinationUrl"], str):
                    bad("attachment.destinationUrl", "must be a string or null")
        elif kind == "targeting":
            if not isinstance(v, dict):
                bad("targeting", "must be an object")
            else:
                for k, req2 in (("ageMin", True), ("ageMax", False)):
                    if k not in v:
                        if req2:
                            miss("targeting." + k)
                    elif v[k] is not None and not _is_int(v[k]):
                        bad("targeting." + k, "must be an integer or null")
                if "geos" not in v:
                    miss("targeting.geos")
                else:
                    g = v["geos"]
                    if not isinstance(g, list) or not (1 <= len(g) <= 250) or any(not isinstance(x, str) for x in g):
                        bad("targeting.geos", "must be an array of 1..250 strings")
                if "languages" in v:
                    g = v["languages"]
                    if not isinstance(g, list) or not (1 <= len(g) <= 100) or any(not isinstance(x, str) for x in g):
                        bad("targeting.languages", "must be an array of 1..100 strings")
        elif kind == "copy":
            if not isinstance(v, dict):
                bad("copy", "must be an object")
            else:
                for k in ("body", "caption", "linkDescription", "sourceTitle"):
                    if k in v:
                        chk_str(v[k], "copy." + k, 0, 20000)
    if "language" not in out:
        out["language"] = "en"
    return out, missing, invalid, errs


def err_extra(missing, invalid, errs):
    d = {"message": "; ".join(errs[:25]),
         "code": "MODERATION_INPUT_INCOMPLETE" if missing else "MODERATION_INPUT_INVALID"}
    if missing:
        d["missingFields"] = missing
    if invalid:
        d["invalidFields"] = invalid
    return d


def content_hash(sub, ignore=()):
    c = {k: v for k, v in sub.items() if k not in ignore}
    return hashlib.sha256(json.dumps(c, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


PENDING_MS = 1500
RUNNING_MS = 3000


def _text(sub):
    parts = [sub.get("title", ""), sub.get("headline", ""), sub.get("advertiserName", "")]
    c = sub.get("copy") or {}
    parts += [c.get(k, "") for k in ("body", "caption", "linkDescription", "sourceTitle")]
    return " ".join(p for p in parts if isinstance(p, str)).lower()


def status_of(created_ms, sub, now):
    """Returns (analysisStatus, decision or None, failureCode or None)."""
    age = now - created_ms
    if age < PENDING_MS:
        return "pending", None, None
    if age < RUNNING_MS:
        return "running", None, None
    text = _text(sub)
    if "[fail]" in text:
        return "failed", None, "EVALUATOR_TIMEOUT"
    dec = {"title": None, "hits": [], "decisionSource": "model", "failureCode": None, "failureMessage": None,
           "advertiserAssessment": {"polarity": "POSITIVE", "reasoning": "Advertiser has no prior policy strikes."},
           "landingAssessment": {"polarity": "POSITIVE", "reasoning": "Landing page matches the ad content."}}
    tm = sub.get("targeting") or {}
    if "failclosed" in text:
        dec.update({"disposition": "reject", "confidence": "low", "reason": "Evaluation unavailable; failing closed.",
                    "decisionSource": "fail_closed", "failureCode": "MODEL_UNAVAILABLE",
                    "failureMessage": "The policy model did not answer in time."})
        dec["advertiserAssessment"] = {"polarity": "AMBIGUOUS", "reasoning": "Not assessed."}
        dec["landingAssessment"] = {"polarity": "AMBIGUOUS", "reasoning": "Not assessed."}
    elif any(w in text for w in ("guaranteed", "miracle", "cure")):
        i = min(i for i in (text.find("guaranteed"), text.find("miracle"), text.find("cure")) if i >= 0)
        dec.update({"disposition": "reject", "confidence": "high", "title": "Misleading claims",
                    "reason": "The ad makes unsubstantiated outcome claims."})
        dec["hits"] = [{"ruleId": "rule-017", "ruleSlug": "misleading-claims", "polarity": "NEGATIVE",
                        "confidence": "high", "reasoning": "Absolute outcome promise.",
                        "evidence": [{"modality": "text", "claim": "Unsubstantiated claim in ad text",
                                      "locator": {"textSpan": {"field": "title", "start": 0,
                                                               "end": len(sub.get("title", ""))}}}]}]
        dec["landingAssessment"] = {"polarity": "NEGATIVE", "reasoning": "Landing page repeats the claim."}
    elif any(w in text for w in ("beer", "wine", "casino", "vodka", "betting")) and \
            (tm.get("ageMin") is None or tm.get("ageMin") < 18):
        dec.update({"disposition": "age_gate", "confidence": "medium", "reason": "Age-restricted category without an adult age gate."})
        dec["hits"] = [{"ruleId": "rule-004", "ruleSlug": "age-restricted-products", "polarity": "AMBIGUOUS",
                        "confidence": "medium", "reasoning": None,
                        "evidence": [{"modality": "image", "claim": "Alcohol or gambling product shown",
                                      "locator": {"mediaIndex": 0}}]}]
    elif sub.get("landingPageUrl") is None:
        dec.update({"disposition": "escalate", "confidence": "low", "reason": "No landing page to assess."})
        dec["landingAssessment"] = {"polarity": "AMBIGUOUS", "reasoning": "No landing page was supplied."}
    else:
        dec.update({"disposition": "approve", "confidence": "high", "reason": "No policy issues found."})
    return "completed", dec, None
