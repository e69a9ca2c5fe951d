"""Schema and deterministic seed data (SQLite, in memory)."""
import json
import random
import hashlib

DAY = 86400000

SCHEMA = """
CREATE TABLE orgs (org_id TEXT PRIMARY KEY, name TEXT, moderation_mode TEXT);
CREATE TABLE api_keys (key_value TEXT PRIMARY KEY, org_id TEXT, scopes TEXT, expires_ms INTEGER, revoked INTEGER);
CREATE TABLE agents (org_id TEXT, agent_id TEXT, name TEXT, email TEXT, role TEXT, PRIMARY KEY(org_id, agent_id));
CREATE TABLE queues (org_id TEXT, queue_id TEXT, name TEXT, PRIMARY KEY(org_id, queue_id));
CREATE TABLE tags (org_id TEXT, tag_id TEXT, name TEXT, grp TEXT, PRIMARY KEY(org_id, tag_id));
CREATE TABLE actions (
  org_id TEXT, action_id TEXT, title TEXT, summary TEXT, status TEXT, platform TEXT,
  record_type TEXT, is_public INTEGER, source_url TEXT, queue_id TEXT, initial_queue_id TEXT,
  sentiment TEXT, sentiment_score REAL, moderation TEXT, assignee_id TEXT,
  user_name TEXT, user_username TEXT, user_id TEXT, user_email TEXT, user_followers INTEGER,
  created_ms INTEGER, updated_ms INTEGER, initial_message_ms INTEGER, initial_response_ms INTEGER,
  close_ms INTEGER, claim_ms INTEGER, first_response_s INTEGER, handle_s INTEGER,
  server_name TEXT, channel_name TEXT, csat_score TEXT, csat_feedback TEXT, estimated_csat REAL,
  total_messages INTEGER, total_user_messages INTEGER, total_agent_messages INTEGER,
  root_message_text TEXT, thread_id TEXT, easy_id TEXT, contributors TEXT,
  actionability REAL, relevance REAL, resolution_quality REAL, sentiment_change REAL, rubric_score REAL,
  PRIMARY KEY(org_id, action_id));
CREATE INDEX actions_created ON actions(org_id, created_ms);
CREATE TABLE action_tags (org_id TEXT, action_id TEXT, tag_id TEXT, closing INTEGER);
CREATE INDEX action_tags_a ON action_tags(org_id, action_id);
CREATE TABLE messages (org_id TEXT, action_id TEXT, seq INTEGER, msg_id TEXT, ts_ms INTEGER, author TEXT,
  author_id TEXT, author_type TEXT, message TEXT, media_urls TEXT, parent_id TEXT);
CREATE INDEX messages_a ON messages(org_id, action_id);
CREATE TABLE comments (org_id TEXT, action_id TEXT, seq INTEGER, text TEXT, author_native_id TEXT, author_native_name TEXT);
CREATE TABLE custom_field_defs (org_id TEXT, field_name TEXT, display_name TEXT, field_type TEXT, options TEXT, seq INTEGER,
  PRIMARY KEY(org_id, field_name));
CREATE TABLE custom_field_values (org_id TEXT, action_id TEXT, field_name TEXT, value_json TEXT, provenance_json TEXT,
  PRIMARY KEY(org_id, action_id, field_name));
CREATE TABLE moderation_cases (org_id TEXT, case_id TEXT PRIMARY KEY, external_id TEXT, content_hash TEXT,
  copy_hash TEXT, content_json TEXT, evaluation_id TEXT, idem_key TEXT, created_ms INTEGER, policy_version INTEGER);
CREATE UNIQUE INDEX mod_ext ON moderation_cases(org_id, external_id);
CREATE TABLE ingest_batches (batch_id INTEGER PRIMARY KEY AUTOINCREMENT, org_id TEXT, platform TEXT, server_id TEXT,
  server_name TEXT, channel_id TEXT, channel_name TEXT, processing_level TEXT, source_json TEXT, received_ms INTEGER);
CREATE TABLE ingested_records (org_id TEXT, platform TEXT, server_id TEXT, external_id TEXT, batch_id INTEGER,
  record_json TEXT, PRIMARY KEY(org_id, platform, server_id, external_id));
"""

PLATFORMS = ["SLACK", "DISCORD", "ZENDESK", "TWITTER", "INSTAGRAM", "GITHUB", "APPSTORE", "WHATSAPP"]
SENTIMENTS = [("Very Negative", -0.85), ("Negative", -0.4), ("Neutral", 0.0), ("Positive", 0.6)]
STATUSES = ["OPEN", "OPEN", "CLAIMED", "SNOOZED", "CLOSED", "CLOSED", "CLOSED", "CANCELLED"]
FIRST = ["Ana", "Bjorn", "Chen", "Dara", "Emeka", "Fatima", "Goran", "Hiro", "Ines", "Jonas", "Kemal", "Lea",
         "Mateo", "Nia", "Olu", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Yara", "Zoe"]
LAST = ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Silva", "Novak", "Haddad", "Kowalski", "Byrne", "Osei"]
TOPICS = [("Login fails after update", "Customer cannot log in since the latest release."),
          ("Refund request for duplicate charge", "User was charged twice and asks for a refund."),
          ("Feature request: dark mode", "User asks for a dark theme on mobile."),
          ("App crashes on startup", "Crash reported on Android 14 when opening the app."),
          ("Shipping delay complaint", "Order has not arrived after two weeks."),
          ("Praise for support team", "Customer thanks the team for a fast fix."),
          ("API rate limit question", "Developer asks about request limits."),
          ("Billing address change", "Customer wants to update invoice details."),
          ("Bug: export to CSV empty", "Exported file contains only headers."),
          ("Account deletion request", "User asks to delete their account and data.")]

TAGS_A = [("0001", "bug", "Product"), ("0002", "feature-request", "Product"), ("0003", "billing", "Finance"),
          ("0004", "refund", "Finance"), ("0005", "login", "Account"), ("0006", "crash", "Product"),
          ("0007", "shipping", "Logistics"), ("0008", "praise", "Feedback"), ("0009", "churn-risk", "Feedback"),
          ("0010", "api", "Developer"), ("0011", "privacy", "Account"), ("0012", "urgent", None)]
TAGS_B = [("b-01", "bug", "Engineering"), ("b-02", "billing", "Money"), ("b-03", "praise", "Feedback"),
          ("b-04", "onboarding", "Success"), ("b-05", "urgent", None)]

CF_A = [("priority_level", "Priority level", "select", ["low", "medium", "high", "critical"]),
        ("revenue_impact", "Revenue impact (USD)", "number", None),
        ("needs_followup", "Needs follow-up", "boolean", None),
        ("internal_note", "Internal note", "text", None),
        ("renewal_date", "Renewal date", "date", None),
        ("product_areas", "Product areas", "multi_select", ["mobile", "web", "api", "billing"])]
CF_B = [("region", "Region", "select", ["emea", "amer", "apac"]), ("score", "Score", "number", None)]


def _agent_rows(org):
    if org == "org_A":
        return [("00731", "Mira Castell", "mira.castell@acme.example", "AGENT"),
                ("9007199254740993", "Tom Berger", "tom.berger@acme.example", "AGENT"),
                ("U02ABCDEF9", "Sofia Lind", "sofia.lind@acme.example", "LEAD"),
                ("0042", "Raj Patel", "raj.patel@acme.example", "AGENT"),
                ("agent-5", "Lena Vogt", None, "ADMIN"),
                ("18446744073709551615", "Kai Moana", "kai.moana@acme.example", "AGENT")]
    if org == "org_B":
        return [("b-agent-1", "Nora Quist", "nora@globex.example", "AGENT"),
                ("000900", "Pavel Dusek", "pavel@globex.example", "LEAD"),
                ("7311", "Ivy Chen", None, "AGENT")]
    return [("c-1", "Carl C", "carl@initech.example", "AGENT")]


def _queue_rows(org):
    if org == "org_A":
        return [("q-001", "Tier 1 Support"), ("q-002", "Billing"), ("q-010", "Escalations"), ("q-099", "Social")]
    if org == "org_B":
        return [("QB1", "General"), ("QB2", "VIP")]
    return [("QC1", "Default")]


def _action_id(rng, platform, n):
    if platform == "TWITTER" or platform == "INSTAGRAM":
        return str(1460000000000000000 + rng.randrange(10 ** 17))  # > 2^53
    if platform == "ZENDESK":
        return "%09d" % (1000 + n * 37)  # leading zeros
    if platform == "SLACK":
        return "%d.%06d" % (1700000000 + n * 911, rng.randrange(0, 999999) // 100 * 100)
    if platform == "GITHUB":
        return "gh:acme/app#%d" % (100 + n)
    return "%s-%05d" % (platform.lower()[:3], n)


def _user_id(rng, platform):
    if platform in ("TWITTER", "INSTAGRAM"):
        return str(9007199254740993 + rng.randrange(10 ** 12) * 2)
    if platform == "ZENDESK":
        return "%012d" % rng.randrange(10 ** 8)
    if platform == "SLACK":
        return "U0" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(8))
    return str(rng.randrange(10 ** 6, 10 ** 10))


def seed_org(db, rng, org, count, now_ms, tags, cfs, offset_n):
    agents = _agent_rows(org)
    queues = _queue_rows(org)
    db.executemany("INSERT INTO agents VALUES (?,?,?,?,?)", [(org,) + a for a in agents])
    db.executemany("INSERT INTO queues VALUES (?,?,?)", [(org,) + q for q in queues])
    db.executemany("INSERT INTO tags VALUES (?,?,?,?)", [(org,) + t for t in tags])
    db.executemany("INSERT INTO custom_field_defs VALUES (?,?,?,?,?,?)",
                   [(org, f[0], f[1], f[2], json.dumps(f[3]) if f[3] else None, i) for i, f in enumerate(cfs)])
    used = set()
    server_names = {"org_A": ["Acme Community", "acme-support", "@acme"], "org_B": ["Globex HQ", "globex-help"],
                    "org_C": ["Initech"]}[org]
    for n in range(count):
        platform = PLATFORMS[rng.randrange(len(PLATFORMS))] if org != "org_B" else rng.choice(PLATFORMS[:5])
        aid = _action_id(rng, platform, n + offset_n)
        while aid in used:
            aid = aid + "0"
        used.add(aid)
        # spread: ~40% within 7 days, rest up to 60 days back
        if rng.random() < 0.4:
            age = rng.randrange(60 * 1000, 7 * DAY - 3600 * 1000)
        else:
            age = rng.randrange(7 * DAY, 60 * DAY)
        created = now_ms - age
        created -= created % 1000 if rng.random() < 0.3 else 0  # some whole-second timestamps
        if n % 53 == 7 and n > 0:
            created = prev_created  # identical timestamps (tie-breaking)
        prev_created = created
        status = rng.choice(STATUSES)
        responded = rng.random() < 0.72 or status == "CLOSED"
        agent = rng.choice(agents) if (responded or rng.random() < 0.3) else None
        q = rng.choice(queues + [(None, None)])
        iq = q if rng.random() < 0.7 else rng.choice(queues)
        sent = rng.choice(SENTIMENTS + [(None, None)]) if rng.random() < 0.9 else (None, None)
        score = None if sent[0] is None else round(sent[1] + rng.uniform(-0.1, 0.1), 3)
        topic = rng.choice(TOPICS)
        first, last = rng.choice(FIRST), rng.choice(LAST)
        uname = "%s %s" % (first, last)
        uid = _user_id(rng, platform)
        is_public = platform in ("TWITTER", "INSTAGRAM", "GITHUB", "APPSTORE") and rng.random() < 0.8
        src = ("https://%s.example.com/p/%s" % (platform.lower(), aid.replace("#", "%23"))) if is_public else None
        init_msg = created - rng.randrange(0, 600000)
        fr = rng.randrange(20, 7200) if responded else None
        init_resp = init_msg + fr * 1000 if responded else None
        claim = (created + rng.randrange(1000, 3600000)) if agent else None
        closed = (created + rng.randrange(3600000, 3 * DAY)) if status in ("CLOSED", "CANCELLED") else None
        if closed and closed > now_ms:
            closed = now_ms - 1000
        handle = rng.randrange(120, 20000) if closed else None
        upd = None if rng.random() < 0.08 else min(now_ms - 500, created + rng.randrange(0, 4 * DAY))
        nu = rng.randrange(1, 6)
        na = rng.randrange(1, 5) if responded else 0
        csat = rng.choice([None, None, "1", "2", "3", "4", "5", "5"]) if status == "CLOSED" else None
        csat_fb = rng.choice([None, "Quick and helpful", "Took too long", "Great!"]) if csat else None
        qid = q[0]
        iqid = iq[0] if iq[0] else None
        thread = "th-" + hashlib.sha1((org + aid).encode()).hexdigest()[:12]
        easy = ("CCA-%04d" % (n + 1)) if rng.random() < 0.85 else None
        contributors = ("%s, %s" % (uname, agent[1])) if agent else (None if rng.random() < 0.5 else uname)
        root = topic[1] + " " + rng.choice(["Please help.", "Any update?", "Thanks!", ""])
        root = root.strip()
        db.execute("INSERT INTO actions VALUES (" + ",".join(["?"] * 45) + ")", (
            org, aid, topic[0], topic[1], status, platform, rng.choice(["POST", "COMMENT", "TICKET", "DM", None]),
            1 if is_public else 0, src, qid, iqid, sent[0], score,
            rng.choice([None, "clean", "flagged"]), agent[0] if agent else None,
            uname, (first + last).lower() + str(rng.randrange(100)), uid,
            ("%s.%s@mail.example" % (first, last)).lower() if rng.random() < 0.6 else None,
            rng.randrange(0, 250000) if is_public else None,
            created, upd, init_msg, init_resp, closed, claim, fr, handle,
            rng.choice(server_names), rng.choice(["general", "help", "bugs", "billing", "dm"]),
            csat, csat_fb, round(rng.uniform(1, 5), 2) if rng.random() < 0.8 else None,
            nu + na, nu, na, root, thread, easy, contributors,
            round(rng.uniform(0, 1), 3), round(rng.uniform(0, 1), 3), round(rng.uniform(1, 5), 2),
            round(rng.uniform(-0.5, 0.8), 3), round(rng.uniform(0, 100), 1)))
        # tags
        k = rng.choice([0, 1, 1, 2, 2, 3])
        for t in rng.sample(tags, min(k, len(tags))):
            db.execute("INSERT INTO action_tags VALUES (?,?,?,0)", (org, aid, t[0]))
        if status == "CLOSED" and rng.random() < 0.6:
            t = rng.choice(tags)
            db.execute("INSERT INTO action_tags VALUES (?,?,?,1)", (org, aid, t[0]))
        # messages: user messages then agent replies
        ts = init_msg
        seq = 0
        parent = None
        for i in range(nu + na):
            is_agent = i >= nu
            ts += rng.randrange(5000, 900000)
            ts = min(ts, now_ms - 1000 - (nu + na - i))
            mid = "%s-m%03d" % (aid, i)
            media = ["https://cdn.example.com/img/%s/%d.png" % (org, rng.randrange(1000))] if rng.random() < 0.15 else []
            db.execute("INSERT INTO messages VALUES (?,?,?,?,?,?,?,?,?,?,?)", (
                org, aid, seq, mid, ts, agent[1] if is_agent and agent else uname,
                (agent[0] if is_agent and agent else uid) if rng.random() < 0.9 else None,
                "AGENT" if is_agent else ("BOT" if rng.random() < 0.05 else "USER"),
                root if i == 0 else rng.choice(["Any news?", "We are looking into it.", "Thanks", "Still broken",
                                                 "Could you share a screenshot?", "Fixed in 2.4.1"]),
                json.dumps(media), parent))
            parent = mid if i == 0 else parent
            seq += 1
        if rng.random() < 0.3 and agent:
            db.execute("INSERT INTO comments VALUES (?,?,?,?,?,?)",
                       (org, aid, 0, "Internal: check logs", agent[0], agent[1] if rng.random() < 0.7 else None))
        # custom fields
        for f in cfs:
            if rng.random() < 0.35:
                if f[2] == "select":
                    v = rng.choice(f[3])
                elif f[2] == "multi_select":
                    v = rng.sample(f[3], rng.randrange(1, 3))
                elif f[2] == "number":
                    v = rng.choice([rng.randrange(0, 50000), round(rng.uniform(0, 999), 2)])
                elif f[2] == "boolean":
                    v = rng.random() < 0.5
                elif f[2] == "date":
                    v = "2027-%02d-%02d" % (rng.randrange(1, 13), rng.randrange(1, 28))
                else:
                    v = rng.choice(["VIP customer", "Check contract", "Called twice"])
                db.execute("INSERT INTO custom_field_values VALUES (?,?,?,?,?)",
                           (org, aid, f[0], json.dumps(v), json.dumps({"source": "seed", "by": "import"})))


def build(db, seed, now_ms, keys):
    db.executescript(SCHEMA)
    db.executemany("INSERT INTO orgs VALUES (?,?,?)", [("org_A", "Acme", "ad_policy"), ("org_B", "Globex", "ad_policy"),
                                                      ("org_C", "Initech", "standard")])
    rng = random.Random(seed)
    seed_org(db, rng, "org_A", 430, now_ms, TAGS_A, CF_A, 0)
    seed_org(db, rng, "org_B", 160, now_ms, TAGS_B, CF_B, 5000)
    seed_org(db, rng, "org_C", 12, now_ms, [("c1", "general", None)], [], 9000)
    for name, (val, org, scopes, exp, rev) in keys.items():
        db.execute("INSERT INTO api_keys VALUES (?,?,?,?,?)", (val, org, scopes, exp, rev))
    db.commit()
