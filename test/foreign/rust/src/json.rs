// Minimal JSON value, parser and serializer (std only).
#[derive(Clone, Debug, PartialEq)]
pub enum J {
    Null,
    Bool(bool),
    Num(f64, String),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    pub fn get(&self, k: &str) -> Option<&J> {
        match self {
            J::Obj(v) => v.iter().rev().find(|(kk, _)| kk == k).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        if let J::Str(s) = self { Some(s) } else { None }
    }
    pub fn as_f64(&self) -> Option<f64> {
        if let J::Num(f, _) = self { Some(*f) } else { None }
    }
    pub fn as_bool(&self) -> Option<bool> {
        if let J::Bool(b) = self { Some(*b) } else { None }
    }
    pub fn as_arr(&self) -> Option<&Vec<J>> {
        if let J::Arr(a) = self { Some(a) } else { None }
    }
    pub fn is_obj(&self) -> bool { matches!(self, J::Obj(_)) }
    pub fn is_int(&self) -> bool {
        match self {
            J::Num(f, raw) => f.fract() == 0.0 && f.is_finite() && !raw.is_empty(),
            _ => false,
        }
    }
    pub fn num(f: f64) -> J { J::Num(f, String::new()) }
    pub fn int(i: i64) -> J { J::Num(i as f64, i.to_string()) }
    pub fn s<S: Into<String>>(s: S) -> J { J::Str(s.into()) }
    pub fn opt_s(s: &Option<String>) -> J {
        match s { Some(v) => J::Str(v.clone()), None => J::Null }
    }
    pub fn opt_n(n: Option<f64>) -> J {
        match n { Some(v) => J::num(v), None => J::Null }
    }
    pub fn to_string(&self) -> String {
        let mut o = String::new();
        write(self, &mut o);
        o
    }
    /// canonical serialization (object keys sorted) for content comparison
    pub fn canonical(&self) -> String {
        let mut o = String::new();
        canon(self, &mut o);
        o
    }
}

pub struct Ob(pub Vec<(String, J)>);
impl Ob {
    pub fn new() -> Ob { Ob(Vec::new()) }
    pub fn p<K: Into<String>>(mut self, k: K, v: J) -> Ob { self.0.push((k.into(), v)); self }
    pub fn push<K: Into<String>>(&mut self, k: K, v: J) { self.0.push((k.into(), v)); }
    pub fn j(self) -> J { J::Obj(self.0) }
}

pub fn esc(s: &str, o: &mut String) {
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            '\u{08}' => o.push_str("\\b"),
            '\u{0c}' => o.push_str("\\f"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                o.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => o.push(c),
        }
    }
    o.push('"');
}

pub fn fmt_num(f: f64) -> String {
    if !f.is_finite() {
        return "null".into();
    }
    if f.fract() == 0.0 && f.abs() < 1e15 {
        return format!("{}", f as i64);
    }
    format!("{}", f)
}

fn write(v: &J, o: &mut String) {
    match v {
        J::Null => o.push_str("null"),
        J::Bool(b) => o.push_str(if *b { "true" } else { "false" }),
        J::Num(f, raw) => {
            if !raw.is_empty() { o.push_str(raw) } else { o.push_str(&fmt_num(*f)) }
        }
        J::Str(s) => esc(s, o),
        J::Arr(a) => {
            o.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 { o.push(','); }
                write(x, o);
            }
            o.push(']');
        }
        J::Obj(m) => {
            o.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 { o.push(','); }
                esc(k, o);
                o.push(':');
                write(x, o);
            }
            o.push('}');
        }
    }
}

fn canon(v: &J, o: &mut String) {
    match v {
        J::Num(f, _) => o.push_str(&fmt_num(*f)),
        J::Arr(a) => {
            o.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 { o.push(','); }
                canon(x, o);
            }
            o.push(']');
        }
        J::Obj(m) => {
            let mut keys: Vec<&(String, J)> = Vec::new();
            for kv in m.iter() {
                if let Some(pos) = keys.iter().position(|x| x.0 == kv.0) { keys[pos] = kv; } else { keys.push(kv); }
            }
            keys.sort_by(|a, b| a.0.cmp(&b.0));
            o.push('{');
            for (i, (k, x)) in keys.iter().map(|p| (&p.0, &p.1)).enumerate() {
                if i > 0 { o.push(','); }
                esc(k, o);
                o.push(':');
                canon(x, o);
            }
            o.push('}');
        }
        other => write(other, o),
    }
}

pub fn parse(s: &str) -> Result<J, String> {
    let mut p = P { b: s.as_bytes(), i: 0, depth: 0 };
    p.ws();
    let v = p.val()?;
    p.ws();
    if p.i != p.b.len() {
        return Err(format!("unexpected trailing data at {}", p.i));
    }
    Ok(v)
}

struct P<'a> { b: &'a [u8], i: usize, depth: usize }

impl<'a> P<'a> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') { self.i += 1; }
    }
    fn err<T>(&self, m: &str) -> Result<T, String> { Err(format!("{} at {}", m, self.i)) }
    fn val(&mut self) -> Result<J, String> {
        if self.i >= self.b.len() { return self.err("unexpected end"); }
        match self.b[self.i] {
            b'{' => {
                self.depth += 1;
                if self.depth > 200 { return self.err("too deep"); }
                self.i += 1;
                let mut m = Vec::new();
                self.ws();
                if self.i < self.b.len() && self.b[self.i] == b'}' { self.i += 1; self.depth -= 1; return Ok(J::Obj(m)); }
                loop {
                    self.ws();
                    if self.i >= self.b.len() || self.b[self.i] != b'"' { return self.err("expected key"); }
                    let k = self.string()?;
                    self.ws();
                    if self.i >= self.b.len() || self.b[self.i] != b':' { return self.err("expected ':'"); }
                    self.i += 1;
                    self.ws();
                    let v = self.val()?;
                    m.push((k, v));
                    self.ws();
                    if self.i >= self.b.len() { return self.err("unexpected end"); }
                    match self.b[self.i] {
                        b',' => { self.i += 1; }
                        b'}' => { self.i += 1; self.depth -= 1; return Ok(J::Obj(m)); }
                        _ => return self.err("expected ',' or '}'"),
                    }
                }
            }
            b'[' => {
                self.depth += 1;
                if self.depth > 200 { return self.err("too deep"); }
                self.i += 1;
                let mut a = Vec::new();
                self.ws();
                if self.i < self.b.len() && self.b[self.i] == b']' { self.i += 1; self.depth -= 1; return Ok(J::Arr(a)); }
                loop {
                    self.ws();
                    a.push(self.val()?);
                    self.ws();
                    if self.i >= self.b.len() { return self.err("unexpected end"); }
                    match self.b[self.i] {
                        b',' => { self.i += 1; }
                        b']' => { self.i += 1; self.depth -= 1; return Ok(J::Arr(a)); }
                        _ => return self.err("expected ',' or ']'"),
                    }
                }
            }
            b'"' => Ok(J::Str(self.string()?)),
            b't' => self.lit("true", J::Bool(true)),
            b'f' => self.lit("false", J::Bool(false)),
            b'n' => self.lit("null", J::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => self.err("unexpected character"),
        }
    }
    fn lit(&mut self, w: &str, v: J) -> Result<J, String> {
        if self.b[self.i..].starts_with(w.as_bytes()) { self.i += w.len(); Ok(v) } else { self.err("invalid literal") }
    }
    fn number(&mut self) -> Result<J, String> {
        let st = self.i;
        if self.b[self.i] == b'-' { self.i += 1; }
        let ds = self.i;
        while self.i < self.b.len() && self.b[self.i].is_ascii_digit() { self.i += 1; }
        let nd = self.i - ds;
        if nd == 0 { return self.err("invalid number"); }
        if nd > 1 && self.b[ds] == b'0' { return self.err("leading zero"); }
        if self.i < self.b.len() && self.b[self.i] == b'.' {
            self.i += 1;
            let fs = self.i;
            while self.i < self.b.len() && self.b[self.i].is_ascii_digit() { self.i += 1; }
            if self.i == fs { return self.err("invalid number"); }
        }
        if self.i < self.b.len() && (self.b[self.i] == b'e' || self.b[self.i] == b'E') {
            self.i += 1;
            if self.i < self.b.len() && (self.b[self.i] == b'+' || self.b[self.i] == b'-') { self.i += 1; }
            let es = self.i;
            while self.i < self.b.len() && self.b[self.i].is_ascii_digit() { self.i += 1; }
            if self.i == es { return self.err("invalid number"); }
        }
        let raw = std::str::from_utf8(&self.b[st..self.i]).unwrap_or("0").to_string();
        let f: f64 = raw.parse().map_err(|_| "invalid number".to_string())?;
        Ok(J::Num(f, raw))
    }
    fn hex4(&mut self) -> Result<u32, String> {
        if self.i + 4 > self.b.len() { return self.err("bad unicode escape"); }
        let s = std::str::from_utf8(&self.b[self.i..self.i + 4]).map_err(|_| "bad escape".to_string())?;
        let v = u32::from_str_radix(s, 16).map_err(|_| "bad unicode escape".to_string())?;
        self.i += 4;
        Ok(v)
    }
    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            if self.i >= self.b.len() { return self.err("unterminated string"); }
            let c = self.b[self.i];
            match c {
                b'"' => { self.i += 1; break; }
                b'\\' => {
                    self.i += 1;
                    if self.i >= self.b.len() { return self.err("bad escape"); }
                    let e = self.b[self.i];
                    self.i += 1;
                    let ch: char = match e {
                        b'"' => '"', b'\\' => '\\', b'/' => '/', b'b' => '\u{08}', b'f' => '\u{0c}',
                        b'n' => '\n', b'r' => '\r', b't' => '\t',
                        b'u' => {
                            let h = self.hex4()?;
                            if (0xD800..0xDC00).contains(&h) {
                                if self.i + 6 <= self.b.len() && self.b[self.i] == b'\\' && self.b[self.i + 1] == b'u' {
                                    self.i += 2;
                                    let l = self.hex4()?;
                                    if (0xDC00..0xE000).contains(&l) {
                                        char::from_u32(0x10000 + ((h - 0xD800) << 10) + (l - 0xDC00)).unwrap_or('\u{fffd}')
                                    } else { return self.err("invalid surrogate pair"); }
                                } else { return self.err("lone surrogate"); }
                            } else if (0xDC00..0xE000).contains(&h) {
                                return self.err("lone surrogate");
                            } else {
                                char::from_u32(h).unwrap_or('\u{fffd}')
                            }
                        }
                        _ => return self.err("bad escape"),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => return self.err("control character in string"),
                _ => { out.push(c); self.i += 1; }
            }
        }
        String::from_utf8(out).map_err(|_| "invalid utf-8".to_string())
    }
}
