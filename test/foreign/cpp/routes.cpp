// REST routes of the Customer-Conversation Analytics Service.
#include "model.hpp"
#include <cmath>
#include <algorithm>
#include <functional>
#include <array>
#include <climits>

using js::Obj;
using js::Arr;
using js::Val;

static const int64_t DAY = 86400000LL;

// ------------------------------------------------------------ helpers
static void err(Response& rs, int st, const std::string& msg) {
    rs.status = st;
    rs.body = Obj().b("success", false).str("error", msg).done();
}
static const std::string* qget(const Request& rq, const std::string& k) {
    for (auto& p : rq.query) if (p.first == k) return &p.second;
    return nullptr;
}
static std::string ostr(const OStr& s) { return s ? js::q(*s) : "null"; }
static std::string onum(const ONum& d) { return d ? js::num(*d) : "null"; }
static std::string otime(const OTime& t) { return t ? js::q(fmtTime(*t)) : "null"; }

enum Need { NEED_READ, NEED_WRITE, NEED_INGEST };

// Returns the key or nullptr (response already filled).
static const ApiKey* auth(const Request& rq, Response& rs, Need need, bool analyticsRoute = false) {
    auto h = rq.headers.find("x-api-key");
    if (h == rq.headers.end() || h->second.empty()) { err(rs, 401, "Missing API key"); return nullptr; }
    auto it = G.keyIdx.find(h->second);
    if (it == G.keyIdx.end()) { err(rs, 401, "Invalid API key"); return nullptr; }
    const ApiKey& k = G.keys[it->second];
    if (k.expired) { err(rs, 401, "API key expired"); return nullptr; }
    if (k.revoked && !(analyticsRoute && dev("C11"))) { err(rs, 401, "API key revoked"); return nullptr; }
    bool ok = need == NEED_READ ? k.read : need == NEED_WRITE ? k.write : (k.ingest || (dev("C09") && k.write));
    if (!ok) {
        const char* m = need == NEED_READ ? "Forbidden: this key lacks the read scope" :
                        need == NEED_WRITE ? "Forbidden: this key lacks the write scope" : "Forbidden: this key lacks the ingest scope";
        err(rs, 403, m);
        return nullptr;
    }
    return &k;
}

// strict integer parse
static bool parseInt(const std::string& s, long long& out) {
    if (s.empty() || s.size() > 12) return false;
    size_t i = 0; bool neg = false;
    if (s[0] == '-') { neg = true; i = 1; if (s.size() == 1) return false; }
    long long v = 0;
    for (; i < s.size(); i++) { if (s[i] < '0' || s[i] > '9') return false; v = v * 10 + (s[i] - '0'); }
    out = neg ? -v : v;
    return true;
}
// integer query param with range; returns false and fills 400 on error
static bool intParam(const Request& rq, Response& rs, const std::string& name, long long def, long long lo, long long hi, long long& out) {
    const std::string* v = qget(rq, name);
    if (!v) { out = def; return true; }
    long long x;
    if (!parseInt(*v, x)) { err(rs, 400, name + " must be an integer"); return false; }
    if (x < lo || x > hi) { err(rs, 400, name + " must be between " + std::to_string(lo) + " and " + std::to_string(hi)); return false; }
    out = x;
    return true;
}
static bool boolParam(const Request& rq, Response& rs, const std::string& name, bool def, bool& out) {
    const std::string* v = qget(rq, name);
    if (!v) { out = def; return true; }
    if (*v == "true") out = true;
    else if (*v == "false") out = false;
    else { err(rs, 400, name + " must be true or false"); return false; }
    return true;
}

// from/to window. defaultDays: length of default window ending now.
static bool windowParams(const Request& rq, Response& rs, int defaultDays, int64_t& from, int64_t& to) {
    const std::string* f = qget(rq, "from");
    const std::string* t = qget(rq, "to");
    int64_t now = nowMs();
    bool dOnly;
    if (t) {
        if (!parseTime(*t, to, dOnly)) { err(rs, 400, "to must be an ISO 8601 date or timestamp"); return false; }
        if (dOnly && dev("C02")) to += DAY - 1;
    } else to = now;
    if (f) {
        if (!parseTime(*f, from, dOnly)) { err(rs, 400, "from must be an ISO 8601 date or timestamp"); return false; }
    } else from = to - defaultDays * DAY;
    if (from > to) { err(rs, 400, "from must not be after to"); return false; }
    return true;
}

static std::vector<std::string> splitComma(const std::string& s) {
    std::vector<std::string> r;
    std::string cur;
    for (char c : s + ",") {
        if (c == ',') {
            size_t b = cur.find_first_not_of(" \t"), e = cur.find_last_not_of(" \t");
            if (b != std::string::npos) r.push_back(cur.substr(b, e - b + 1));
            cur.clear();
        } else cur += c;
    }
    return r;
}

// ------------------------------------------------------------ serializers
static std::string tagsJson(const Org& o, const std::vector<int>& t) {
    Arr a;
    for (int i : t) a.raw(Obj().str("value", o.tags[i].name).str("group", o.tags[i].group).done());
    return a.done();
}
static std::string customJson(const Action& a) {
    Obj o;
    for (auto& p : a.custom) o.raw(p.first, p.second.json);
    return o.done();
}
static std::string serviceURL(const Org& o, const Action& a) {
    std::string enc;
    for (unsigned char c : a.id) {
        if (isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') enc += (char)c;
        else { char b[4]; snprintf(b, sizeof b, "%%%02X", c); enc += b; }
    }
    return "https://app.cca.example/" + o.id + "/actions/" + enc;
}
static std::string conversationArr(const Action& a) {
    Arr arr;
    for (auto& m : a.messages) {
        Arr media; for (auto& u : m.media) media.str(u);
        arr.raw(Obj().str("id", m.id).str("timestamp", fmtTime(m.ts)).str("author", m.author).raw("authorId", ostr(m.authorId))
                    .str("authorType", m.authorType).str("message", m.text).raw("parentMessageId", ostr(m.parentId)).raw("mediaUrls", media.done()).done());
    }
    return arr.done();
}
static std::string messagesArr(const Action& a) {
    Arr arr;
    for (auto& m : a.messages) {
        Arr media; for (auto& u : m.media) media.str(u);
        Obj o; o.str("id", m.id).str("timestamp", fmtTime(m.ts)).str("author", m.author);
        if (m.authorId) o.str("authorId", *m.authorId);
        o.str("authorType", m.authorType).str("message", m.text).raw("mediaUrls", media.done());
        arr.raw(o.done());
    }
    return arr.done();
}
static std::string roundedId(const std::string& s) {
    // (used only by a planted deviation) numeric-looking ids passed through a double
    if (s.empty() || s.size() > 20) return s;
    for (char c : s) if (c < '0' || c > '9') return s;
    if (s.size() < 16) return s;
    double d = strtod(s.c_str(), nullptr);
    char b[40]; snprintf(b, sizeof b, "%.0f", d);
    return b;
}
static std::string summaryJson(const Org& o, const Action& a, bool fullConv, bool search) {
    Obj j;
    const Agent* ag = a.assignee >= 0 ? &o.agents[a.assignee] : nullptr;
    j.str("actionId", a.id).str("actionTitle", a.title).str("actionSummary", a.summary).str("status", a.status).str("platform", a.platform)
        .raw("recordType", ostr(a.recordType)).b("isPublicPost", a.isPublic).str("serviceURL", serviceURL(o, a)).raw("sourceURL", ostr(a.sourceURL))
        .raw("queue", ostr(a.queue)).raw("initialQueue", ostr(a.initialQueue)).raw("sentiment", ostr(a.sentiment)).raw("sentimentScore", onum(a.sentimentScore))
        .raw("moderation", ostr(a.moderation))
        .raw("assigneeName", ag ? js::q(ag->name) : "null").raw("assigneeEmail", ag ? js::q(ag->email) : "null")
        .raw("assigneeUserId", ag ? js::q(ag->id) : "null").raw("assigneeRole", ag ? js::q(ag->role) : "null")
        .str("userName", a.userName).str("userUsername", a.userUsername)
        .str("userId", (search && dev("C03")) ? roundedId(a.userId) : a.userId)
        .raw("userEmail", ostr(a.userEmail)).raw("userFollowerCount", a.followerCount ? js::num((double)*a.followerCount) : "null")
        .str("createdAt", fmtTime(a.createdAt)).raw("updatedAt", otime(a.updatedAt)).raw("initialMessageTime", otime(a.initialMessageTime))
        .raw("initialResponseTime", otime(a.initialResponseTime)).raw("closeTime", otime(a.closeTime)).raw("claimTime", otime(a.claimTime))
        .raw("firstResponseTime", a.firstResponseSec ? js::q(fmtDuration(*a.firstResponseSec)) : "null")
        .raw("handleTime", a.handleSec ? js::q(fmtDuration(*a.handleSec)) : "null")
        .str("serverName", a.serverName).str("channelName", a.channelName).raw("csatScore", ostr(a.csatScore)).raw("csatFeedback", ostr(a.csatFeedback))
        .raw("estimatedCSAT", onum(a.estimatedCSAT)).n("totalMessages", a.totalMessages).n("totalUserMessages", a.totalUserMessages)
        .n("totalAgentMessages", a.totalAgentMessages).raw("tags", tagsJson(o, a.tags)).raw("closingTags", tagsJson(o, a.closingTags))
        .raw("customFields", customJson(a)).raw("rootMessageText", ostr(a.rootMessageText))
        .raw("conversationJson", fullConv ? js::q(conversationArr(a)) : "null");
    if (search) j.str("threadId", a.threadId).raw("easyId", ostr(a.easyId)).raw("contributors", ostr(a.contributors));
    return j.done();
}
static std::string detailJson(const Org& o, const Action& a) {
    const Agent* ag = a.assignee >= 0 ? &o.agents[a.assignee] : nullptr;
    std::string user = Obj().str("name", a.userName).str("username", a.userUsername).str("userId", a.userId).raw("email", ostr(a.userEmail))
                           .raw("followerCount", a.followerCount ? js::num((double)*a.followerCount) : "null").done();
    std::string asg = Obj().raw("name", ag ? js::q(ag->name) : "null").raw("email", ag ? js::q(ag->email) : "null")
                          .raw("userId", ag ? js::q(ag->id) : "null").raw("role", ag ? js::q(ag->role) : "null").done();
    Arr comments;
    for (auto& c : a.comments) comments.raw(Obj().str("text", c.text).str("authorNativeId", c.authorNativeId).raw("authorNativeName", ostr(c.authorNativeName)).done());
    Obj j;
    j.raw("user", user).str("actionId", a.id).str("actionTitle", a.title).str("actionSummary", a.summary).str("platform", a.platform)
        .raw("recordType", ostr(a.recordType)).b("isPublicPost", a.isPublic).raw("sentiment", ostr(a.sentiment)).raw("sentimentScore", onum(a.sentimentScore))
        .raw("queue", ostr(a.queue)).raw("initialQueue", ostr(a.initialQueue)).str("status", a.status).str("createdAt", fmtTime(a.createdAt))
        .str("serviceURL", serviceURL(o, a)).raw("sourceURL", ostr(a.sourceURL)).raw("updatedAt", otime(a.updatedAt))
        .raw("initialMessageTime", otime(a.initialMessageTime)).raw("initialResponseTime", otime(a.initialResponseTime)).raw("closeTime", otime(a.closeTime))
        .raw("firstResponseTime", a.firstResponseSec ? js::q(fmtDuration(*a.firstResponseSec)) : "null")
        .raw("handleTime", a.handleSec ? js::q(fmtDuration(*a.handleSec)) : "null").raw("claimTime", otime(a.claimTime))
        .raw("assignee", asg).str("serverName", a.serverName).str("channelName", a.channelName)
        .raw("tags", tagsJson(o, a.tags)).raw("closingTags", tagsJson(o, a.closingTags)).raw("moderation", ostr(a.moderation))
        .raw("comments", comments.done()).raw("messages", messagesArr(a)).raw("rootMessageText", ostr(a.rootMessageText))
        .raw("customFields", customJson(a)).raw("csatScore", ostr(a.csatScore)).raw("csatFeedback", ostr(a.csatFeedback))
        .raw("estimatedCSAT", onum(a.estimatedCSAT)).n("totalMessages", a.totalMessages).n("totalUserMessages", a.totalUserMessages)
        .n("totalAgentMessages", a.totalAgentMessages).raw("conversation", conversationArr(a));
    return j.done();
}

// ------------------------------------------------------------ filter DSL
static const std::vector<std::string> DSL_KEYS = {"platform", "status", "queue", "initialQueue", "sentiment", "responded", "tag", "tagId",
                                                   "assigneeUserId", "userId", "actionId", "recordType", "serverName", "channelName", "isPublicPost", "text"};
struct Term { std::string key, value; };
static bool knownKey(const std::string& k) { return std::find(DSL_KEYS.begin(), DSL_KEYS.end(), k) != DSL_KEYS.end(); }

static bool parseDSL(const std::string& s, std::vector<Term>& out, std::string& emsg) {
    std::vector<std::string> pieces;
    std::string cur;
    for (char c : s) { if (c == '+') { pieces.push_back(cur); cur.clear(); } else cur += c; }
    pieces.push_back(cur);
    std::vector<std::string> terms;
    for (auto& p : pieces) {
        // a space followed by "<knownKey>=" also separates terms ('+' decoded as space in a query string)
        size_t start = 0;
        for (size_t i = 0; i < p.size(); i++) {
            if (p[i] != ' ') continue;
            size_t eq = p.find('=', i + 1);
            if (eq == std::string::npos) continue;
            std::string k = p.substr(i + 1, eq - i - 1);
            if (knownKey(k)) { terms.push_back(p.substr(start, i - start)); start = i + 1; }
        }
        terms.push_back(p.substr(start));
    }
    for (auto& t : terms) {
        size_t b = t.find_first_not_of(' ');
        if (b == std::string::npos) { if (s.find_first_not_of(' ') == std::string::npos) continue; emsg = "Empty filter term"; return false; }
        std::string tt = t.substr(b);
        while (!tt.empty() && tt.back() == ' ') tt.pop_back();
        size_t eq = tt.find('=');
        if (eq == std::string::npos || eq == 0) { emsg = "Filter term must have the form key=value: " + tt; return false; }
        Term x{tt.substr(0, eq), tt.substr(eq + 1)};
        if (!knownKey(x.key)) { emsg = "Unknown filter key: " + x.key; return false; }
        if ((x.key == "responded" || x.key == "isPublicPost") && x.value != "true" && x.value != "false") { emsg = x.key + " must be true or false"; return false; }
        out.push_back(x);
    }
    return true;
}
static bool matchOpt(const OStr& f, const std::string& v) { if (v == "null") return !f; return f && *f == v; }
static bool matchTerms(const Org& o, const Action& a, const std::vector<Term>& ts) {
    for (auto& t : ts) {
        const std::string& k = t.key; const std::string& v = t.value;
        bool ok = true;
        if (k == "platform") ok = lower(a.platform) == lower(v);
        else if (k == "status") ok = lower(a.status) == lower(v);
        else if (k == "queue") ok = matchOpt(a.queue, v);
        else if (k == "initialQueue") ok = matchOpt(a.initialQueue, v);
        else if (k == "sentiment") ok = matchOpt(a.sentiment, v);
        else if (k == "responded") ok = a.responded() == (v == "true");
        else if (k == "isPublicPost") ok = a.isPublic == (v == "true");
        else if (k == "tag" || k == "tagId") {
            ok = false;
            for (int i : a.tags) if ((k == "tag" && o.tags[i].name == v) || o.tags[i].id == v) ok = true;
        } else if (k == "assigneeUserId") ok = a.assignee >= 0 ? o.agents[a.assignee].id == v : v == "null";
        else if (k == "userId") ok = a.userId == v;
        else if (k == "actionId") ok = a.id == v;
        else if (k == "recordType") ok = matchOpt(a.recordType, v);
        else if (k == "serverName") ok = a.serverName == v;
        else if (k == "channelName") ok = a.channelName == v;
        else if (k == "text") {
            std::string lv = lower(v);
            ok = lower(a.title).find(lv) != std::string::npos || lower(a.summary).find(lv) != std::string::npos ||
                 (a.rootMessageText && lower(*a.rootMessageText).find(lv) != std::string::npos);
        }
        if (!ok) return false;
    }
    return true;
}

// ------------------------------------------------------------ 4.1 action list
static void actionList(const Request& rq, Response& rs, const Org& o) {
    const std::string* full = qget(rq, "fullFilter");
    const std::string* filter = qget(rq, "filter");
    const std::string* filterJson = qget(rq, "filterJson");
    if (full && (filter || filterJson) && !dev("C14")) return err(rs, 400, "fullFilter must not be combined with filter or filterJson");
    if (full && utf8Len(*full) > 10000) return err(rs, 400, "fullFilter must be at most 10000 characters");
    long long pageSize;
    if (!intParam(rq, rs, "pageSize", 50, 1, dev("C01") ? 501 : 500, pageSize)) return;
    std::string sortBy = "createdAt";
    if (auto s = qget(rq, "sortBy")) {
        if (*s != "createdAt" && *s != "updatedAt") return err(rs, 400, "sortBy must be createdAt or updatedAt");
        sortBy = *s;
    }
    bool fullConv;
    if (!boolParam(rq, rs, "includeFullConversation", false, fullConv)) return;
    int64_t from, to;
    if (!windowParams(rq, rs, 7, from, to)) return;
    std::vector<Term> terms;
    int responded = 1;  // 1 responded only, 0 unresponded only, -1 any
    if (full) {
        std::string emsg;
        if (!parseDSL(*full, terms, emsg)) return err(rs, 400, emsg);
        responded = -1;
        if (dev("C15")) {
            bool has = false;
            for (auto& t : terms) if (t.key == "responded") has = true;
            if (!has) responded = 1;
        }
    }
    if (filter && !full) {
        // legacy text filter: only a responded=<true|false|any> term is read
        std::string f = *filter;
        for (char& c : f) if (c == '+' || c == '&' || c == ';' || c == ',') c = ' ';
        size_t p = f.find("responded=");
        while (p != std::string::npos && p > 0 && f[p - 1] != ' ') p = f.find("responded=", p + 1);
        if (p != std::string::npos) {
            size_t e = f.find(' ', p);
            std::string v = f.substr(p + 10, e == std::string::npos ? std::string::npos : e - p - 10);
            if (v == "true") responded = 1; else if (v == "false") responded = 0; else if (v == "any" || v == "all") responded = -1;
            else return err(rs, 400, "responded must be true, false or any");
        }
    }
    if (filterJson && !full) {
        Val v;
        if (!js::parse(*filterJson, v) || !v.isObj()) return err(rs, 400, "filterJson must be a JSON object");
        if (const Val* r = v.get("responded")) {
            if (r->isBool()) responded = r->b ? 1 : 0;
            else if (r->isNull()) responded = -1;
            else return err(rs, 400, "filterJson.responded must be a boolean or null");
        }
    }
    bool byUpdated = sortBy == "updatedAt";
    std::vector<const Action*> m;
    for (auto& a : o.actions) {
        int64_t t;
        if (byUpdated) { if (!a.updatedAt) continue; t = *a.updatedAt; } else t = a.createdAt;
        if (t < from || t > to) continue;
        if (responded == 1 && !a.responded()) continue;
        if (responded == 0 && a.responded()) continue;
        if (!matchTerms(o, a, terms)) continue;
        m.push_back(&a);
    }
    if (byUpdated) std::stable_sort(m.begin(), m.end(), [](const Action* x, const Action* y) { return *x->updatedAt > *y->updatedAt; });
    Arr data;
    for (size_t i = 0; i < m.size() && (long long)i < pageSize; i++) data.raw(summaryJson(o, *m[i], fullConv, false));
    long long total = (long long)m.size();
    rs.body = Obj().raw("data", data.done()).n("totalRecords", (double)total).n("currentPage", 1).n("pageSize", (double)pageSize)
                  .n("totalPages", (double)((total + pageSize - 1) / pageSize)).done();
}

// ------------------------------------------------------------ 4.13 conversation search
static void convSearch(const Request& rq, Response& rs, const Org& o) {
    long long page, pageSize;
    if (!intParam(rq, rs, "page", 1, 1, 10000, page)) return;
    if (!intParam(rq, rs, "pageSize", dev("C13") ? 20 : 50, 1, 100, pageSize)) return;
    std::vector<Term> terms;
    if (auto f = qget(rq, "filter")) {
        std::string emsg;
        if (!parseDSL(*f, terms, emsg)) return err(rs, 400, emsg);
    }
    const long long CAP = 10000;
    std::vector<const Action*> m;
    for (auto& a : o.actions) if (matchTerms(o, a, terms)) m.push_back(&a);
    long long total = (long long)m.size();
    bool capped = total > CAP;
    if (capped) total = CAP;
    Arr data;
    long long start = (page - 1) * pageSize;
    for (long long i = start; i < (long long)m.size() && i < start + pageSize && i < CAP; i++) data.raw(summaryJson(o, *m[i], false, true));
    rs.body = Obj().b("success", true).raw("data", data.done()).n("totalRecords", (double)total).b("totalRecordsCapped", capped)
                  .n("currentPage", (double)page).n("pageSize", (double)pageSize).n("totalPages", (double)((total + pageSize - 1) / pageSize)).done();
}

// ------------------------------------------------------------ custom fields
static std::string fieldsJson(const Org& o, const Action& a) {
    Arr f;
    for (auto& d : o.fields) {
        Obj j;
        j.str("fieldName", d.name).str("displayName", d.displayName).str("fieldType", d.type);
        auto it = a.custom.find(d.name);
        j.raw("value", it == a.custom.end() ? "null" : it->second.json);
        if (it != a.custom.end() && !it->second.provenance.empty()) j.raw("provenance", it->second.provenance);
        f.raw(j.done());
    }
    return Obj().str("actionId", a.id).raw("fields", f.done()).done();
}
static std::string checkValue(const FieldDef& d, const Val& v) {
    if (v.isNull()) return "";
    if (d.type == "text") return v.isStr() ? (utf8Len(v.raw) <= 10000 ? "" : "must be at most 10000 characters") : "must be a string";
    if (d.type == "number") return v.isNum() ? "" : "must be a number";
    if (d.type == "boolean") return v.isBool() ? "" : "must be a boolean";
    if (d.type == "date") {
        int64_t t; bool dOnly;
        if (!v.isStr() || !parseTime(v.raw, t, dOnly) || !dOnly) return "must be a date string (YYYY-MM-DD)";
        return "";
    }
    if (d.type == "select") {
        if (!v.isStr()) return "must be a string";
        if (std::find(d.options.begin(), d.options.end(), v.raw) == d.options.end()) return "must be one of the field's options";
        return "";
    }
    if (d.type == "multi_select") {
        if (!v.isArr()) return "must be an array of strings";
        std::set<std::string> seen;
        for (auto& e : v.a) {
            if (!e.isStr()) return "must be an array of strings";
            if (std::find(d.options.begin(), d.options.end(), e.raw) == d.options.end()) return "contains a value that is not an option: " + e.raw;
            if (!seen.insert(e.raw).second) return "contains a duplicate value: " + e.raw;
        }
        return "";
    }
    return "unsupported field type";
}
static void patchFields(const Request& rq, Response& rs, Org& o, Action& a) {
    Val body;
    if (!js::parse(rq.body, body)) return err(rs, 400, "Request body must be valid JSON");
    if (!body.isObj()) return err(rs, 400, "Request body must be a JSON object");
    std::vector<std::pair<std::string, std::string>> fe;
    auto addErr = [&](const std::string& k, const std::string& m) { for (auto& p : fe) if (p.first == k) return; fe.emplace_back(k, m); };
    const Val* fields = body.get("fields");
    if (!fields) addErr("fields", "fields is required");
    else if (!fields->isArr()) addErr("fields", "fields must be an array");
    else if (fields->a.empty()) addErr("fields", "fields must contain at least 1 item");
    struct Upd { std::string name; const Val* value; std::string prov; };
    std::vector<Upd> ups;
    if (fe.empty()) {
        for (size_t i = 0; i < fields->a.size(); i++) {
            const Val& it = fields->a[i];
            std::string idx = "fields[" + std::to_string(i) + "]";
            if (!it.isObj()) { addErr(idx, "must be an object"); continue; }
            const Val* fn = it.get("fieldName");
            if (!fn || !fn->isStr() || fn->raw.empty()) { addErr(idx + ".fieldName", "fieldName must be a non-empty string"); continue; }
            const std::string& name = fn->raw;
            std::string key = dev("C12") ? idx : name;
            const FieldDef* d = o.field(name);
            if (!d) { addErr(key, "unknown custom field"); continue; }
            const Val* val = it.get("value");
            if (!val) { addErr(key, "value is required"); continue; }
            std::string m = checkValue(*d, *val);
            if (!m.empty()) { addErr(key, "value " + m + " (field type " + d->type + ")"); continue; }
            std::string prov = "{\"source\":\"api\"";
            if (const Val* c = it.get("confidence")) {
                if (!c->isNum() || c->n < 0 || c->n > 1) { addErr(key, "confidence must be a number between 0 and 1"); continue; }
                prov += ",\"confidence\":" + js::num(c->n);
            }
            if (const Val* r = it.get("rationale")) {
                if (!r->isStr()) { addErr(key, "rationale must be a string"); continue; }
                prov += ",\"rationale\":" + js::q(r->raw);
            }
            prov += ",\"updatedAt\":" + js::q(fmtTime(nowMs())) + "}";
            ups.push_back({name, val, prov});
        }
    }
    if (!fe.empty()) {
        Obj fo; for (auto& p : fe) fo.str(p.first, p.second);
        rs.status = 422;
        rs.body = Obj().b("success", false).str("error", "Validation failed").raw("fieldErrors", fo.done()).done();
        return;
    }
    Arr upd;
    for (auto& u : ups) {
        std::string vj = js::dumps(*u.value);
        if (u.value->isNull()) a.custom.erase(u.name);
        else a.custom[u.name] = CFValue{vj, u.prov};
        upd.raw(Obj().str("fieldName", u.name).raw("value", vj).done());
    }
    rs.body = Obj().str("actionId", a.id).raw("updated", upd.done()).done();
}

// ------------------------------------------------------------ metrics
struct Metrics {
    int total = 0, withResp = 0, msgs = 0, agentMsgs = 0, userMsgs = 0, active = 0, closed = 0, cancelled = 0;
    double csatSum = 0; int csatN = 0;
    double respSum = 0; int respN = 0;
    double handleSum = 0; int handleN = 0;
    double ecsatSum = 0; int ecsatN = 0;
    double rq = 0, sc = 0, rub = 0;
    double sentSum = 0; int sentN = 0;
    void add(const Action& a) {
        total++;
        if (a.responded()) withResp++;
        msgs += a.totalMessages; agentMsgs += a.totalAgentMessages; userMsgs += a.totalUserMessages;
        if (a.status == "CLOSED") closed++; else if (a.status == "CANCELLED") cancelled++; else active++;
        if (a.csatScore) { csatSum += atof(a.csatScore->c_str()); csatN++; }
        if (a.firstResponseSec) { respSum += (double)*a.firstResponseSec; respN++; }
        if (a.handleSec) { handleSum += (double)*a.handleSec; handleN++; }
        if (a.estimatedCSAT) { ecsatSum += *a.estimatedCSAT; ecsatN++; }
        if (a.sentimentScore) { sentSum += *a.sentimentScore; sentN++; }
        rq += a.resolutionQuality; sc += a.sentimentChange; rub += a.rubricScore;
    }
    static double avg(double s, int n) { return n ? s / n : 0; }
    void fields(Obj& o) const {
        o.n("totalActions", total).n("totalMessages", msgs).n("totalAgentMessages", agentMsgs).n("totalUserMessages", userMsgs)
            .raw("averageCsat", js::round2(avg(csatSum, csatN))).raw("averageResponseTime", js::round2(avg(respSum, respN)))
            .raw("averageHandleTime", js::round2(avg(handleSum, handleN))).raw("averageEstimatedCsat", js::round2(avg(ecsatSum, ecsatN)))
            .raw("averageResolutionQuality", js::round2(avg(rq, total))).raw("averageSentimentChange", js::round2(avg(sc, total)))
            .raw("averageRubricScore", js::round2(avg(rub, total)));
    }
    std::string workload() const { return Obj().n("active", active).n("closed", closed).n("cancelled", cancelled).done(); }
};

static void agentsList(const Request& rq, Response& rs, const Org& o) {
    int64_t from, to;
    if (!windowParams(rq, rs, 30, from, to)) return;
    if (dev("C10")) { from = INT64_MIN / 2; to = INT64_MAX / 2; }
    std::vector<Metrics> ms(o.agents.size());
    for (auto& a : o.actions) if (a.assignee >= 0 && a.createdAt >= from && a.createdAt <= to) ms[a.assignee].add(a);
    Arr data;
    for (size_t i = 0; i < o.agents.size(); i++) {
        Obj m; ms[i].fields(m); m.n("totalActionsWithResponse", ms[i].withResp);
        data.raw(Obj().str("agentId", o.agents[i].id).raw("metrics", m.done()).raw("workload", ms[i].workload()).done());
    }
    rs.body = Obj().b("success", true).raw("data", data.done()).done();
}
static void agentDetail(const Request& rq, Response& rs, const Org& o, const std::string& id) {
    int64_t from, to;
    if (!windowParams(rq, rs, 30, from, to)) return;
    auto it = o.agentIdx.find(id);
    if (it == o.agentIdx.end()) return err(rs, 404, "Agent not found");
    int ai = (int)it->second;
    Metrics agg;
    std::map<std::string, Metrics> byDay;
    std::vector<int> qCount(o.queues.size() + 1, 0);
    for (auto& a : o.actions) {
        if (a.assignee != ai || a.createdAt < from || a.createdAt > to) continue;
        agg.add(a);
        byDay[fmtDay(a.createdAt)].add(a);
        int qi = a.queue ? o.queueIndexByName(*a.queue) : -1;
        qCount[qi < 0 ? o.queues.size() : (size_t)qi]++;
    }
    Arr days;
    for (auto& p : byDay) {
        Obj d; d.str("date", p.first); p.second.fields(d); d.n("totalActionsWithResponse", p.second.withResp);
        days.raw(d.done());
    }
    Arr qs;
    for (size_t i = 0; i <= o.queues.size(); i++) {
        if (!qCount[i]) continue;
        if (i < o.queues.size()) qs.raw(Obj().str("queueId", o.queues[i].id).str("queueName", o.queues[i].name).n("totalActions", qCount[i]).done());
        else qs.raw(Obj().null("queueId").null("queueName").n("totalActions", qCount[i]).done());
    }
    Obj am; agg.fields(am);
    std::string data = Obj().str("agentId", o.agents[ai].id).raw("metrics", days.done()).raw("aggregatedMetrics", am.done())
                           .raw("currentWorkload", agg.workload()).raw("queues", qs.done()).done();
    rs.body = Obj().b("success", true).raw("data", data).done();
}
static void queuesList(const Request& rq, Response& rs, const Org& o) {
    int64_t from, to;
    if (!windowParams(rq, rs, 30, from, to)) return;
    std::vector<Metrics> ms(o.queues.size() + 1);
    for (auto& a : o.actions) {
        if (a.createdAt < from || a.createdAt > to) continue;
        int qi = a.queue ? o.queueIndexByName(*a.queue) : -1;
        ms[qi < 0 ? o.queues.size() : (size_t)qi].add(a);
    }
    Arr data;
    for (size_t i = 0; i <= o.queues.size(); i++) {
        bool none = i == o.queues.size();
        if (none && (ms[i].total == 0 || dev("C16"))) continue;
        Obj m; ms[i].fields(m); m.raw("averageSentimentScore", js::round2(Metrics::avg(ms[i].sentSum, ms[i].sentN)));
        Obj e;
        if (none) e.null("queueId").null("queueName"); else e.str("queueId", o.queues[i].id).str("queueName", o.queues[i].name);
        data.raw(e.raw("metrics", m.done()).raw("workload", ms[i].workload()).done());
    }
    rs.body = Obj().b("success", true).raw("data", data.done()).done();
}

// ------------------------------------------------------------ analytics
static bool inWin(const Action& a, int64_t f, int64_t t) { return a.createdAt >= f && a.createdAt <= t; }

static void tagAnalytics(const Request& rq, Response& rs, const Org& o) {
    int64_t from, to;
    if (!windowParams(rq, rs, 30, from, to)) return;
    bool respOnly;
    if (!boolParam(rq, rs, "respondedOnly", false, respOnly)) return;
    long long limit, offset;
    if (!intParam(rq, rs, "limit", 20, 1, 1000, limit)) return;
    if (!intParam(rq, rs, "offset", 0, 0, 1000000, offset)) return;
    std::string search = qget(rq, "search") ? lower(*qget(rq, "search")) : "";
    struct TS { int count = 0, resp = 0; double sent = 0; int sentN = 0; double act = 0, rel = 0; };
    std::vector<TS> ts(o.tags.size());
    int totalActions = 0, tagged = 0;
    for (auto& a : o.actions) {
        if (!inWin(a, from, to) || (respOnly && !a.responded())) continue;
        totalActions++;
        if (!a.tags.empty()) tagged++;
        for (int i : a.tags) {
            TS& t = ts[i];
            t.count++; if (a.responded()) t.resp++;
            if (a.sentimentScore) { t.sent += *a.sentimentScore; t.sentN++; }
            t.act += a.actionability; t.rel += a.relevance;
        }
    }
    int summaryActions = totalActions;
    if (dev("C05")) {
        for (size_t oi = 0; oi < G.orgs.size(); oi++) {
            if (&G.orgs[oi] == &o) continue;
            for (auto& a : G.orgs[oi].actions) if (inWin(a, from, to) && !(respOnly && !a.responded())) summaryActions++;
        }
    }
    std::vector<int> used;
    std::set<std::string> groups;
    for (size_t i = 0; i < o.tags.size(); i++) if (ts[i].count) { used.push_back((int)i); groups.insert(o.tags[i].group); }
    std::vector<int> sel;
    for (int i : used)
        if (search.empty() || lower(o.tags[i].name).find(search) != std::string::npos || lower(o.tags[i].id).find(search) != std::string::npos) sel.push_back(i);
    std::stable_sort(sel.begin(), sel.end(), [&](int x, int y) { if (ts[x].count != ts[y].count) return ts[x].count > ts[y].count; return o.tags[x].name < o.tags[y].name; });
    Arr br, vol;
    long long shown = 0;
    for (long long k = offset; k < (long long)sel.size() && k < offset + limit; k++) {
        int i = sel[k]; const TS& t = ts[i];
        shown++;
        br.raw(Obj().str("tagId", o.tags[i].id).str("tagName", o.tags[i].name).str("groupName", o.tags[i].group).n("count", t.count)
                   .raw("percentage", js::round2(totalActions ? 100.0 * t.count / totalActions : 0)).done());
        vol.raw(Obj().str("tagId", o.tags[i].id).str("tagName", o.tags[i].name).n("total", t.count).n("responded", t.resp).n("notResponded", t.count - t.resp)
                    .raw("avgSentiment", t.sentN ? js::round2(t.sent / t.sentN) : "null").raw("avgActionability", js::round2(t.act / t.count))
                    .raw("avgRelevance", js::round2(t.rel / t.count)).done());
    }
    std::string summary = Obj().n("totalTags", (double)used.size()).n("totalTagGroups", (double)groups.size()).n("totalTaggedRecords", tagged)
                              .n("totalActions", summaryActions).done();
    std::string pag = Obj().n("total", (double)sel.size()).n("limit", (double)limit).n("offset", (double)offset)
                          .b("hasMore", offset + shown < (long long)sel.size()).done();
    std::string data = Obj().raw("summary", summary).raw("tagBreakdown", br.done()).raw("volumeByTag", vol.done()).raw("pagination", pag).done();
    rs.body = Obj().b("success", true).raw("data", data).done();
}

static int64_t firstDay(const Org& o, int64_t from) {
    int64_t earliest = o.actions.empty() ? from : o.actions.back().createdAt;
    return dayStart(std::max(from, dayStart(earliest)));
}

static void tagVolume(const Request& rq, Response& rs, const Org& o) {
    int64_t from, to;
    if (!windowParams(rq, rs, 30, from, to)) return;
    bool respOnly;
    if (!boolParam(rq, rs, "respondedOnly", false, respOnly)) return;
    long long top;
    if (!intParam(rq, rs, "topTagsLimit", 5, 1, 100, top)) return;
    std::vector<int> counts(o.tags.size(), 0);
    for (auto& a : o.actions) if (inWin(a, from, to) && !(respOnly && !a.responded())) for (int i : a.tags) counts[i]++;
    std::vector<int> sel;
    if (auto ids = qget(rq, "tagIds")) {
        for (auto& id : splitComma(*ids))
            for (size_t i = 0; i < o.tags.size(); i++) if (o.tags[i].id == id && std::find(sel.begin(), sel.end(), (int)i) == sel.end()) sel.push_back((int)i);
    } else {
        for (size_t i = 0; i < o.tags.size(); i++) if (counts[i]) sel.push_back((int)i);
        std::stable_sort(sel.begin(), sel.end(), [&](int x, int y) { if (counts[x] != counts[y]) return counts[x] > counts[y]; return o.tags[x].name < o.tags[y].name; });
        if ((long long)sel.size() > top) sel.resize((size_t)top);
    }
    std::map<int64_t, std::vector<int>> perDay;
    int64_t d0 = firstDay(o, from), d1 = dayStart(to);
    for (int64_t d = d0; d <= d1; d += DAY) perDay[d] = std::vector<int>(sel.size(), 0);
    for (auto& a : o.actions) {
        if (!inWin(a, from, to) || (respOnly && !a.responded())) continue;
        auto& row = perDay[dayStart(a.createdAt)];
        if (row.empty()) row.assign(sel.size(), 0);
        for (int i : a.tags) for (size_t k = 0; k < sel.size(); k++) if (sel[k] == i) row[k]++;
    }
    Arr rows;
    for (auto& p : perDay) {
        Obj r; r.str("date", fmtDay(p.first));
        int tot = 0;
        for (size_t k = 0; k < sel.size(); k++) { r.n(o.tags[sel[k]].name, p.second[k]); tot += p.second[k]; }
        r.n("total", tot);
        rows.raw(r.done());
    }
    Arr names; for (int i : sel) names.str(o.tags[i].name);
    rs.body = Obj().b("success", true).raw("data", Obj().raw("data", rows.done()).raw("tags", names.done()).done()).done();
}

static int sentIdx(const OStr& s) {
    if (!s) return -1;
    if (*s == "Very Negative") return 0; if (*s == "Negative") return 1; if (*s == "Neutral") return 2; if (*s == "Positive") return 3;
    return -1;
}
static void sentimentByDay(const Request& rq, Response& rs, const Org& o) {
    int64_t from, to;
    if (!windowParams(rq, rs, 30, from, to)) return;
    std::map<int64_t, std::array<int, 4>> days;
    for (int64_t d = firstDay(o, from); d <= dayStart(to); d += DAY) days[d] = {0, 0, 0, 0};
    for (auto& a : o.actions) {
        if (!inWin(a, from, to)) continue;
        int si = sentIdx(a.sentiment);
        if (si < 0) continue;
        auto it = days.find(dayStart(a.createdAt));
        if (it == days.end()) it = days.emplace(dayStart(a.createdAt), std::array<int, 4>{0, 0, 0, 0}).first;
        it->second[si]++;
    }
    Arr rows;
    for (auto& p : days) rows.raw(Obj().str("day", fmtDay(p.first)).n("Very Negative", p.second[0]).n("Negative", p.second[1]).n("Neutral", p.second[2]).n("Positive", p.second[3]).done());
    rs.body = Obj().b("success", true).raw("data", rows.done()).done();
}
static void sentimentByTag(const Request& rq, Response& rs, const Org& o) {
    int64_t from, to;
    if (!windowParams(rq, rs, 30, from, to)) return;
    std::vector<std::array<int, 4>> c(o.tags.size(), {0, 0, 0, 0});
    for (auto& a : o.actions) {
        if (!inWin(a, from, to)) continue;
        int si = sentIdx(a.sentiment);
        if (si < 0) continue;
        for (int i : a.tags) c[i][si]++;
    }
    std::vector<int> sel;
    for (size_t i = 0; i < o.tags.size(); i++) if (c[i][0] + c[i][1] + c[i][2] + c[i][3]) sel.push_back((int)i);
    auto tot = [&](int i) { return c[i][0] + c[i][1] + c[i][2] + c[i][3]; };
    std::stable_sort(sel.begin(), sel.end(), [&](int x, int y) { if (tot(x) != tot(y)) return tot(x) > tot(y); return o.tags[x].name < o.tags[y].name; });
    Arr rows;
    for (int i : sel)
        rows.raw(Obj().str("tagName", o.tags[i].name).n("veryNegative", c[i][0]).n("negative", c[i][1]).n("neutral", c[i][2]).n("positive", c[i][3]).n("totalMentions", tot(i)).done());
    rs.body = Obj().b("success", true).raw("data", rows.done()).done();
}
static double pct(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    double pos = p * (v.size() - 1);
    size_t lo = (size_t)std::floor(pos), hi = (size_t)std::ceil(pos);
    return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}
static void engagement(const Request& rq, Response& rs, const Org& o) {
    int64_t from, to;
    if (!windowParams(rq, rs, 30, from, to)) return;
    std::set<std::string> plats;
    bool filterP = false;
    if (auto p = qget(rq, "platforms")) { for (auto& x : splitComma(*p)) plats.insert(x); filterP = true; }
    auto okP = [&](const Action& a) { return !filterP || plats.count(a.platform) > 0; };
    std::map<std::string, std::map<std::string, int>> perUser;
    int created = 0, responded = 0, closed = 0;
    for (auto& a : o.actions) {
        if (!inWin(a, from, to) || !okP(a)) continue;
        perUser[a.platform][a.userId] += a.totalUserMessages;
        created++; if (a.responded()) responded++; if (a.status == "CLOSED") closed++;
    }
    Arr pcts;
    for (auto& p : perUser) {
        std::vector<double> v; for (auto& u : p.second) v.push_back(u.second);
        pcts.raw(Obj().str("platform", p.first).raw("p25MessagesPerUser", js::round2(pct(v, 0.25))).raw("medianMessagesPerUser", js::round2(pct(v, 0.5)))
                     .raw("p75MessagesPerUser", js::round2(pct(v, 0.75))).done());
    }
    // weeks (Monday 00:00 UTC) overlapping the window
    auto weekStart = [](int64_t ms) { int64_t d = dayStart(ms) / DAY; int64_t dow = ((d % 7) + 7 + 3) % 7; return (d - dow) * DAY; };  // 1970-01-01 was Thursday
    std::map<std::pair<int64_t, std::string>, std::set<std::string>> wu;
    std::set<std::string> platsSeen;
    for (auto& a : o.actions) {
        if (!okP(a)) continue;
        wu[{weekStart(a.createdAt), a.platform}].insert(a.userId);
    }
    for (auto& p : perUser) platsSeen.insert(p.first);
    Arr trends;
    int64_t w0 = weekStart(firstDay(o, from)), w1 = weekStart(to);
    for (int64_t w = w0; w <= w1; w += 7 * DAY) {
        for (auto& pl : platsSeen) {
            auto c = wu.find({w, pl}); auto pr = wu.find({w - 7 * DAY, pl});
            double cur = c == wu.end() ? 0 : (double)c->second.size(), prev = pr == wu.end() ? 0 : (double)pr->second.size();
            trends.raw(Obj().str("week", fmtTime(w)).str("platform", pl).n("currentWeekUsers", cur).n("previousWeekUsers", prev)
                           .raw("growthPercentage", js::round2(prev > 0 ? (cur - prev) / prev * 100 : 0)).done());
        }
    }
    Arr funnel;
    funnel.raw(Obj().str("stage", "conversations").n("count", created).done());
    funnel.raw(Obj().str("stage", "responded").n("count", responded).done());
    funnel.raw(Obj().str("stage", "closed").n("count", closed).done());
    std::string data = Obj().raw("engagementPercentiles", pcts.done()).raw("growthTrends", trends.done()).raw("conversionFunnel", funnel.done()).done();
    rs.body = Obj().b("success", true).raw("data", data).done();
}

// ------------------------------------------------------------ moderation
struct VCtx {
    std::vector<std::string> missing, invalid, errors;
    void miss(const std::string& p) { missing.push_back(p); errors.push_back(p + " is required"); }
    void inv(const std::string& p, const std::string& m) { invalid.push_back(p); errors.push_back(p + " " + m); }
};
static bool isHttpUrl(const std::string& u) {
    std::string l = lower(u);
    size_t p;
    if (l.rfind("http://", 0) == 0) p = 7; else if (l.rfind("https://", 0) == 0) p = 8; else return false;
    if (p >= u.size() || u[p] == '/' || u[p] == '?' || u[p] == '#') return false;
    for (unsigned char c : u) if (c <= 0x20 || c == 0x7f) return false;
    return true;
}
static bool isUri(const std::string& u) {
    size_t c = u.find(':');
    if (c == std::string::npos || c == 0 || !isalpha((unsigned char)u[0])) return false;
    for (size_t i = 0; i < c; i++) if (!isalnum((unsigned char)u[i]) && u[i] != '+' && u[i] != '-' && u[i] != '.') return false;
    if (c + 1 >= u.size()) return false;
    for (unsigned char ch : u) if (ch <= 0x20 || ch == 0x7f) return false;
    return true;
}
static void vStr(VCtx& v, const Val& o, const std::string& pre, const std::string& k, bool req, size_t mn, size_t mx, bool nullable = false) {
    const Val* x = o.get(k);
    std::string p = pre + k;
    if (!x) { if (req) v.miss(p); return; }
    if (x->isNull() && nullable) return;
    if (!x->isStr()) { v.inv(p, "must be a string"); return; }
    size_t n = utf8Len(x->raw);
    if (n < mn || n > mx) v.inv(p, "must be " + std::to_string(mn) + ".." + std::to_string(mx) + " characters");
}
static void vEnum(VCtx& v, const Val& o, const std::string& pre, const std::string& k, bool req, const std::vector<std::string>& opts) {
    const Val* x = o.get(k);
    std::string p = pre + k;
    if (!x) { if (req) v.miss(p); return; }
    if (!x->isStr() || std::find(opts.begin(), opts.end(), x->raw) == opts.end()) v.inv(p, "must be one of the allowed values");
}
static void vBool(VCtx& v, const Val& o, const std::string& p, const std::string& k) {
    const Val* x = o.get(k);
    if (x && !x->isBool()) v.inv(p + k, "must be a boolean");
}
static void vIntNullable(VCtx& v, const Val& o, const std::string& pre, const std::string& k, bool req) {
    const Val* x = o.get(k);
    std::string p = pre + k;
    if (!x) { if (req) v.miss(p); return; }
    if (x->isNull()) return;
    if (!x->isInt()) v.inv(p, "must be an integer or null");
}
static void vStrArr(VCtx& v, const Val& o, const std::string& pre, const std::string& k, bool req, size_t mn, size_t mx) {
    const Val* x = o.get(k);
    std::string p = pre + k;
    if (!x) { if (req) v.miss(p); return; }
    if (!x->isArr()) { v.inv(p, "must be an array of strings"); return; }
    if (x->a.size() < mn || x->a.size() > mx) { v.inv(p, "must have " + std::to_string(mn) + ".." + std::to_string(mx) + " items"); return; }
    for (size_t i = 0; i < x->a.size(); i++) if (!x->a[i].isStr() || x->a[i].raw.empty()) { v.inv(p + "[" + std::to_string(i) + "]", "must be a non-empty string"); return; }
}
static void validateCase(const Val& c, VCtx& v) {
    vStr(v, c, "", "externalId", true, 1, 256);
    vStr(v, c, "", "sourceSystem", true, 1, 128);
    vStr(v, c, "", "sourcePlatform", true, 1, 128);
    vStr(v, c, "", "sourceAdId", true, 1, 256);
    vStr(v, c, "", "advertiserId", false, 1, 256);
    vStr(v, c, "", "advertiserName", true, 1, 500);
    vStr(v, c, "", "campaignId", false, 1, 256);
    vStr(v, c, "", "market", true, 1, 128);
    vStr(v, c, "", "placement", true, 1, 128);
    vStr(v, c, "", "language", false, 1, 64);
    if (const Val* pm = c.get("providerMetadata")) if (!pm->isObj()) v.inv("providerMetadata", "must be an object");
    vStr(v, c, "", "landingPageUrl", true, 0, SIZE_MAX, true);
    vStr(v, c, "", "title", true, 1, 500);
    vStr(v, c, "", "headline", false, 1, 500);
    vStr(v, c, "", "brandName", false, 1, 500);
    vEnum(v, c, "", "callToAction", false, {"APPLY_NOW", "BOOK_NOW", "GET_NOW", "INSTALL_NOW", "MORE", "SHOP_NOW", "SIGN_UP", "VIEW", "WATCH"});
    if (const Val* pp = c.get("publicProfile")) {
        if (!pp->isObj()) v.inv("publicProfile", "must be an object");
        else {
            vStr(v, *pp, "publicProfile.", "displayName", false, 1, 500);
            if (const Val* l = pp->get("logoUrl")) if (!l->isStr() || !isUri(l->raw)) v.inv("publicProfile.logoUrl", "must be a URI");
            vBool(v, *pp, "publicProfile.", "verified");
        }
    }
    const Val* media = c.get("media");
    if (!media) v.miss("media");
    else if (!media->isArr()) v.inv("media", "must be an array");
    else if (media->a.empty() || media->a.size() > 20) v.inv("media", "must have 1..20 items");
    else for (size_t i = 0; i < media->a.size(); i++) {
        const Val& m = media->a[i];
        std::string p = "media[" + std::to_string(i) + "]";
        if (!m.isObj()) { v.inv(p, "must be an object"); continue; }
        const Val* u = m.get("url");
        if (!u) v.miss(p + ".url"); else if (!u->isStr() || !isHttpUrl(u->raw)) v.inv(p + ".url", "must be an absolute HTTP or HTTPS URL");
        vEnum(v, m, p + ".", "type", true, {"image", "video"});
        const Val* pos = m.get("position");
        if (!pos) v.miss(p + ".position"); else if (!pos->isInt() || pos->n < 1 || pos->n > 20) v.inv(p + ".position", "must be an integer 1..20");
    }
    const Val* at = c.get("attachment");
    if (!at) v.miss("attachment");
    else if (!at->isObj()) v.inv("attachment", "must be an object");
    else {
        vEnum(v, *at, "attachment.", "type", true, {"web_view", "deep_link", "app_install", "lens", "long_form_video"});
        vStr(v, *at, "attachment.", "destinationUrl", true, 0, SIZE_MAX, true);
    }
    const Val* tg = c.get("targeting");
    if (!tg) v.miss("targeting");
    else if (!tg->isObj()) v.inv("targeting", "must be an object");
    else {
        vIntNullable(v, *tg, "targeting.", "ageMin", true);
        vIntNullable(v, *tg, "targeting.", "ageMax", false);
        vStrArr(v, *tg, "targeting.", "geos", true, 1, 250);
        vStrArr(v, *tg, "targeting.", "languages", false, 1, 100);
    }
    const Val* cp = c.get("copy");
    if (!cp) v.miss("copy");
    else if (!cp->isObj()) v.inv("copy", "must be an object");
    else for (const char* k : {"body", "caption", "linkDescription", "sourceTitle"}) vStr(v, *cp, "copy.", k, false, 0, 20000);
    vBool(v, c, "", "discoverTile");
    vBool(v, c, "", "partnershipAd");
    vStr(v, c, "", "format", false, 0, SIZE_MAX, true);
    vStr(v, c, "", "arLens", false, 0, SIZE_MAX, true);
    if (const Val* s = c.get("submittedAt")) {
        int64_t t; bool d;
        if (!s->isStr() || !parseTime(s->raw, t, d, true)) v.inv("submittedAt", "must be an RFC 3339 date-time");
    }
}
static std::string errBody(const VCtx& v, bool withSuccess) {
    Arr mf, inf, errs;
    for (auto& s : v.missing) mf.str(s);
    for (auto& s : v.invalid) inf.str(s);
    for (auto& s : v.errors) errs.str(s);
    Obj o;
    if (withSuccess) o.b("success", false).str("error", "Validation failed");
    std::string msg = v.errors.empty() ? "Invalid input" : v.errors[0];
    if (v.errors.size() > 1) msg += " (and " + std::to_string(v.errors.size() - 1) + " more)";
    o.str("message", msg).str("code", v.missing.empty() ? "MODERATION_INPUT_INVALID" : "MODERATION_INPUT_INCOMPLETE");
    if (!v.missing.empty()) o.raw("missingFields", mf.done());
    if (!v.invalid.empty()) o.raw("invalidFields", inf.done());
    if (!withSuccess) o.raw("errors", errs.done());
    return o.done();
}
static std::string strOf(const Val& c, const char* k) { const Val* x = c.get(k); return x && x->isStr() ? x->raw : ""; }

static void decide(const Val& c, ModCase& m) {
    std::string text = lower(strOf(c, "title") + " " + strOf(c, "headline"));
    if (const Val* cp = c.get("copy")) text += " " + lower(strOf(*cp, "body"));
    const Val* tg = c.get("targeting");
    const Val* amin = tg ? tg->get("ageMin") : nullptr;
    bool adultGate = amin && amin->isNum() && amin->n >= 18;
    const Val* lp = c.get("landingPageUrl");
    m.confidence = "high"; m.advPolarity = "POSITIVE"; m.landPolarity = "POSITIVE";
    if (text.find("guaranteed") != std::string::npos || text.find("miracle") != std::string::npos) {
        m.disposition = "reject"; m.reason = "Misleading claims in ad copy"; m.advPolarity = "NEGATIVE";
    } else if ((text.find("casino") != std::string::npos || text.find("alcohol") != std::string::npos || text.find("beer") != std::string::npos) && !adultGate) {
        m.disposition = "age_gate"; m.reason = "Age-restricted category without adult targeting"; m.confidence = "medium"; m.advPolarity = "AMBIGUOUS";
    } else if (lp && lp->isNull()) {
        m.disposition = "escalate"; m.reason = "No landing page to assess"; m.confidence = "low"; m.landPolarity = "AMBIGUOUS";
    } else { m.disposition = "approve"; m.reason = "No policy concerns found"; }
}

static std::string canonicalOf(const Val& c, bool skipMedia) {
    Val copy = c;
    if (!copy.get("language")) { Val en; en.t = js::T::Str; en.raw = "en"; copy.o.emplace_back("language", en); }
    std::string out;
    js::canon(out, copy, skipMedia ? "media" : "");
    return out;
}

// returns 0 accepted, 1 duplicate, 2 conflict. idx = case index.
static int submitCase(int oi, const Val& c, size_t& idx) {
    Org& o = G.orgs[oi];
    std::string ext = strOf(c, "externalId");
    std::string can = canonicalOf(c, false), canNM = canonicalOf(c, true);
    auto it = o.caseByExt.find(ext);
    if (it != o.caseByExt.end()) {
        idx = it->second;
        const ModCase& m = o.cases[idx];
        bool same = dev("C06") ? m.canonicalNoMedia == canNM : m.canonical == can;
        return same ? 1 : 2;
    }
    ModCase m;
    G.counter++;
    m.caseId = "mc_" + hex64(fnv64(o.id + "|" + ext + "|" + std::to_string(G.counter) + std::to_string(G.startMs)));
    m.evaluationId = "ev_" + hex64(fnv64(m.caseId + "|eval"));
    m.externalId = ext;
    m.canonical = can; m.canonicalNoMedia = canNM;
    m.idemKey = "idem_" + hex64(fnv64(o.id + "|" + ext + "|" + can));
    m.submittedMs = nowMs();
    decide(c, m);
    idx = o.cases.size();
    o.caseByExt[ext] = idx;
    G.caseIdx[m.caseId] = {oi, idx};
    o.cases.push_back(m);
    return 0;
}
static std::string ackFields(Obj& j, const ModCase& m, bool dup) {
    j.str("caseId", m.caseId).str("externalId", m.externalId).str("status", dup ? "duplicate" : "accepted").str("analysisStatus", "pending")
        .str("evaluationId", m.evaluationId).raw("idempotency", Obj().str("key", m.idemKey).b("replayed", dup).done());
    return j.done();
}
static bool modPrereq(const ApiKey& k, Response& rs) {
    if (!G.orgs[k.org].adPolicy) {
        rs.status = 403;
        rs.body = Obj().b("success", false).str("error", "Moderation is not available for this organization")
                      .str("message", "The organization is not configured for the ad_policy moderation mode")
                      .raw("supported", Arr().str("ad_policy").done()).done();
        return false;
    }
    return true;
}
static void modSingle(const Request& rq, Response& rs, const ApiKey& k) {
    if (!modPrereq(k, rs)) return;
    Val c;
    if (!js::parse(rq.body, c)) return err(rs, 400, "Request body must be valid JSON");
    if (!c.isObj()) return err(rs, 400, "Request body must be a JSON object");
    VCtx v;
    validateCase(c, v);
    if (!v.errors.empty()) { rs.status = 422; rs.body = errBody(v, true); return; }
    size_t idx;
    int r = submitCase(k.org, c, idx);
    const ModCase& m = G.orgs[k.org].cases[idx];
    if (r == 2) {
        rs.status = 409;
        rs.body = Obj().b("success", false).str("error", "externalId already exists with different content")
                      .str("message", "externalId " + m.externalId + " is immutable; submit changed content under a new externalId").done();
        return;
    }
    rs.status = 202;
    Obj j;
    rs.body = ackFields(j, m, r == 1);
}
static void modBatch(const Request& rq, Response& rs, const ApiKey& k) {
    if (!modPrereq(k, rs)) return;
    Val b;
    if (!js::parse(rq.body, b)) return err(rs, 400, "Request body must be valid JSON");
    if (!b.isObj()) return err(rs, 400, "Request body must be a JSON object");
    const Val* cases = b.get("cases");
    if (!cases || !cases->isArr()) return err(rs, 400, "cases must be an array");
    if (cases->a.empty() || cases->a.size() > 100) return err(rs, 400, "cases must contain 1..100 items");
    std::vector<std::string> ok, rej;
    for (size_t i = 0; i < cases->a.size(); i++) {
        const Val& c = cases->a[i];
        const Val* ext = c.isObj() ? c.get("externalId") : nullptr;
        std::string extJ = ext && ext->isStr() ? js::q(ext->raw) : "null";
        VCtx v;
        if (!c.isObj()) { v.invalid.push_back("cases[" + std::to_string(i) + "]"); v.errors.push_back("case must be an object"); }
        else validateCase(c, v);
        if (!v.errors.empty()) {
            std::string e = errBody(v, false);
            rej.push_back("{\"externalId\":" + extJ + ",\"caseId\":null,\"status\":\"rejected\"," + e.substr(1));
            continue;
        }
        size_t idx;
        int r = submitCase(k.org, c, idx);
        const ModCase& m = G.orgs[k.org].cases[idx];
        if (r == 2) {
            rej.push_back(Obj().str("externalId", m.externalId).str("caseId", m.caseId).str("status", "rejected")
                              .raw("errors", Arr().str("externalId already exists with different content").done())
                              .str("message", "externalId " + m.externalId + " is immutable; submit changed content under a new externalId").done());
            continue;
        }
        Obj j;
        ok.push_back(ackFields(j, m, r == 1));
        if (!dev("C07")) { rej.push_back(ok.back()); ok.pop_back(); }
    }
    Arr res;
    for (auto& s : ok) res.raw(s);
    for (auto& s : rej) res.raw(s);
    rs.status = 202;
    rs.body = Obj().raw("results", res.done()).done();
}
static void modStatus(Response& rs, const ApiKey& k, const std::string& id) {
    auto it = G.caseIdx.find(id);
    if (it == G.caseIdx.end() || (it->second.first != k.org && !dev("C04"))) return err(rs, 404, "Moderation case not found");
    const ModCase& m = G.orgs[it->second.first].cases[it->second.second];
    std::string st;
    if (m.forcedStatus) st = m.status;
    else {
        int64_t el = nowMs() - m.submittedMs;
        st = el < 1000 ? "pending" : el < 2000 ? "running" : "completed";
    }
    Obj j;
    j.str("caseId", m.caseId).str("externalId", m.externalId).str("analysisStatus", st);
    if (st != "policy_not_configured") j.str("evaluationId", m.evaluationId);
    if (st == "completed") {
        Arr hits;
        if (m.disposition == "reject" || m.disposition == "age_gate") {
            Obj ev; ev.str("modality", "text").str("claim", m.reason).raw("locator", Obj().raw("textSpan", Obj().str("field", "title").n("start", 0).n("end", 10).done()).done());
            hits.raw(Obj().str("ruleId", m.disposition == "reject" ? "rule-misleading-001" : "rule-age-002")
                         .str("ruleSlug", m.disposition == "reject" ? "misleading-claims" : "age-restricted-category")
                         .str("polarity", m.disposition == "reject" ? "NEGATIVE" : "AMBIGUOUS").str("confidence", m.confidence)
                         .str("reasoning", m.reason).raw("evidence", Arr().raw(ev.done()).done()).done());
        }
        std::string dec = Obj().str("disposition", m.disposition).str("confidence", m.confidence).null("title").str("reason", m.reason)
                              .raw("hits", hits.done())
                              .raw("advertiserAssessment", Obj().str("polarity", m.advPolarity).str("reasoning", "Advertiser assessed from submitted profile and history").done())
                              .raw("landingAssessment", Obj().str("polarity", m.landPolarity).str("reasoning", "Landing page assessed against the ad content").done())
                              .str("decisionSource", "model").null("failureCode").null("failureMessage").done();
        j.raw("decision", dec);
    }
    if (st == "failed") j.str("failureCode", m.failureCode.empty() ? "EVALUATION_FAILED" : m.failureCode);
    rs.body = j.done();
}

// ------------------------------------------------------------ ingestion
static const std::vector<std::string> ING_PLATFORMS = {"DISCORD", "SLACK", "GITHUB", "ZENDESK", "TELEGRAM", "FACEBOOK_GROUP", "TWITTER_COMMUNITY", "SALESFORCE",
                                                       "FACEBOOK", "TWITTER", "THREADS", "TIKTOK", "INSTAGRAM", "LINKEDIN", "WHATSAPP", "YOUTUBE", "GAINSIGHT",
                                                       "APPSTORE", "GOOGLE_PLAY", "HIGHER_LOGIC", "DISCOURSE", "CUSTOM_FORM", "MODERATION_API", "CHROME_WEB_STORE", "CANNY"};
static void ingest(const Request& rq, Response& rs, const ApiKey& k) {
    Val b;
    if (!js::parse(rq.body, b)) return err(rs, 422, "Request body must be valid JSON");
    if (!b.isObj()) return err(rs, 422, "Request body must be a JSON object");
    auto reqStr = [&](const Val& o, const std::string& p, const char* key, bool req, bool nonEmpty) -> std::string {
        const Val* x = o.get(key);
        if (!x) return req ? p + key + " is required" : "";
        if (!x->isStr()) return p + key + " must be a string";
        if (nonEmpty && x->raw.empty()) return p + key + " must not be empty";
        return "";
    };
    std::string e;
    const Val* pl = b.get("platform");
    if (!pl) e = "platform is required";
    else if (!pl->isStr() || std::find(ING_PLATFORMS.begin(), ING_PLATFORMS.end(), pl->raw) == ING_PLATFORMS.end()) e = "platform must be one of the supported platforms";
    if (e.empty()) e = reqStr(b, "", "serverId", true, true);
    if (e.empty()) e = reqStr(b, "", "serverName", true, true);
    if (e.empty()) e = reqStr(b, "", "channelId", false, false);
    if (e.empty()) e = reqStr(b, "", "channelName", false, false);
    if (e.empty()) if (const Val* p = b.get("processingLevel")) if (!p->isStr() || (p->raw != "INSIGHTS" && p->raw != "STATS_ONLY")) e = "processingLevel must be INSIGHTS or STATS_ONLY";
    if (e.empty()) if (const Val* s = b.get("source")) {
        if (!s->isObj()) e = "source must be an object";
        else { e = reqStr(*s, "source.", "system", true, true); if (e.empty()) e = reqStr(*s, "source.", "sourceId", false, false); }
    }
    const Val* recs = b.get("records");
    if (e.empty()) {
        if (!recs) e = "records is required";
        else if (!recs->isArr()) e = "records must be an array";
        else if (recs->a.empty() || recs->a.size() > 500) e = "records must contain 1..500 items";
    }
    if (e.empty()) for (size_t i = 0; i < recs->a.size() && e.empty(); i++) {
        const Val& r = recs->a[i];
        std::string p = "records[" + std::to_string(i) + "].";
        if (!r.isObj()) { e = "records[" + std::to_string(i) + "] must be an object"; break; }
        for (auto f : {std::make_pair("externalId", true), std::make_pair("authorId", true), std::make_pair("authorName", true), std::make_pair("createdAt", true), std::make_pair("recordType", true)})
            if (e.empty()) e = reqStr(r, p, f.first, true, true);
        if (e.empty()) e = reqStr(r, p, "body", true, false);
        if (e.empty()) e = reqStr(r, p, "threadExternalId", false, false);
        if (e.empty()) e = reqStr(r, p, "parentExternalId", false, false);
        if (e.empty()) e = reqStr(r, p, "title", false, false);
        if (e.empty()) if (const Val* s = r.get("score")) {
            if (!s->isNum() || s->n < 0 || s->n > 5 || (dev("C08") && s->n >= 5)) e = p + "score must be a number between 0 and 5";
        }
        if (e.empty()) if (const Val* u = r.get("url")) if (!u->isStr() || !isHttpUrl(u->raw)) e = p + "url must be an absolute HTTP or HTTPS URL";
        if (e.empty()) if (const Val* c = r.get("customFields")) if (!c->isObj()) e = p + "customFields must be an object";
    }
    if (!e.empty()) return err(rs, 422, e);
    Org& o = G.orgs[k.org];
    std::string server = b.get("serverId")->raw;
    for (auto& r : recs->a) {
        std::string key = pl->raw + "\x1f" + server + "\x1f" + r.get("externalId")->raw;
        o.ingested[key] = IngestRecord{key, js::dumps(r), nowMs()};
    }
    rs.status = 202;
    rs.body = Obj().str("status", "accepted").n("accepted", (double)recs->a.size()).done();
}

// ------------------------------------------------------------ docs
static std::string openapi() {
    struct R { const char* path; const char* method; const char* summary; const char* codes; };
    static const R routes[] = {
        {"/v0/action/list", "get", "List actions", "200,400,500"},
        {"/v0/action/{id}", "get", "Get action detail", "200,404,500"},
        {"/v0/actions/{actionId}/custom-fields", "get", "Read custom field values", "200,403,404,500"},
        {"/v0/actions/{actionId}/custom-fields", "patch", "Write custom field values", "200,403,404,422,500"},
        {"/v0/agents", "get", "Agent metrics", "200,403,500"},
        {"/v0/agents/{id}", "get", "Agent detail", "200,403,404,500"},
        {"/v0/queues", "get", "Queue metrics", "200,403,500"},
        {"/v0/analytics/tags", "get", "Tag analytics", "200,403,500"},
        {"/v0/analytics/tags/volume", "get", "Tag volume over time", "200,403,500"},
        {"/v0/analytics/sentiment", "get", "Sentiment by day", "200,403,500"},
        {"/v0/analytics/sentiment/by-tag", "get", "Sentiment by tag", "200,403,500"},
        {"/v0/analytics/engagement", "get", "Engagement analytics", "200,403,500"},
        {"/v0/conversations/search", "get", "Search conversations", "200,400,403,500"},
        {"/v0/moderation/cases", "post", "Submit a moderation case", "202,400,403,409,422,500"},
        {"/v0/moderation/cases/batch", "post", "Submit moderation cases in batch", "202,400,403"},
        {"/v0/moderation/cases/{caseId}", "get", "Read moderation case status", "200,403,404"},
        {"/v0/ingest/records", "post", "Ingest normalized records", "202,403,422,500"},
    };
    std::map<std::string, std::vector<const R*>> byPath;
    std::vector<std::string> order;
    for (auto& r : routes) { if (!byPath.count(r.path)) order.push_back(r.path); byPath[r.path].push_back(&r); }
    Obj paths;
    for (auto& p : order) {
        Obj ops;
        for (auto* r : byPath[p]) {
            Obj resp;
            for (auto& c : splitComma(r->codes)) resp.raw(c, Obj().str("description", c == "200" || c == "202" ? "Success" : "Error").done());
            Arr params;
            std::string ps = p;
            size_t b = ps.find('{');
            if (b != std::string::npos) {
                std::string nm = ps.substr(b + 1, ps.find('}') - b - 1);
                params.raw(Obj().str("name", nm).str("in", "path").b("required", true).raw("schema", "{\"type\":\"string\",\"minLength\":1}").done());
            }
            ops.raw(r->method, Obj().str("summary", r->summary).str("operationId", std::string(r->method) + ps)
                                   .raw("parameters", params.done()).raw("security", "[{\"ApiKeyAuth\":[]}]").raw("responses", resp.done()).done());
        }
        paths.raw(p, ops.done());
    }
    return Obj().str("openapi", "3.0.3")
        .raw("info", Obj().str("title", "Customer-Conversation Analytics Service").str("version", "v0").done())
        .raw("servers", "[{\"url\":\"/\"}]")
        .raw("components", "{\"securitySchemes\":{\"ApiKeyAuth\":{\"type\":\"apiKey\",\"in\":\"header\",\"name\":\"X-API-Key\"}}}")
        .raw("paths", paths.done()).done();
}
static const char* SWAGGER_HTML =
    "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>CCA API docs</title>"
    "<link rel=\"stylesheet\" href=\"https://unpkg.com/swagger-ui-dist@5/swagger-ui.css\"></head>"
    "<body><div id=\"swagger-ui\"></div><script src=\"https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js\"></script>"
    "<script>window.ui=SwaggerUIBundle({url:'docs/json'.replace(/^/, location.pathname.replace(/docs\\/?$/, '')),dom_id:'#swagger-ui'});</script>"
    "</body></html>";

// ------------------------------------------------------------ router
void handle(const Request& rq, Response& rs) {
    const auto& s = rq.segs;
    const std::string& M = rq.method;
    auto method = [&](const char* m) -> bool {
        if (M == m) return true;
        err(rs, 405, "Method not allowed");
        return false;
    };
    if (!s.empty() && s[0] == "docs" && s.size() <= 2) {
        if (s.size() == 1) { if (!method("GET")) return; rs.contentType = "text/html; charset=utf-8"; rs.body = SWAGGER_HTML; return; }
        if (s[1] == "json") {
            if (!method("GET")) return;
            rs.body = openapi();
            if (dev("C17")) rs.contentType = "text/plain; charset=utf-8";
            return;
        }
    }
    if (s.size() < 2 || s[0] != "v0") return err(rs, 404, "Not found");
    std::lock_guard<std::mutex> lk(G.mu);
    const ApiKey* k = nullptr;
    if (s.size() == 3 && s[1] == "action" && s[2] == "list") {
        if (!method("GET") || !(k = auth(rq, rs, NEED_READ))) return;
        return actionList(rq, rs, G.orgs[k->org]);
    }
    if (s.size() == 3 && s[1] == "action") {
        if (!method("GET") || !(k = auth(rq, rs, NEED_READ))) return;
        Org& o = G.orgs[k->org];
        auto it = o.actionIdx.find(s[2]);
        if (it == o.actionIdx.end()) return err(rs, 404, "Action not found");
        rs.body = detailJson(o, o.actions[it->second]);
        return;
    }
    if (s.size() == 4 && s[1] == "actions" && s[3] == "custom-fields") {
        if (M != "GET" && M != "PATCH") return err(rs, 405, "Method not allowed");
        bool patch = M == "PATCH";
        if (!(k = auth(rq, rs, patch ? NEED_WRITE : NEED_READ))) return;
        Org& o = G.orgs[k->org];
        if (s[2].empty()) return err(rs, 404, "Action not found");
        auto it = o.actionIdx.find(s[2]);
        if (it == o.actionIdx.end()) return err(rs, 404, "Action not found");
        if (patch) return patchFields(rq, rs, o, o.actions[it->second]);
        rs.body = fieldsJson(o, o.actions[it->second]);
        return;
    }
    if (s.size() == 2 && s[1] == "agents") {
        if (!method("GET") || !(k = auth(rq, rs, NEED_READ, true))) return;
        return agentsList(rq, rs, G.orgs[k->org]);
    }
    if (s.size() == 3 && s[1] == "agents") {
        if (!method("GET") || !(k = auth(rq, rs, NEED_READ, true))) return;
        return agentDetail(rq, rs, G.orgs[k->org], s[2]);
    }
    if (s.size() == 2 && s[1] == "queues") {
        if (!method("GET") || !(k = auth(rq, rs, NEED_READ, true))) return;
        return queuesList(rq, rs, G.orgs[k->org]);
    }
    if (s.size() >= 3 && s[1] == "analytics") {
        std::string sub = s[2];
        for (size_t i = 3; i < s.size(); i++) sub += "/" + s[i];
        void (*fn)(const Request&, Response&, const Org&) = nullptr;
        if (sub == "tags") fn = tagAnalytics;
        else if (sub == "tags/volume") fn = tagVolume;
        else if (sub == "sentiment") fn = sentimentByDay;
        else if (sub == "sentiment/by-tag") fn = sentimentByTag;
        else if (sub == "engagement") fn = engagement;
        if (!fn) return err(rs, 404, "Not found");
        if (!method("GET") || !(k = auth(rq, rs, NEED_READ, true))) return;
        return fn(rq, rs, G.orgs[k->org]);
    }
    if (s.size() == 3 && s[1] == "conversations" && s[2] == "search") {
        if (!method("GET") || !(k = auth(rq, rs, NEED_READ))) return;
        return convSearch(rq, rs, G.orgs[k->org]);
    }
    if (s.size() >= 3 && s.size() <= 4 && s[1] == "moderation" && s[2] == "cases") {
        if (s.size() == 3) {
            if (!method("POST") || !(k = auth(rq, rs, NEED_WRITE))) return;
            return modSingle(rq, rs, *k);
        }
        if (s[3] == "batch" && M == "POST") {
            if (!(k = auth(rq, rs, NEED_WRITE))) return;
            return modBatch(rq, rs, *k);
        }
        if (!method("GET") || !(k = auth(rq, rs, NEED_READ))) return;
        if (s[3].empty()) return err(rs, 404, "Moderation case not found");
        return modStatus(rs, *k, s[3]);
    }
    if (s.size() == 3 && s[1] == "ingest" && s[2] == "records") {
        if (!method("POST") || !(k = auth(rq, rs, NEED_INGEST))) return;
        return ingest(rq, rs, *k);
    }
    err(rs, 404, "Not found");
}
