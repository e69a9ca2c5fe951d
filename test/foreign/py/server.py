#!/usr/bin/env python3
"""Customer-Conversation Analytics Service - independent REST implementation (stdlib only)."""
import hashlib, json, math, os, random, re, signal, sqlite3, sys, threading, time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, unquote_plus, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
_DEV = os.environ.get('DEVIATIONS', '').strip()
_DEVSET = set(x.strip().upper() for x in _DEV.split(',') if x.strip())


def dev(i):
    return 'ALL' in _DEVSET or i in _DEVSET


MAX_BODY = 2 * 1024 * 1024
UTC = timezone.utc
NOW = datetime.now(UTC)
if not dev('X01'):
    NOW = NOW.replace(microsecond=NOW.microsecond // 1000 * 1000)

KEYS = {
    'CCA_READ_KEY': 'ccak_live_r_5d1f0a9c4be2_orgA',
    'CCA_WRITE_KEY': 'ccak_live_w_81c7e3f02d6a_orgA',
    'CCA_INGEST_KEY': 'ccak_live_i_3a9be41c70f5_orgA',
    'CCA_OTHER_ORG_READ_KEY': 'ccak_live_r_c0ffee42b7d1_orgB',
    'CCA_NO_MODERATION_WRITE_KEY': 'ccak_live_w_9e2d5b8a1f33_orgC',
    'CCA_EXPIRED_KEY': 'ccak_live_r_0ld0ld0ld0ld_orgA',
    'CCA_REVOKED_KEY': 'ccak_live_r_dead5eed0000_orgA',
    'CCA_READ_WRITE_KEY': 'ccak_live_rw_47aa19d3ce05_orgA',
}
KEYINFO = {
    KEYS['CCA_READ_KEY']: dict(org='org_a', scopes={'read'}),
    KEYS['CCA_WRITE_KEY']: dict(org='org_a', scopes={'write'}),
    KEYS['CCA_INGEST_KEY']: dict(org='org_a', scopes={'ingest', 'ingest:read'}),
    KEYS['CCA_OTHER_ORG_READ_KEY']: dict(org='org_b', scopes={'read'}),
    KEYS['CCA_NO_MODERATION_WRITE_KEY']: dict(org='org_c', scopes={'write'}),
    KEYS['CCA_EXPIRED_KEY']: dict(org='org_a', scopes={'read'}, expires=NOW - timedelta(days=3)),
    KEYS['CCA_REVOKED_KEY']: dict(org='org_a', scopes={'read'}, revoked=True),
    KEYS['CCA_READ_WRITE_KEY']: dict(org='org_a', scopes={'read', 'write'}),
}
ORGS = {'org_a': {'moderationMode': 'ad_policy'}, 'org_b': {'moderationMode': 'ad_policy'},
        'org_c': {'moderationMode': 'standard'}}

PLATFORMS_INGEST = ['DISCORD', 'SLACK', 'GITHUB', 'ZENDESK', 'TELEGRAM', 'FACEBOOK_GROUP', 'TWITTER_COMMUNITY',
                    'SALESFORCE', 'FACEBOOK', 'TWITTER', 'THREADS', 'TIKTOK', 'INSTAGRAM', 'LINKEDIN', 'WHATSAPP',
                    'YOUTUBE', 'GAINSIGHT', 'APPSTORE', 'GOOGLE_PLAY', 'HIGHER_LOGIC', 'DISCOURSE', 'CUSTOM_FORM',
                    'MODERATION_API', 'CHROME_WEB_STORE', 'CANNY']
WORKLOAD = {'OPEN': 'active', 'IN_PROGRESS': 'active', 'WAITING_ON_CUSTOMER': 'active',
            'CLOSED': 'closed', 'RESOLVED': 'closed', 'CANCELLED': 'cancelled', 'SPAM': 'cancelled'}
SENTIMENTS = ['Very Negative', 'Negative', 'Neutral', 'Positive']


def iso(dt):
    return dt.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%S.') + '%03dZ' % (dt.microsecond // 1000)


def dur(sec):
    sec = int(sec)
    h, r = divmod(sec, 3600)
    m, s = divmod(r, 60)
    out = 'PT' + (('%dH' % h) if h else '') + (('%dM' % m) if m else '') + (('%dS' % s) if s or sec == 0 else '')
    return out


def parse_dur(v):
    if not v:
        return None
    m = re.fullmatch(r'PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?', v)
    if not m:
        return None
    return int(m.group(1) or 0) * 3600 + int(m.group(2) or 0) * 60 + int(m.group(3) or 0)


_DATE_RE = re.compile(r'^(\d{4})-(\d{2})-(\d{2})$')
_RFC3339_RE = re.compile(r'^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$')
_TS_RE = re.compile(r'^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})?$')


class BadInput(Exception):
    def __init__(self, msg, status=400, extra=None):
        super().__init__(msg)
        self.msg, self.status, self.extra = msg, status, extra or {}


def parse_when(v, name, is_to=False):
    """Return (datetime) for an ISO date or timestamp or raise BadInput."""
    m = _DATE_RE.match(v)
    if m:
        try:
            d = datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), tzinfo=UTC)
        except ValueError:
            raise BadInput('Invalid date for %s' % name)
        if is_to and dev('D02'):
            d = d + timedelta(days=1) - timedelta(milliseconds=1)
        return d
    m = _TS_RE.match(v)
    if not m:
        raise BadInput('Invalid date for %s: expected ISO 8601 date or timestamp' % name)
    try:
        frac = m.group(7) or ''
        us = int((frac[1:] + '000000')[:6]) if frac else 0
        tz = m.group(8)
        if tz is None or tz in ('Z', 'z'):
            off = timedelta(0)
        else:
            t = tz.replace(':', '')
            off = timedelta(hours=int(t[1:3]), minutes=int(t[3:5])) * (1 if t[0] == '+' else -1)
        d = datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)),
                     int(m.group(6) or 0), us, tzinfo=timezone(off))
    except ValueError:
        raise BadInput('Invalid timestamp for %s' % name)
    return d.astimezone(UTC)


def parse_bool(v, name):
    lv = v.lower()
    if lv in ('true', '1'):
        return True
    if lv in ('false', '0'):
        return False
    raise BadInput('%s must be a boolean' % name)


def parse_int(v, name, lo, hi):
    if not re.fullmatch(r'[+]?\d{1,9}', v.strip() if v else ''):
        raise BadInput('%s must be an integer between %d and %d' % (name, lo, hi))
    n = int(v)
    if n < lo or n > hi:
        raise BadInput('%s must be an integer between %d and %d' % (name, lo, hi))
    return n


# ---------------------------------------------------------------- data model
DB = sqlite3.connect(':memory:', check_same_thread=False)
DBL = threading.RLock()
DB.executescript('''
CREATE TABLE action (seq INTEGER PRIMARY KEY, org TEXT, action_id TEXT, created REAL, updated REAL,
  responded INTEGER, assignee TEXT, queue TEXT, platform TEXT, status TEXT, doc TEXT);
CREATE INDEX ix_action ON action(org, action_id);
CREATE TABLE field_def (org TEXT, name TEXT, display TEXT, ftype TEXT, options TEXT, ord INTEGER);
CREATE TABLE field_val (org TEXT, action_id TEXT, name TEXT, value TEXT, provenance TEXT,
  PRIMARY KEY(org, action_id, name));
CREATE TABLE mod_case (case_id TEXT PRIMARY KEY, org TEXT, external_id TEXT, fingerprint TEXT,
  evaluation_id TEXT, created REAL, body TEXT, idem TEXT);
CREATE UNIQUE INDEX ix_mod ON mod_case(org, external_id);
CREATE TABLE ingested (org TEXT, platform TEXT, server_id TEXT, external_id TEXT, body TEXT, received REAL,
  PRIMARY KEY(org, platform, server_id, external_id));
''')

TAGS = [('tg_01', 'billing', 'Topic'), ('tg_02', 'login-issue', 'Topic'), ('tg_03', 'bug-report', 'Topic'),
        ('tg_04', 'feature-request', 'Topic'), ('tg_05', 'refund', 'Topic'), ('tg_06', 'urgent', 'Priority'),
        ('tg_07', 'vip', 'Priority'), ('tg_08', 'churn-risk', 'Risk'), ('tg_09', 'praise', 'Feedback'),
        ('tg_10', 'shipping', 'Topic'), ('tg_11', 'account-security', 'Risk'), ('tg_12', 'api', 'Product')]
CLOSING = [('ct_1', 'resolved-first-contact', 'Outcome'), ('ct_2', 'escalated', 'Outcome'),
           ('ct_3', 'no-response-needed', 'Outcome')]


def seed():
    rnd = random.Random(int(os.environ.get('SEED', '1') or 1))
    agents_a = [('U0042', 'Mara Quinn', 'mara@example.com', 'AGENT'),
                ('9007199254740993', 'Tobias Reyes', 'tobias@example.com', 'AGENT'),
                ('00417', 'Lena Park', 'lena@example.com', 'SUPERVISOR'),
                ('U0108', 'Sam Okafor', 'sam@example.com', 'AGENT'),
                ('18446744073709551557', 'Ivy Chen', 'ivy@example.com', 'ADMIN')]
    agents_b = [('U0042', 'Rui Santos', 'rui@other.example', 'AGENT'), ('B-77', 'Nia Olsen', 'nia@other.example', 'AGENT')]
    agents_c = [('C-1', 'Pat Lee', 'pat@c.example', 'AGENT')]
    queues = [('q_billing', 'Billing'), ('q_tech', 'Technical Support'), ('q_general', 'General'),
              ('q_vip', 'VIP Care'), (None, None)]
    plats = ['DISCORD', 'SLACK', 'ZENDESK', 'TWITTER', 'INSTAGRAM', 'APPSTORE', 'GITHUB']
    statuses = ['OPEN', 'IN_PROGRESS', 'WAITING_ON_CUSTOMER', 'CLOSED', 'RESOLVED', 'CANCELLED', 'SPAM']
    titles = ['Cannot log in after update', 'Charged twice this month', 'Feature idea: dark mode', 'App crashes on start',
              'Where is my order?', 'Refund request', 'Love the new release', 'API returns 502', 'Account locked',
              'Question about pricing', 'Password reset email missing', 'Slow dashboard']
    rows = []

    def mk(org, aid, agents, n_idx, days_max, recent_share, force=None):
        r = rnd
        if r.random() < recent_share:
            created = NOW - timedelta(seconds=r.randint(60, 7 * 86400 - 3600))
        else:
            created = NOW - timedelta(seconds=r.randint(7 * 86400 + 3600, days_max * 86400))
        plat = r.choice(plats)
        status = r.choice(statuses)
        responded = r.random() < 0.68
        ag = r.choice(agents) if r.random() < 0.85 else None
        q = r.choice(queues)
        iq = q if r.random() < 0.7 else r.choice(queues)
        sent = r.choice(SENTIMENTS + [None]) if r.random() < 0.95 else None
        sscore = {'Very Negative': -0.8, 'Negative': -0.35, 'Neutral': 0.0, 'Positive': 0.6}.get(sent)
        if sscore is not None:
            sscore = round(sscore + r.uniform(-0.15, 0.15), 3)
        uid = r.choice(['%d' % r.randint(10 ** 17, 10 ** 19), 'usr_%04d' % r.randint(1, 150), '00%d' % r.randint(100, 999)])
        uname = r.choice(['Alex', 'Jordan', 'Casey', 'Riley', 'Morgan', 'Drew', 'Kai', 'Noor']) + ' ' + \
            r.choice(['Smith', 'Ng', 'Khan', 'Berg', 'Rossi', 'Diaz'])
        ntags = r.choice([0, 1, 1, 2, 2, 3])
        tags = r.sample(TAGS, ntags)
        ctags = r.sample(CLOSING, 1) if WORKLOAD[status] == 'closed' and r.random() < 0.7 else []
        nmsg_u = r.randint(1, 6)
        nmsg_a = r.randint(1, 5) if responded else 0
        ntb = 1 if r.random() < 0.2 else 0
        msgs = []
        t = created
        mid = int(aid[-6:]) if aid[-6:].isdigit() else r.randint(1000, 99999)
        order = ['USER'] + [r.choice(['USER', 'AGENT']) for _ in range(nmsg_u + nmsg_a + ntb - 1)]
        uc, ac = 0, 0
        seqs = []
        for a_t in order:
            if a_t == 'USER' and uc < nmsg_u:
                seqs.append('USER'); uc += 1
            elif ac < nmsg_a:
                seqs.append('AGENT'); ac += 1
            elif uc < nmsg_u:
                seqs.append('USER'); uc += 1
            else:
                seqs.append('BOT')
        first_resp = None
        prev_id = None
        for k, at in enumerate(seqs):
            t = t + timedelta(seconds=r.randint(20, 3600))
            if at == 'AGENT' and first_resp is None:
                first_resp = t
            m_id = '%d%03d' % (mid, k)
            if at == 'USER':
                au, ai = uname, uid
            elif at == 'AGENT':
                au, ai = (ag[1], ag[0]) if ag else ('Support', 'support')
            else:
                au, ai = 'HelpBot', 'bot_1'
            msgs.append({'id': m_id, 'timestamp': iso(t), 'author': au, 'authorId': ai, 'authorType': at,
                         'message': ('%s - message %d' % (r.choice(titles), k + 1)) if at != 'BOT' else 'Automated: we received your message.',
                         'mediaUrls': (['https://cdn.example.com/m/%s.png' % m_id] if r.random() < 0.1 else []),
                         'parentMessageId': prev_id})
            prev_id = m_id
        if not responded:
            first_resp = None
        wl = WORKLOAD[status]
        close_t = (t + timedelta(minutes=r.randint(5, 600))) if wl != 'active' else None
        claim_t = (created + timedelta(minutes=r.randint(1, 90))) if ag else None
        upd = max(x for x in [created, t, close_t or created] if x)
        if upd > NOW:
            upd = NOW - timedelta(seconds=5)
        public = plat in ('TWITTER', 'INSTAGRAM', 'APPSTORE', 'GITHUB') or r.random() < 0.2
        csat = str(r.randint(1, 5)) if wl == 'closed' and r.random() < 0.5 else None
        doc = {
            'actionId': aid, 'actionTitle': r.choice(titles), 'actionSummary': 'Customer reports: ' + r.choice(titles).lower() + '.',
            'status': status, 'platform': plat,
            'recordType': r.choice(['MESSAGE', 'THREAD', 'REVIEW', 'TICKET', None]),
            'isPublicPost': public, 'serviceURL': 'https://app.cca.example/actions/%s' % aid,
            'sourceURL': ('https://%s.example/p/%s' % (plat.lower(), aid)) if public else None,
            'queue': q[1], 'initialQueue': iq[1], 'queueId': q[0],
            'sentiment': sent, 'sentimentScore': sscore,
            'moderation': r.choice([None, None, 'SAFE', 'FLAGGED']),
            'assigneeName': ag[1] if ag else None, 'assigneeEmail': ag[2] if ag else None,
            'assigneeUserId': ag[0] if ag else None, 'assigneeRole': ag[3] if ag else None,
            'userName': uname, 'userUsername': uname.lower().replace(' ', '_'), 'userId': uid,
            'userEmail': (uname.lower().replace(' ', '.') + '@mail.example') if r.random() < 0.6 else None,
            'userFollowerCount': r.randint(0, 50000) if public else None,
            'createdAt': iso(created), 'updatedAt': iso(upd),
            'initialMessageTime': msgs[0]['timestamp'], 'initialResponseTime': iso(first_resp) if first_resp else None,
            'closeTime': iso(close_t) if close_t else None, 'claimTime': iso(claim_t) if claim_t else None,
            'firstResponseTime': dur((first_resp - created).total_seconds()) if first_resp else None,
            'handleTime': dur((close_t - created).total_seconds()) if close_t else None,
            'serverName': r.choice(['Acme Community', 'Acme Support', '@acme']), 'channelName': r.choice(['#help', '#general', 'inbox', 'reviews']),
            'csatScore': csat, 'csatFeedback': (r.choice(['Quick and helpful', 'Took too long', 'OK']) if csat else None),
            'estimatedCSAT': round(r.uniform(1, 5), 2) if r.random() < 0.8 else None,
            'totalMessages': len(msgs), 'totalUserMessages': seqs.count('USER'), 'totalAgentMessages': seqs.count('AGENT'),
            'tags': [{'value': x[1], 'group': x[2], '_id': x[0]} for x in tags],
            'closingTags': [{'value': x[1], 'group': x[2]} for x in ctags],
            'rootMessageText': msgs[0]['message'],
            'threadId': 'th_%s' % hashlib.sha1((org + aid).encode()).hexdigest()[:12],
            'easyId': ('CASE-%05d' % n_idx) if r.random() < 0.8 else None,
            'contributors': ', '.join(sorted(set(m['author'] for m in msgs))),
            'comments': ([{'text': 'Internal note: checked logs.', 'authorNativeId': ag[0], 'authorNativeName': ag[1]}] if ag and r.random() < 0.3 else []),
            'messages': msgs,
            '_hidden': {'resolutionQuality': round(r.uniform(0.3, 1), 3), 'sentimentChange': round(r.uniform(-0.5, 0.8), 3),
                        'rubric': round(r.uniform(50, 100), 1), 'actionability': round(r.uniform(0, 1), 3),
                        'relevance': round(r.uniform(0, 1), 3)},
        }
        rows.append((org, aid, created.timestamp(), upd.timestamp(), 1 if responded else 0,
                     ag[0] if ag else None, q[0], plat, status, doc))
        return doc

    used = set()

    def newid(i):
        while True:
            kind = rnd.random()
            if kind < 0.12:
                a = str(2 ** 53 + rnd.randint(1, 10 ** 12))
            elif kind < 0.2:
                a = '000' + str(rnd.randint(100, 99999))
            elif kind < 0.5:
                a = str(rnd.randint(10 ** 17, 10 ** 18))
            else:
                a = str(rnd.randint(100000, 9999999))
            if a not in used:
                used.add(a)
                return a
    fixed = ['9007199254740993', '00012345', '12345', '1234567890123456789']
    for a in fixed:
        used.add(a)
    for i, a in enumerate(fixed):
        mk('org_a', a, agents_a, i, 60, 1.0)
    for i in range(330):
        mk('org_a', newid(i), agents_a, i + 10, 60, 0.78)
    d = mk('org_b', '1234567890123456789', agents_b, 1, 30, 1.0)
    d['actionTitle'] = 'Org B: partner onboarding question'
    for i in range(45):
        mk('org_b', newid(i), agents_b, i + 2, 40, 0.8)
    for i in range(8):
        mk('org_c', newid(i), agents_c, i, 20, 0.9)
    with DBL:
        for org, aid, c, u, resp, ag, q, p, st, doc in rows:
            DB.execute('INSERT INTO action(org,action_id,created,updated,responded,assignee,queue,platform,status,doc) '
                       'VALUES(?,?,?,?,?,?,?,?,?,?)', (org, aid, c, u, resp, ag, q, p, st, json.dumps(doc)))
        defs = [('priority_level', 'Priority level', 'select', ['low', 'medium', 'high', 'critical']),
                ('escalated', 'Escalated', 'boolean', None), ('revenue_impact', 'Revenue impact (USD)', 'number', None),
                ('agent_notes', 'Agent notes', 'text', None), ('follow_up_on', 'Follow-up date', 'date', None)]
        for org in ('org_a', 'org_b'):
            for i, (n, dn, ft, op) in enumerate(defs if org == 'org_a' else defs[:3]):
                DB.execute('INSERT INTO field_def VALUES(?,?,?,?,?,?)', (org, n, dn, ft, json.dumps(op), i))
        # a few stored values
        for org, aid, *_ in rows[:40:3]:
            prov = {'source': 'seed', 'setAt': iso(NOW - timedelta(days=1))}
            DB.execute('INSERT OR REPLACE INTO field_val VALUES(?,?,?,?,?)',
                       (org, aid, 'priority_level', json.dumps(rnd.choice(['low', 'medium', 'high'])), json.dumps(prov)))
        DB.execute('INSERT OR REPLACE INTO field_val VALUES(?,?,?,?,?)',
                   ('org_b', '1234567890123456789', 'revenue_impact', json.dumps(98000), json.dumps({'source': 'seed'})))
        DB.execute('INSERT OR REPLACE INTO field_val VALUES(?,?,?,?,?)',
                   ('org_b', '1234567890123456789', 'escalated', json.dumps(True), json.dumps({'source': 'seed'})))
        DB.commit()


# ---------------------------------------------------------------- helpers over actions
SUMMARY_KEYS = ['actionId', 'actionTitle', 'actionSummary', 'status', 'platform', 'recordType', 'isPublicPost',
                'serviceURL', 'sourceURL', 'queue', 'initialQueue', 'sentiment', 'sentimentScore', 'moderation',
                'assigneeName', 'assigneeEmail', 'assigneeUserId', 'assigneeRole', 'userName', 'userUsername', 'userId',
                'userEmail', 'userFollowerCount', 'createdAt', 'updatedAt', 'initialMessageTime', 'initialResponseTime',
                'closeTime', 'claimTime', 'firstResponseTime', 'handleTime', 'serverName', 'channelName', 'csatScore',
                'csatFeedback', 'estimatedCSAT', 'totalMessages', 'totalUserMessages', 'totalAgentMessages']


def custom_values(org, aid):
    with DBL:
        cur = DB.execute('SELECT name, value FROM field_val WHERE org=? AND action_id=?', (org, aid))
        return {n: json.loads(v) for n, v in cur.fetchall()}


def load_actions(org, date_col='created', lo=None, hi=None, extra='', args=()):
    q = 'SELECT doc, responded FROM action WHERE org=?'
    a = [org]
    if lo is not None:
        q += ' AND %s >= ?' % date_col
        a.append(lo)
    if hi is not None:
        q += ' AND %s <= ?' % date_col
        a.append(hi)
    q += extra + ' ORDER BY %s DESC, seq DESC' % date_col
    with DBL:
        out = []
        for doc, resp in DB.execute(q, a + list(args)).fetchall():
            d = json.loads(doc)
            d['_responded'] = bool(resp)
            out.append(d)
    return out


def tag_out(tags):
    return [{'value': t['value'], 'group': t['group']} for t in tags]


def summary(org, d, full_conv=False, search=False):
    s = {k: d.get(k) for k in SUMMARY_KEYS}
    s['tags'] = tag_out(d['tags'])
    s['closingTags'] = tag_out(d['closingTags'])
    s['customFields'] = custom_values(org, d['actionId'])
    s['rootMessageText'] = d.get('rootMessageText')
    s['conversationJson'] = json.dumps(conversation(d)) if full_conv else None
    if search:
        s['threadId'] = d['threadId']
        s['easyId'] = d.get('easyId')
        s['contributors'] = d.get('contributors')
    return s


def conversation(d):
    return [{'id': m['id'], 'timestamp': m['timestamp'], 'author': m['author'], 'authorId': m.get('authorId'),
             'authorType': m['authorType'], 'message': m['message'], 'parentMessageId': m.get('parentMessageId'),
             'mediaUrls': list(m['mediaUrls'])} for m in d['messages']]


def detail(org, d):
    out = {
        'user': {'name': d['userName'], 'username': d['userUsername'], 'userId': d['userId'], 'email': d['userEmail'],
                 'followerCount': d['userFollowerCount']},
        'assignee': {'name': d['assigneeName'], 'email': d['assigneeEmail'], 'userId': d['assigneeUserId'],
                     'role': d['assigneeRole']},
    }
    for k in ['actionId', 'actionTitle', 'actionSummary', 'platform', 'recordType', 'isPublicPost', 'sentiment',
              'sentimentScore', 'queue', 'initialQueue', 'status', 'createdAt', 'serviceURL', 'sourceURL', 'updatedAt',
              'initialMessageTime', 'initialResponseTime', 'closeTime', 'firstResponseTime', 'handleTime', 'claimTime',
              'serverName', 'channelName', 'moderation', 'rootMessageText', 'csatScore', 'csatFeedback', 'estimatedCSAT',
              'totalMessages', 'totalUserMessages', 'totalAgentMessages']:
        out[k] = d.get(k)
    out['tags'] = tag_out(d['tags'])
    out['closingTags'] = tag_out(d['closingTags'])
    out['comments'] = d['comments']
    out['messages'] = [{'id': m['id'], 'timestamp': m['timestamp'], 'author': m['author'], 'authorId': m['authorId'],
                        'authorType': m['authorType'], 'message': m['message'], 'mediaUrls': list(m['mediaUrls'])}
                       for m in d['messages']]
    out['conversation'] = conversation(d)
    out['customFields'] = custom_values(org, d['actionId'])
    return out


def find_action(org, aid):
    with DBL:
        if dev('D05') and aid.isdigit():
            rows = DB.execute("SELECT doc, action_id FROM action WHERE org=? AND ltrim(action_id,'0')=ltrim(?,'0') "
                              "ORDER BY seq", (org, aid)).fetchall()
            rows.sort(key=lambda r: r[1] != aid)
            row = rows[0] if rows else None
        else:
            row = DB.execute('SELECT doc FROM action WHERE org=? AND action_id=?', (org, aid)).fetchone()
    return json.loads(row[0]) if row else None


# ---------------------------------------------------------------- DSL
DSL_KEYS = {'platform', 'status', 'queue', 'sentiment', 'responded', 'assigneeuserid', 'assignee', 'userid',
            'tag', 'actionid', 'recordtype', 'ispublicpost', 'easyid', 'threadid', 'text'}


def parse_dsl(text):
    terms = []
    text = text.strip()
    if not text:
        return terms
    for part in text.split('+'):
        part = part.strip()
        if not part:
            raise BadInput('Invalid filter: empty term')
        m = re.fullmatch(r'([A-Za-z_.]+)\s*(!?=)\s*(.*)', part, re.S)
        if not m:
            raise BadInput('Invalid filter term "%s": expected key=value' % part[:80])
        key = m.group(1).lower()
        if key not in DSL_KEYS:
            raise BadInput('Invalid filter: unknown key "%s"' % m.group(1)[:60])
        vals = [v.strip() for v in m.group(3).split(',')]
        if not vals or any(v == '' for v in vals):
            raise BadInput('Invalid filter: empty value for "%s"' % m.group(1))
        if key in ('responded', 'ispublicpost'):
            for v in vals:
                if v.lower() not in ('true', 'false'):
                    raise BadInput('Invalid filter: %s must be true or false' % m.group(1))
        terms.append((key, m.group(2) == '!=', vals))
    return terms


def dsl_match(d, terms):
    for key, neg, vals in terms:
        if key == 'platform':
            ok = d['platform'].upper() in [v.upper() for v in vals]
        elif key == 'status':
            ok = d['status'].upper() in [v.upper() for v in vals]
        elif key == 'queue':
            ok = any(v.lower() in ((d['queue'] or 'null').lower(), (d['queueId'] or 'null').lower()) for v in vals)
        elif key == 'sentiment':
            ok = (d['sentiment'] or 'null').lower() in [v.lower() for v in vals]
        elif key == 'responded':
            ok = d['_responded'] in [v.lower() == 'true' for v in vals]
        elif key == 'ispublicpost':
            ok = d['isPublicPost'] in [v.lower() == 'true' for v in vals]
        elif key in ('assigneeuserid', 'assignee'):
            ok = d['assigneeUserId'] in vals
        elif key == 'userid':
            ok = d['userId'] in vals
        elif key == 'actionid':
            ok = d['actionId'] in vals
        elif key == 'tag':
            names = [t['value'].lower() for t in d['tags']] + [t['_id'].lower() for t in d['tags']]
            ok = any(v.lower() in names for v in vals)
        elif key == 'recordtype':
            ok = (d['recordType'] or 'null').upper() in [v.upper() for v in vals]
        elif key == 'easyid':
            ok = d.get('easyId') in vals
        elif key == 'threadid':
            ok = d['threadId'] in vals
        elif key == 'text':
            blob = (d['actionTitle'] + ' ' + d['actionSummary'] + ' ' + (d['rootMessageText'] or '')).lower()
            ok = any(v.lower() in blob for v in vals)
        else:
            ok = False
        if ok == neg:
            return False
    return True


# ---------------------------------------------------------------- metrics
def _avg(xs):
    xs = [x for x in xs if x is not None]
    return round(sum(xs) / len(xs), 4) if xs else 0


def metrics_of(acts):
    return {
        'totalActions': len(acts),
        'totalMessages': sum(a['totalMessages'] or 0 for a in acts),
        'totalAgentMessages': sum(a['totalAgentMessages'] or 0 for a in acts),
        'totalUserMessages': sum(a['totalUserMessages'] or 0 for a in acts),
        'averageCsat': _avg([float(a['csatScore']) if a['csatScore'] else None for a in acts]),
        'averageResponseTime': _avg([parse_dur(a['firstResponseTime']) for a in acts]),
        'averageHandleTime': _avg([parse_dur(a['handleTime']) for a in acts]),
        'averageEstimatedCsat': _avg([a['estimatedCSAT'] for a in acts]),
        'averageResolutionQuality': _avg([a['_hidden']['resolutionQuality'] for a in acts]),
        'averageSentimentChange': _avg([a['_hidden']['sentimentChange'] for a in acts]),
        'averageRubricScore': _avg([a['_hidden']['rubric'] for a in acts]),
    }


def workload_of(acts):
    w = {'active': 0, 'closed': 0, 'cancelled': 0}
    for a in acts:
        w[WORKLOAD.get(a['status'], 'active')] += 1
    return w


def analytics_window(q):
    """Analytics endpoints: invalid dates fall back to defaults (30 days)."""
    hi = NOWF()
    lo = None
    try:
        if q.get('to'):
            hi = parse_when(q['to'], 'to', True)
    except BadInput:
        hi = NOWF()
    try:
        if q.get('from'):
            lo = parse_when(q['from'], 'from')
    except BadInput:
        lo = None
    if lo is None:
        lo = hi - timedelta(days=30)
    return lo, hi


def NOWF():
    return datetime.now(UTC)


def analytics_actions(org, q):
    lo, hi = analytics_window(q)
    return load_actions(org, 'created', lo.timestamp(), hi.timestamp()), lo, hi


# ---------------------------------------------------------------- moderation
CTA = ['APPLY_NOW', 'BOOK_NOW', 'GET_NOW', 'INSTALL_NOW', 'MORE', 'SHOP_NOW', 'SIGN_UP', 'VIEW', 'WATCH']
ATTACH = ['web_view', 'deep_link', 'app_install', 'lens', 'long_form_video']
MOD_STR = [('externalId', True, 256), ('sourceSystem', True, 128), ('sourcePlatform', True, 128),
           ('sourceAdId', True, 256), ('advertiserId', False, 256), ('advertiserName', True, 500),
           ('campaignId', False, 256), ('market', True, 128), ('placement', True, 128), ('language', False, 64),
           ('title', True, 500), ('headline', False, 500), ('brandName', False, 500)]


def is_url(v):
    if not isinstance(v, str) or len(v) > 4096:
        return False
    try:
        u = urlsplit(v)
    except ValueError:
        return False
    return u.scheme in ('http', 'https') and bool(u.netloc) and ' ' not in v


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def validate_case(c):
    missing, invalid, errors = [], [], []
    if not isinstance(c, dict):
        return ['(case)'], [], ['case must be an object']

    def bad(f, msg):
        invalid.append(f)
        errors.append('%s: %s' % (f, msg))

    def miss(f):
        missing.append(f)
        errors.append('%s: required' % f)
    for f, req, mx in MOD_STR:
        if f not in c or (c[f] is None and req):
            if req:
                miss(f)
            continue
        v = c[f]
        if not isinstance(v, str) or not (1 <= len(v) <= mx):
            bad(f, 'must be a string of 1..%d characters' % mx)
    if 'landingPageUrl' not in c:
        miss('landingPageUrl')
    elif c['landingPageUrl'] is not None and not isinstance(c['landingPageUrl'], str):
        bad('landingPageUrl', 'must be a string or null')
    if 'providerMetadata' in c and not isinstance(c['providerMetadata'], dict):
        bad('providerMetadata', 'must be an object')
    if 'callToAction' in c and c['callToAction'] not in CTA:
        bad('callToAction', 'must be one of ' + ', '.join(CTA))
    if 'publicProfile' in c:
        p = c['publicProfile']
        if not isinstance(p, dict):
            bad('publicProfile', 'must be an object')
        else:
            if 'displayName' in p and (not isinstance(p['displayName'], str) or not 1 <= len(p['displayName']) <= 500):
                bad('publicProfile.displayName', 'must be 1..500 characters')
            if 'logoUrl' in p and not is_url(p['logoUrl']):
                bad('publicProfile.logoUrl', 'must be an absolute URL')
            if 'verified' in p and not isinstance(p['verified'], bool):
                bad('publicProfile.verified', 'must be a boolean')
    if 'media' not in c:
        miss('media')
    elif not isinstance(c['media'], list) or not 1 <= len(c['media']) <= 20:
        bad('media', 'must be an array of 1..20 items')
    else:
        plo = 0 if dev('D09') else 1
        for i, m in enumerate(c['media']):
            if not isinstance(m, dict):
                bad('media[%d]' % i, 'must be an object')
                continue
            for k in ('url', 'type', 'position'):
                if k not in m:
                    miss('media[%d].%s' % (i, k))
            if 'url' in m and not is_url(m['url']):
                bad('media[%d].url' % i, 'must be an absolute HTTP(S) URL')
            if 'type' in m and m['type'] not in ('image', 'video'):
                bad('media[%d].type' % i, 'must be image or video')
            if 'position' in m and not (is_int(m['position']) and plo <= m['position'] <= 20):
                bad('media[%d].position' % i, 'must be an integer 1..20')
    if 'attachment' not in c:
        miss('attachment')
    elif not isinstance(c['attachment'], dict):
        bad('attachment', 'must be an object')
    else:
        a = c['attachment']
        if 'type' not in a:
            miss('attachment.type')
        elif a['type'] not in ATTACH:
            bad('attachment.type', 'must be one of ' + ', '.join(ATTACH))
        if 'destinationUrl' not in a:
            miss('attachment.destinationUrl')
        elif a['destinationUrl'] is not None and not isinstance(a['destinationUrl'], str):
            bad('attachment.destinationUrl', 'must be a string or null')
    if 'targeting' not in c:
        miss('targeting')
    elif not isinstance(c['targeting'], dict):
        bad('targeting', 'must be an object')
    else:
        t = c['targeting']
        if 'ageMin' not in t:
            miss('targeting.ageMin')
        elif t['ageMin'] is not None and not is_int(t['ageMin']):
            bad('targeting.ageMin', 'must be an integer or null')
        if 'ageMax' in t and t['ageMax'] is not None and not is_int(t['ageMax']):
            bad('targeting.ageMax', 'must be an integer or null')
        if 'geos' not in t:
            miss('targeting.geos')
        elif not isinstance(t['geos'], list) or not 1 <= len(t['geos']) <= 250 or \
                not all(isinstance(g, str) for g in t['geos']):
            bad('targeting.geos', 'must be an array of 1..250 strings')
        if 'languages' in t and (not isinstance(t['languages'], list) or not 1 <= len(t['languages']) <= 100 or
                                 not all(isinstance(g, str) for g in t['languages'])):
            bad('targeting.languages', 'must be an array of 1..100 strings')
    if 'copy' not in c:
        miss('copy')
    elif not isinstance(c['copy'], dict):
        bad('copy', 'must be an object')
    else:
        for k in ('body', 'caption', 'linkDescription', 'sourceTitle'):
            if k in c['copy'] and (not isinstance(c['copy'][k], str) or len(c['copy'][k]) > 20000):
                bad('copy.' + k, 'must be a string up to 20000 characters')
    for k in ('discoverTile', 'partnershipAd'):
        if k in c and not isinstance(c[k], bool):
            bad(k, 'must be a boolean')
    for k in ('format', 'arLens'):
        if k in c and c[k] is not None and not isinstance(c[k], str):
            bad(k, 'must be a string or null')
    if 'submittedAt' in c:
        try:
            if not isinstance(c['submittedAt'], str) or _DATE_RE.match(c['submittedAt']):
                raise BadInput('x')
            if not dev('X02') and not _RFC3339_RE.match(c['submittedAt']):
                raise BadInput('x')
            parse_when(c['submittedAt'], 'submittedAt')
        except BadInput:
            bad('submittedAt', 'must be a date-time string')
    return missing, invalid, errors


def fingerprint(c):
    c = dict(c)
    c.setdefault('language', 'en')
    if dev('D08'):
        c.pop('copy', None)
    return hashlib.sha256(json.dumps(c, sort_keys=True, separators=(',', ':')).encode()).hexdigest()


def submit_case(org, c):
    """Returns (kind, payload). kind in accepted|duplicate|conflict."""
    fp = fingerprint(c)
    with DBL:
        row = DB.execute('SELECT case_id, fingerprint, evaluation_id, idem FROM mod_case WHERE org=? AND external_id=?',
                         (org, c['externalId'])).fetchone()
        if row:
            if row[1] != fp:
                return 'conflict', None
            return 'duplicate', {'caseId': row[0], 'externalId': c['externalId'], 'status': 'duplicate',
                                 'analysisStatus': 'pending', 'evaluationId': row[2],
                                 'idempotency': {'key': row[3], 'replayed': True}}
        n = DB.execute('SELECT count(*) FROM mod_case').fetchone()[0]
        cid = 'mcase_' + hashlib.sha1(('%s|%s|%d|%f' % (org, c['externalId'], n, time.time())).encode()).hexdigest()[:20]
        eid = 'meval_' + hashlib.sha1(('e' + cid).encode()).hexdigest()[:20]
        idem = 'idem:' + hashlib.sha256(('%s\x00%s' % (org, c['externalId'])).encode()).hexdigest()[:32]
        DB.execute('INSERT INTO mod_case VALUES(?,?,?,?,?,?,?,?)',
                   (cid, org, c['externalId'], fp, eid, time.time(), json.dumps(c), idem))
        DB.commit()
    return 'accepted', {'caseId': cid, 'externalId': c['externalId'], 'status': 'accepted', 'analysisStatus': 'pending',
                        'evaluationId': eid, 'idempotency': {'key': idem, 'replayed': False}}


def case_status(row):
    cid, ext, eid, created, body = row
    c = json.loads(body)
    age = time.time() - created
    out = {'caseId': cid, 'externalId': ext, 'evaluationId': eid}
    lp = c.get('landingPageUrl') or ''
    fails = lp.startswith('http') and (urlsplit(lp).hostname or '').endswith('.invalid')
    if age < 1.0:
        out['analysisStatus'] = 'pending'
    elif age < 2.5:
        out['analysisStatus'] = 'running'
        if dev('D10') and not fails:
            out['decision'] = decide(c)
    elif fails:
        out['analysisStatus'] = 'failed'
        out['failureCode'] = 'LANDING_PAGE_UNREACHABLE'
    else:
        out['analysisStatus'] = 'completed'
        out['decision'] = decide(c)
    return out


def decide(c):
    text = ' '.join([c.get('title', ''), c.get('headline', '') or ''] +
                    [v for v in (c.get('copy') or {}).values() if isinstance(v, str)]).lower()
    hits = []
    disp, conf, reason = 'approve', 'high', 'No policy concerns detected in creative, copy or landing page.'
    if any(w in text for w in ('guaranteed', 'miracle', 'risk-free')):
        disp, conf, reason = 'reject', 'high', 'Copy contains prohibited unsubstantiated claims.'
        field = 'title'
        for k in ('body', 'caption', 'linkDescription', 'sourceTitle'):
            if any(w in ((c.get('copy') or {}).get(k) or '').lower() for w in ('guaranteed', 'miracle', 'risk-free')):
                field = 'copy.' + k
                break
        hits.append({'ruleId': 'rule_claims_01', 'ruleSlug': 'unsubstantiated-claims', 'polarity': 'NEGATIVE',
                     'confidence': 'high', 'reasoning': 'Absolute outcome claim found.',
                     'evidence': [{'modality': 'text', 'claim': 'Guaranteed-outcome wording',
                                   'locator': {'textSpan': {'field': field, 'start': 0, 'end': 10}}}]})
    elif any(w in text for w in ('alcohol', 'beer', 'casino', 'wine')):
        age = (c.get('targeting') or {}).get('ageMin')
        if age is None or age < 21:
            disp, conf, reason = 'age_gate', 'medium', 'Age-restricted category requires an age gate.'
            hits.append({'ruleId': 'rule_age_02', 'ruleSlug': 'age-restricted-products', 'polarity': 'AMBIGUOUS',
                         'confidence': 'medium', 'reasoning': None,
                         'evidence': [{'modality': 'metadata', 'claim': 'Targeting allows minors', 'locator': {'mediaIndex': 0}}]})
    elif c.get('landingPageUrl') is None:
        disp, conf, reason = 'escalate', 'low', 'No landing page supplied; manual review needed.'
    return {'disposition': disp, 'confidence': conf, 'title': None, 'reason': reason, 'hits': hits,
            'advertiserAssessment': {'polarity': 'POSITIVE' if disp != 'reject' else 'AMBIGUOUS',
                                     'reasoning': 'Advertiser %s has a consistent public profile.' % c.get('advertiserName', '')[:200]},
            'landingAssessment': {'polarity': 'POSITIVE' if c.get('landingPageUrl') else 'AMBIGUOUS',
                                  'reasoning': 'Landing page matches the advertised offer.' if c.get('landingPageUrl') else 'No landing page to assess.'},
            'decisionSource': 'model', 'failureCode': None, 'failureMessage': None}


# ---------------------------------------------------------------- ingestion
ING_REQ_STR = ['externalId', 'authorId', 'authorName', 'createdAt', 'recordType']


def validate_ingest(b):
    errs = {}
    if not isinstance(b, dict):
        return {'body': 'must be a JSON object'}
    if b.get('platform') not in PLATFORMS_INGEST:
        errs['platform'] = 'must be one of the supported platforms'
    for k in ('serverId', 'serverName'):
        if not isinstance(b.get(k), str) or not b.get(k):
            errs[k] = 'required non-empty string'
    for k in ('channelId', 'channelName'):
        if k in b and not isinstance(b[k], str):
            errs[k] = 'must be a string'
    if 'processingLevel' in b and b['processingLevel'] not in ('INSIGHTS', 'STATS_ONLY'):
        errs['processingLevel'] = 'must be INSIGHTS or STATS_ONLY'
    if 'source' in b:
        s = b['source']
        if not isinstance(s, dict):
            errs['source'] = 'must be an object'
        else:
            if not isinstance(s.get('system'), str) or not s.get('system'):
                errs['source.system'] = 'required non-empty string'
            if 'sourceId' in s and not isinstance(s['sourceId'], str):
                errs['source.sourceId'] = 'must be a string'
    recs = b.get('records')
    if not isinstance(recs, list) or not 1 <= len(recs) <= 500:
        errs['records'] = 'must be an array of 1..500 records'
        return errs
    for i, r in enumerate(recs):
        p = 'records[%d].' % i
        if not isinstance(r, dict):
            errs['records[%d]' % i] = 'must be an object'
            continue
        for k in ING_REQ_STR:
            if not isinstance(r.get(k), str) or not r.get(k):
                errs[p + k] = 'required non-empty string'
        if not isinstance(r.get('body'), str):
            errs[p + 'body'] = 'required string'
        for k in ('threadExternalId', 'parentExternalId', 'title'):
            if k in r and not isinstance(r[k], str):
                errs[p + k] = 'must be a string'
        if 'score' in r and not (is_num(r['score']) and 0 <= r['score'] <= 5):
            errs[p + 'score'] = 'must be a number between 0 and 5'
        if 'url' in r:
            u = r['url']
            ok = is_url(u)
            if dev('D12') and isinstance(u, str) and re.match(r'^[a-z][a-z0-9+.-]*://\S+$', u):
                ok = True
            if not ok:
                errs[p + 'url'] = 'must be an absolute HTTP or HTTPS URL'
        if 'customFields' in r and not isinstance(r['customFields'], dict):
            errs[p + 'customFields'] = 'must be an object'
    return errs


# ---------------------------------------------------------------- OpenAPI
def openapi():
    S = lambda t, **k: dict(type=t, **k)
    nstr = {'type': 'string', 'nullable': True}
    nnum = {'type': 'number', 'nullable': True}
    err = {'$ref': '#/components/schemas/Error'}
    tag = S('object', required=['value', 'group'], properties={'value': S('string'), 'group': S('string')})
    summ_props = {k: nstr for k in SUMMARY_KEYS}
    for k in ('actionId', 'actionTitle', 'actionSummary', 'status', 'platform', 'serviceURL', 'userName',
              'userUsername', 'userId', 'createdAt', 'serverName', 'channelName'):
        summ_props[k] = S('string')
    for k in ('sentimentScore', 'userFollowerCount', 'estimatedCSAT', 'totalMessages', 'totalUserMessages', 'totalAgentMessages'):
        summ_props[k] = nnum
    summ_props['isPublicPost'] = S('boolean')
    summ_props.update(tags=S('array', items=tag), closingTags=S('array', items=tag),
                      customFields=S('object', additionalProperties=True), rootMessageText=nstr, conversationJson=nstr)
    metric_keys = ['totalActions', 'totalMessages', 'totalAgentMessages', 'totalUserMessages', 'averageCsat',
                   'averageResponseTime', 'averageHandleTime', 'averageEstimatedCsat', 'averageResolutionQuality',
                   'averageSentimentChange', 'averageRubricScore']
    metrics = S('object', required=metric_keys, properties={k: S('number') for k in metric_keys})
    workload = S('object', required=['active', 'closed', 'cancelled'],
                 properties={k: S('number') for k in ('active', 'closed', 'cancelled')})
    comps = {
        'Error': S('object', required=['success', 'error'], properties={'success': S('boolean', enum=[False]), 'error': S('string'),
                   'fieldErrors': S('object', additionalProperties=S('string'))}),
        'ModerationError': S('object', required=['success', 'error'], properties={
            'success': S('boolean'), 'error': S('string'), 'message': S('string'),
            'code': S('string', enum=['MODERATION_INPUT_INCOMPLETE', 'MODERATION_INPUT_INVALID']),
            'missingFields': S('array', items=S('string')), 'invalidFields': S('array', items=S('string')),
            'supported': S('array', items=S('string'))}),
        'Tag': tag,
        'ActionSummary': S('object', required=list(summ_props), properties=summ_props),
        'SearchItem': {'allOf': [{'$ref': '#/components/schemas/ActionSummary'},
                                 S('object', required=['threadId', 'easyId', 'contributors'],
                                   properties={'threadId': S('string'), 'easyId': nstr, 'contributors': nstr})]},
        'Metrics': metrics, 'Workload': workload,
        'ModerationCase': S('object', required=['externalId', 'sourceSystem', 'sourcePlatform', 'sourceAdId', 'advertiserName',
                                                'market', 'placement', 'landingPageUrl', 'title', 'media', 'attachment',
                                                'targeting', 'copy'], additionalProperties=True,
                            properties={f: S('string', minLength=1, maxLength=mx) for f, _, mx in MOD_STR}),
        'ModerationAck': S('object', required=['caseId', 'externalId', 'status', 'analysisStatus', 'evaluationId', 'idempotency'],
                           properties={'caseId': S('string'), 'externalId': S('string'),
                                       'status': S('string', enum=['accepted', 'duplicate']),
                                       'analysisStatus': S('string', enum=['pending']), 'evaluationId': S('string'),
                                       'idempotency': S('object', required=['key', 'replayed'],
                                                        properties={'key': S('string'), 'replayed': S('boolean')})}),
    }
    ref = lambda n: {'$ref': '#/components/schemas/' + n}
    key_hdr = [{'ApiKey': []}]

    def op(oid, summary, ok_schema, errs, params=(), body=None, ok='200', err_schema=err):
        o = {'operationId': oid, 'summary': summary, 'security': key_hdr, 'parameters': list(params),
             'responses': {ok: {'description': 'OK' if ok == '200' else 'Accepted', 'content': {'application/json': {'schema': ok_schema}}}}}
        o['responses']['401'] = {'description': 'missing or invalid key', 'content': {'application/json': {'schema': err}}}
        for e in errs:
            o['responses'][str(e)] = {'description': {400: 'bad request', 403: 'forbidden', 404: 'not found', 409: 'conflict',
                                                      422: 'validation failed', 500: 'server error'}[e],
                                      'content': {'application/json': {'schema': err_schema}}}
        if body:
            o['requestBody'] = {'required': True, 'content': {'application/json': {'schema': body}}}
        return o

    def qp(name, schema, desc=''):
        return {'name': name, 'in': 'query', 'required': False, 'schema': schema, 'description': desc}

    def pp(name):
        return {'name': name, 'in': 'path', 'required': True, 'schema': S('string', minLength=1)}
    win = [qp('from', S('string'), 'ISO 8601 date or timestamp'), qp('to', S('string'), 'inclusive; date-only = midnight UTC')]
    succ = lambda data: S('object', required=['success', 'data'], properties={'success': S('boolean'), 'data': data})
    paths = {
        '/v0/action/list': {'get': op('listActionsByWindow', 'List actions in a timestamp window', S('object',
            required=['data', 'totalRecords', 'currentPage', 'pageSize', 'totalPages'],
            properties={'data': S('array', items=ref('ActionSummary')), 'totalRecords': S('number'), 'currentPage': S('number'),
                        'pageSize': S('number'), 'totalPages': S('number')}), [400, 500],
            win + [qp('pageSize', S('integer', minimum=1, maximum=500, default=50)), qp('filter', S('string')),
                   qp('filterJson', S('string')), qp('fullFilter', S('string', maxLength=10000)),
                   qp('includeFullConversation', S('boolean', default=False)),
                   qp('sortBy', S('string', enum=['createdAt', 'updatedAt'], default='createdAt'))])},
        '/v0/action/{id}': {'get': op('readActionDetail', 'Read one action', S('object', additionalProperties=True,
            required=['user', 'actionId', 'assignee', 'messages', 'comments', 'customFields']), [404, 500], [pp('id')])},
        '/v0/actions/{actionId}/custom-fields': {
            'get': op('readActionCustomFields', 'Read custom field values', S('object', required=['actionId', 'fields'],
                      properties={'actionId': S('string'), 'fields': S('array', items=S('object', required=['fieldName', 'displayName', 'fieldType', 'value'],
                                  properties={'fieldName': S('string'), 'displayName': S('string'), 'fieldType': S('string'), 'value': {},
                                              'provenance': {}}))}), [403, 404, 500], [pp('actionId')]),
            'patch': op('writeActionCustomFields', 'Write custom field values', S('object', required=['actionId', 'updated'],
                        properties={'actionId': S('string'), 'updated': S('array', items=S('object', required=['fieldName', 'value'],
                                    properties={'fieldName': S('string'), 'value': {}}))}), [403, 404, 422, 500], [pp('actionId')],
                        body=S('object', required=['fields'], properties={'fields': S('array', minItems=1, items=S('object',
                               required=['fieldName', 'value'], properties={'fieldName': S('string', minLength=1), 'value': {},
                               'confidence': S('number', minimum=0, maximum=1), 'rationale': S('string')}))}))},
        '/v0/agents': {'get': op('agentLeaderboard', 'Agent metrics', succ(S('array', items=S('object',
            required=['agentId', 'metrics', 'workload'], properties={'agentId': S('string'), 'metrics': metrics, 'workload': workload}))), [403, 500], win)},
        '/v0/agents/{id}': {'get': op('agentProfile', 'One agent', succ(S('object', required=['metrics', 'aggregatedMetrics', 'currentWorkload', 'queues'],
            properties={'metrics': S('array', items=S('object')), 'aggregatedMetrics': metrics, 'currentWorkload': workload,
                        'queues': S('array', items=S('object'))})), [403, 404, 500], win + [pp('id')])},
        '/v0/queues': {'get': op('queueBoard', 'Queue metrics', succ(S('array', items=S('object',
            required=['queueId', 'queueName', 'metrics', 'workload'], properties={'queueId': nstr, 'queueName': nstr,
                                                                                  'metrics': metrics, 'workload': workload}))), [403, 500], win)},
        '/v0/analytics/tags': {'get': op('tagInsights', 'Tag analytics', succ(S('object', required=['summary', 'tagBreakdown', 'volumeByTag', 'pagination'])),
            [403, 500], win + [qp('respondedOnly', S('boolean')), qp('limit', S('number', default=25)), qp('offset', S('number', default=0)), qp('search', S('string'))])},
        '/v0/analytics/tags/volume': {'get': op('tagVolumeSeries', 'Tag volume over time', succ(S('object', required=['data', 'tags'],
            properties={'data': S('array', items=S('object')), 'tags': S('array', items=S('string'))})), [403, 500],
            win + [qp('respondedOnly', S('boolean')), qp('topTagsLimit', S('number', default=5)), qp('tagIds', S('string'))])},
        '/v0/analytics/sentiment': {'get': op('sentimentDaily', 'Sentiment by day', succ(S('array', items=S('object',
            required=['day'] + SENTIMENTS))), [403, 500], win)},
        '/v0/analytics/sentiment/by-tag': {'get': op('sentimentPerTag', 'Sentiment by tag', succ(S('array', items=S('object',
            required=['tagName', 'veryNegative', 'negative', 'neutral', 'positive', 'totalMentions']))), [403, 500], win)},
        '/v0/analytics/engagement': {'get': op('engagementOverview', 'Engagement', succ(S('object',
            required=['engagementPercentiles', 'growthTrends', 'conversionFunnel'])), [403, 500], win + [qp('platforms', S('string'))])},
        '/v0/conversations/search': {'get': op('searchConversations', 'Search conversations', S('object',
            required=['success', 'data', 'totalRecords', 'totalRecordsCapped', 'currentPage', 'pageSize', 'totalPages'],
            properties={'success': S('boolean'), 'data': S('array', items=ref('SearchItem')), 'totalRecords': S('number'),
                        'totalRecordsCapped': S('boolean'), 'currentPage': S('number'), 'pageSize': S('number'), 'totalPages': S('number')}),
            [400, 403, 500], [qp('filter', S('string')), qp('page', S('integer', minimum=1, maximum=10000, default=1)),
                              qp('pageSize', S('integer', minimum=1, maximum=100, default=50))])},
        '/v0/moderation/cases': {'post': op('submitModerationCase', 'Submit one moderation case', ref('ModerationAck'),
            [400, 403, 409, 422, 500], body=ref('ModerationCase'), ok='202', err_schema=ref('ModerationError'))},
        '/v0/moderation/cases/batch': {'post': op('submitModerationBatch', 'Submit moderation cases in batch',
            S('object', required=['results'], properties={'results': S('array', items=S('object', required=['externalId', 'caseId', 'status']))}),
            [400, 403], body=S('object', required=['cases'], properties={'cases': S('array', minItems=1, maxItems=100, items=ref('ModerationCase'))}),
            ok='202', err_schema=ref('ModerationError'))},
        '/v0/moderation/cases/{caseId}': {'get': op('readModerationCase', 'Read moderation case status', S('object',
            required=['caseId', 'externalId', 'analysisStatus'], properties={'caseId': S('string'), 'externalId': S('string'),
            'analysisStatus': S('string', enum=['policy_not_configured', 'pending', 'running', 'completed', 'failed']),
            'evaluationId': S('string'), 'decision': S('object'), 'failureCode': nstr}), [403, 404], [pp('caseId')])},
        '/v0/ingest/records': {'post': op('ingestNormalizedRecords', 'Ingest normalized records', S('object',
            required=['status', 'accepted'], properties={'status': S('string', enum=['accepted']), 'accepted': S('number')}),
            [403, 422, 500], body=S('object', required=['platform', 'serverId', 'serverName', 'records'], properties={
                'platform': S('string', enum=PLATFORMS_INGEST), 'serverId': S('string', minLength=1), 'serverName': S('string', minLength=1),
                'records': S('array', minItems=1, maxItems=500, items=S('object'))}), ok='202')},
    }
    if dev('D15'):
        paths.pop('/v0/moderation/cases/batch')
    return {'openapi': '3.0.3', 'info': {'title': 'Customer-Conversation Analytics Service', 'version': 'v0'},
            'servers': [{'url': '/'}], 'paths': paths,
            'components': {'schemas': comps, 'securitySchemes': {'ApiKey': {'type': 'apiKey', 'in': 'header', 'name': 'X-API-Key'}}}}


DOCS_HTML = '''<!doctype html><html><head><meta charset="utf-8"><title>CCA REST API v0</title>
<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}code{background:#eee;padding:0 .2em}li{margin:.3em 0}</style></head>
<body><h1>Customer-Conversation Analytics Service &mdash; REST v0</h1>
<p>Send your key in header <code>X-API-Key</code>. Machine-readable contract: <a href="/docs/json">/docs/json</a>.</p>
<ul id="ops"></ul>
<script>fetch('/docs/json').then(r=>r.json()).then(d=>{const u=document.getElementById('ops');
for(const [p,ms] of Object.entries(d.paths)){for(const [m,o] of Object.entries(ms)){const li=document.createElement('li');
li.innerHTML='<code>'+m.toUpperCase()+' '+p+'</code> &mdash; '+o.summary+' <small>('+o.operationId+')</small>';u.appendChild(li);}}});</script>
<noscript>Enable JavaScript to list operations, or read /docs/json.</noscript></body></html>'''


# ---------------------------------------------------------------- HTTP
class Handler(BaseHTTPRequestHandler):
    server_version = 'cca-py/0.9'
    sys_version = ''
    protocol_version = 'HTTP/1.1'
    timeout = 15

    def log_message(self, *a):
        pass

    def send_json(self, status, obj, headers=None):
        data = json.dumps(obj, ensure_ascii=False).encode('utf-8')
        self.send_response(status)
        self.send_header('Content-Type', 'application/json; charset=utf-8')
        self.send_header('Content-Length', str(len(data)))
        if not getattr(self, '_body_read', False) and (self.headers.get('Content-Length') or '0') != '0':
            # an unread request body would be taken for the next request line
            self.send_header('Connection', 'close')
            self.close_connection = True
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != 'HEAD':
            self.wfile.write(data)

    def fail(self, status, msg, **extra):
        body = {'success': False, 'error': msg}
        body.update(extra)
        self.send_json(status, body)

    def do_GET(self):
        self.dispatch('GET')

    def do_POST(self):
        self.dispatch('POST')

    def do_PATCH(self):
        self.dispatch('PATCH')

    def do_PUT(self):
        self.dispatch('PUT')

    def do_DELETE(self):
        self.dispatch('DELETE')

    def do_HEAD(self):
        self.dispatch('GET')

    def read_body(self):
        te = self.headers.get('Transfer-Encoding', '')
        if 'chunked' in te.lower():
            raise BadInput('Chunked request bodies are not supported', 411)
        try:
            n = int(self.headers.get('Content-Length') or 0)
        except ValueError:
            raise BadInput('Invalid Content-Length')
        if n < 0:
            raise BadInput('Invalid Content-Length')
        if n > MAX_BODY:
            self.close_connection = True
            raise BadInput('Request body too large', 413)
        raw = self.rfile.read(n) if n else b''
        self._body_read = True
        return raw

    def json_body(self):
        raw = self.read_body()
        if not raw.strip():
            raise BadInput('Request body must be JSON')
        try:
            return json.loads(raw.decode('utf-8'), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise BadInput('Request body is not valid JSON')

    def query(self, raw):
        q, rawq = {}, {}
        for part in raw.split('&') if raw else []:
            if not part:
                continue
            k, _, v = part.partition('=')
            k = unquote_plus(k)
            if k not in q:
                q[k] = unquote_plus(v)
                rawq[k] = unquote(v)
        return q, rawq

    def dispatch(self, method):
        self._body_read = False
        try:
            self._dispatch(method)
        except BadInput as e:
            try:
                self.fail(e.status, e.msg, **e.extra)
            except Exception:
                pass
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception:
            try:
                self.fail(500, 'Internal server error')
            except Exception:
                pass

    def auth(self):
        k = self.headers.get('X-API-Key')
        if k is None or not k.strip():
            raise BadInput('Missing API key', 401)
        info = KEYINFO.get(k.strip())
        if not info:
            raise BadInput('Invalid API key', 401)
        if info.get('revoked'):
            raise BadInput('API key has been revoked', 401)
        if info.get('expires') and info['expires'] < NOWF():
            raise BadInput('API key has expired', 403 if dev('D14') else 401)
        return info

    def need(self, info, scope):
        if scope not in info['scopes']:
            raise BadInput('This API key lacks the "%s" scope required for this route' % scope, 403)

    def _dispatch(self, method):
        u = urlsplit(self.path)
        path = u.path
        if len(path) > 1 and path.endswith('/'):
            path = path[:-1]
        q, rawq = self.query(u.query)
        if path == '/docs/json' and method == 'GET':
            return self.send_json(200, openapi())
        if path == '/docs' and method == 'GET':
            data = DOCS_HTML.encode()
            self.send_response(200)
            self.send_header('Content-Type', 'text/html; charset=utf-8')
            self.send_header('Content-Length', str(len(data)))
            self.end_headers()
            if self.command != 'HEAD':
                self.wfile.write(data)
            return
        if not path.startswith('/v0/'):
            if method in ('POST', 'PATCH', 'PUT'):
                self.read_body()
            raise BadInput('Not found', 404)
        info = self.auth()
        org = info['org']
        segs = [unquote(s) for s in path.split('/')[2:]]
        routes = [
            (('action', 'list'), 'GET', self.h_list),
            (('action', None), 'GET', self.h_detail),
            (('actions', None, 'custom-fields'), 'GET', self.h_cf_get),
            (('actions', None, 'custom-fields'), 'PATCH', self.h_cf_patch),
            (('agents',), 'GET', self.h_agents),
            (('agents', None), 'GET', self.h_agent),
            (('queues',), 'GET', self.h_queues),
            (('analytics', 'tags'), 'GET', self.h_tags),
            (('analytics', 'tags', 'volume'), 'GET', self.h_tag_volume),
            (('analytics', 'sentiment'), 'GET', self.h_sentiment),
            (('analytics', 'sentiment', 'by-tag'), 'GET', self.h_sent_tag),
            (('analytics', 'engagement'), 'GET', self.h_engagement),
            (('conversations', 'search'), 'GET', self.h_search),
            (('moderation', 'cases'), 'POST', self.h_mod_single),
            (('moderation', 'cases', 'batch'), 'POST', self.h_mod_batch),
            (('moderation', 'cases', None), 'GET', self.h_mod_get),
            (('ingest', 'records'), 'POST', self.h_ingest),
        ]
        allowed = []
        for pat, m, h in routes:
            if len(pat) != len(segs):
                continue
            params = []
            ok = True
            for p, s in zip(pat, segs):
                if p is None:
                    if s == '':
                        ok = False
                        break
                    params.append(s)
                elif p != s:
                    ok = False
                    break
            if not ok:
                continue
            if pat == ('action', None) and segs[1] == 'list':
                continue
            if pat == ('moderation', 'cases', None) and segs[2] == 'batch' and method == 'POST':
                continue
            if m == method:
                return h(info, org, q, rawq, *params)
            allowed.append(m)
        if method in ('POST', 'PATCH', 'PUT'):
            self.read_body()
        if allowed:
            self.send_json(405, {'success': False, 'error': 'Method not allowed'}, {'Allow': ', '.join(sorted(set(allowed)))})
            return
        raise BadInput('Not found', 404)

    # ---- 4.1
    def h_list(self, info, org, q, rawq):
        self.need(info, 'read')
        full = rawq.get('fullFilter')
        if full is not None and ('filter' in q or 'filterJson' in q):
            raise BadInput('fullFilter cannot be combined with filter or filterJson')
        if full is not None and len(full) > 10000:
            raise BadInput('fullFilter exceeds 10000 characters')
        ps = 50
        if 'pageSize' in q:
            ps = parse_int(q['pageSize'], 'pageSize', 1, 499 if dev('D01') else 500)
        sort = q.get('sortBy', 'createdAt')
        if sort not in ('createdAt', 'updatedAt'):
            raise BadInput('sortBy must be createdAt or updatedAt')
        conv = parse_bool(q['includeFullConversation'], 'includeFullConversation') if 'includeFullConversation' in q else False
        hi = parse_when(q['to'], 'to', True) if q.get('to') else None
        lo = parse_when(q['from'], 'from') if q.get('from') else None
        if 'from' in q and not q['from']:
            raise BadInput('from must not be empty')
        if 'to' in q and not q['to']:
            raise BadInput('to must not be empty')
        responded = None
        terms = []
        if full is not None:
            terms = parse_dsl(full)
        else:
            if hi is None:
                hi = NOWF()
            if lo is None:
                lo = hi - timedelta(days=7)
            responded = True
            if 'filter' in q:
                m = re.search(r'responded\s*[=:]\s*(true|false)', q['filter'], re.I)
                if m:
                    responded = m.group(1).lower() == 'true'
            if 'filterJson' in q:
                try:
                    fj = json.loads(q['filterJson'])
                except ValueError:
                    raise BadInput('filterJson is not valid JSON')
                if isinstance(fj, dict) and isinstance(fj.get('responded'), bool):
                    responded = fj['responded']
        col = 'created' if sort == 'createdAt' else 'updated'
        acts = load_actions(org, col, lo.timestamp() if lo else None, hi.timestamp() if hi else None)
        if responded is not None:
            acts = [a for a in acts if a['_responded'] == responded]
        acts = [a for a in acts if dsl_match(a, terms)]
        total = len(acts)
        items = [summary(org, a, conv) for a in acts[:ps]]
        if dev('D04'):
            for it in items:
                v = it.get('assigneeUserId')
                if v and v.isdigit() and not v.startswith('0'):
                    it['assigneeUserId'] = '%d' % int(float(v))
        self.send_json(200, {'data': items, 'totalRecords': total, 'currentPage': 1, 'pageSize': ps,
                             'totalPages': math.ceil(total / ps)})

    # ---- 4.2
    def h_detail(self, info, org, q, rawq, aid):
        self.need(info, 'read')
        d = find_action(org, aid)
        if not d:
            raise BadInput('Action not found', 404)
        self.send_json(200, detail(org, d))

    # ---- 4.3 / 4.4
    def _cf_defs(self, org):
        with DBL:
            return DB.execute('SELECT name, display, ftype, options FROM field_def WHERE org=? ORDER BY ord', (org,)).fetchall()

    def h_cf_get(self, info, org, q, rawq, aid):
        self.need(info, 'read')
        src_org = org
        d = find_action(org, aid)
        if not d and dev('D06'):
            with DBL:
                row = DB.execute('SELECT org FROM action WHERE action_id=? ORDER BY seq LIMIT 1', (aid,)).fetchone()
            if row:
                src_org = row[0]
                d = find_action(src_org, aid)
        if not d:
            raise BadInput('Action not found', 404)
        with DBL:
            vals = {n: (json.loads(v), json.loads(p) if p else None) for n, v, p in DB.execute(
                'SELECT name, value, provenance FROM field_val WHERE org=? AND action_id=?', (src_org, d['actionId'])).fetchall()}
        fields = []
        for n, dn, ft, _ in self._cf_defs(src_org):
            f = {'fieldName': n, 'displayName': dn, 'fieldType': ft, 'value': vals.get(n, (None, None))[0]}
            if n in vals and vals[n][1] is not None:
                f['provenance'] = vals[n][1]
            fields.append(f)
        self.send_json(200, {'actionId': d['actionId'], 'fields': fields})

    def h_cf_patch(self, info, org, q, rawq, aid):
        self.need(info, 'write')
        d = find_action(org, aid)
        if not d:
            self.read_body()
            raise BadInput('Action not found', 404)
        try:
            b = self.json_body()
        except BadInput as e:
            if e.status != 400:
                raise
            raise BadInput(e.msg, 422, {'fieldErrors': {'body': e.msg}})
        defs = {n: (dn, ft, json.loads(o)) for n, dn, ft, o in self._cf_defs(org)}
        fe = {}
        if not isinstance(b, dict) or not isinstance(b.get('fields'), list) or not b['fields']:
            raise BadInput('Validation failed', 422, {'fieldErrors': {'fields': 'fields must be a non-empty array'}})
        updates = []
        for i, f in enumerate(b['fields']):
            if not isinstance(f, dict):
                fe['fields[%d]' % i] = 'must be an object'
                continue
            n = f.get('fieldName')
            label = n if isinstance(n, str) and n else 'fields[%d].fieldName' % i
            if not isinstance(n, str) or not n:
                fe[label] = 'fieldName must be a non-empty string'
                continue
            if n not in defs:
                fe[label] = 'Unknown custom field'
                continue
            if 'value' not in f:
                fe[label] = 'value is required'
                continue
            if 'confidence' in f and not (is_num(f['confidence']) and 0 <= f['confidence'] <= 1):
                fe[label] = 'confidence must be a number between 0 and 1'
                continue
            if 'rationale' in f and not isinstance(f['rationale'], str):
                fe[label] = 'rationale must be a string'
                continue
            v = f['value']
            ft, opts = defs[n][1], defs[n][2]
            msg = None
            if ft == 'number' and not is_num(v):
                msg = 'expected a number'
            elif ft == 'boolean' and not isinstance(v, bool):
                msg = 'expected a boolean'
            elif ft == 'text' and not isinstance(v, str):
                msg = 'expected a string'
            elif ft == 'select' and v not in (opts or []):
                msg = 'expected one of: ' + ', '.join(opts or [])
            elif ft == 'date':
                if not isinstance(v, str) or not _DATE_RE.match(v):
                    msg = 'expected a date (YYYY-MM-DD)'
                else:
                    try:
                        parse_when(v, n)
                    except BadInput:
                        msg = 'expected a valid date'
            if msg:
                fe[n] = msg
                continue
            updates.append((n, v, f.get('confidence'), f.get('rationale')))
        if fe:
            raise BadInput('Validation failed', 422, {'fieldErrors': fe})
        out = []
        with DBL:
            for n, v, c, r in updates:
                prov = {'source': 'api', 'setAt': iso(NOWF())}
                if c is not None:
                    prov['confidence'] = c
                if r is not None:
                    prov['rationale'] = r
                DB.execute('INSERT OR REPLACE INTO field_val VALUES(?,?,?,?,?)', (org, d['actionId'], n, json.dumps(v), json.dumps(prov)))
                out.append({'fieldName': n, 'value': v})
            DB.commit()
        self.send_json(200, {'actionId': d['actionId'], 'updated': out})

    # ---- 4.5 - 4.7
    def h_agents(self, info, org, q, rawq):
        self.need(info, 'read')
        acts, lo, hi = analytics_actions(org, q)
        by = {}
        for a in acts:
            if a['assigneeUserId'] is not None:
                by.setdefault(a['assigneeUserId'], []).append(a)
        out = []
        for aid in sorted(by, key=lambda k: (-len(by[k]), k)):
            m = metrics_of(by[aid])
            m['totalActionsWithResponse'] = sum(1 for a in by[aid] if a['_responded'])
            out.append({'agentId': aid, 'metrics': m, 'workload': workload_of(by[aid])})
        self.send_json(200, {'success': True, 'data': out})

    def h_agent(self, info, org, q, rawq, agent_id):
        self.need(info, 'read')
        with DBL:
            known = DB.execute('SELECT 1 FROM action WHERE org=? AND assignee=? LIMIT 1', (org, agent_id)).fetchone()
        if not known:
            raise BadInput('Agent not found', 404)
        acts, lo, hi = analytics_actions(org, q)
        mine = [a for a in acts if a['assigneeUserId'] == agent_id]
        if dev('D16'):
            for o in ORGS:
                if o != org:
                    mine += [a for a in load_actions(o, 'created', lo.timestamp(), hi.timestamp()) if a['assigneeUserId'] == agent_id]
        days = {}
        for a in mine:
            days.setdefault(a['createdAt'][:10], []).append(a)
        daily = []
        for day in sorted(days):
            r = {'date': day}
            r.update(metrics_of(days[day]))
            daily.append(r)
        queues = {}
        for a in mine:
            queues.setdefault((a['queueId'], a['queue']), []).append(a)
        qs = [{'queueId': k[0], 'queueName': k[1], 'totalActions': len(v)} for k, v in
              sorted(queues.items(), key=lambda kv: (-len(kv[1]), kv[0][0] or ''))]
        self.send_json(200, {'success': True, 'data': {'metrics': daily, 'aggregatedMetrics': metrics_of(mine),
                                                       'currentWorkload': workload_of(mine), 'queues': qs}})

    def h_queues(self, info, org, q, rawq):
        self.need(info, 'read')
        acts, lo, hi = analytics_actions(org, q)
        by = {}
        for a in acts:
            by.setdefault((a['queueId'], a['queue']), []).append(a)
        out = []
        for k in sorted(by, key=lambda k: (k[1] is None, k[1] or '')):
            m = metrics_of(by[k])
            m['averageSentimentScore'] = _avg([a['sentimentScore'] for a in by[k]])
            out.append({'queueId': k[0], 'queueName': k[1], 'metrics': m, 'workload': workload_of(by[k])})
        self.send_json(200, {'success': True, 'data': out})

    # ---- 4.8 - 4.12
    def _resp_only(self, q):
        try:
            return parse_bool(q['respondedOnly'], 'respondedOnly') if 'respondedOnly' in q else False
        except BadInput:
            return False

    def h_tags(self, info, org, q, rawq):
        self.need(info, 'read')
        acts, lo, hi = analytics_actions(org, q)
        if self._resp_only(q):
            acts = [a for a in acts if a['_responded']]

        def num(name, default, lo_, hi_):
            try:
                v = int(float(q[name])) if name in q else default
            except ValueError:
                v = default
            return max(lo_, min(hi_, v))
        limit = num('limit', 25, 1, 500)
        offset = num('offset', 0, 0, 10 ** 6)
        search = (q.get('search') or '').strip().lower()
        stats = {}
        for a in acts:
            for t in a['tags']:
                s = stats.setdefault(t['_id'], {'tagId': t['_id'], 'tagName': t['value'], 'groupName': t['group'], 'acts': []})
                s['acts'].append(a)
        rows = [s for s in stats.values() if not search or search in s['tagName'].lower() or search in (s['groupName'] or '').lower()]
        rows.sort(key=lambda s: (-len(s['acts']), s['tagName']))
        applications = sum(len(s['acts']) for s in rows)
        tagged = set(a['actionId'] for s in rows for a in s['acts'])
        page = rows[offset:offset + limit]
        breakdown = [{'tagId': s['tagId'], 'tagName': s['tagName'], 'groupName': s['groupName'], 'count': len(s['acts']),
                      'percentage': round(100.0 * len(s['acts']) / applications, 2) if applications else 0} for s in page]
        vol = []
        for s in page:
            r = sum(1 for a in s['acts'] if a['_responded'])
            sc = [a['sentimentScore'] for a in s['acts'] if a['sentimentScore'] is not None]
            vol.append({'tagId': s['tagId'], 'tagName': s['tagName'], 'total': len(s['acts']), 'responded': r,
                        'notResponded': len(s['acts']) - r,
                        'avgSentiment': round(sum(sc) / len(sc), 4) if sc else None,
                        'avgActionability': round(sum(a['_hidden']['actionability'] for a in s['acts']) / len(s['acts']), 4),
                        'avgRelevance': round(sum(a['_hidden']['relevance'] for a in s['acts']) / len(s['acts']), 4)})
        self.send_json(200, {'success': True, 'data': {
            'summary': {'totalTags': len(rows), 'totalTagGroups': len(set(s['groupName'] for s in rows)),
                        'totalTaggedRecords': len(tagged), 'totalActions': len(acts)},
            'tagBreakdown': breakdown, 'volumeByTag': vol,
            'pagination': {'total': len(rows), 'limit': limit, 'offset': offset, 'hasMore': offset + limit < len(rows)}}})

    def h_tag_volume(self, info, org, q, rawq):
        self.need(info, 'read')
        acts, lo, hi = analytics_actions(org, q)
        if self._resp_only(q):
            acts = [a for a in acts if a['_responded']]
        try:
            top = max(1, min(50, int(q.get('topTagsLimit', '5'))))
        except ValueError:
            top = 5
        ids = [x.strip() for x in q.get('tagIds', '').split(',') if x.strip()]
        counts = {}
        names = {}
        for a in acts:
            for t in a['tags']:
                if ids and t['_id'] not in ids:
                    continue
                counts[t['_id']] = counts.get(t['_id'], 0) + 1
                names[t['_id']] = t['value']
        chosen = sorted(counts, key=lambda k: (-counts[k], names[k]))
        if not ids:
            chosen = chosen[:top]
        tagnames = [names[k] for k in chosen]
        days = {}
        for a in acts:
            day = a['createdAt'][:10]
            row = days.setdefault(day, {n: 0 for n in tagnames})
            for t in a['tags']:
                if t['_id'] in chosen:
                    row[t['value']] += 1
        data = [dict({'date': d}, **days[d]) for d in sorted(days)]
        self.send_json(200, {'success': True, 'data': {'data': data, 'tags': tagnames}})

    def h_sentiment(self, info, org, q, rawq):
        self.need(info, 'read')
        acts, lo, hi = analytics_actions(org, q)
        rows = {}
        d = lo.replace(hour=0, minute=0, second=0, microsecond=0)
        while d <= hi and len(rows) < 400:
            rows[d.strftime('%Y-%m-%d')] = {'day': d.strftime('%Y-%m-%d'), **{s: 0 for s in SENTIMENTS}}
            d += timedelta(days=1)
        for a in acts:
            if a['sentiment'] in SENTIMENTS and a['createdAt'][:10] in rows:
                rows[a['createdAt'][:10]][a['sentiment']] += 1
        self.send_json(200, {'success': True, 'data': [rows[k] for k in sorted(rows)]})

    def h_sent_tag(self, info, org, q, rawq):
        self.need(info, 'read')
        acts, lo, hi = analytics_actions(org, q)
        keymap = {'Very Negative': 'veryNegative', 'Negative': 'negative', 'Neutral': 'neutral', 'Positive': 'positive'}
        rows = {}
        for a in acts:
            if a['sentiment'] not in keymap:
                continue
            for t in a['tags']:
                r = rows.setdefault(t['value'], {'tagName': t['value'], 'veryNegative': 0, 'negative': 0, 'neutral': 0,
                                                 'positive': 0, 'totalMentions': 0})
                r[keymap[a['sentiment']]] += 1
                r['totalMentions'] += 1
        self.send_json(200, {'success': True, 'data': sorted(rows.values(), key=lambda r: (-r['totalMentions'], r['tagName']))})

    def h_engagement(self, info, org, q, rawq):
        self.need(info, 'read')
        acts, lo, hi = analytics_actions(org, q)
        plats = [p.strip().upper() for p in q.get('platforms', '').split(',') if p.strip()]
        if plats and dev('D13'):
            plats = plats[:1]
        if plats:
            acts = [a for a in acts if a['platform'].upper() in plats]

        def pct(xs, p):
            xs = sorted(xs)
            if not xs:
                return 0
            k = (len(xs) - 1) * p
            f = math.floor(k)
            c = min(f + 1, len(xs) - 1)
            return round(xs[f] + (xs[c] - xs[f]) * (k - f), 2)
        per = {}
        for a in acts:
            per.setdefault(a['platform'], {}).setdefault(a['userId'], 0)
            per[a['platform']][a['userId']] += a['totalUserMessages'] or 0
        perc = [{'platform': p, 'p25MessagesPerUser': pct(list(u.values()), .25),
                 'medianMessagesPerUser': pct(list(u.values()), .5), 'p75MessagesPerUser': pct(list(u.values()), .75)}
                for p, u in sorted(per.items())]
        weeks = {}
        for a in acts:
            dt = datetime.strptime(a['createdAt'][:10], '%Y-%m-%d').replace(tzinfo=UTC)
            wk = dt - timedelta(days=dt.weekday())
            weeks.setdefault(a['platform'], {}).setdefault(wk, set()).add(a['userId'])
        trends = []
        for p in sorted(weeks):
            for wk in sorted(weeks[p]):
                cur = len(weeks[p][wk])
                prev = len(weeks[p].get(wk - timedelta(days=7), ()))
                trends.append({'week': iso(wk), 'platform': p, 'currentWeekUsers': cur, 'previousWeekUsers': prev,
                               'growthPercentage': round((cur - prev) * 100.0 / prev, 2) if prev else (100.0 if cur else 0)})
        funnel = [{'stage': 'created', 'count': len(acts)},
                  {'stage': 'responded', 'count': sum(1 for a in acts if a['_responded'])},
                  {'stage': 'closed', 'count': sum(1 for a in acts if a['_responded'] and WORKLOAD[a['status']] == 'closed')}]
        self.send_json(200, {'success': True, 'data': {'engagementPercentiles': perc, 'growthTrends': trends,
                                                       'conversionFunnel': funnel}})

    # ---- 4.13
    def h_search(self, info, org, q, rawq):
        if not (dev('D07') and 'ingest:read' in info['scopes']):
            self.need(info, 'read')
        page = parse_int(q['page'], 'page', 1, 10000) if 'page' in q else 1
        ps = parse_int(q['pageSize'], 'pageSize', 1, 100) if 'pageSize' in q else (20 if dev('D03') else 50)
        terms = parse_dsl(rawq.get('filter', ''))
        acts = [a for a in load_actions(org) if dsl_match(a, terms)]
        cap = 10000
        total = min(len(acts), cap)
        items = [summary(org, a, False, True) for a in acts[(page - 1) * ps:page * ps]]
        self.send_json(200, {'success': True, 'data': items, 'totalRecords': total, 'totalRecordsCapped': len(acts) > cap,
                             'currentPage': page, 'pageSize': ps, 'totalPages': math.ceil(total / ps)})

    # ---- 4.14 - 4.16
    def _mod_gate(self, info, org):
        self.need(info, 'write')
        if ORGS[org]['moderationMode'] != 'ad_policy':
            self.read_body()
            raise BadInput('Moderation intake is not enabled for this organization', 403,
                           {'message': 'The organization is not configured for the ad_policy moderation mode.',
                            'supported': ['ad_policy']})

    def _mod_body(self):
        try:
            return self.json_body()
        except BadInput as e:
            if e.status == 400:
                e.extra = {'message': e.msg}
            raise

    def h_mod_single(self, info, org, q, rawq):
        self._mod_gate(info, org)
        c = self._mod_body()
        if not isinstance(c, dict):
            raise BadInput('Request body must be a JSON object', 400, {'message': 'Expected a moderation case object'})
        missing, invalid, errors = validate_case(c)
        if missing or invalid:
            code = 'MODERATION_INPUT_INCOMPLETE' if missing else 'MODERATION_INPUT_INVALID'
            raise BadInput('Validation failed', 422, {'message': '; '.join(errors)[:2000], 'code': code,
                                                      'missingFields': missing, 'invalidFields': invalid})
        kind, payload = submit_case(org, c)
        if kind == 'conflict':
            raise BadInput('externalId already exists with different content', 409,
                           {'message': 'externalId "%s" is immutable; submit a new externalId for changed content' % c['externalId'][:256]})
        self.send_json(202, payload)

    def h_mod_batch(self, info, org, q, rawq):
        self._mod_gate(info, org)
        b = self._mod_body()
        if not isinstance(b, dict) or not isinstance(b.get('cases'), list):
            raise BadInput('Body must be an object with a cases array', 400, {'message': 'cases is required'})
        if not 1 <= len(b['cases']) <= 100:
            raise BadInput('cases must hold 1..100 items', 400, {'message': 'cases must hold 1..100 items'})
        results = []
        for c in b['cases']:
            ext = c.get('externalId') if isinstance(c, dict) and isinstance(c.get('externalId'), str) else None
            missing, invalid, errors = validate_case(c)
            if missing or invalid:
                results.append({'externalId': ext, 'caseId': None, 'status': 'rejected', 'errors': errors,
                                'message': 'Validation failed',
                                'code': 'MODERATION_INPUT_INCOMPLETE' if missing else 'MODERATION_INPUT_INVALID',
                                'missingFields': missing, 'invalidFields': invalid})
                continue
            kind, payload = submit_case(org, c)
            if kind == 'conflict':
                results.append({'externalId': ext, 'caseId': None, 'status': 'rejected',
                                'errors': ['externalId already exists with different content'],
                                'message': 'Immutable externalId conflict'})
            else:
                results.append(payload)
        if dev('D11'):
            results = [r for r in results if r['status'] != 'rejected'] + [r for r in results if r['status'] == 'rejected']
        self.send_json(202, {'results': results})

    def h_mod_get(self, info, org, q, rawq, cid):
        self.need(info, 'read')
        with DBL:
            row = DB.execute('SELECT case_id, external_id, evaluation_id, created, body FROM mod_case WHERE org=? AND case_id=?',
                             (org, cid)).fetchone()
        if not row:
            raise BadInput('Moderation case not found', 404)
        self.send_json(200, case_status(row))

    # ---- 4.17
    def h_ingest(self, info, org, q, rawq):
        if 'ingest' not in info['scopes']:
            self.read_body()
            raise BadInput('This API key lacks the "ingest" scope', 403)
        try:
            b = self.json_body()
        except BadInput as e:
            if e.status != 400:
                raise
            raise BadInput(e.msg, 422)
        errs = validate_ingest(b)
        if errs:
            first = sorted(errs)[0]
            raise BadInput('Validation failed: %s %s' % (first, errs[first]), 422, {'details': errs})
        with DBL:
            for r in b['records']:
                DB.execute('INSERT OR REPLACE INTO ingested VALUES(?,?,?,?,?,?)',
                           (org, b['platform'], b['serverId'], r['externalId'], json.dumps(r), time.time()))
            DB.commit()
        self.send_json(202, {'status': 'accepted', 'accepted': len(b['records'])})


def main():
    seed()
    with open(os.environ.get('KEYS_FILE') or os.path.join(HERE, 'keys.json'), 'w') as f:
        json.dump(KEYS, f, indent=2)
    port = int(os.environ.get('PORT', '0') or 0)
    srv = ThreadingHTTPServer(('127.0.0.1', port), Handler)
    srv.daemon_threads = True
    def _term(*a):
        raise SystemExit(0)
    signal.signal(signal.SIGTERM, _term)
    sys.stdout.write('listening http://127.0.0.1:%d\n' % srv.server_address[1])
    sys.stdout.flush()
    try:
        srv.serve_forever()
    except (KeyboardInterrupt, SystemExit):
        pass
    srv.server_close()


if __name__ == '__main__':
    main()
