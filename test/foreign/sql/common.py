"""Shared helpers: configuration switches, errors, time handling, parameter parsing."""
import datetime as dt
import json
import math
import os
import re
import threading

_SWITCHES = frozenset(x.strip().upper() for x in os.environ.get("DEVIATIONS", "").split(",") if x.strip())


def flag(name):
    return name in _SWITCHES


DB_LOCK = threading.RLock()
UTC = dt.timezone.utc


class ApiError(Exception):
    def __init__(self, status, error_text, **extra):
        super().__init__(error_text)
        self.status = status
        self.message = error_text
        self.extra = extra

    def body(self):
        b = {"success": False, "error": self.message}
        b.update(self.extra)
        return b


# ---------------------------------------------------------------- time

def now():
    return dt.datetime.now(UTC)


def fmt(t):
    """Canonical stored/exported timestamp: YYYY-MM-DDTHH:MM:SS.mmmZ (UTC)."""
    if t is None:
        return None
    t = t.astimezone(UTC)
    return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (
        t.year, t.month, t.day, t.hour, t.minute, t.second, t.microsecond // 1000)


def fmt_ceil(t):
    """Format rounding up to the next millisecond (used for inclusive window starts)."""
    if t.microsecond % 1000:
        try:
            t = t + dt.timedelta(microseconds=1000 - t.microsecond % 1000)
        except OverflowError:
            pass
    return fmt(t)


def day_of(t):
    t = t.astimezone(UTC)
    return "%04d-%02d-%02d" % (t.year, t.month, t.day)


_DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_TS_RE = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?"
    r"(Z|z|[+-]\d{2}(?::?\d{2})?)?$")


def parse_when(value, name):
    """Parse an ISO 8601 date or timestamp query value.

    Returns (datetime_utc, date_only). Raises ApiError(400) when malformed.
    """
    s = value.strip()
    # a literal '+' in an unencoded query string arrives as a space
    m2 = re.match(r"^(.*\d)\s(\d{2}(?::?\d{2})?)$", s)
    if m2 and "T" in s.upper():
        s = m2.group(1) + "+" + m2.group(2)
    try:
        m = _DATE_RE.match(s)
        if m:
            y, mo, d = (int(x) for x in m.groups())
            return dt.datetime(y, mo, d, tzinfo=UTC), True
        m = _TS_RE.match(s)
        if m:
            y, mo, d, hh, mi = (int(x) for x in m.groups()[:5])
            ss = int(m.group(6) or 0)
            frac = m.group(7) or ""
            us = int((frac + "000000")[:6]) if frac else 0
            tz = m.group(8)
            if tz is None or tz in ("Z", "z"):
                tzinfo = UTC
            else:
                sign = 1 if tz[0] == "+" else -1
                digits = tz[1:].replace(":", "")
                oh = int(digits[:2])
                om = int(digits[2:4]) if len(digits) > 2 else 0
                if oh > 23 or om > 59:
                    raise ValueError
                tzinfo = dt.timezone(sign * dt.timedelta(hours=oh, minutes=om))
            if hh == 24 and mi == 0 and ss == 0 and us == 0:
                base = dt.datetime(y, mo, d, tzinfo=tzinfo) + dt.timedelta(days=1)
            else:
                base = dt.datetime(y, mo, d, hh, mi, ss, us, tzinfo=tzinfo)
            return base.astimezone(UTC), False
    except (ValueError, OverflowError):
        pass
    raise ApiError(400, "Invalid '%s': expected an ISO 8601 date or timestamp" % name)


def resolve_window(q, default_days, list_mode=False):
    """Return (from_str, to_str) for a query's from/to parameters."""
    fv, tv = q.get("from"), q.get("to")
    if fv == "":
        fv = None
    if tv == "":
        tv = None
    current = now()
    try:
        if tv is not None:
            t, date_only = parse_when(tv, "to")
            if date_only and list_mode and flag("S01"):
                t = t + dt.timedelta(days=1) - dt.timedelta(milliseconds=1)
        else:
            t = current
        if fv is not None:
            f, _ = parse_when(fv, "from")
        elif tv is None and list_mode and flag("S04"):
            f = dt.datetime(current.year, current.month, current.day, tzinfo=UTC) - dt.timedelta(days=default_days)
        else:
            f = t - dt.timedelta(days=default_days)
    except OverflowError:
        raise ApiError(400, "Date window out of range")
    if fv is not None and tv is not None and f > t:
        raise ApiError(400, "'from' must not be later than 'to'")
    return fmt_ceil(f), fmt(t)


# ---------------------------------------------------------------- query parameters

def int_param(q, name, default, lo, hi):
    v = q.get(name)
    if v is None:
        return default
    if not re.fullmatch(r"[+-]?\d{1,40}", v):
        raise ApiError(400, "'%s' must be an integer between %d and %d" % (name, lo, hi))
    n = int(v)
    if n < lo or n > hi:
        raise ApiError(400, "'%s' must be an integer between %d and %d" % (name, lo, hi))
    return n


_TRUE = {"true", "1"}
_FALSE = {"false", "0"}


def bool_param(q, name, default):
    v = q.get(name)
    if v is None:
        return default
    lv = v.strip().lower()
    if lv in _TRUE:
        return True
    if lv in _FALSE:
        return False
    raise ApiError(400, "'%s' must be true or false" % name)


def parse_bool_text(v):
    lv = str(v).strip().lower()
    if lv in _TRUE:
        return True
    if lv in _FALSE:
        return False
    return None


# ---------------------------------------------------------------- JSON bodies

def _reject_constant(c):
    raise ValueError("non-finite number")


def parse_json_body(raw):
    """Return parsed JSON or raise ValueError."""
    if raw is None or len(raw) == 0:
        raise ValueError("empty body")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("body is not UTF-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except Exception as e:  # includes RecursionError / huge ints
        raise ValueError("malformed JSON: %s" % type(e).__name__)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return (isinstance(v, (int, float)) and not isinstance(v, bool)
            and not (isinstance(v, float) and (math.isnan(v) or math.isinf(v))))


def is_integral(v):
    if is_int(v):
        return True
    return isinstance(v, float) and is_num(v) and v.is_integer()


# ---------------------------------------------------------------- filter DSL

_TERM_SPLIT = re.compile(r"\+|\s+(?=[A-Za-z_][A-Za-z0-9_.]*\s*[=:])")


def split_terms(s):
    return [t.strip() for t in _TERM_SPLIT.split(s) if t.strip()]


def parse_dsl(s):
    """Parse 'key=value+key=value' into a list of (key_lower, value)."""
    terms = []
    for t in split_terms(s):
        if "=" not in t:
            raise ApiError(400, "Invalid filter term '%s': expected key=value" % t[:100])
        k, v = t.split("=", 1)
        k = k.strip()
        if not k:
            raise ApiError(400, "Invalid filter term '%s': empty key" % t[:100])
        terms.append((k.lower(), v.strip()))
    return terms


def duration(seconds):
    if seconds is None:
        return None
    seconds = int(seconds)
    return "%02d:%02d:%02d" % (seconds // 3600, (seconds % 3600) // 60, seconds % 60)


def ceil_div(a, b):
    return (a + b - 1) // b if b else 0
