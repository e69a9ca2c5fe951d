mod api;
mod data;
mod docs;
mod json;
mod tm;

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

static DEVS: OnceLock<HashSet<String>> = OnceLock::new();

pub fn dev(id: &str) -> bool {
    DEVS.get().map(|s| s.contains(id) || s.contains("all")).unwrap_or(false)
}

pub struct Req {
    pub method: String,
    pub segs: Vec<String>,
    pub query: Vec<(String, String)>,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Req {
    pub fn header(&self, n: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str())
    }
    pub fn q(&self, n: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str())
    }
}

pub struct Resp { pub status: u16, pub ctype: &'static str, pub body: Vec<u8> }

const MAX_HEAD: usize = 64 * 1024;
const MAX_BODY: usize = 16 * 1024 * 1024;

fn reason(s: u16) -> &'static str {
    match s {
        200 => "OK", 202 => "Accepted", 400 => "Bad Request", 401 => "Unauthorized", 403 => "Forbidden", 404 => "Not Found",
        405 => "Method Not Allowed", 409 => "Conflict", 411 => "Length Required", 413 => "Payload Too Large", 422 => "Unprocessable Entity",
        431 => "Request Header Fields Too Large", 500 => "Internal Server Error", 501 => "Not Implemented", _ => "Status",
    }
}

fn write_resp(s: &mut TcpStream, r: &Resp, close: bool, head_only: bool) -> std::io::Result<()> {
    let mut h = format!("HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n", r.status, reason(r.status), r.ctype, r.body.len());
    if close { h.push_str("Connection: close\r\n"); } else { h.push_str("Connection: keep-alive\r\n"); }
    h.push_str("\r\n");
    let mut out = h.into_bytes();
    if !head_only { out.extend_from_slice(&r.body); }
    s.write_all(&out)?;
    s.flush()
}

pub fn pct_decode(s: &str, plus_space: bool) -> Option<String> {
    let b = s.as_bytes();
    let mut o = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hb = b.get(i + 1..i + 3)?;
                if !hb.iter().all(|c| c.is_ascii_hexdigit()) { return None; }
                let h = std::str::from_utf8(hb).ok()?;
                o.push(u8::from_str_radix(h, 16).ok()?);
                i += 3;
            }
            b'+' if plus_space => { o.push(b' '); i += 1; }
            c => { o.push(c); i += 1; }
        }
    }
    String::from_utf8(o).ok()
}

fn bad(msg: &str, st: u16) -> Resp { api::err(st, msg) }

fn read_line(r: &mut BufReader<TcpStream>, budget: &mut usize) -> Result<Option<String>, u16> {
    let mut buf = Vec::new();
    let n = r.by_ref().take((*budget + 1) as u64).read_until(b'\n', &mut buf).map_err(|_| 0u16)?;
    if n == 0 { return Ok(None); }
    if n > *budget { return Err(431); }
    *budget -= n;
    if buf.last() != Some(&b'\n') { return Err(400); }
    buf.pop();
    if buf.last() == Some(&b'\r') { buf.pop(); }
    String::from_utf8(buf).map(Some).map_err(|_| 400)
}

enum ReadOut { Req(Req, bool, bool), Close, Err(Resp) }

fn read_request(r: &mut BufReader<TcpStream>, w: &mut TcpStream) -> ReadOut {
    let mut budget = MAX_HEAD;
    let mut line;
    loop {
        line = match read_line(r, &mut budget) { Ok(Some(l)) => l, Ok(None) => return ReadOut::Close, Err(0) => return ReadOut::Close, Err(s) => return ReadOut::Err(bad("Malformed request line", s)) };
        if !line.is_empty() { break; }
    }
    let parts: Vec<&str> = line.split(' ').collect();
    if parts.len() != 3 || !parts[2].starts_with("HTTP/1.") { return ReadOut::Err(bad("Malformed request line", 400)); }
    let method = parts[0].to_string();
    let http10 = parts[2] == "HTTP/1.0";
    let mut target = parts[1].to_string();
    let mut headers = Vec::new();
    loop {
        let l = match read_line(r, &mut budget) { Ok(Some(l)) => l, Ok(None) => return ReadOut::Close, Err(0) => return ReadOut::Close, Err(s) => return ReadOut::Err(bad("Malformed header", s)) };
        if l.is_empty() { break; }
        let Some(p) = l.find(':') else { return ReadOut::Err(bad("Malformed header", 400)) };
        headers.push((l[..p].trim().to_ascii_lowercase(), l[p + 1..].trim().to_string()));
    }
    let hv = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v): &(String, String)| v.to_ascii_lowercase());
    let conn = hv("connection").unwrap_or_default();
    let close = conn.contains("close") || (http10 && !conn.contains("keep-alive"));
    if hv("expect").map(|e| e == "100-continue").unwrap_or(false) {
        let _ = w.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let mut body = Vec::new();
    if let Some(te) = hv("transfer-encoding") {
        if te.split(',').map(|s| s.trim()).last() != Some("chunked") { return ReadOut::Err(bad("Unsupported transfer encoding", 501)); }
        loop {
            let mut b2 = 4096;
            let l = match read_line(r, &mut b2) { Ok(Some(l)) => l, _ => return ReadOut::Err(bad("Malformed chunked body", 400)) };
            let sz = l.split(';').next().unwrap_or("").trim();
            let Ok(n) = usize::from_str_radix(sz, 16) else { return ReadOut::Err(bad("Malformed chunk size", 400)) };
            if body.len() + n > MAX_BODY { return ReadOut::Err(bad("Request body too large", 413)); }
            if n == 0 {
                loop { let mut b3 = 8192; match read_line(r, &mut b3) { Ok(Some(l)) if !l.is_empty() => continue, Ok(Some(_)) => break, _ => return ReadOut::Err(bad("Malformed chunked body", 400)) } }
                break;
            }
            let st = body.len();
            body.resize(st + n, 0);
            if r.read_exact(&mut body[st..]).is_err() { return ReadOut::Close; }
            let mut crlf = [0u8; 2];
            if r.read_exact(&mut crlf).is_err() || &crlf != b"\r\n" { return ReadOut::Err(bad("Malformed chunked body", 400)); }
        }
    } else if let Some(cl) = hv("content-length") {
        let Ok(n) = cl.trim().parse::<usize>() else { return ReadOut::Err(bad("Invalid Content-Length", 400)) };
        if n > MAX_BODY { return ReadOut::Err(bad("Request body too large", 413)); }
        body.resize(n, 0);
        if r.read_exact(&mut body).is_err() { return ReadOut::Close; }
    }
    // absolute-form
    if target.starts_with("http://") || target.starts_with("https://") {
        let rest = &target[target.find("//").unwrap() + 2..];
        target = match rest.find('/') { Some(p) => rest[p..].to_string(), None => match rest.find('?') { Some(p) => format!("/{}", &rest[p..]), None => "/".into() } };
    }
    if !target.starts_with('/') { return ReadOut::Err(bad("Unsupported request target", 400)); }
    if let Some(p) = target.find('#') { target.truncate(p); }
    let (path, qs) = match target.find('?') { Some(p) => (target[..p].to_string(), target[p + 1..].to_string()), None => (target.clone(), String::new()) };
    let mut segs = Vec::new();
    for s in path.split('/').skip(1) {
        match pct_decode(s, false) { Some(d) => segs.push(d), None => return ReadOut::Err(bad("Invalid percent-encoding in path", 400)) }
    }
    while segs.len() > 1 && segs.last().map(|s| s.is_empty()).unwrap_or(false) { segs.pop(); }
    let mut query = Vec::new();
    for kv in qs.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = match kv.find('=') { Some(p) => (&kv[..p], &kv[p + 1..]), None => (kv, "") };
        let Some(k) = pct_decode(k, true) else { return ReadOut::Err(bad("Invalid percent-encoding in query", 400)) };
        let keep_plus = k == "filter" || k == "fullFilter" || k == "filterJson";
        let Some(v) = pct_decode(v, !keep_plus) else { return ReadOut::Err(bad("Invalid percent-encoding in query", 400)) };
        query.push((k, v));
    }
    let head = method == "HEAD";
    ReadOut::Req(Req { method, segs, query, headers, body }, close, head)
}

fn conn(stream: TcpStream, st: Arc<Mutex<data::State>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let _ = stream.set_nodelay(true);
    let Ok(mut w) = stream.try_clone() else { return };
    let mut r = BufReader::new(stream);
    loop {
        match read_request(&mut r, &mut w) {
            ReadOut::Close => return,
            ReadOut::Err(resp) => { let _ = write_resp(&mut w, &resp, true, false); return; }
            ReadOut::Req(req, close, head) => {
                let resp = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| api::handle(&st, &req))) {
                    Ok(r) => r,
                    Err(_) => api::err(500, "Internal server error"),
                };
                if write_resp(&mut w, &resp, close, head).is_err() || close { return; }
            }
        }
    }
}

fn main() {
    let devs: HashSet<String> = std::env::var("DEVIATIONS").unwrap_or_default().split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    let _ = DEVS.set(devs);
    std::panic::set_hook(Box::new(|_| {}));
    let port: u16 = std::env::var("PORT").ok().and_then(|p| p.trim().parse().ok()).unwrap_or(0);
    let listener = match TcpListener::bind(("127.0.0.1", port)) { Ok(l) => l, Err(e) => { eprintln!("bind failed: {}", e); std::process::exit(1); } };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
    let now = tm::now_ms();
    let mut state = data::seed(now);
    let keys = api::install_keys(&mut state, now);
    if let Ok(kf) = std::env::var("KEYS_FILE") {
        if !kf.is_empty() {
            let mut o = json::Ob::new();
            for (n, v) in keys.iter() { o.push(n.clone(), json::J::s(v.clone())); }
            if let Err(e) = std::fs::write(&kf, o.j().to_string()) { eprintln!("cannot write KEYS_FILE: {}", e); std::process::exit(1); }
        }
    }
    let st = Arc::new(Mutex::new(state));
    println!("listening http://127.0.0.1:{}", port);
    let _ = std::io::stdout().flush();
    for s in listener.incoming() {
        if let Ok(s) = s {
            let st2 = st.clone();
            let _ = std::thread::Builder::new().stack_size(4 << 20).spawn(move || conn(s, st2));
        }
    }
}
