"""SQLite schema and deterministic seed data."""
import datetime as dt
import json
import random
import secrets
import sqlite3

from common import fmt, UTC

SCHEMA = """
CREATE TABLE orgs(
  org_id TEXT PRIMARY KEY, name TEXT NOT NULL, moderation_mode TEXT, active_workflow TEXT);
CREATE TABLE api_keys(
  key_value TEXT PRIMARY KEY, key_name TEXT NOT NULL, org_id TEXT NOT NULL, profile TEXT NOT NULL,
  scopes TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT, revoked_at TEXT);
CREATE TABLE agents(
  org_id TEXT NOT NULL, user_id TEXT NOT NULL, name TEXT, email TEXT, role TEXT,
  PRIMARY KEY(org_id, user_id));
CREATE TABLE queues(
  org_id TEXT NOT NULL, queue_id TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY(org_id, queue_id));
CREATE TABLE actions(
  org_id TEXT NOT NULL, action_id TEXT NOT NULL,
  title TEXT NOT NULL, summary TEXT NOT NULL, status TEXT NOT NULL, platform TEXT NOT NULL,
  record_type TEXT, is_public INTEGER NOT NULL, source_url TEXT,
  queue_id TEXT, initial_queue_id TEXT, sentiment TEXT, sentiment_score REAL, moderation TEXT,
  assignee_user_id TEXT,
  user_id TEXT NOT NULL, user_name TEXT NOT NULL, user_username TEXT NOT NULL, user_email TEXT,
  user_follower_count INTEGER,
  created_at TEXT NOT NULL, updated_at TEXT, initial_message_time TEXT, initial_response_time TEXT,
  close_time TEXT, claim_time TEXT, frt_seconds INTEGER, handle_seconds INTEGER,
  server_name TEXT NOT NULL, channel_name TEXT NOT NULL,
  csat_score TEXT, csat_feedback TEXT, estimated_csat REAL,
  total_messages INTEGER, total_user_messages INTEGER, total_agent_messages INTEGER,
  root_message_text TEXT, thread_id TEXT NOT NULL, easy_id TEXT, contributors TEXT,
  resolution_quality REAL, sentiment_change REAL, rubric_score REAL, actionability REAL, relevance REAL,
  PRIMARY KEY(org_id, action_id));
CREATE INDEX ix_actions_created ON actions(org_id, created_at);
CREATE INDEX ix_actions_updated ON actions(org_id, updated_at);
CREATE TABLE messages(
  org_id TEXT NOT NULL, action_id TEXT NOT NULL, seq INTEGER NOT NULL, msg_id TEXT NOT NULL,
  ts TEXT NOT NULL, author TEXT NOT NULL, author_id TEXT, author_type TEXT NOT NULL,
  message TEXT NOT NULL, media_urls TEXT NOT NULL, parent_id TEXT,
  PRIMARY KEY(org_id, action_id, seq));
CREATE TABLE comments(
  org_id TEXT NOT NULL, action_id TEXT NOT NULL, seq INTEGER NOT NULL, text TEXT NOT NULL,
  author_native_id TEXT NOT NULL, author_native_name TEXT, PRIMARY KEY(org_id, action_id, seq));
CREATE TABLE tags(
  org_id TEXT NOT NULL, tag_id TEXT NOT NULL, name TEXT NOT NULL, group_name TEXT,
  PRIMARY KEY(org_id, tag_id));
CREATE TABLE action_tags(
  org_id TEXT NOT NULL, action_id TEXT NOT NULL, tag_id TEXT NOT NULL, closing INTEGER NOT NULL,
  PRIMARY KEY(org_id, action_id, tag_id, closing));
CREATE TABLE cf_defs(
  org_id TEXT NOT NULL, field_name TEXT NOT NULL, display_name TEXT NOT NULL,
  field_type TEXT NOT NULL, options TEXT, sort_order INTEGER NOT NULL,
  PRIMARY KEY(org_id, field_name));
CREATE TABLE cf_values(
  org_id TEXT NOT NULL, action_id TEXT NOT NULL, field_name TEXT NOT NULL,
  value_json TEXT NOT NULL, provenance_json TEXT, confidence REAL, rationale TEXT, updated_at TEXT,
  PRIMARY KEY(org_id, action_id, field_name));
CREATE TABLE mod_cases(
  case_id TEXT PRIMARY KEY, org_id TEXT NOT NULL, external_id TEXT NOT NULL,
  content_hash TEXT NOT NULL, body_json TEXT NOT NULL, created_at TEXT NOT NULL,
  key_name TEXT, UNIQUE(org_id, external_id));
CREATE TABLE mod_evaluations(
  evaluation_id TEXT PRIMARY KEY, org_id TEXT NOT NULL, case_id TEXT NOT NULL,
  workflow_id TEXT NOT NULL, status TEXT NOT NULL, decision_json TEXT, failure_code TEXT,
  created_epoch REAL NOT NULL, updated_epoch REAL NOT NULL);
CREATE TABLE ingest_batches(
  batch_id INTEGER PRIMARY KEY AUTOINCREMENT, org_id TEXT NOT NULL, key_name TEXT,
  platform TEXT NOT NULL, server_id TEXT NOT NULL, server_name TEXT NOT NULL,
  channel_id TEXT, channel_name TEXT, processing_level TEXT, source_json TEXT,
  record_count INTEGER NOT NULL, received_at TEXT NOT NULL);
CREATE TABLE ingested_records(
  org_id TEXT NOT NULL, platform TEXT NOT NULL, server_id TEXT NOT NULL, external_id TEXT NOT NULL,
  batch_id INTEGER NOT NULL, thread_external_id TEXT, parent_external_id TEXT,
  author_id TEXT NOT NULL, author_name TEXT NOT NULL, title TEXT, body TEXT NOT NULL, score REAL,
  created_at TEXT NOT NULL, url TEXT, record_type TEXT NOT NULL, custom_fields_json TEXT,
  received_at TEXT NOT NULL, PRIMARY KEY(org_id, platform, server_id, external_id));
CREATE TABLE ingest_platforms(name TEXT PRIMARY KEY);
"""

INGEST_PLATFORMS = [
    "DISCORD", "SLACK", "GITHUB", "ZENDESK", "TELEGRAM", "FACEBOOK_GROUP", "TWITTER_COMMUNITY",
    "SALESFORCE", "FACEBOOK", "TWITTER", "THREADS", "TIKTOK", "INSTAGRAM", "LINKEDIN", "WHATSAPP",
    "YOUTUBE", "GAINSIGHT", "APPSTORE", "GOOGLE_PLAY", "HIGHER_LOGIC", "DISCOURSE", "CUSTOM_FORM",
    "MODERATION_API", "CHROME_WEB_STORE", "CANNY"]

ORG_A, ORG_B, ORG_C = "org_acme", "org_globex", "org_initech"

FIRST = ["Ana", "Ben", "Chloe", "Dmitri", "Elif", "Farah", "Gus", "Hana", "Ivan", "Jade", "Kofi",
         "Lena", "Marco", "Nia", "Oskar", "Pia", "Quinn", "Rosa", "Sven", "Tara", "Uma", "Victor",
         "Wen", "Xavi", "Yara", "Zoe"]
LAST = ["Almeida", "Brooks", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Hughes", "Ito",
        "Jensen", "Khan", "Larsen", "Moreau", "Novak", "Okafor", "Petrov", "Quist", "Rossi",
        "Silva", "Tanaka", "Urban", "Vega", "Weber", "Xu", "Young", "Zimmer"]

PLATFORMS = {
    "TWITTER": (["mention", "reply", "dm"], "@AcmeHQ", ["mentions", "replies", "direct"]),
    "DISCORD": (["message", "thread"], "Acme Community", ["#support", "#general", "#bugs"]),
    "SLACK": (["message"], "Acme Customers", ["#help", "#enterprise"]),
    "ZENDESK": (["ticket"], "acme.zendesk.com", ["Email", "Web form"]),
    "INSTAGRAM": (["comment", "dm"], "@acme.official", ["posts", "direct"]),
    "GITHUB": (["issue", "discussion"], "acme/acme-app", ["issues", "discussions"]),
    "APPSTORE": (["review"], "Acme for iOS", ["reviews"]),
}
PRIVATE_TYPES = {"dm", "ticket"}

TOPICS = {
    "refund": ("Refund request for order #{n}", "Customer asks for a refund for order #{n}.",
               ["I was charged twice for order #{n}, I need a refund please.",
                "Still waiting on my refund for order #{n}."], ["t_refund", "t_invoice"]),
    "login": ("Cannot log in after password reset", "Customer is locked out after a password reset.",
              ["I reset my password and now I cannot log in at all.", "The login page keeps looping."],
              ["t_login", "t_account"]),
    "crash": ("App crashes on launch", "Mobile app crashes right after opening.",
              ["The app crashes every time I open it since the last update.",
               "Crash happens on iOS 17 too."], ["t_bug", "t_crash"]),
    "shipping": ("Where is my package", "Customer asks about a delayed shipment.",
                 ["My package has not arrived, tracking shows nothing for days.",
                  "Can you check the shipping status?"], ["t_shipping"]),
    "feature": ("Feature request: dark mode", "Customer requests a dark mode option.",
                ["Please add dark mode, my eyes hurt at night.", "Any update on dark mode?"],
                ["t_feature", "t_ui"]),
    "praise": ("Great support experience", "Customer praises the support team.",
               ["Just wanted to say your team was amazing today!", "Thanks again!"], ["t_praise"]),
    "pricing": ("Question about pricing tiers", "Customer asks how the pricing tiers differ.",
                ["What is the difference between the Pro and Team pricing tiers?",
                 "Is there a discount for annual billing?"], ["t_pricing", "t_invoice"]),
    "outage": ("Service outage reported", "Customer reports the service is down.",
               ["Is the service down? Nothing loads for me.", "Still down here in Berlin."],
               ["t_bug", "t_urgent"]),
}
AGENT_REPLIES = ["Thanks for reaching out, I am looking into this now.",
                 "Could you share your account email so I can check?",
                 "I have escalated this to our specialists.",
                 "This should be fixed now, please try again.",
                 "Sorry for the trouble, I have issued a credit."]

SENTIMENTS = [("Very Negative", -1.0, -0.6), ("Negative", -0.6, -0.2), ("Neutral", -0.2, 0.2),
              ("Positive", 0.2, 1.0)]

KEY_SPECS = [
    # name, org, profile, scopes, expiry days (None = no expiry), expired, revoked
    ("CCA_READ_KEY", ORG_A, "reporting", "read", 90, False, False),
    ("CCA_WRITE_KEY", ORG_A, "write", "write", 90, False, False),
    ("CCA_INGEST_KEY", ORG_A, "import", "ingest,ingest:read", 30, False, False),
    ("CCA_READ_WRITE_KEY", ORG_A, "read_write", "read,write", None, False, False),
    ("CCA_OTHER_ORG_READ_KEY", ORG_B, "reporting", "read", 90, False, False),
    ("CCA_OTHER_ORG_WRITE_KEY", ORG_B, "write", "write", 90, False, False),
    ("CCA_NO_MODERATION_WRITE_KEY", ORG_C, "write", "write", 90, False, False),
    ("CCA_EXPIRED_KEY", ORG_A, "read_write", "read,write", 30, True, False),
    ("CCA_REVOKED_KEY", ORG_A, "read_write", "read,write", 90, False, True),
]


def connect():
    conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.executescript(SCHEMA)
    return conn


def make_keys(conn, t0):
    keys = {}
    for name, org, profile, scopes, days, expired, revoked in KEY_SPECS:
        value = "cca_" + secrets.token_urlsafe(24)
        created = t0 - dt.timedelta(days=40 if expired else 1)
        expires = None
        if days is not None:
            expires = t0 - dt.timedelta(days=10) if expired else created + dt.timedelta(days=days)
        conn.execute("INSERT INTO api_keys VALUES(?,?,?,?,?,?,?,?)",
                     (value, name, org, profile, scopes, fmt(created), fmt(expires),
                      fmt(t0 - dt.timedelta(hours=1)) if revoked else None))
        keys[name] = value
    return keys


def _agents(conn):
    a = [("1029384756102938475", "Maria Lopez", "maria.lopez@acme.example", "agent"),
         ("00731", "Sam O'Neil", "sam.oneil@acme.example", "agent"),
         ("agt_priya", "Priya Raman", "priya.raman@acme.example", "supervisor"),
         ("9007199254740993", "Jonas Berg", "jonas.berg@acme.example", "agent"),
         ("U02ABCDEF", "Lee Chen", "lee.chen@acme.example", "agent"),
         ("42", "Ada Park", "ada.park@acme.example", "admin")]
    b = [("9007199254740993", "Rita Moreno", "rita@globex.example", "agent"),
         ("b_agent_1", "Tom Baker", "tom@globex.example", "supervisor"),
         ("0042", "Kim Lee", "kim@globex.example", "agent")]
    c = [("c_agent_1", "Pat Doe", "pat@initech.example", "agent")]
    for org, rows in ((ORG_A, a), (ORG_B, b), (ORG_C, c)):
        for r in rows:
            conn.execute("INSERT INTO agents VALUES(?,?,?,?,?)", (org,) + r)
    return {ORG_A: [x[0] for x in a], ORG_B: [x[0] for x in b], ORG_C: [x[0] for x in c]}


def _queues(conn):
    q = {ORG_A: [("q_billing", "Billing"), ("q_tech", "Technical Support"), ("q_vip", "VIP"),
                 ("0100", "Escalations")],
         ORG_B: [("q_billing", "Billing (Globex)"), ("q_general", "General")],
         ORG_C: [("q_main", "Main")]}
    for org, rows in q.items():
        for r in rows:
            conn.execute("INSERT INTO queues VALUES(?,?,?)", (org,) + r)
    return {k: [x[0] for x in v] for k, v in q.items()}


def _tags(conn):
    a = [("t_refund", "refund", "Billing"), ("t_invoice", "invoice", "Billing"),
         ("t_pricing", "pricing", "Billing"), ("t_login", "login", "Account"),
         ("t_account", "account-access", "Account"), ("t_bug", "bug", "Product"),
         ("t_crash", "crash", "Product"), ("t_feature", "feature-request", "Product"),
         ("t_ui", "ui", "Product"), ("t_shipping", "shipping", "Logistics"),
         ("t_praise", "praise", "Feedback"), ("t_urgent", "urgent", "Priority"),
         ("0007", "churn-risk", "Priority"),
         ("c_resolved", "resolved", "Resolution"), ("c_wontfix", "wont-fix", "Resolution")]
    b = [("t_refund", "refund-b", "Billing"), ("t_bug", "defect", "Product"),
         ("c_resolved", "closed-ok", "Resolution")]
    for org, rows in ((ORG_A, a), (ORG_B, b)):
        for r in rows:
            conn.execute("INSERT INTO tags VALUES(?,?,?,?)", (org,) + r)


def _cf_defs(conn):
    a = [("priority", "Priority", "select", ["low", "medium", "high", "urgent"]),
         ("orderNumber", "Order number", "text", None),
         ("refundAmount", "Refund amount", "number", None),
         ("vip", "VIP customer", "boolean", None),
         ("followUpDate", "Follow-up date", "date", None),
         ("escalationCount", "Escalation count", "integer", None),
         ("labels", "Labels", "multi_select", ["beta", "enterprise", "press", "partner"])]
    b = [("priority", "Priority", "select", ["P1", "P2", "P3"]),
         ("region", "Region", "text", None)]
    c = [("note", "Note", "text", None)]
    for org, rows in ((ORG_A, a), (ORG_B, b), (ORG_C, c)):
        for i, (n, d, t, o) in enumerate(rows):
            conn.execute("INSERT INTO cf_defs VALUES(?,?,?,?,?,?)",
                         (org, n, d, t, json.dumps(o) if o is not None else None, i))


def _customers(r, n, org):
    out = []
    seen = set()
    i = 0
    while len(out) < n:
        k = i % 5
        i += 1
        if k == 0:
            uid = "000" + str(r.randint(1000, 99999))
        elif k == 1:
            uid = str(r.randint(10 ** 18, 9 * 10 ** 18))
        elif k == 2:
            uid = str(r.randint(10 ** 19, 10 ** 21))
        elif k == 3:
            uid = "cust_%s%d" % (r.choice("abcdefghjk"), r.randint(100, 999))
        else:
            uid = str(r.randint(100000, 9999999))
        if uid in seen:
            continue
        seen.add(uid)
        fn, ln = r.choice(FIRST), r.choice(LAST)
        email = ("%s.%s@mail.example" % (fn, ln)).lower() if r.random() < 0.6 else None
        followers = r.randint(0, 250000) if r.random() < 0.7 else None
        out.append((uid, "%s %s" % (fn, ln), ("%s%s%d" % (fn[0], ln, r.randint(1, 99))).lower(),
                    email, followers))
    return out


def _action_ids(r, n, specials):
    ids = list(specials)
    seen = set(ids)
    while len(ids) < n:
        x = str(1180000000000000000 + r.randint(0, 10 ** 17))
        if x not in seen:
            seen.add(x)
            ids.append(x)
    return ids


def _insert_action(conn, r, org, aid, t0, created, customers, agents, queues, with_tags, with_cf,
                   idx, force_responded=None):
    platform = r.choice(list(PLATFORMS))
    rtypes, server, channels = PLATFORMS[platform]
    rtype = r.choice(rtypes)
    is_public = 0 if rtype in PRIVATE_TYPES else 1
    topic = r.choice(list(TOPICS))
    title_t, summ_t, umsgs, tagids = TOPICS[topic]
    num = r.randint(10000, 99999)
    title, summary = title_t.format(n=num), summ_t.format(n=num)
    cust = r.choice(customers)
    age_s = (t0 - created).total_seconds()
    responded = r.random() < 0.65 if force_responded is None else force_responded
    frt = r.randint(60, 30000)
    if frt >= age_s - 1:
        frt = max(1, int(age_s * 0.5))
        if frt < 1 or age_s < 5:
            responded = False
    if responded:
        st = r.choices(["CLOSED", "IN_PROGRESS", "ASSIGNED", "CANCELLED", "OPEN"], [50, 18, 12, 10, 10])[0]
    else:
        st = r.choices(["OPEN", "ASSIGNED", "CANCELLED"], [60, 20, 20])[0]
    assignee = None
    if st != "OPEN" or r.random() < 0.3:
        assignee = r.choice(agents)
    if st == "OPEN" and not responded and r.random() < 0.5:
        assignee = None
    queue = r.choice(queues) if r.random() < 0.85 else None
    init_queue = queue if r.random() < 0.7 else (r.choice(queues) if r.random() < 0.8 else None)
    init_msg = created - dt.timedelta(seconds=r.randint(0, 600))
    resp_t = created + dt.timedelta(seconds=frt) if responded else None
    claim_t = (created + dt.timedelta(seconds=r.randint(0, frt))) if assignee else None
    close_t, handle = None, None
    if st in ("CLOSED", "CANCELLED"):
        base = resp_t or created
        remaining = max(1, int((t0 - base).total_seconds()) - 1)
        handle = min(r.randint(120, 90000), remaining)
        close_t = base + dt.timedelta(seconds=handle)
        if not responded:
            handle = None
    times = [x for x in (created, resp_t, claim_t, close_t) if x]
    updated = max(times) + dt.timedelta(seconds=r.randint(0, 30))
    if updated > t0:
        updated = t0 - dt.timedelta(seconds=1)
    if updated < created:
        updated = created
    if not responded and st == "OPEN" and r.random() < 0.4:
        updated = None
    sent = None
    score = None
    if r.random() < 0.92:
        lab, lo, hi = r.choices(SENTIMENTS, [12, 30, 33, 25])[0]
        if topic == "praise":
            lab, lo, hi = SENTIMENTS[3]
        sent, score = lab, round(r.uniform(lo, hi), 3)
    moderation = r.choice([None, None, "approved", "flagged"])
    csat = fb = None
    if st == "CLOSED" and r.random() < 0.5:
        csat = str(r.randint(1, 5))
        fb = r.choice([None, "Quick and helpful", "Took too long", "Solved my issue", "Meh"])
    est = round(r.uniform(1, 5), 2) if r.random() < 0.85 else None
    # messages
    n_user = r.randint(1, 3)
    n_agent = r.randint(1, 3) if responded else 0
    n_bot = 1 if r.random() < 0.15 else 0
    msgs = []
    agent_row = None
    if assignee:
        agent_row = conn.execute("SELECT name FROM agents WHERE org_id=? AND user_id=?",
                                 (org, assignee)).fetchone()
    agent_name = agent_row[0] if agent_row else "Support Team"
    agent_uid = assignee or "support_bot"
    seq_t = init_msg
    root_text = umsgs[0].format(n=num)
    mid_base = int(created.timestamp() * 1000) * 10 + idx % 10
    for k in range(n_user + n_agent + n_bot):
        if k == 0:
            kind = "USER"
        elif k == 1 and n_bot:
            kind = "BOT"
        else:
            remaining_user = n_user - sum(1 for m in msgs if m[2] == "USER")
            remaining_agent = n_agent - sum(1 for m in msgs if m[2] == "AGENT")
            kind = "AGENT" if remaining_agent > 0 and (remaining_user <= 0 or r.random() < 0.5) else "USER"
            if remaining_user <= 0 and remaining_agent <= 0:
                kind = "BOT"
        if kind == "AGENT" and resp_t and not any(m[2] == "AGENT" for m in msgs):
            ts = resp_t
        else:
            ts = seq_t + dt.timedelta(seconds=r.randint(5, 900))
            if resp_t and kind == "AGENT" and ts < resp_t:
                ts = resp_t + dt.timedelta(seconds=r.randint(1, 60))
        if ts > t0:
            ts = t0 - dt.timedelta(seconds=1)
        seq_t = max(seq_t, ts)
        if kind == "USER":
            text = root_text if k == 0 else umsgs[1].format(n=num)
            author, author_id = cust[1], cust[0]
        elif kind == "AGENT":
            text = r.choice(AGENT_REPLIES)
            author, author_id = agent_name, agent_uid
        else:
            text = "Automated reply: we received your message."
            author, author_id = "AcmeBot", None
        media = ["https://cdn.acme.example/media/%d.png" % r.randint(1000, 9999)] if r.random() < 0.1 else []
        parent = msgs[0][0] if msgs else None
        msgs.append((str(mid_base + k), fmt(ts), kind, author, author_id, text, json.dumps(media), parent))
    msgs.sort(key=lambda m: m[1])
    for seq, m in enumerate(msgs):
        conn.execute("INSERT INTO messages VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                     (org, aid, seq, m[0], m[1], m[3], m[4], m[2], m[5], m[6], m[7]))
    tot_user = sum(1 for m in msgs if m[2] == "USER")
    tot_agent = sum(1 for m in msgs if m[2] == "AGENT")
    tot = len(msgs)
    if r.random() < 0.03:
        tot = tot_user = tot_agent = None
    if r.random() < 0.2 and assignee:
        conn.execute("INSERT INTO comments VALUES(?,?,?,?,?,?)",
                     (org, aid, 0, r.choice(["Customer is on the Pro plan.", "Check with billing.",
                                              "Known issue, see incident 123."]),
                      assignee, agent_name if r.random() < 0.8 else None))
    if platform in ("DISCORD", "TWITTER"):
        thread_id = str(1100000000000000000 + r.randint(0, 10 ** 17))
    else:
        thread_id = "th_%06d" % r.randint(1, 999999)
    easy = "CCA-%d" % (1000 + idx) if r.random() < 0.8 else None
    contributors = ("%s (customer), %s (agent)" % (cust[1], agent_name)) if responded else (
        "%s (customer)" % cust[1] if r.random() < 0.7 else None)
    src = "https://%s.example/%s/%s" % (platform.lower(), "post" if is_public else "private", aid)
    if rtype is not None and r.random() < 0.05:
        rtype_out = None
    else:
        rtype_out = rtype
    conn.execute(
        "INSERT INTO actions VALUES(" + ",".join(["?"] * 45) + ")",
        (org, aid, title, summary, st, platform, rtype_out, is_public, src, queue, init_queue, sent, score,
         moderation, assignee, cust[0], cust[1], cust[2], cust[3], cust[4],
         fmt(created), fmt(updated) if updated else None, fmt(init_msg), fmt(resp_t) if resp_t else None,
         fmt(close_t) if close_t else None, fmt(claim_t) if claim_t else None,
         frt if responded else None, handle, server, r.choice(channels), csat, fb, est,
         tot, tot_user, tot_agent, root_text, thread_id, easy, contributors,
         round(r.uniform(0, 1), 3) if responded else None,
         round(r.uniform(-0.5, 0.8), 3) if responded else None,
         round(r.uniform(40, 100), 1) if responded else None,
         round(r.uniform(0, 1), 3), round(r.uniform(0, 1), 3)))
    if with_tags:
        chosen = set(t for t in tagids if r.random() < 0.85)
        if r.random() < 0.2:
            chosen.add(r.choice(["t_urgent", "0007", "t_ui"]))
        if not chosen and r.random() < 0.5:
            chosen.add(tagids[0])
        if org != ORG_A:
            chosen = {t for t in chosen if t in ("t_refund", "t_bug")}
        for t in sorted(chosen):
            conn.execute("INSERT INTO action_tags VALUES(?,?,?,0)", (org, aid, t))
        if st == "CLOSED":
            conn.execute("INSERT INTO action_tags VALUES(?,?,?,1)",
                         (org, aid, "c_resolved" if r.random() < 0.8 or org != ORG_A else "c_wontfix"))
    if with_cf:
        prov = json.dumps({"source": "seed", "updatedAt": fmt(updated or created)})
        vals = {}
        if org == ORG_A:
            if topic == "refund":
                vals["orderNumber"] = "ORD-%07d" % num
                vals["refundAmount"] = round(r.uniform(5, 500), 2)
            if r.random() < 0.3:
                vals["priority"] = r.choice(["low", "medium", "high", "urgent"])
            if r.random() < 0.1:
                vals["vip"] = True
            if r.random() < 0.08:
                vals["labels"] = sorted(r.sample(["beta", "enterprise", "press", "partner"], 2))
            if r.random() < 0.05:
                vals["escalationCount"] = r.randint(1, 4)
        elif org == ORG_B:
            if r.random() < 0.5:
                vals["priority"] = r.choice(["P1", "P2", "P3"])
            if r.random() < 0.4:
                vals["region"] = r.choice(["EMEA", "APAC", "AMER"])
        for k, v in vals.items():
            conn.execute("INSERT INTO cf_values VALUES(?,?,?,?,?,?,?,?)",
                         (org, aid, k, json.dumps(v), prov, None, None, fmt(updated or created)))


def seed(conn, t0):
    r = random.Random(20240611)
    conn.execute("BEGIN")
    for p in INGEST_PLATFORMS:
        conn.execute("INSERT INTO ingest_platforms VALUES(?)", (p,))
    conn.execute("INSERT INTO orgs VALUES(?,?,?,?)", (ORG_A, "Acme Corp", "ad_policy", "wf_ad_policy_v3"))
    conn.execute("INSERT INTO orgs VALUES(?,?,?,?)", (ORG_B, "Globex", "ad_policy", "wf_globex_v1"))
    conn.execute("INSERT INTO orgs VALUES(?,?,?,?)", (ORG_C, "Initech", None, None))
    agents = _agents(conn)
    queues = _queues(conn)
    _tags(conn)
    _cf_defs(conn)

    # ---- org A
    specials = ["0042", "42", "007", "00000000000000000001", "18446744073709551617",
                "9007199254740993", "ZD-10045", "gh_issue_881"]
    ids_a = _action_ids(r, 420, specials)
    cust_a = _customers(r, 90, ORG_A)
    midnight = dt.datetime(t0.year, t0.month, t0.day, tzinfo=UTC)
    for i, aid in enumerate(ids_a):
        force = None
        if i < len(specials):
            created = t0 - dt.timedelta(seconds=r.randint(3600, 5 * 86400))
            force = True
        elif r.random() < 0.42:
            created = t0 - dt.timedelta(seconds=r.uniform(30, 7 * 86400 - 60))
        else:
            created = t0 - dt.timedelta(seconds=r.uniform(7 * 86400 + 60, 60 * 86400))
        _insert_action(conn, r, ORG_A, aid, t0, created, cust_a, agents[ORG_A], queues[ORG_A],
                       True, True, i, force)
    # a few actions spread around calendar-day boundaries
    lo = midnight - dt.timedelta(days=7)
    hi = t0 - dt.timedelta(days=7)
    span = (hi - lo).total_seconds()
    extra = []
    if span > 180:
        for k in range(4):
            extra.append(lo + dt.timedelta(seconds=span * (0.2 + 0.2 * k)))
    # and a few more at fixed times of day
    extra.append(midnight - dt.timedelta(days=2))
    extra.append(midnight - dt.timedelta(days=3) + dt.timedelta(hours=12))
    for k, created in enumerate(extra):
        aid = str(1190000000000000000 + 1000 + k)
        _insert_action(conn, r, ORG_A, aid, t0, created, cust_a, agents[ORG_A], queues[ORG_A],
                       True, True, 900 + k, True)

    # ---- org B (some ids collide with org A ids)
    collide = ["0042", "42", "9007199254740993"] + ids_a[20:29]
    ids_b = collide + _action_ids(random.Random(77), 40, [])
    cust_b = _customers(r, 25, ORG_B)
    for i, aid in enumerate(ids_b):
        created = t0 - dt.timedelta(seconds=r.uniform(60, 20 * 86400)) if i >= 3 else \
            t0 - dt.timedelta(seconds=r.randint(3600, 3 * 86400))
        _insert_action(conn, r, ORG_B, aid, t0, created, cust_b, agents[ORG_B], queues[ORG_B],
                       True, True, i, True if i < 3 else None)
        conn.execute("UPDATE actions SET title = 'Globex: ' || title WHERE org_id=? AND action_id=?",
                     (ORG_B, aid))

    # ---- org C
    cust_c = _customers(r, 5, ORG_C)
    for i in range(8):
        aid = str(5000 + i)
        created = t0 - dt.timedelta(seconds=r.uniform(60, 6 * 86400))
        _insert_action(conn, r, ORG_C, aid, t0, created, cust_c, agents[ORG_C], queues[ORG_C],
                       False, False, i)
    conn.execute("COMMIT")
