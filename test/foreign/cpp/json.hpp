// Minimal JSON reader (for request bodies) and writer helpers.
#pragma once
#include <string>
#include <vector>
#include <utility>
#include <memory>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <algorithm>

namespace js {

enum class T { Null, Bool, Num, Str, Arr, Obj };

struct Val {
    T t = T::Null;
    bool b = false;
    double n = 0;
    std::string raw;  // raw number text, or string content
    std::vector<Val> a;
    std::vector<std::pair<std::string, Val>> o;
    bool isNull() const { return t == T::Null; }
    bool isStr() const { return t == T::Str; }
    bool isNum() const { return t == T::Num; }
    bool isBool() const { return t == T::Bool; }
    bool isArr() const { return t == T::Arr; }
    bool isObj() const { return t == T::Obj; }
    const Val* get(const std::string& k) const {
        const Val* r = nullptr;
        for (auto& p : o) if (p.first == k) r = &p.second;  // last wins
        return r;
    }
    bool isInt() const { return t == T::Num && std::isfinite(n) && std::floor(n) == n; }
};

inline void encodeUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) out += (char)cp;
    else if (cp < 0x800) { out += (char)(0xC0 | (cp >> 6)); out += (char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { out += (char)(0xE0 | (cp >> 12)); out += (char)(0x80 | ((cp >> 6) & 0x3F)); out += (char)(0x80 | (cp & 0x3F)); }
    else { out += (char)(0xF0 | (cp >> 18)); out += (char)(0x80 | ((cp >> 12) & 0x3F)); out += (char)(0x80 | ((cp >> 6) & 0x3F)); out += (char)(0x80 | (cp & 0x3F)); }
}

struct Parser {
    const std::string& s;
    size_t i = 0;
    int depth = 0;
    bool ok = true;
    explicit Parser(const std::string& str) : s(str) {}
    void ws() { while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++; }
    bool fail() { ok = false; return false; }
    int hex(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }
    bool parseString(std::string& out) {
        if (i >= s.size() || s[i] != '"') return fail();
        i++;
        while (true) {
            if (i >= s.size()) return fail();
            unsigned char c = (unsigned char)s[i];
            if (c == '"') { i++; return true; }
            if (c < 0x20) return fail();
            if (c == '\\') {
                i++;
                if (i >= s.size()) return fail();
                char e = s[i++];
                switch (e) {
                    case '"': out += '"'; break;
                    case '\\': out += '\\'; break;
                    case '/': out += '/'; break;
                    case 'b': out += '\b'; break;
                    case 'f': out += '\f'; break;
                    case 'n': out += '\n'; break;
                    case 'r': out += '\r'; break;
                    case 't': out += '\t'; break;
                    case 'u': {
                        auto rd = [&](uint32_t& v) -> bool {
                            if (i + 4 > s.size()) return false;
                            v = 0;
                            for (int k = 0; k < 4; k++) { int h = hex(s[i + k]); if (h < 0) return false; v = v * 16 + h; }
                            i += 4; return true;
                        };
                        uint32_t cp;
                        if (!rd(cp)) return fail();
                        if (cp >= 0xD800 && cp <= 0xDBFF) {
                            if (i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u') {
                                i += 2; uint32_t lo;
                                if (!rd(lo)) return fail();
                                if (lo >= 0xDC00 && lo <= 0xDFFF) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                                else { encodeUtf8(out, 0xFFFD); cp = lo; }
                            } else cp = 0xFFFD;
                        } else if (cp >= 0xDC00 && cp <= 0xDFFF) cp = 0xFFFD;
                        encodeUtf8(out, cp);
                        break;
                    }
                    default: return fail();
                }
            } else { out += (char)c; i++; }
        }
    }
    bool parseValue(Val& v) {
        if (++depth > 200) return fail();
        ws();
        if (i >= s.size()) return fail();
        char c = s[i];
        bool r = true;
        if (c == '{') {
            v.t = T::Obj; i++; ws();
            if (i < s.size() && s[i] == '}') { i++; }
            else while (true) {
                ws(); std::string k;
                if (!parseString(k)) { r = false; break; }
                ws(); if (i >= s.size() || s[i] != ':') { r = fail(); break; }
                i++;
                Val child;
                if (!parseValue(child)) { r = false; break; }
                v.o.emplace_back(std::move(k), std::move(child));
                ws();
                if (i < s.size() && s[i] == ',') { i++; continue; }
                if (i < s.size() && s[i] == '}') { i++; break; }
                r = fail(); break;
            }
        } else if (c == '[') {
            v.t = T::Arr; i++; ws();
            if (i < s.size() && s[i] == ']') { i++; }
            else while (true) {
                Val child;
                if (!parseValue(child)) { r = false; break; }
                v.a.push_back(std::move(child));
                ws();
                if (i < s.size() && s[i] == ',') { i++; continue; }
                if (i < s.size() && s[i] == ']') { i++; break; }
                r = fail(); break;
            }
        } else if (c == '"') {
            v.t = T::Str; r = parseString(v.raw);
        } else if (s.compare(i, 4, "true") == 0) { v.t = T::Bool; v.b = true; i += 4; }
        else if (s.compare(i, 5, "false") == 0) { v.t = T::Bool; v.b = false; i += 5; }
        else if (s.compare(i, 4, "null") == 0) { v.t = T::Null; i += 4; }
        else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t st = i;
            if (s[i] == '-') i++;
            if (i >= s.size()) return fail();
            if (s[i] == '0') i++;
            else if (s[i] >= '1' && s[i] <= '9') { while (i < s.size() && isdigit((unsigned char)s[i])) i++; }
            else return fail();
            if (i < s.size() && s[i] == '.') { i++; size_t d = i; while (i < s.size() && isdigit((unsigned char)s[i])) i++; if (i == d) return fail(); }
            if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
                i++; if (i < s.size() && (s[i] == '+' || s[i] == '-')) i++;
                size_t d = i; while (i < s.size() && isdigit((unsigned char)s[i])) i++; if (i == d) return fail();
            }
            v.t = T::Num; v.raw = s.substr(st, i - st); v.n = strtod(v.raw.c_str(), nullptr);
        } else r = fail();
        depth--;
        return r && ok;
    }
};

inline bool parse(const std::string& s, Val& out) {
    Parser p(s);
    if (!p.parseValue(out)) return false;
    p.ws();
    return p.i == s.size();
}

// Replace invalid UTF-8 sequences by U+FFFD so output is always valid JSON text.
inline std::string sanitizeUtf8(const std::string& s) {
    std::string o;
    size_t i = 0, n = s.size();
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        bool ok = len > 0 && i + len <= n;
        for (size_t k = 1; ok && k < len; k++) if (((unsigned char)s[i + k] & 0xC0) != 0x80) ok = false;
        if (ok && len > 1) {
            uint32_t cp = len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
            for (size_t k = 1; k < len; k++) cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3F);
            if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) ok = false;
        }
        if (ok) { o.append(s, i, len); i += len; }
        else { o += "\xEF\xBF\xBD"; i++; }
    }
    return o;
}
inline bool asciiOrValid(const std::string& s) {
    for (unsigned char c : s) if (c >= 0x80) return false;
    return true;
}
inline void escapeTo(std::string& out, const std::string& in) {
    const std::string& s = asciiOrValid(in) ? in : sanitizeUtf8(in);
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); out += b; }
                else out += (char)c;
        }
    }
    out += '"';
}
inline std::string q(const std::string& s) { std::string o; escapeTo(o, s); return o; }

inline std::string num(double d) {
    if (!std::isfinite(d)) return "0";
    if (std::floor(d) == d && std::fabs(d) < 1e15) { char b[32]; snprintf(b, sizeof b, "%lld", (long long)d); return b; }
    char b[40]; snprintf(b, sizeof b, "%.10g", d); return b;
}
inline std::string round2(double d) { return num(std::round(d * 100.0) / 100.0); }

// Canonical serialization: sorted object keys, normalized numbers.
inline void canon(std::string& out, const Val& v, const std::string& skipTopKey = "") {
    switch (v.t) {
        case T::Null: out += "null"; break;
        case T::Bool: out += v.b ? "true" : "false"; break;
        case T::Num: { char b[40]; snprintf(b, sizeof b, "%.17g", v.n); out += b; break; }
        case T::Str: escapeTo(out, v.raw); break;
        case T::Arr: out += '['; for (size_t k = 0; k < v.a.size(); k++) { if (k) out += ','; canon(out, v.a[k]); } out += ']'; break;
        case T::Obj: {
            std::vector<std::pair<std::string, const Val*>> kv;
            for (auto& p : v.o) {
                if (!skipTopKey.empty() && p.first == skipTopKey) continue;
                bool found = false;
                for (auto& e : kv) if (e.first == p.first) { e.second = &p.second; found = true; }
                if (!found) kv.emplace_back(p.first, &p.second);
            }
            std::sort(kv.begin(), kv.end(), [](auto& x, auto& y) { return x.first < y.first; });
            out += '{';
            for (size_t k = 0; k < kv.size(); k++) { if (k) out += ','; escapeTo(out, kv[k].first); out += ':'; canon(out, *kv[k].second); }
            out += '}';
        }
    }
}
// Serialize preserving order (raw numbers kept).
inline void dump(std::string& out, const Val& v) {
    switch (v.t) {
        case T::Null: out += "null"; break;
        case T::Bool: out += v.b ? "true" : "false"; break;
        case T::Num: out += v.raw; break;
        case T::Str: escapeTo(out, v.raw); break;
        case T::Arr: out += '['; for (size_t k = 0; k < v.a.size(); k++) { if (k) out += ','; dump(out, v.a[k]); } out += ']'; break;
        case T::Obj: out += '{'; for (size_t k = 0; k < v.o.size(); k++) { if (k) out += ','; escapeTo(out, v.o[k].first); out += ':'; dump(out, v.o[k].second); } out += '}'; break;
    }
}
inline std::string dumps(const Val& v) { std::string o; dump(o, v); return o; }

// Small object builder for responses.
struct Obj {
    std::string s = "{";
    bool first = true;
    Obj& raw(const std::string& k, const std::string& rawv) { if (!first) s += ','; first = false; escapeTo(s, k); s += ':'; s += rawv; return *this; }
    Obj& str(const std::string& k, const std::string& v) { return raw(k, q(v)); }
    Obj& ostr(const std::string& k, const std::string* v) { return raw(k, v ? q(*v) : "null"); }
    Obj& n(const std::string& k, double v) { return raw(k, num(v)); }
    Obj& b(const std::string& k, bool v) { return raw(k, v ? "true" : "false"); }
    Obj& null(const std::string& k) { return raw(k, "null"); }
    std::string done() { return s + "}"; }
};
struct Arr {
    std::string s = "[";
    bool first = true;
    Arr& raw(const std::string& v) { if (!first) s += ','; first = false; s += v; return *this; }
    Arr& str(const std::string& v) { return raw(q(v)); }
    std::string done() { return s + "]"; }
};

}  // namespace js
