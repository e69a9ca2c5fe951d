// Utilities and deterministic seed data.
#include "model.hpp"
#include <chrono>
#include <cstring>
#include <cctype>

Store G;
std::set<std::string> DEV;

int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

static int64_t daysFromCivil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}
static void civilFromDays(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = (unsigned)(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = (int64_t)yoe + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y += (m <= 2);
}
static int64_t floorDiv(int64_t a, int64_t b) { int64_t q = a / b; if ((a % b) && ((a < 0) != (b < 0))) q--; return q; }

std::string fmtTime(int64_t ms) {
    int64_t days = floorDiv(ms, 86400000LL);
    int64_t rem = ms - days * 86400000LL;
    int64_t y; unsigned m, d;
    civilFromDays(days, y, m, d);
    char b[40];
    snprintf(b, sizeof b, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ", (long long)y, m, d,
             (long long)(rem / 3600000), (long long)(rem / 60000 % 60), (long long)(rem / 1000 % 60), (long long)(rem % 1000));
    return b;
}
std::string fmtDay(int64_t ms) { return fmtTime(ms).substr(0, 10); }
int64_t dayStart(int64_t ms) { return floorDiv(ms, 86400000LL) * 86400000LL; }
std::string fmtDuration(int64_t sec) {
    // ISO 8601 duration, e.g. PT1H2M3S
    std::string r = "PT";
    int64_t h = sec / 3600, m = sec / 60 % 60, s = sec % 60;
    if (h) r += std::to_string(h) + "H";
    if (m) r += std::to_string(m) + "M";
    if (s || (!h && !m)) r += std::to_string(s) + "S";
    return r;
}

static bool digits(const std::string& s, size_t p, size_t n, int& out) {
    if (p + n > s.size()) return false;
    out = 0;
    for (size_t i = p; i < p + n; i++) { if (!isdigit((unsigned char)s[i])) return false; out = out * 10 + (s[i] - '0'); }
    return true;
}

bool parseTime(const std::string& s, int64_t& out, bool& dateOnly, bool requireTime) {
    int y, mo, d;
    if (s.size() < 10 || !digits(s, 0, 4, y) || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' || !digits(s, 8, 2, d)) return false;
    if (mo < 1 || mo > 12 || d < 1) return false;
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int md = mdays[mo - 1];
    if (mo == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) md = 29;
    if (d > md) return false;
    int64_t base = daysFromCivil(y, mo, d) * 86400000LL;
    if (s.size() == 10) {
        if (requireTime) return false;
        dateOnly = true; out = base; return true;
    }
    dateOnly = false;
    if (s[10] != 'T' && s[10] != 't' && !(s[10] == ' ' && !requireTime)) return false;
    int hh, mi, ss = 0;
    size_t p = 11;
    if (!digits(s, p, 2, hh) || p + 2 >= s.size() + 0 || s[p + 2] != ':' || !digits(s, p + 3, 2, mi)) return false;
    p += 5;
    bool haveSec = false;
    if (p < s.size() && s[p] == ':') { if (!digits(s, p + 1, 2, ss)) return false; p += 3; haveSec = true; }
    if (requireTime && !haveSec) return false;
    if (hh > 23 || mi > 59 || ss > 59) return false;
    int64_t frac = 0;
    if (p < s.size() && s[p] == '.') {
        if (!haveSec) return false;
        p++; size_t st = p; int64_t scale = 100;
        while (p < s.size() && isdigit((unsigned char)s[p])) { frac += (s[p] - '0') * scale; scale /= 10; p++; }
        if (p == st) return false;
    }
    int64_t off = 0;
    if (p == s.size()) { if (requireTime) return false; }
    else if ((s[p] == 'Z' || s[p] == 'z') && p + 1 == s.size()) {}
    else if ((s[p] == '+' || s[p] == '-') && p + 6 == s.size() && s[p + 3] == ':') {
        int oh, om;
        if (!digits(s, p + 1, 2, oh) || !digits(s, p + 4, 2, om) || oh > 23 || om > 59) return false;
        off = (oh * 60 + om) * 60000LL * (s[p] == '+' ? 1 : -1);
    } else return false;
    out = base + hh * 3600000LL + mi * 60000LL + ss * 1000LL + frac - off;
    return true;
}

size_t utf8Len(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s) if ((c & 0xC0) != 0x80) n++;
    return n;
}
std::string lower(std::string s) { for (auto& c : s) c = (char)tolower((unsigned char)c); return s; }
uint64_t fnv64(const std::string& s) { uint64_t h = 1469598103934665603ULL; for (unsigned char c : s) { h ^= c; h *= 1099511628211ULL; } return h; }
std::string hex64(uint64_t v) { char b[20]; snprintf(b, sizeof b, "%016llx", (unsigned long long)v); return b; }

// ---------------------------------------------------------------- seed
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
    int range(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }
    double unit() { return (next() % 1000000) / 1000000.0; }
    template <class V> const typename V::value_type& pick(const V& v) { return v[next() % v.size()]; }
};

static const std::vector<std::string> PLATFORMS = {"TWITTER", "DISCORD", "SLACK", "ZENDESK", "INSTAGRAM", "FACEBOOK"};
static const std::vector<std::string> STATUSES = {"OPEN", "IN_PROGRESS", "CLOSED", "CLOSED", "CLOSED", "CANCELLED"};
static const std::vector<std::string> SENTS = {"Very Negative", "Negative", "Neutral", "Positive"};
static const std::vector<std::string> FIRST = {"Ana", "Bruno", "Chen", "Dara", "Emeka", "Fatima", "Goran", "Hana", "Ivo", "Jun", "Kofi", "Lena", "Mateo", "Nia", "Omar", "Priya"};
static const std::vector<std::string> TOPICS = {"refund for double charge", "login loop on mobile", "feature idea: dark mode", "slow dashboard", "invoice missing", "API rate errors", "cannot reset password", "shipping delay", "great support, thanks", "account locked"};

static void indexOrg(Org& o) {
    std::stable_sort(o.actions.begin(), o.actions.end(), [](const Action& a, const Action& b) {
        if (a.createdAt != b.createdAt) return a.createdAt > b.createdAt;
        return a.id < b.id;
    });
    o.actionIdx.clear();
    for (size_t i = 0; i < o.actions.size(); i++) o.actionIdx[o.actions[i].id] = i;
    o.agentIdx.clear();
    for (size_t i = 0; i < o.agents.size(); i++) o.agentIdx[o.agents[i].id] = i;
}

static Action makeAction(Org& o, Rng& r, const std::string& id, int64_t created, const std::string& prefix, bool forceResponded) {
    Action a;
    a.id = id;
    a.platform = r.pick(PLATFORMS);
    std::string topic = r.pick(TOPICS);
    a.title = prefix + " " + topic;
    a.summary = "Customer reports: " + topic + " (" + a.platform + ")";
    a.status = r.pick(STATUSES);
    a.recordType = (r.range(0, 9) == 0) ? OStr() : OStr(a.platform == "TWITTER" ? "TWEET" : (a.platform == "ZENDESK" ? "TICKET" : "MESSAGE"));
    a.isPublic = (a.platform == "TWITTER" || a.platform == "INSTAGRAM" || a.platform == "FACEBOOK") && r.range(0, 3) != 0;
    if (a.isPublic) a.sourceURL = "https://social.example.com/" + lower(a.platform) + "/post/" + std::to_string(r.next() % 100000000);
    int qi = r.range(-1, (int)o.queues.size() - 1);
    if (r.range(0, 6) == 0) qi = -1;
    if (qi >= 0) a.queue = o.queues[qi].name;
    int iq = r.range(0, 4) == 0 ? r.range(0, (int)o.queues.size() - 1) : qi;
    if (iq >= 0) a.initialQueue = o.queues[iq].name;
    int si = r.range(-1, 3);
    if (si >= 0) {
        a.sentiment = SENTS[si];
        a.sentimentScore = std::round((-1.0 + si * 0.6 + r.unit() * 0.3) * 100) / 100;
    }
    if (r.range(0, 4) == 0) a.moderation = r.range(0, 1) ? "SAFE" : "FLAGGED";
    bool responded = forceResponded || r.range(0, 9) < 8;
    a.assignee = (responded || r.range(0, 2) == 0) ? r.range(0, (int)o.agents.size() - 1) : -1;
    std::string fn = r.pick(FIRST);
    a.userName = fn + " " + std::string(1, (char)('A' + r.range(0, 25))) + ".";
    a.userUsername = "@" + lower(fn) + std::to_string(r.range(1, 999));
    a.userId = std::to_string(100000 + r.range(0, 60));
    if (r.range(0, 2)) a.userEmail = lower(fn) + "@customer.example.org";
    if (a.isPublic) a.followerCount = r.range(0, 50000);
    a.createdAt = created;
    a.initialMessageTime = created - r.range(0, 600) * 1000LL;
    int nUser = r.range(1, 4);
    int nAgent = responded ? r.range(1, 3) : 0;
    a.serverName = o.name + " " + a.platform + " account";
    a.channelName = a.platform == "DISCORD" ? "#support" : (a.platform == "SLACK" ? "#help-desk" : "inbox");
    int64_t t = *a.initialMessageTime;
    int mid = 0;
    std::string prevId;
    std::vector<int> seq;  // 0 user, 1 agent
    { int u = nUser - 1, g = nAgent; seq.push_back(0); while (u > 0 || g > 0) { if (g > 0) { seq.push_back(1); g--; } if (u > 0) { seq.push_back(0); u--; } } }
    for (size_t k = 0; k < seq.size(); k++) {
        bool agentTurn = seq[k] == 1;
        Message m;
        m.id = id + "-m" + std::to_string(++mid);
        m.ts = t;
        if (agentTurn && a.assignee >= 0) {
            m.author = o.agents[a.assignee].name; m.authorId = o.agents[a.assignee].id; m.authorType = "AGENT";
            m.text = "Thanks for reaching out, we're looking into it.";
        } else if (agentTurn) {
            m.author = "AutoBot"; m.authorId = std::string("bot-1"); m.authorType = "BOT"; m.text = "An agent will be with you shortly.";
        } else {
            m.author = a.userName; m.authorId = a.userId; m.authorType = "USER";
            m.text = k == 0 ? ("Hi, I need help: " + topic) : "Any update on this?";
        }
        if (!prevId.empty()) m.parentId = prevId;
        if (k == 0 && r.range(0, 4) == 0) m.media.push_back("https://cdn.example.com/media/" + id + ".png");
        prevId = m.id;
        a.messages.push_back(m);
        t += r.range(30, 900) * 1000LL;
    }
    // keep every timestamp in the past
    {
        int64_t limit = G.startMs - 60000LL * (int64_t)a.messages.size();
        for (size_t k = 0; k < a.messages.size(); k++) {
            int64_t cap = limit + 60000LL * (int64_t)k;
            if (a.messages[k].ts > cap) a.messages[k].ts = std::max<int64_t>(cap, k ? a.messages[k - 1].ts + 1000 : cap);
        }
        t = a.messages.empty() ? t : a.messages.back().ts;
        if (!a.messages.empty()) a.initialMessageTime = a.messages[0].ts;
    }
    a.totalMessages = (int)a.messages.size();
    for (auto& m : a.messages) { if (m.authorType == "USER") a.totalUserMessages++; else a.totalAgentMessages++; }
    if (a.totalAgentMessages == 0) responded = false;
    if (responded) {
        for (auto& m : a.messages) if (m.authorType != "USER") { a.initialResponseTime = m.ts; break; }
        a.firstResponseSec = (*a.initialResponseTime - *a.initialMessageTime) / 1000;
        a.claimTime = *a.initialMessageTime + r.range(10, 300) * 1000LL;
    }
    if (a.status == "CLOSED" || a.status == "CANCELLED") {
        a.closeTime = std::min<int64_t>(t + r.range(60, 7200) * 1000LL, G.startMs - 1000);
        a.handleSec = (*a.closeTime - *a.initialMessageTime) / 1000;
        if (a.status == "CLOSED" && r.range(0, 2) == 0) {
            a.csatScore = std::to_string(r.range(1, 5));
            if (r.range(0, 1)) a.csatFeedback = r.range(0, 1) ? "Quick and helpful" : "Took too long";
        }
    }
    a.updatedAt = a.closeTime ? *a.closeTime : t;
    if (r.range(0, 19) == 0) a.updatedAt.reset();
    if (r.range(0, 3)) a.estimatedCSAT = std::round((1 + r.unit() * 4) * 10) / 10;
    int nt = r.range(0, 3);
    for (int k = 0; k < nt; k++) {
        int ti = r.range(0, (int)o.tags.size() - 1);
        if (std::find(a.tags.begin(), a.tags.end(), ti) == a.tags.end()) a.tags.push_back(ti);
    }
    if (a.closeTime && r.range(0, 1)) a.closingTags.push_back(r.range(0, (int)o.tags.size() - 1));
    a.rootMessageText = a.messages.empty() ? OStr() : OStr(a.messages[0].text);
    if (r.range(0, 3) == 0 && a.assignee >= 0) a.comments.push_back({"Internal note: follow up tomorrow", o.agents[a.assignee].id, o.agents[a.assignee].name});
    a.threadId = "th-" + id;
    if (r.range(0, 4)) a.easyId = "CASE-" + std::to_string(1000 + (fnv64(o.id + id) % 9000));
    a.contributors = a.userName + (a.assignee >= 0 ? ", " + o.agents[a.assignee].name : "");
    a.actionability = std::round(r.unit() * 100) / 100;
    a.relevance = std::round(r.unit() * 100) / 100;
    a.resolutionQuality = std::round(r.unit() * 500) / 100;
    a.sentimentChange = std::round((r.unit() - 0.4) * 100) / 100;
    a.rubricScore = std::round(r.unit() * 1000) / 100;
    return a;
}

static void setCF(Action& a, const std::string& n, const std::string& json) {
    a.custom[n] = CFValue{json, "{\"source\":\"seed\",\"updatedAt\":" + js::q(fmtTime(a.createdAt)) + "}"};
}

static void seedCustomValues(Org& o, Rng& r) {
    for (auto& a : o.actions) {
        if (r.range(0, 2) != 0) continue;
        for (auto& f : o.fields) {
            if (r.range(0, 1)) continue;
            std::string v;
            if (f.type == "text") v = js::q("note " + std::to_string(r.range(1, 99)));
            else if (f.type == "number") v = js::num(r.range(1, 5000) / 10.0);
            else if (f.type == "boolean") v = r.range(0, 1) ? "true" : "false";
            else if (f.type == "date") v = js::q(fmtDay(a.createdAt + 86400000LL * r.range(1, 14)));
            else if (f.type == "select") v = js::q(f.options[r.range(0, (int)f.options.size() - 1)]);
            else if (f.type == "multi_select") v = "[" + js::q(f.options[0]) + (r.range(0, 1) ? "," + js::q(f.options[2]) : "") + "]";
            setCF(a, f.name, v);
        }
    }
}

void seedStore(int64_t now) {
    G.startMs = now;
    G.orgs.resize(3);
    // ---------------- org A
    {
        Org& o = G.orgs[0];
        o.id = "org_a"; o.name = "Acme"; o.adPolicy = true;
        o.agents = {{"agent-001", "Alice Agent", "alice@acme.example", "AGENT"},
                    {"agent-002", "Bob Builder", "bob@acme.example", "AGENT"},
                    {"0042", "Zero Fortytwo", "z42@acme.example", "SUPERVISOR"},
                    {"9007199254740995", "Big Number", "big@acme.example", "AGENT"},
                    {"søren/ops+1", "Søren Ops", "soren@acme.example", "ADMIN"},
                    {"agent-006", "Idle Ida", "ida@acme.example", "AGENT"}};
        o.tags = {{"tag-billing", "Billing Issue", "Topic"}, {"tag-bug", "Bug", "Topic"}, {"tag-feature", "Feature Request", "Topic"},
                  {"tag-vip", "VIP", "Customer"}, {"tag-churn", "Churn Risk", "Risk"}, {"tag-refund", "Refund", "Topic"},
                  {"tag-login", "Login", "Product"}, {"tag-ünï", "Ünïcødé Tag", "Misc"}, {"tag-praise", "Praise", "Feedback"},
                  {"tag-shipping", "Shipping", "Product"}};
        o.queues = {{"q-billing", "Billing"}, {"q-tech", "Technical Support"}, {"q-sales", "Sales"}, {"q-esc", "Escalations"}};
        o.fields = {{"priority_level", "Priority level", "select", {"low", "medium", "high", "urgent"}},
                    {"region", "Region", "text", {}},
                    {"order_value", "Order value", "number", {}},
                    {"is_vip", "Is VIP", "boolean", {}},
                    {"follow_up_date", "Follow-up date", "date", {}},
                    {"product_areas", "Product areas", "multi_select", {"billing", "mobile", "web", "api"}}};
        Rng r(0xA11CE);
        // the agent "agent-006" never gets actions: make assignment avoid it by regenerating
        for (int i = 1; i <= 700; i++) {
            char id[16]; snprintf(id, sizeof id, "A-%04d", i);
            int64_t created = now - 3600000LL - (int64_t)((60.0 * 86400000.0) * (i - 1) / 700.0) - r.range(0, 600) * 1000LL;
            Action a = makeAction(o, r, id, created, "Acme:", false);
            if (a.assignee == 5) a.assignee = 0;
            o.actions.push_back(std::move(a));
        }
        struct H { const char* id; int64_t ago; };
        H hard[] = {{"9007199254740993", 20 * 60000LL}, {"000123", 2 * 3600000LL}, {"ação-ünï-é", 5 * 3600000LL},
                    {"id with/slash?&#%=+ space", 8 * 3600000LL}};
        for (auto& h : hard) {
            Action a = makeAction(o, r, h.id, now - h.ago, "Acme special:", true);
            if (a.assignee == 5) a.assignee = 0;
            o.actions.push_back(std::move(a));
        }
        // hard user / assignee ids on the hard-id records
        for (auto& a : o.actions) {
            if (a.id == "9007199254740993") { a.userId = "9007199254740993"; a.assignee = 3; a.status = "OPEN"; a.queue = "Billing"; a.tags = {0, 3}; }
            if (a.id == "000123") { a.userId = "000777"; a.assignee = 2; a.status = "OPEN"; }
            if (a.id == "ação-ünï-é") { a.userId = "user/ü?#1"; a.assignee = 4; a.tags = {7}; }
            if (a.id == "id with/slash?&#%=+ space") { a.userId = "12345678901234567890"; a.assignee = 4; }
        }
        seedCustomValues(o, r);
        indexOrg(o);
        // pinned custom values
        Action& p = o.actions[o.actionIdx["000123"]];
        setCF(p, "priority_level", "\"high\"");
        setCF(p, "order_value", "129.5");
        setCF(p, "is_vip", "true");
    }
    // ---------------- org B (overlapping ids, different content)
    {
        Org& o = G.orgs[1];
        o.id = "org_b"; o.name = "Globex"; o.adPolicy = true;
        o.agents = {{"agent-001", "Other Otto", "otto@globex.example", "AGENT"}, {"agent-900", "Globex Gina", "gina@globex.example", "AGENT"}};
        o.tags = {{"tag-billing", "Globex Billing", "Money"}, {"tag-other", "Other", "Misc"}, {"tag-urgent", "Urgent", "Priority"}};
        o.queues = {{"q-billing", "Globex Billing Desk"}, {"q-general", "General"}};
        o.fields = {{"priority_level", "Priority (text)", "text", {}}, {"budget", "Budget", "number", {}}};
        Rng r(0xB0B);
        for (int i = 1; i <= 150; i++) {
            char id[16]; snprintf(id, sizeof id, "A-%04d", i);
            int64_t created = now - 1800000LL - (int64_t)((60.0 * 86400000.0) * (i - 1) / 150.0);
            o.actions.push_back(makeAction(o, r, id, created, "Globex:", false));
        }
        o.actions.push_back(makeAction(o, r, "9007199254740993", now - 30 * 60000LL, "Globex special:", true));
        o.actions.push_back(makeAction(o, r, "000123", now - 3 * 3600000LL, "Globex special:", true));
        seedCustomValues(o, r);
        indexOrg(o);
    }
    // ---------------- org C (not in ad_policy moderation mode)
    {
        Org& o = G.orgs[2];
        o.id = "org_c"; o.name = "Initech"; o.adPolicy = false;
        o.agents = {{"agent-c1", "Carl C", "carl@initech.example", "AGENT"}};
        o.tags = {{"tag-c", "Initech Tag", "Misc"}};
        o.queues = {{"q-c", "Initech Queue"}};
        o.fields = {{"note", "Note", "text", {}}};
        Rng r(0xC0C);
        for (int i = 1; i <= 30; i++) {
            char id[16]; snprintf(id, sizeof id, "C-%04d", i);
            o.actions.push_back(makeAction(o, r, id, now - 3600000LL * 12 * i, "Initech:", false));
        }
        indexOrg(o);
    }
    // ---------------- seeded moderation cases
    auto addCase = [&](int oi, const std::string& cid, const std::string& ext, const std::string& st, const std::string& fc, const std::string& disp) {
        Org& o = G.orgs[oi];
        ModCase c;
        c.caseId = cid; c.externalId = ext; c.evaluationId = "ev_seed_" + cid;
        c.canonical = "seed:" + cid; c.canonicalNoMedia = c.canonical;
        c.idemKey = "idem_" + hex64(fnv64(o.id + "|" + ext));
        c.submittedMs = now - 86400000LL;
        c.forcedStatus = true; c.status = st; c.failureCode = fc;
        c.disposition = disp; c.confidence = "high"; c.reason = "Seeded evaluation";
        c.advPolarity = "POSITIVE"; c.landPolarity = disp == "reject" ? "NEGATIVE" : "POSITIVE";
        G.caseIdx[cid] = {oi, o.cases.size()};
        o.caseByExt[ext] = o.cases.size();
        o.cases.push_back(c);
    };
    addCase(0, "mc_seed_a_completed", "seed-ext-1", "completed", "", "approve");
    addCase(0, "mc_seed_a_failed", "seed-ext-2", "failed", "POLICY_EVALUATION_TIMEOUT", "");
    addCase(0, "mc_seed_a_running", "seed-ext-3", "running", "", "");
    addCase(0, "mc_seed_a_unconfigured", "seed-ext-4", "policy_not_configured", "", "");
    addCase(1, "mc_seed_b_completed", "seed-ext-1", "completed", "", "reject");
}
