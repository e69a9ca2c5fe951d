// HTTP/1.1 server: one thread per connection, store guarded by a mutex.
#include "model.hpp"
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <poll.h>
#include <signal.h>
#include <thread>
#include <random>
#include <fstream>
#include <iostream>
#include <atomic>
#include <cstring>

static const size_t MAX_HEADER = 64 * 1024;
static const size_t MAX_BODY = 8 * 1024 * 1024;
static std::atomic<int> g_conns{0};

static void onTerm(int) { _exit(0); }

static const char* reason(int s) {
    switch (s) {
        case 200: return "OK"; case 202: return "Accepted"; case 400: return "Bad Request"; case 401: return "Unauthorized";
        case 403: return "Forbidden"; case 404: return "Not Found"; case 405: return "Method Not Allowed"; case 409: return "Conflict";
        case 411: return "Length Required"; case 413: return "Payload Too Large"; case 422: return "Unprocessable Entity";
        case 431: return "Request Header Fields Too Large"; case 500: return "Internal Server Error"; case 501: return "Not Implemented";
        case 505: return "HTTP Version Not Supported";
        default: return "Status";
    }
}

struct Conn {
    int fd;
    std::string buf;
    bool readMore(int timeoutMs) {
        pollfd p{fd, POLLIN, 0};
        int r = poll(&p, 1, timeoutMs);
        if (r <= 0) return false;
        char tmp[16384];
        ssize_t n = recv(fd, tmp, sizeof tmp, 0);
        if (n <= 0) return false;
        buf.append(tmp, (size_t)n);
        return true;
    }
    bool sendAll(const std::string& s) {
        size_t off = 0;
        while (off < s.size()) {
            ssize_t n = send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
            if (n <= 0) return false;
            off += (size_t)n;
        }
        return true;
    }
};

static void sendResp(Conn& c, const Response& rs, bool keep) {
    std::string h = "HTTP/1.1 " + std::to_string(rs.status) + " " + reason(rs.status) + "\r\n";
    h += "Content-Type: " + rs.contentType + "\r\n";
    h += "Content-Length: " + std::to_string(rs.body.size()) + "\r\n";
    h += keep ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    h += "\r\n";
    c.sendAll(h + rs.body);
}
static void sendErr(Conn& c, int st, const std::string& msg) {
    Response r; r.status = st;
    r.body = js::Obj().b("success", false).str("error", msg).done();
    sendResp(c, r, false);
}

static int hexv(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}
static bool pctDecode(const std::string& in, std::string& out, bool plusSpace) {
    out.clear();
    for (size_t i = 0; i < in.size(); i++) {
        char ch = in[i];
        if (ch == '%') {
            if (i + 2 >= in.size()) return false;
            int a = hexv(in[i + 1]), b = hexv(in[i + 2]);
            if (a < 0 || b < 0) return false;
            out += (char)(a * 16 + b);
            i += 2;
        } else if (ch == '+' && plusSpace) out += ' ';
        else out += ch;
    }
    return true;
}

static void serve(int fd) {
    Conn c{fd, {}};
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    while (true) {
        // read header block
        size_t hend;
        while ((hend = c.buf.find("\r\n\r\n")) == std::string::npos) {
            if (c.buf.size() > MAX_HEADER) { sendErr(c, 431, "Request headers too large"); goto done; }
            if (!c.readMore(c.buf.empty() ? 60000 : 15000)) goto done;
        }
        {
            if (hend > MAX_HEADER) { sendErr(c, 431, "Request headers too large"); goto done; }
            std::string head = c.buf.substr(0, hend);
            c.buf.erase(0, hend + 4);
            Request rq;
            size_t le = head.find("\r\n");
            std::string line = head.substr(0, le);
            // request line
            size_t s1 = line.find(' '), s2 = line.rfind(' ');
            if (s1 == std::string::npos || s2 == s1) { sendErr(c, 400, "Malformed request line"); goto done; }
            rq.method = line.substr(0, s1);
            std::string target = line.substr(s1 + 1, s2 - s1 - 1);
            std::string ver = line.substr(s2 + 1);
            if (ver != "HTTP/1.1" && ver != "HTTP/1.0") { sendErr(c, ver.rfind("HTTP/", 0) == 0 ? 505 : 400, "Unsupported HTTP version"); goto done; }
            {
                // absolute-form target: strip scheme and authority
                std::string lt = lower(target.substr(0, 8));
                size_t sch = lt.rfind("http://", 0) == 0 ? 7 : (lt.rfind("https://", 0) == 0 ? 8 : 0);
                if (sch) { size_t sl = target.find('/', sch); target = sl == std::string::npos ? "/" : target.substr(sl); }
            }
            if (rq.method.empty() || target.empty() || target[0] != '/' || target.find(' ') != std::string::npos) { sendErr(c, 400, "Malformed request target"); goto done; }
            for (char ch : rq.method) if (ch < 'A' || ch > 'Z') { sendErr(c, 400, "Malformed method"); goto done; }
            bool keep = ver == "HTTP/1.1";
            // headers
            size_t pos = le == std::string::npos ? head.size() : le + 2;
            bool bad = false;
            while (pos < head.size()) {
                size_t e = head.find("\r\n", pos);
                if (e == std::string::npos) e = head.size();
                std::string h = head.substr(pos, e - pos);
                pos = e + 2;
                size_t colon = h.find(':');
                if (colon == std::string::npos || colon == 0 || h[0] == ' ' || h[0] == '\t') { bad = true; break; }
                std::string name = lower(h.substr(0, colon));
                if (name.find(' ') != std::string::npos) { bad = true; break; }
                std::string val = h.substr(colon + 1);
                while (!val.empty() && (val[0] == ' ' || val[0] == '\t')) val.erase(0, 1);
                while (!val.empty() && (val.back() == ' ' || val.back() == '\t')) val.pop_back();
                if (name == "content-length" && rq.headers.count(name) && rq.headers[name] != val) { bad = true; break; }
                rq.headers[name] = val;
            }
            if (bad) { sendErr(c, 400, "Malformed header"); goto done; }
            if (rq.headers.count("connection")) {
                std::string cv = lower(rq.headers["connection"]);
                if (cv.find("close") != std::string::npos) keep = false;
                else if (cv.find("keep-alive") != std::string::npos) keep = true;
            }
            // body
            auto te = rq.headers.find("transfer-encoding");
            if (te != rq.headers.end()) {
                if (lower(te->second) != "chunked") { sendErr(c, 501, "Unsupported transfer encoding"); goto done; }
                if (lower(rq.headers["expect"]) == "100-continue") c.sendAll("HTTP/1.1 100 Continue\r\n\r\n");
                while (true) {
                    size_t le2;
                    while ((le2 = c.buf.find("\r\n")) == std::string::npos) {
                        if (c.buf.size() > 1024) { sendErr(c, 400, "Bad chunk"); goto done; }
                        if (!c.readMore(15000)) goto done;
                    }
                    std::string sz = c.buf.substr(0, le2);
                    size_t semi = sz.find(';');
                    if (semi != std::string::npos) sz = sz.substr(0, semi);
                    while (!sz.empty() && (sz.back() == ' ' || sz.back() == '\t')) sz.pop_back();
                    if (sz.empty() || sz.size() > 8) { sendErr(c, 400, "Bad chunk size"); goto done; }
                    size_t n = 0;
                    for (char ch : sz) { int v = hexv(ch); if (v < 0) { sendErr(c, 400, "Bad chunk size"); goto done; } n = n * 16 + v; }
                    c.buf.erase(0, le2 + 2);
                    if (rq.body.size() + n > MAX_BODY) { sendErr(c, 413, "Request body too large"); goto done; }
                    if (n == 0) {
                        // trailers until empty line
                        while (true) {
                            size_t l3;
                            while ((l3 = c.buf.find("\r\n")) == std::string::npos) {
                                if (c.buf.size() > MAX_HEADER) { sendErr(c, 400, "Bad trailer"); goto done; }
                                if (!c.readMore(15000)) goto done;
                            }
                            bool empty = l3 == 0;
                            c.buf.erase(0, l3 + 2);
                            if (empty) break;
                        }
                        break;
                    }
                    while (c.buf.size() < n + 2) if (!c.readMore(15000)) goto done;
                    if (c.buf[n] != '\r' || c.buf[n + 1] != '\n') { sendErr(c, 400, "Bad chunk framing"); goto done; }
                    rq.body.append(c.buf, 0, n);
                    c.buf.erase(0, n + 2);
                }
            } else if (rq.headers.count("content-length")) {
                const std::string& cl = rq.headers["content-length"];
                if (cl.empty() || cl.size() > 12) { sendErr(c, 400, "Bad Content-Length"); goto done; }
                size_t n = 0;
                for (char ch : cl) { if (ch < '0' || ch > '9') { sendErr(c, 400, "Bad Content-Length"); goto done; } n = n * 10 + (ch - '0'); }
                if (n > MAX_BODY) { sendErr(c, 413, "Request body too large"); goto done; }
                if (n > 0 && lower(rq.headers["expect"]) == "100-continue" && c.buf.size() < n) c.sendAll("HTTP/1.1 100 Continue\r\n\r\n");
                while (c.buf.size() < n) if (!c.readMore(15000)) goto done;
                rq.body = c.buf.substr(0, n);
                c.buf.erase(0, n);
            }
            // target: path and query
            size_t qm = target.find('?');
            rq.path = target.substr(0, qm);
            size_t hash = rq.path.find('#');
            if (hash != std::string::npos) rq.path = rq.path.substr(0, hash);
            if (qm != std::string::npos) {
                rq.rawQuery = target.substr(qm + 1);
                size_t h2 = rq.rawQuery.find('#');
                if (h2 != std::string::npos) rq.rawQuery = rq.rawQuery.substr(0, h2);
            }
            Response rs;
            bool okDecode = true;
            {
                size_t st = 1;
                std::string p = rq.path;
                while (st <= p.size()) {
                    size_t e = p.find('/', st);
                    if (e == std::string::npos) e = p.size();
                    std::string d;
                    if (!pctDecode(p.substr(st, e - st), d, false)) { okDecode = false; break; }
                    rq.segs.push_back(d);
                    st = e + 1;
                }
                if (!rq.segs.empty() && rq.segs.back().empty() && rq.segs.size() > 1) rq.segs.pop_back();  // trailing slash
                size_t qs = 0;
                const std::string& Q = rq.rawQuery;
                while (okDecode && qs < Q.size()) {
                    size_t e = Q.find('&', qs);
                    if (e == std::string::npos) e = Q.size();
                    std::string part = Q.substr(qs, e - qs);
                    qs = e + 1;
                    if (part.empty()) continue;
                    size_t eq = part.find('=');
                    std::string k, v;
                    if (!pctDecode(part.substr(0, eq), k, true) || (eq != std::string::npos && !pctDecode(part.substr(eq + 1), v, true))) { okDecode = false; break; }
                    rq.query.emplace_back(k, v);
                }
            }
            if (!okDecode) {
                rs.status = 400;
                rs.body = js::Obj().b("success", false).str("error", "Malformed percent-encoding in request target").done();
            } else {
                try {
                    handle(rq, rs);
                } catch (...) {
                    rs.status = 500;
                    rs.body = js::Obj().b("success", false).str("error", "Internal server error").done();
                }
            }
            sendResp(c, rs, keep);
            if (!keep) goto done;
        }
    }
done:
    shutdown(fd, SHUT_WR);
    close(fd);
    g_conns--;
}

int main() {
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa{};
    sa.sa_handler = onTerm;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);

    const char* dv = getenv("DEVIATIONS");
    if (dv) {
        std::string s = dv, cur;
        for (char ch : s + ",") {
            if (ch == ',') { while (!cur.empty() && cur.back() == ' ') cur.pop_back(); size_t b = cur.find_first_not_of(' '); if (b != std::string::npos) DEV.insert(cur.substr(b)); cur.clear(); }
            else cur += ch;
        }
    }
    int port = 0;
    if (const char* p = getenv("PORT")) port = atoi(p);
    const char* kf = getenv("KEYS_FILE");
    std::string keysFile = kf && *kf ? kf : "keys.json";

    seedStore(nowMs());

    std::random_device rd;
    std::mt19937_64 gen(((uint64_t)rd() << 32) ^ rd() ^ (uint64_t)nowMs());
    auto mk = [&](const std::string& name, int org, bool r, bool w, bool ing, bool exp, bool rev) {
        ApiKey k;
        k.value = "cca_" + lower(name.substr(4)) + "_" + hex64(gen()) + hex64(gen());
        k.org = org; k.read = r; k.write = w; k.ingest = ing; k.expired = exp; k.revoked = rev;
        G.keyIdx[k.value] = G.keys.size();
        G.keys.push_back(k);
        return std::make_pair(name, k.value);
    };
    std::vector<std::pair<std::string, std::string>> out = {
        mk("CCA_READ_KEY", 0, true, false, false, false, false),
        mk("CCA_WRITE_KEY", 0, false, true, false, false, false),
        mk("CCA_INGEST_KEY", 0, false, false, true, false, false),
        mk("CCA_READ_WRITE_KEY", 0, true, true, false, false, false),
        mk("CCA_OTHER_ORG_READ_KEY", 1, true, false, false, false, false),
        mk("CCA_OTHER_ORG_WRITE_KEY", 1, false, true, false, false, false),
        mk("CCA_NO_MODERATION_WRITE_KEY", 2, false, true, false, false, false),
        mk("CCA_EXPIRED_KEY", 0, true, true, false, true, false),
        mk("CCA_REVOKED_KEY", 0, true, true, false, false, true),
    };

    int ls = socket(AF_INET, SOCK_STREAM, 0);
    if (ls < 0) { perror("socket"); return 1; }
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(ls, (sockaddr*)&addr, sizeof addr) < 0) { perror("bind"); return 1; }
    if (listen(ls, 256) < 0) { perror("listen"); return 1; }
    socklen_t al = sizeof addr;
    getsockname(ls, (sockaddr*)&addr, &al);
    int actual = ntohs(addr.sin_port);

    {
        std::string j = "{";
        for (size_t i = 0; i < out.size(); i++) { if (i) j += ","; j += "\n  " + js::q(out[i].first) + ": " + js::q(out[i].second); }
        j += "\n}\n";
        std::string tmp = keysFile + ".tmp";
        std::ofstream f(tmp, std::ios::trunc);
        f << j;
        f.close();
        if (rename(tmp.c_str(), keysFile.c_str()) != 0) { std::ofstream f2(keysFile, std::ios::trunc); f2 << j; }
    }
    std::cout << "listening http://127.0.0.1:" << actual << std::endl;
    std::cout.flush();

    while (true) {
        sockaddr_in ca{};
        socklen_t cl = sizeof ca;
        int fd = accept(ls, (sockaddr*)&ca, &cl);
        if (fd < 0) { if (errno == EINTR) continue; usleep(1000); continue; }
        if (g_conns.load() > 512) { close(fd); continue; }
        g_conns++;
        try {
            std::thread(serve, fd).detach();
        } catch (...) { close(fd); g_conns--; }
    }
}
