// Time helpers: epoch milliseconds <-> ISO 8601 (UTC).
pub const DAY: i64 = 86_400_000;
pub const HOUR: i64 = 3_600_000;
pub const MIN: i64 = 60_000;

pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

pub fn iso(ms: i64) -> String {
    let days = ms.div_euclid(DAY);
    let rem = ms.rem_euclid(DAY);
    let (y, m, d) = civil_from_days(days);
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", y, m, d, rem / HOUR, (rem % HOUR) / MIN, (rem % MIN) / 1000, rem % 1000)
}

pub fn day_str(ms: i64) -> String {
    let (y, m, d) = civil_from_days(ms.div_euclid(DAY));
    format!("{:04}-{:02}-{:02}", y, m, d)
}

pub fn day_start(ms: i64) -> i64 { ms.div_euclid(DAY) * DAY }

/// Monday 00:00 UTC of the ISO week containing ms
pub fn week_start(ms: i64) -> i64 {
    let days = ms.div_euclid(DAY);
    // 1970-01-01 was a Thursday (weekday index 3 when Monday = 0)
    let wd = (days + 3).rem_euclid(7);
    (days - wd) * DAY
}

fn dim(y: i64, m: i64) -> i64 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ => if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 { 29 } else { 28 },
    }
}

fn num(s: &[u8]) -> Option<i64> {
    if s.is_empty() || !s.iter().all(|c| c.is_ascii_digit()) { return None; }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// Parse ISO 8601 date or timestamp. Returns (epoch ms, date_only).
pub fn parse_iso(s: &str) -> Option<(i64, bool)> {
    let b = s.as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' { return None; }
    let y = num(&b[0..4])?;
    let mo = num(&b[5..7])?;
    let d = num(&b[8..10])?;
    if !(1..=12).contains(&mo) || d < 1 || d > dim(y, mo) { return None; }
    let base = days_from_civil(y, mo, d) * DAY;
    if b.len() == 10 { return Some((base, true)); }
    if b[10] != b'T' && b[10] != b't' { return None; }
    let r = &b[11..];
    if r.len() < 5 || r[2] != b':' { return None; }
    let h = num(&r[0..2])?;
    let mi = num(&r[3..5])?;
    let mut i = 5;
    let mut sec = 0;
    let mut ms = 0;
    if i < r.len() && r[i] == b':' {
        if r.len() < i + 3 { return None; }
        sec = num(&r[i + 1..i + 3])?;
        i += 3;
        if i < r.len() && r[i] == b'.' {
            let st = i + 1;
            let mut e = st;
            while e < r.len() && r[e].is_ascii_digit() { e += 1; }
            if e == st { return None; }
            let frac = &r[st..e];
            let mut v = 0i64;
            for k in 0..3 { v = v * 10 + if k < frac.len() { (frac[k] - b'0') as i64 } else { 0 }; }
            ms = v;
            i = e;
        }
    }
    if h > 23 || mi > 59 || sec > 60 { return None; }
    let mut off = 0i64;
    if i < r.len() {
        match r[i] {
            b'Z' | b'z' => { if i + 1 != r.len() { return None; } }
            b'+' | b'-' => {
                let sign = if r[i] == b'+' { 1 } else { -1 };
                let t = &r[i + 1..];
                let (oh, om) = if t.len() == 5 && t[2] == b':' { (num(&t[0..2])?, num(&t[3..5])?) }
                    else if t.len() == 4 { (num(&t[0..2])?, num(&t[2..4])?) }
                    else if t.len() == 2 { (num(&t[0..2])?, 0) } else { return None; };
                if oh > 23 || om > 59 { return None; }
                off = sign * (oh * HOUR + om * MIN);
            }
            _ => return None,
        }
    }
    Some((base + h * HOUR + mi * MIN + sec.min(59) * 1000 + ms - off, false))
}

pub fn dur(secs: i64) -> String {
    let h = secs / 3600;
    let m = (secs % 3600) / 60;
    let s = secs % 60;
    let mut o = String::from("PT");
    if h > 0 { o.push_str(&format!("{}H", h)); }
    if m > 0 { o.push_str(&format!("{}M", m)); }
    if s > 0 || (h == 0 && m == 0) { o.push_str(&format!("{}S", s)); }
    o
}
