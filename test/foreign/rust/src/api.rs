// REST handlers.
use crate::data::*;
use crate::dev;
use crate::json::{parse, Ob, J};
use crate::tm::*;
use crate::{Req, Resp};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

pub fn resp(status: u16, v: J) -> Resp { Resp { status, ctype: "application/json; charset=utf-8", body: v.to_string().into_bytes() } }
pub fn err(status: u16, msg: &str) -> Resp { resp(status, Ob::new().p("success", J::Bool(false)).p("error", J::s(msg)).j()) }
type R = Result<Resp, Resp>;

fn r2(x: f64) -> f64 { (x * 100.0).round() / 100.0 }

pub fn install_keys(st: &mut State, now: i64) -> Vec<(String, String)> {
    let mut r = Rng::new(now as u64 ^ 0x5eed);
    let mut out = Vec::new();
    let specs: [(&str, usize, &[Scope], bool, bool); 9] = [
        ("CCA_READ_KEY", 0, &[Scope::Read], false, false),
        ("CCA_WRITE_KEY", 0, &[Scope::Write], false, false),
        ("CCA_INGEST_KEY", 0, &[Scope::Ingest], false, false),
        ("CCA_OTHER_ORG_READ_KEY", 1, &[Scope::Read], false, false),
        ("CCA_OTHER_ORG_WRITE_KEY", 1, &[Scope::Write], false, false),
        ("CCA_NO_MODERATION_WRITE_KEY", 2, &[Scope::Write], false, false),
        ("CCA_EXPIRED_KEY", 0, &[Scope::Read, Scope::Write], true, false),
        ("CCA_REVOKED_KEY", 0, &[Scope::Read, Scope::Write], false, true),
        ("CCA_READ_WRITE_KEY", 0, &[Scope::Read, Scope::Write], false, false),
    ];
    for (n, org, sc, exp, rev) in specs.iter() {
        let v = format!("cca_{:016x}{:016x}", r.next(), r.next());
        st.keys.insert(v.clone(), Key { org: *org, scopes: sc.to_vec(), expired: *exp, revoked: *rev });
        out.push((n.to_string(), v));
    }
    out
}

pub fn handle(st: &Arc<Mutex<State>>, req: &Req) -> Resp {
    let segs: Vec<&str> = req.segs.iter().map(|s| s.as_str()).collect();
    let m = req.method.as_str();
    let m = if m == "HEAD" { "GET" } else { m };
    // docs (no key required)
    match segs.as_slice() {
        ["docs"] | ["docs", "json"] | ["llms.txt"] => {
            if m != "GET" { return err(405, "Method not allowed"); }
            return crate::docs::serve(&segs);
        }
        _ => {}
    }
    let mut g = st.lock().unwrap_or_else(|e| e.into_inner());
    let now = now_ms();
    process_due(&mut g, now);
    let key = match req.header("x-api-key").and_then(|k| g.keys.get(k.trim())) {
        None => return err(401, "Missing or invalid API key"),
        Some(k) => k,
    };
    if key.revoked { return err(401, "API key has been revoked"); }
    if key.expired { return if dev("R12") { err(403, "API key expired") } else { err(401, "API key has expired") }; }
    let org = key.org;
    let scopes = key.scopes.clone();
    let need = |s: Scope| -> Result<(), Resp> {
        if scopes.contains(&s) { Ok(()) } else {
            Err(err(403, match s { Scope::Read => "Forbidden: this key lacks read scope", Scope::Write => "Forbidden: this key lacks write scope", Scope::Ingest => "Forbidden: this key lacks ingest scope" }))
        }
    };
    let st: &mut State = &mut g;
    let res: R = (|| match (m, segs.as_slice()) {
        ("GET", ["v0", "action", "list"]) => { need(Scope::Read)?; action_list(st, org, req, now) }
        ("GET", ["v0", "action", id]) => { need(Scope::Read)?; action_detail(st, org, id) }
        ("GET", ["v0", "actions", id, "custom-fields"]) => { need(Scope::Read)?; cf_get(st, org, &route_id(id)) }
        ("PATCH", ["v0", "actions", id, "custom-fields"]) => { need(Scope::Write)?; cf_patch(st, org, &route_id(id), req, now) }
        ("GET", ["v0", "agents"]) => { need(Scope::Read)?; agents(st, org, req, now) }
        ("GET", ["v0", "agents", id]) => { need(Scope::Read)?; agent(st, org, id, req, now) }
        ("GET", ["v0", "queues"]) => { if !(dev("R06") && scopes.contains(&Scope::Ingest)) { need(Scope::Read)?; } queues(st, org, req, now) }
        ("GET", ["v0", "analytics", "tags"]) => { need(Scope::Read)?; tags(st, org, req, now) }
        ("GET", ["v0", "analytics", "tags", "volume"]) => { need(Scope::Read)?; tag_volume(st, org, req, now) }
        ("GET", ["v0", "analytics", "sentiment"]) => { need(Scope::Read)?; sentiment(st, org, req, now) }
        ("GET", ["v0", "analytics", "sentiment", "by-tag"]) => { need(Scope::Read)?; sentiment_by_tag(st, org, req, now) }
        ("GET", ["v0", "analytics", "engagement"]) => { need(Scope::Read)?; engagement(st, org, req, now) }
        ("GET", ["v0", "conversations", "search"]) => { need(Scope::Read)?; search(st, org, req) }
        ("POST", ["v0", "moderation", "cases"]) => { need(Scope::Write)?; mod_gate(st, org)?; mod_single(st, org, req, now) }
        ("POST", ["v0", "moderation", "cases", "batch"]) => { need(Scope::Write)?; mod_gate(st, org)?; mod_batch(st, org, req, now) }
        ("GET", ["v0", "moderation", "cases", id]) => { need(Scope::Read)?; mod_gate(st, org)?; mod_get(st, org, id, now) }
        ("POST", ["v0", "ingest", "records"]) => { need(Scope::Ingest)?; ingest(st, org, req, now) }
        (_, p) => {
            let known = matches!(p, ["v0", "action", "list"] | ["v0", "action", _] | ["v0", "actions", _, "custom-fields"] | ["v0", "agents"] | ["v0", "agents", _] | ["v0", "queues"]
                | ["v0", "analytics", "tags"] | ["v0", "analytics", "tags", "volume"] | ["v0", "analytics", "sentiment"] | ["v0", "analytics", "sentiment", "by-tag"] | ["v0", "analytics", "engagement"]
                | ["v0", "conversations", "search"] | ["v0", "moderation", "cases"] | ["v0", "moderation", "cases", _] | ["v0", "ingest", "records"]);
            if known { Err(err(405, "Method not allowed")) } else { Err(err(404, "Not found")) }
        }
    })();
    match res { Ok(r) | Err(r) => r }
}

fn route_id(id: &str) -> String {
    if dev("R05") { id.replace('+', " ") } else { id.to_string() }
}

fn bad(m: &str) -> Resp { err(400, m) }

// ---------- parameter helpers ----------
fn q_bool(req: &Req, n: &str) -> Result<Option<bool>, Resp> {
    match req.q(n) {
        None => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(_) => Err(bad(&format!("Invalid boolean for '{}': expected true or false", n))),
    }
}
fn q_int(req: &Req, n: &str, def: i64, min: i64, max: i64) -> Result<i64, Resp> {
    match req.q(n) {
        None => Ok(def),
        Some(v) => {
            let t = v.trim();
            let ok = !t.is_empty() && t.trim_start_matches('-').chars().all(|c| c.is_ascii_digit()) && t.len() < 18 && t != "-";
            if !ok { return Err(bad(&format!("Invalid integer for '{}'", n))); }
            let x: i64 = t.parse().map_err(|_| bad(&format!("Invalid integer for '{}'", n)))?;
            if x < min || x > max { return Err(bad(&format!("'{}' must be between {} and {}", n, min, max))); }
            Ok(x)
        }
    }
}
fn parse_bound(v: &str, n: &str, is_to: bool, eod: bool) -> Result<i64, Resp> {
    match parse_iso(v.trim()) {
        Some((ms, date_only)) => Ok(if date_only && is_to && eod { ms + DAY - 1 } else { ms }),
        None => Err(bad(&format!("Invalid date for '{}': expected ISO 8601 date or timestamp", n))),
    }
}
/// inclusive [from, to]; default past seven days
fn window(req: &Req, now: i64, unbounded_default: bool, to_eod: bool) -> Result<(i64, i64), Resp> {
    let f = match req.q("from") { Some(v) => Some(parse_bound(v, "from", false, false)?), None => None };
    let t = match req.q("to") { Some(v) => Some(parse_bound(v, "to", true, to_eod)?), None => None };
    let (f, t) = if unbounded_default { (f.unwrap_or(i64::MIN), t.unwrap_or(i64::MAX)) } else {
        let t2 = t.unwrap_or(now);
        (f.unwrap_or(t2 - 7 * DAY), t2)
    };
    if f > t { return Err(bad("'from' must not be after 'to'")); }
    Ok((f, t))
}

// ---------- serialization ----------
fn tag_arr(org: &Org, t: &[usize]) -> J {
    J::Arr(t.iter().map(|&i| Ob::new().p("value", J::s(org.tags[i].name.clone())).p("group", J::s(org.tags[i].group.clone())).j()).collect())
}
fn qname(org: &Org, q: Option<usize>) -> J { match q { Some(i) => J::s(org.queues[i].name.clone()), None => J::Null } }
fn ts(t: Option<i64>) -> J { match t { Some(v) => J::s(iso(v)), None => J::Null } }
fn dur_j(t: Option<i64>) -> J { match t { Some(v) => J::s(dur(v)), None => J::Null } }
fn service_url(org: &Org, a: &Action) -> String { format!("https://app.cca.example.com/{}/actions/{}", org.id, pct_enc(&a.id)) }
fn source_url(a: &Action, stored: Option<&String>) -> J {
    if !a.is_public { return J::Null; }
    if let Some(u) = stored { return J::s(u.clone()); }
    J::s(format!("https://{}.example.com/posts/{}", a.platform.to_lowercase(), pct_enc(&a.id)))
}
fn custom_obj(a: &Action) -> J { J::Obj(a.custom.iter().map(|(k, v)| (k.clone(), v.value.clone())).collect()) }
fn conversation(a: &Action) -> J {
    J::Arr(a.messages.iter().map(|m| Ob::new().p("id", J::s(m.id.clone())).p("timestamp", J::s(iso(m.ts))).p("author", J::s(m.author.clone()))
        .p("authorId", J::opt_s(&m.author_id)).p("authorType", J::s(m.author_type)).p("message", J::s(m.message.clone()))
        .p("parentMessageId", J::opt_s(&m.parent)).p("mediaUrls", J::Arr(m.media.iter().map(|u| J::s(u.clone())).collect())).j()).collect())
}
fn messages(a: &Action) -> J {
    J::Arr(a.messages.iter().map(|m| {
        let mut o = Ob::new().p("id", J::s(m.id.clone())).p("timestamp", J::s(iso(m.ts))).p("author", J::s(m.author.clone()));
        if let Some(x) = &m.author_id { o.push("authorId", J::s(x.clone())); }
        o.p("authorType", J::s(m.author_type)).p("message", J::s(m.message.clone())).p("mediaUrls", J::Arr(m.media.iter().map(|u| J::s(u.clone())).collect())).j()
    }).collect())
}
fn stored_url(a: &Action) -> Option<&String> { a.src_url.as_ref() }

fn summary(org: &Org, a: &Action, full_conv: bool, search_extra: bool) -> J {
    let ag = a.assignee.map(|i| &org.agents[i]);
    let mut user_id = a.user_id.clone();
    if search_extra && dev("R04") && !user_id.is_empty() && user_id.chars().all(|c| c.is_ascii_digit()) {
        if let Ok(f) = user_id.parse::<f64>() { user_id = format!("{:.0}", f); }
    }
    let mut o = Ob::new()
        .p("actionId", J::s(a.id.clone())).p("actionTitle", J::s(a.title.clone())).p("actionSummary", J::s(a.summary.clone()))
        .p("status", J::s(a.status.clone())).p("platform", J::s(a.platform.clone())).p("recordType", J::opt_s(&a.record_type))
        .p("isPublicPost", J::Bool(a.is_public)).p("serviceURL", J::s(service_url(org, a))).p("sourceURL", source_url(a, stored_url(a)))
        .p("queue", qname(org, a.queue)).p("initialQueue", qname(org, a.initial_queue)).p("sentiment", J::opt_s(&a.sentiment))
        .p("sentimentScore", J::opt_n(a.sentiment_score)).p("moderation", J::opt_s(&a.moderation))
        .p("assigneeName", ag.map(|g| J::s(g.name.clone())).unwrap_or(J::Null)).p("assigneeEmail", ag.map(|g| J::s(g.email.clone())).unwrap_or(J::Null))
        .p("assigneeUserId", ag.map(|g| J::s(g.id.clone())).unwrap_or(J::Null)).p("assigneeRole", ag.map(|g| J::s(g.role.clone())).unwrap_or(J::Null))
        .p("userName", J::s(a.user_name.clone())).p("userUsername", J::s(a.user_username.clone())).p("userId", J::s(user_id))
        .p("userEmail", J::opt_s(&a.user_email)).p("userFollowerCount", J::opt_n(a.followers))
        .p("createdAt", J::s(iso(a.created))).p("updatedAt", ts(a.updated)).p("initialMessageTime", ts(a.initial_message_time))
        .p("initialResponseTime", ts(a.initial_response_time)).p("closeTime", ts(a.close_time)).p("claimTime", ts(a.claim_time))
        .p("firstResponseTime", dur_j(a.frt)).p("handleTime", dur_j(a.handle)).p("serverName", J::s(a.server_name.clone())).p("channelName", J::s(a.channel_name.clone()))
        .p("csatScore", J::opt_s(&a.csat)).p("csatFeedback", J::opt_s(&a.csat_feedback)).p("estimatedCSAT", J::opt_n(a.est_csat))
        .p("totalMessages", J::int(a.total_messages() as i64)).p("totalUserMessages", J::int(a.user_messages() as i64)).p("totalAgentMessages", J::int(a.agent_messages() as i64))
        .p("tags", tag_arr(org, &a.tags)).p("closingTags", tag_arr(org, &a.closing_tags)).p("customFields", custom_obj(a))
        .p("rootMessageText", J::opt_s(&a.root_text))
        .p("conversationJson", if full_conv { J::s(conversation(a).to_string()) } else { J::Null });
    if search_extra {
        o.push("threadId", J::s(a.thread_id.clone()));
        o.push("easyId", J::opt_s(&a.easy_id));
        o.push("contributors", J::opt_s(&a.contributors));
    }
    o.j()
}

fn detail(org: &Org, a: &Action) -> J {
    let ag = a.assignee.map(|i| &org.agents[i]);
    let f = |x: Option<String>| x.map(J::s).unwrap_or(J::Null);
    Ob::new()
        .p("user", Ob::new().p("name", J::s(a.user_name.clone())).p("username", J::s(a.user_username.clone())).p("userId", J::s(a.user_id.clone())).p("email", J::opt_s(&a.user_email)).p("followerCount", J::opt_n(a.followers)).j())
        .p("actionId", J::s(a.id.clone())).p("actionTitle", J::s(a.title.clone())).p("actionSummary", J::s(a.summary.clone())).p("platform", J::s(a.platform.clone()))
        .p("recordType", J::opt_s(&a.record_type)).p("isPublicPost", J::Bool(a.is_public)).p("sentiment", J::opt_s(&a.sentiment)).p("sentimentScore", J::opt_n(a.sentiment_score))
        .p("queue", qname(org, a.queue)).p("initialQueue", qname(org, a.initial_queue)).p("status", J::s(a.status.clone())).p("createdAt", J::s(iso(a.created)))
        .p("serviceURL", J::s(service_url(org, a))).p("sourceURL", source_url(a, stored_url(a))).p("updatedAt", ts(a.updated))
        .p("initialMessageTime", ts(a.initial_message_time)).p("initialResponseTime", ts(a.initial_response_time)).p("closeTime", ts(a.close_time))
        .p("firstResponseTime", dur_j(a.frt)).p("handleTime", dur_j(a.handle)).p("claimTime", ts(a.claim_time))
        .p("assignee", Ob::new().p("name", f(ag.map(|g| g.name.clone()))).p("email", f(ag.map(|g| g.email.clone()))).p("userId", f(ag.map(|g| g.id.clone()))).p("role", f(ag.map(|g| g.role.clone()))).j())
        .p("serverName", J::s(a.server_name.clone())).p("channelName", J::s(a.channel_name.clone()))
        .p("tags", tag_arr(org, &a.tags)).p("closingTags", tag_arr(org, &a.closing_tags)).p("moderation", J::opt_s(&a.moderation))
        .p("comments", J::Arr(a.comments.iter().map(|c| Ob::new().p("text", J::s(c.text.clone())).p("authorNativeId", J::s(c.author_id.clone())).p("authorNativeName", J::opt_s(&c.author_name)).j()).collect()))
        .p("messages", messages(a)).p("conversation", conversation(a)).p("rootMessageText", J::opt_s(&a.root_text)).p("customFields", custom_obj(a))
        .p("csatScore", J::opt_s(&a.csat)).p("csatFeedback", J::opt_s(&a.csat_feedback)).p("estimatedCSAT", J::opt_n(a.est_csat))
        .p("totalMessages", J::int(a.total_messages() as i64)).p("totalUserMessages", J::int(a.user_messages() as i64)).p("totalAgentMessages", J::int(a.agent_messages() as i64))
        .j()
}

// ---------- filter DSL ----------
const DSL_KEYS: [&str; 16] = ["platform", "status", "queue", "sentiment", "assigneeUserId", "userId", "tag", "tagGroup", "responded", "recordType", "isPublicPost", "actionId", "threadId", "text", "from", "to"];

pub enum Term { Eq(String, String), Bool(String, bool), Time(bool, i64) }

pub fn parse_dsl(s: &str) -> Result<Vec<Term>, String> {
    let mut out = Vec::new();
    if s.trim().is_empty() { return Ok(out); }
    for raw in s.split('+') {
        let t = raw.trim();
        if t.is_empty() { return Err("empty filter term".into()); }
        let Some(p) = t.find('=') else { return Err(format!("filter term '{}' is not of the form key=value", t)) };
        let k = t[..p].trim();
        let v = t[p + 1..].trim();
        if !DSL_KEYS.contains(&k) { return Err(format!("unknown filter key '{}'", k)); }
        if v.is_empty() { return Err(format!("empty value for filter key '{}'", k)); }
        match k {
            "responded" | "isPublicPost" => match v { "true" => out.push(Term::Bool(k.into(), true)), "false" => out.push(Term::Bool(k.into(), false)), _ => return Err(format!("'{}' must be true or false", k)) },
            "from" | "to" => match parse_iso(v) { Some((ms, _)) => out.push(Term::Time(k == "from", ms)), None => return Err(format!("invalid date for '{}'", k)) },
            _ => out.push(Term::Eq(k.into(), v.into())),
        }
    }
    Ok(out)
}

fn ieq(a: &str, b: &str) -> bool { a.to_lowercase() == b.to_lowercase() }

pub fn dsl_match(org: &Org, a: &Action, terms: &[Term]) -> bool {
    terms.iter().all(|t| match t {
        Term::Bool(k, b) => if k == "responded" { a.responded() == *b } else { a.is_public == *b },
        Term::Time(is_from, ms) => if *is_from { a.created >= *ms } else { a.created <= *ms },
        Term::Eq(k, v) => match k.as_str() {
            "platform" => ieq(&a.platform, v),
            "status" => ieq(&a.status, v),
            "queue" => a.queue.map(|q| org.queues[q].name == *v || org.queues[q].id == *v).unwrap_or(false),
            "sentiment" => a.sentiment.as_ref().map(|s| ieq(s, v)).unwrap_or(false),
            "assigneeUserId" => a.assignee.map(|g| org.agents[g].id == *v).unwrap_or(false),
            "userId" => a.user_id == *v,
            "tag" => a.tags.iter().any(|&i| ieq(&org.tags[i].name, v) || org.tags[i].id == *v),
            "tagGroup" => a.tags.iter().any(|&i| ieq(&org.tags[i].group, v)),
            "recordType" => a.record_type.as_ref().map(|r| ieq(r, v)).unwrap_or(false),
            "actionId" => a.id == *v,
            "threadId" => a.thread_id == *v,
            "text" => { let l = v.to_lowercase(); a.title.to_lowercase().contains(&l) || a.summary.to_lowercase().contains(&l) || a.root_text.as_ref().map(|x| x.to_lowercase().contains(&l)).unwrap_or(false) }
            _ => false,
        },
    })
}

fn legacy_responded(req: &Req) -> Result<Option<bool>, Resp> {
    let mut r = None;
    if let Some(f) = req.q("filter") {
        for t in f.split(|c| c == '+' || c == '&' || c == ',') {
            let t = t.trim();
            let (k, v) = match t.find(|c| c == '=' || c == ':') { Some(p) => (t[..p].trim(), t[p + 1..].trim()), None => continue };
            if k == "responded" {
                r = Some(match v { "true" => true, "false" => false, _ => return Err(bad("'responded' must be true or false")) });
            }
        }
    }
    if let Some(fj) = req.q("filterJson") {
        let v = parse(fj).map_err(|e| bad(&format!("filterJson is not valid JSON: {}", e)))?;
        if !v.is_obj() { return Err(bad("filterJson must be a JSON object")); }
        match v.get("responded") {
            None | Some(J::Null) => {}
            Some(J::Bool(b)) => r = Some(*b),
            Some(J::Str(s)) if s == "true" || s == "false" => r = Some(s == "true"),
            Some(_) => return Err(bad("filterJson.responded must be a boolean")),
        }
    }
    Ok(r)
}

// ---------- action routes ----------
fn action_list(st: &State, org: usize, req: &Req, now: i64) -> R {
    let o = &st.orgs[org];
    let max = if dev("R01") { 499 } else { 500 };
    let page_size = q_int(req, "pageSize", 50, 1, max)?;
    let full = req.q("fullFilter");
    if full.is_some() && (req.q("filter").is_some() || req.q("filterJson").is_some()) {
        return Err(bad("fullFilter must not be combined with filter or filterJson"));
    }
    let mut terms = Vec::new();
    if let Some(ff) = full {
        if ff.chars().count() > 10000 { return Err(bad("fullFilter exceeds 10000 characters")); }
        terms = parse_dsl(ff).map_err(|e| bad(&format!("Invalid fullFilter: {}", e)))?;
    }
    let sort = req.q("sortBy").unwrap_or("createdAt");
    if sort != "createdAt" && sort != "updatedAt" { return Err(bad("sortBy must be createdAt or updatedAt")); }
    let incl = q_bool(req, "includeFullConversation")?.unwrap_or(false);
    let legacy = legacy_responded(req)?;
    let (from, to) = window(req, now, full.is_some(), false)?;
    let responded: Option<bool> = if full.is_some() { if dev("R16") && !terms.iter().any(|t| matches!(t, Term::Bool(k, _) if k == "responded")) { Some(true) } else { None } } else { Some(legacy.unwrap_or(true)) };
    let key = |a: &Action| if sort == "updatedAt" { a.updated } else { Some(a.created) };
    let mut hits: Vec<&Action> = o.actions.iter().filter(|a| {
        let Some(t) = key(a) else { return false };
        let in_to = if dev("R02") { t < to } else { t <= to };
        t >= from && in_to && responded.map(|r| a.responded() == r).unwrap_or(true) && dsl_match(o, a, &terms)
    }).collect();
    hits.sort_by(|a, b| key(b).cmp(&key(a)).then_with(|| a.id.cmp(&b.id)));
    let total = hits.len() as i64;
    let data: Vec<J> = hits.iter().take(page_size as usize).map(|a| summary(o, a, incl, false)).collect();
    Ok(resp(200, Ob::new().p("data", J::Arr(data)).p("totalRecords", J::int(total)).p("currentPage", J::int(1)).p("pageSize", J::int(page_size))
        .p("totalPages", J::int((total + page_size - 1) / page_size)).j()))
}

fn action_detail(st: &State, org: usize, id: &str) -> R {
    let o = &st.orgs[org];
    match o.find(id) { Some(a) => Ok(resp(200, detail(o, a))), None => Err(err(404, "Action not found")) }
}

fn cf_fields(o: &Org, a: &Action) -> J {
    J::Arr(o.fields.iter().map(|f| {
        let v = a.custom.iter().find(|(k, _)| *k == f.name);
        let mut ob = Ob::new().p("fieldName", J::s(f.name.clone())).p("displayName", J::s(f.display.clone())).p("fieldType", J::s(f.ftype)).p("value", v.map(|x| x.1.value.clone()).unwrap_or(J::Null));
        if let Some(x) = v { ob.push("provenance", x.1.provenance.clone()); }
        ob.j()
    }).collect())
}

fn cf_get(st: &State, org: usize, id: &str) -> R {
    let o = &st.orgs[org];
    let a = o.find(id).ok_or_else(|| err(404, "Action not found"))?;
    Ok(resp(200, Ob::new().p("actionId", J::s(a.id.clone())).p("fields", cf_fields(o, a)).j()))
}

fn cf_err(msg: &str, fe: Vec<(String, String)>) -> Resp {
    let mut o = Ob::new().p("success", J::Bool(false)).p("error", J::s(msg));
    if !fe.is_empty() { o.push("fieldErrors", J::Obj(fe.into_iter().map(|(k, v)| (k, J::s(v))).collect())); }
    resp(422, o.j())
}

fn check_type(f: &FieldDef, v: &J) -> Result<(), String> {
    if *v == J::Null { return Ok(()); }
    match f.ftype {
        "text" => match v { J::Str(s) if s.chars().count() <= 10000 => Ok(()), J::Str(_) => Err("text value exceeds 10000 characters".into()), _ => Err("expected a string".into()) },
        "number" => if v.as_f64().map(|x| x.is_finite()).unwrap_or(false) { Ok(()) } else { Err("expected a number".into()) },
        "integer" => if v.is_int() { Ok(()) } else { Err("expected an integer".into()) },
        "boolean" => if v.as_bool().is_some() { Ok(()) } else { Err("expected a boolean".into()) },
        "date" => match v.as_str().and_then(parse_iso) { Some((_, true)) => Ok(()), _ => Err("expected a date (YYYY-MM-DD)".into()) },
        "select" => match v.as_str() { Some(s) if f.options.iter().any(|o| o == s) => Ok(()), _ => Err(format!("expected one of: {}", f.options.join(", "))) },
        "multi_select" => match v.as_arr() {
            Some(a) if a.iter().all(|x| x.as_str().map(|s| f.options.iter().any(|o| o == s)).unwrap_or(false)) => {
                let set: HashSet<&str> = a.iter().filter_map(|x| x.as_str()).collect();
                if set.len() == a.len() { Ok(()) } else { Err("duplicate options".into()) }
            }
            _ => Err(format!("expected an array of: {}", f.options.join(", "))),
        },
        _ => Ok(()),
    }
}

fn cf_patch(st: &mut State, org: usize, id: &str, req: &Req, now: i64) -> R {
    let ai = *st.orgs[org].idx.get(id).ok_or_else(|| err(404, "Action not found"))?;
    let body = std::str::from_utf8(&req.body).ok().and_then(|s| parse(s).ok()).ok_or_else(|| cf_err("Request body must be valid JSON", vec![]))?;
    if !body.is_obj() { return Err(cf_err("Request body must be a JSON object", vec![])); }
    let fields = match body.get("fields") { Some(J::Arr(a)) => a.clone(), Some(_) => return Err(cf_err("Validation failed", vec![("fields".into(), "must be an array".into())])), None => return Err(cf_err("Validation failed", vec![("fields".into(), "is required".into())])) };
    if fields.is_empty() { return Err(cf_err("Validation failed", vec![("fields".into(), "must contain at least 1 item".into())])); }
    let o = &st.orgs[org];
    let mut fe: Vec<(String, String)> = Vec::new();
    let mut seen = HashSet::new();
    let mut upd: Vec<(String, J, J)> = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        if !f.is_obj() { fe.push((format!("fields[{}]", i), "must be an object".into())); continue; }
        let name = match f.get("fieldName") { Some(J::Str(s)) if !s.is_empty() => s.clone(), _ => { fe.push((format!("fields[{}].fieldName", i), "is required (non-empty string)".into())); continue; } };
        let Some(v) = f.get("value") else { fe.push((name, "value is required".into())); continue; };
        let Some(def) = o.fields.iter().find(|d| d.name == name) else { fe.push((name, "is not a registered custom field".into())); continue; };
        if !seen.insert(name.clone()) { fe.push((name, "appears more than once".into())); continue; }
        if let Err(e) = check_type(def, v) { fe.push((name, e)); continue; }
        let mut prov = Ob::new().p("source", J::s("api")).p("setAt", J::s(iso(now)));
        match f.get("confidence") {
            None => {}
            Some(J::Num(c, _)) if (0.0..=1.0).contains(c) => prov.push("confidence", J::num(*c)),
            Some(_) => { fe.push((name, "confidence must be a number between 0 and 1".into())); continue; }
        }
        match f.get("rationale") {
            None => {}
            Some(J::Str(s)) => prov.push("rationale", J::s(s.clone())),
            Some(_) => { fe.push((name, "rationale must be a string".into())); continue; }
        }
        upd.push((name, v.clone(), prov.j()));
    }
    if !fe.is_empty() { return Err(cf_err("Validation failed", fe)); }
    let a = &mut st.orgs[org].actions[ai];
    let mut out = Vec::new();
    for (n, v, p) in upd {
        a.custom.retain(|(k, _)| *k != n);
        if v != J::Null { a.custom.push((n.clone(), CfVal { value: v.clone(), provenance: p })); }
        out.push(Ob::new().p("fieldName", J::s(n)).p("value", v).j());
    }
    Ok(resp(200, Ob::new().p("actionId", J::s(a.id.clone())).p("updated", J::Arr(out)).j()))
}

// ---------- metrics ----------
fn avg(v: &[f64]) -> f64 { if v.is_empty() { 0.0 } else { r2(v.iter().sum::<f64>() / v.len() as f64) } }

fn metrics(acts: &[&Action]) -> Ob {
    let sm = |f: &dyn Fn(&Action) -> usize| acts.iter().map(|a| f(a) as i64).sum::<i64>();
    let csat: Vec<f64> = acts.iter().filter_map(|a| a.csat.as_ref().and_then(|c| c.parse().ok())).collect();
    let frt: Vec<f64> = acts.iter().filter_map(|a| a.frt.map(|x| x as f64)).collect();
    let ht: Vec<f64> = acts.iter().filter_map(|a| a.handle.map(|x| x as f64)).collect();
    let ec: Vec<f64> = acts.iter().filter_map(|a| a.est_csat).collect();
    Ob::new().p("totalActions", J::int(acts.len() as i64)).p("totalMessages", J::int(sm(&|a| a.total_messages()))).p("totalAgentMessages", J::int(sm(&|a| a.agent_messages())))
        .p("totalUserMessages", J::int(sm(&|a| a.user_messages()))).p("averageCsat", J::num(avg(&csat))).p("averageResponseTime", J::num(avg(&frt))).p("averageHandleTime", J::num(avg(&ht)))
        .p("averageEstimatedCsat", J::num(avg(&ec))).p("averageResolutionQuality", J::num(avg(&acts.iter().map(|a| a.resolution_quality).collect::<Vec<_>>())))
        .p("averageSentimentChange", J::num(avg(&acts.iter().map(|a| a.sentiment_change).collect::<Vec<_>>()))).p("averageRubricScore", J::num(avg(&acts.iter().map(|a| a.rubric).collect::<Vec<_>>())))
}
fn workload(acts: &[&Action]) -> J {
    let c = |w: &str| J::int(acts.iter().filter(|a| a.workload() == w).count() as i64);
    Ob::new().p("active", c("active")).p("closed", c("closed")).p("cancelled", c("cancelled")).j()
}
fn in_window<'a>(o: &'a Org, f: i64, t: i64) -> Vec<&'a Action> { o.actions.iter().filter(|a| a.created >= f && a.created <= t).collect() }

fn agents(st: &State, org: usize, req: &Req, now: i64) -> R {
    let (f, t) = window(req, now, false, false)?;
    let o = &st.orgs[org];
    let acts = in_window(o, f, t);
    let mut out = Vec::new();
    for (i, g) in o.agents.iter().enumerate() {
        let mine: Vec<&Action> = acts.iter().copied().filter(|a| a.assignee == Some(i)).collect();
        let m = metrics(&mine).p("totalActionsWithResponse", J::int(mine.iter().filter(|a| a.responded()).count() as i64));
        out.push(Ob::new().p("agentId", J::s(g.id.clone())).p("metrics", m.j()).p("workload", workload(&mine)).j());
    }
    Ok(resp(200, Ob::new().p("success", J::Bool(true)).p("data", J::Arr(out)).j()))
}

fn agent(st: &State, org: usize, id: &str, req: &Req, now: i64) -> R {
    let (f, t) = window(req, now, false, false)?;
    let o = &st.orgs[org];
    let Some(gi) = o.agents.iter().position(|g| g.id == id) else {
        return Err(if dev("R17") { resp(404, Ob::new().p("success", J::Bool(false)).p("message", J::s("Agent not found")).j()) } else { err(404, "Agent not found") });
    };
    let mine: Vec<&Action> = in_window(o, f, t).into_iter().filter(|a| a.assignee == Some(gi)).collect();
    let mut days: BTreeMap<String, Vec<&Action>> = BTreeMap::new();
    for a in mine.iter() { days.entry(day_str(a.created)).or_default().push(a); }
    let rows: Vec<J> = days.iter().map(|(d, v)| { let mut m = metrics(v); m.0.insert(0, ("date".into(), J::s(d.clone()))); m.j() }).collect();
    let mut qs: BTreeMap<Option<usize>, i64> = BTreeMap::new();
    for a in mine.iter() { *qs.entry(a.queue).or_default() += 1; }
    let qrows: Vec<J> = qs.iter().map(|(q, n)| Ob::new().p("queueId", q.map(|i| J::s(o.queues[i].id.clone())).unwrap_or(J::Null)).p("queueName", qname(o, *q)).p("totalActions", J::int(*n)).j()).collect();
    let agg_src: Vec<&Action> = if dev("R13") { mine.iter().copied().filter(|a| a.status != "CANCELLED").collect() } else { mine.clone() };
    let data = Ob::new().p("metrics", J::Arr(rows)).p("aggregatedMetrics", metrics(&agg_src).j()).p("currentWorkload", workload(&mine)).p("queues", J::Arr(qrows)).j();
    Ok(resp(200, Ob::new().p("success", J::Bool(true)).p("data", data).j()))
}

fn queues(st: &State, org: usize, req: &Req, now: i64) -> R {
    let (f, t) = window(req, now, false, dev("R03"))?;
    let o = &st.orgs[org];
    let acts = in_window(o, f, t);
    let mut out = Vec::new();
    let mut groups: Vec<Option<usize>> = (0..o.queues.len()).map(Some).collect();
    if acts.iter().any(|a| a.queue.is_none()) { groups.push(None); }
    for q in groups {
        let mine: Vec<&Action> = acts.iter().copied().filter(|a| a.queue == q).collect();
        let ss: Vec<f64> = mine.iter().filter_map(|a| a.sentiment_score).collect();
        let m = metrics(&mine).p("averageSentimentScore", J::num(avg(&ss)));
        out.push(Ob::new().p("queueId", q.map(|i| J::s(o.queues[i].id.clone())).unwrap_or(J::Null)).p("queueName", qname(o, q)).p("metrics", m.j()).p("workload", workload(&mine)).j());
    }
    Ok(resp(200, Ob::new().p("success", J::Bool(true)).p("data", J::Arr(out)).j()))
}

// ---------- tag analytics ----------
fn tag_counts(o: &Org, acts: &[&Action]) -> Vec<(usize, Vec<usize>)> {
    // tag index -> indices (into acts) of actions carrying it, sorted by count desc then name
    let mut m: HashMap<usize, Vec<usize>> = HashMap::new();
    for (ai, a) in acts.iter().enumerate() { for &t in a.tags.iter() { m.entry(t).or_default().push(ai); } }
    let mut v: Vec<(usize, Vec<usize>)> = m.into_iter().collect();
    v.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| o.tags[a.0].name.cmp(&o.tags[b.0].name)));
    v
}
fn opt_avg(v: Vec<f64>) -> J { if v.is_empty() { J::Null } else { J::num(avg(&v)) } }

fn tags(st: &State, org: usize, req: &Req, now: i64) -> R {
    let (f, t) = window(req, now, false, false)?;
    let ro = q_bool(req, "respondedOnly")?.unwrap_or(false);
    let limit = q_int(req, "limit", 20, 1, 1000)?;
    let offset = q_int(req, "offset", 0, 0, 1_000_000_000)?;
    let search = req.q("search").map(|s| s.trim().to_lowercase()).filter(|s| !s.is_empty());
    let o = &st.orgs[org];
    let acts: Vec<&Action> = in_window(o, f, t).into_iter().filter(|a| !ro || a.responded()).collect();
    let counts: Vec<(usize, Vec<usize>)> = tag_counts(o, &acts).into_iter().filter(|(ti, _)| search.as_ref().map(|s| o.tags[*ti].name.to_lowercase().contains(s.as_str())).unwrap_or(true)).collect();
    let sel: HashSet<usize> = counts.iter().map(|c| c.0).collect();
    let tagged = acts.iter().filter(|a| a.tags.iter().any(|t| sel.contains(t))).count();
    let groups: HashSet<&str> = counts.iter().map(|c| o.tags[c.0].group.as_str()).collect();
    let page: Vec<&(usize, Vec<usize>)> = counts.iter().skip(offset as usize).take(limit as usize).collect();
    let breakdown: Vec<J> = page.iter().map(|(ti, v)| {
        let tg = &o.tags[*ti];
        Ob::new().p("tagId", J::s(tg.id.clone())).p("tagName", J::s(tg.name.clone())).p("groupName", J::s(tg.group.clone())).p("count", J::int(v.len() as i64))
            .p("percentage", J::num(if tagged == 0 { 0.0 } else { r2(v.len() as f64 * 100.0 / tagged as f64) })).j()
    }).collect();
    let volume: Vec<J> = page.iter().map(|(ti, v)| {
        let tg = &o.tags[*ti];
        let aa: Vec<&Action> = v.iter().map(|&i| acts[i]).collect();
        let resp_n = aa.iter().filter(|a| a.responded()).count() as i64;
        Ob::new().p("tagId", J::s(tg.id.clone())).p("tagName", J::s(tg.name.clone())).p("total", J::int(aa.len() as i64)).p("responded", J::int(resp_n)).p("notResponded", J::int(aa.len() as i64 - resp_n))
            .p("avgSentiment", opt_avg(aa.iter().filter_map(|a| a.sentiment_score).collect())).p("avgActionability", opt_avg(aa.iter().filter_map(|a| a.actionability).collect()))
            .p("avgRelevance", opt_avg(aa.iter().filter_map(|a| a.relevance).collect())).j()
    }).collect();
    let total = counts.len() as i64;
    let data = Ob::new()
        .p("summary", Ob::new().p("totalTags", J::int(total)).p("totalTagGroups", J::int(groups.len() as i64)).p("totalTaggedRecords", J::int(tagged as i64)).p("totalActions", J::int(acts.len() as i64)).j())
        .p("tagBreakdown", J::Arr(breakdown)).p("volumeByTag", J::Arr(volume))
        .p("pagination", Ob::new().p("total", J::int(total)).p("limit", J::int(limit)).p("offset", J::int(offset)).p("hasMore", J::Bool(offset + (page.len() as i64) < total)).j()).j();
    Ok(resp(200, Ob::new().p("success", J::Bool(true)).p("data", data).j()))
}

fn tag_volume(st: &State, org: usize, req: &Req, now: i64) -> R {
    let (f, t) = window(req, now, false, false)?;
    let ro = q_bool(req, "respondedOnly")?.unwrap_or(false);
    let top = q_int(req, "topTagsLimit", 10, 1, 100)?;
    let o = &st.orgs[org];
    let acts: Vec<&Action> = in_window(o, f, t).into_iter().filter(|a| !ro || a.responded()).collect();
    let mut counts = tag_counts(o, &acts);
    if let Some(ids) = req.q("tagIds") {
        let want: Vec<&str> = ids.split(',').map(|s| s.trim()).filter(|s| !s.is_empty()).collect();
        counts.retain(|(ti, _)| want.contains(&o.tags[*ti].id.as_str()));
    }
    counts.truncate(top as usize);
    let mut days: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (k, (_, v)) in counts.iter().enumerate() {
        for &ai in v { let d = day_start(acts[ai].created); days.entry(d).or_insert_with(|| vec![0; counts.len()])[k] += 1; }
    }
    let rows: Vec<J> = days.iter().map(|(d, v)| {
        let mut ob = Ob::new().p("date", J::s(day_str(*d)));
        for (k, (ti, _)) in counts.iter().enumerate() { ob.push(o.tags[*ti].name.clone(), J::int(v[k])); }
        ob.j()
    }).collect();
    let names: Vec<J> = counts.iter().map(|(ti, _)| J::s(o.tags[*ti].name.clone())).collect();
    Ok(resp(200, Ob::new().p("success", J::Bool(true)).p("data", Ob::new().p("data", J::Arr(rows)).p("tags", J::Arr(names)).j()).j()))
}

fn sent_idx(s: &str) -> Option<usize> { SENTS.iter().position(|x| *x == s) }

fn sentiment(st: &State, org: usize, req: &Req, now: i64) -> R {
    let (f, t) = window(req, now, false, false)?;
    let o = &st.orgs[org];
    let mut days: BTreeMap<i64, [i64; 4]> = BTreeMap::new();
    for a in in_window(o, f, t) {
        if let Some(i) = a.sentiment.as_deref().and_then(sent_idx) { days.entry(day_start(a.created)).or_insert([0; 4])[i] += 1; }
    }
    let rows: Vec<J> = days.iter().map(|(d, c)| {
        let mut ob = Ob::new().p("day", J::s(day_str(*d)));
        for (i, s) in SENTS.iter().enumerate() { ob.push(*s, J::int(c[i])); }
        ob.j()
    }).collect();
    Ok(resp(200, Ob::new().p("success", J::Bool(true)).p("data", J::Arr(rows)).j()))
}

fn sentiment_by_tag(st: &State, org: usize, req: &Req, now: i64) -> R {
    let (f, t) = window(req, now, false, false)?;
    let mut m: BTreeMap<String, [i64; 4]> = BTreeMap::new();
    for (oi, o) in st.orgs.iter().enumerate() {
        if oi != org && !dev("R07") { continue; }
        for a in in_window(o, f, t) {
            let Some(si) = a.sentiment.as_deref().and_then(sent_idx) else { continue };
            for &ti in a.tags.iter() {
                let name = &o.tags[ti].name;
                if oi != org && !st.orgs[org].tags.iter().any(|x| x.name == *name) { continue; }
                m.entry(name.clone()).or_insert([0; 4])[si] += 1;
            }
        }
    }
    let mut rows: Vec<(String, [i64; 4])> = m.into_iter().collect();
    rows.sort_by(|a, b| b.1.iter().sum::<i64>().cmp(&a.1.iter().sum::<i64>()).then_with(|| a.0.cmp(&b.0)));
    let out: Vec<J> = rows.into_iter().map(|(n, c)| Ob::new().p("tagName", J::s(n)).p("veryNegative", J::int(c[0])).p("negative", J::int(c[1])).p("neutral", J::int(c[2])).p("positive", J::int(c[3])).p("totalMentions", J::int(c.iter().sum())).j()).collect();
    Ok(resp(200, Ob::new().p("success", J::Bool(true)).p("data", J::Arr(out)).j()))
}

fn pctl(v: &[f64], p: f64) -> f64 {
    if v.is_empty() { return 0.0; }
    let pos = p * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    r2(v[lo] + (v[hi] - v[lo]) * (pos - lo as f64))
}

fn engagement(st: &State, org: usize, req: &Req, now: i64) -> R {
    let (f, t) = window(req, now, false, false)?;
    let mut plats: Option<Vec<String>> = None;
    if let Some(p) = req.q("platforms") {
        let mut v = Vec::new();
        for x in p.split(',').map(|s| s.trim()).filter(|s| !s.is_empty()) {
            if !PLATFORMS.contains(&x) { return Err(bad(&format!("Unknown platform '{}'", x))); }
            v.push(x.to_string());
        }
        if !v.is_empty() { plats = Some(v); }
    }
    let o = &st.orgs[org];
    let okp = |a: &Action| plats.as_ref().map(|v| v.contains(&a.platform)).unwrap_or(true);
    let acts: Vec<&Action> = in_window(o, f, t).into_iter().filter(|a| okp(a)).collect();
    let mut per: BTreeMap<String, HashMap<String, f64>> = BTreeMap::new();
    for a in acts.iter() { *per.entry(a.platform.clone()).or_default().entry(a.user_id.clone()).or_default() += a.user_messages() as f64; }
    let pcts: Vec<J> = per.iter().map(|(p, users)| {
        let mut v: Vec<f64> = users.values().copied().collect();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        Ob::new().p("platform", J::s(p.clone())).p("p25MessagesPerUser", J::num(pctl(&v, 0.25))).p("medianMessagesPerUser", J::num(pctl(&v, 0.5))).p("p75MessagesPerUser", J::num(pctl(&v, 0.75))).j()
    }).collect();
    let mut trends = Vec::new();
    let users_in = |p: &str, a0: i64, a1: i64| -> usize { o.actions.iter().filter(|a| a.platform == p && a.created >= a0 && a.created < a1).map(|a| a.user_id.as_str()).collect::<HashSet<_>>().len() };
    if f > i64::MIN / 2 {
        let mut w = week_start(f);
        while w <= t {
            for p in per.keys() {
                let cur = users_in(p, w, w + 7 * DAY) as f64;
                let prev = users_in(p, w - 7 * DAY, w) as f64;
                trends.push(Ob::new().p("week", J::s(iso(w))).p("platform", J::s(p.clone())).p("currentWeekUsers", J::num(cur)).p("previousWeekUsers", J::num(prev))
                    .p("growthPercentage", J::num(if prev > 0.0 { r2((cur - prev) * 100.0 / prev) } else { 0.0 })).j());
            }
            w += 7 * DAY;
        }
    }
    let funnel = vec![
        Ob::new().p("stage", J::s("conversations")).p("count", J::int(acts.len() as i64)).j(),
        Ob::new().p("stage", J::s("responded")).p("count", J::int(acts.iter().filter(|a| a.responded()).count() as i64)).j(),
        Ob::new().p("stage", J::s("closed")).p("count", J::int(acts.iter().filter(|a| a.status == "CLOSED").count() as i64)).j(),
    ];
    Ok(resp(200, Ob::new().p("success", J::Bool(true)).p("data", Ob::new().p("engagementPercentiles", J::Arr(pcts)).p("growthTrends", J::Arr(trends)).p("conversionFunnel", J::Arr(funnel)).j()).j()))
}

// ---------- conversation search ----------
const SEARCH_CAP: usize = 10000;
fn search(st: &State, org: usize, req: &Req) -> R {
    let page = q_int(req, "page", 1, 1, 10000)?;
    let ps = q_int(req, "pageSize", 50, 1, 100)?;
    let terms = parse_dsl(req.q("filter").unwrap_or("")).map_err(|e| bad(&format!("Invalid filter: {}", e)))?;
    let o = &st.orgs[org];
    let mut hits: Vec<&Action> = o.actions.iter().filter(|a| dsl_match(o, a, &terms)).collect();
    hits.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
    let mut total = hits.len();
    if dev("R08") && terms.iter().any(|t| matches!(t, Term::Eq(k, _) if k == "tag")) {
        total = st.orgs.iter().map(|oo| oo.actions.iter().filter(|a| dsl_match(oo, a, &terms)).count()).sum();
    }
    let capped = total > SEARCH_CAP;
    let shown = total.min(SEARCH_CAP) as i64;
    let data: Vec<J> = hits.iter().skip(((page - 1) * ps) as usize).take(ps as usize).map(|a| summary(o, a, false, true)).collect();
    let pages = if dev("R15") { shown / ps } else { (shown + ps - 1) / ps };
    Ok(resp(200, Ob::new().p("success", J::Bool(true)).p("data", J::Arr(data)).p("totalRecords", J::int(shown)).p("totalRecordsCapped", J::Bool(capped))
        .p("currentPage", J::int(page)).p("pageSize", J::int(ps)).p("totalPages", J::int(pages)).j()))
}

// ---------- moderation ----------
fn mod_gate(st: &State, org: usize) -> Result<(), Resp> {
    if st.orgs[org].ad_policy { return Ok(()); }
    Err(resp(403, Ob::new().p("success", J::Bool(false)).p("error", J::s("Moderation is not enabled for this organization"))
        .p("message", J::s("Moderation endpoints require an organization configured for the ad_policy moderation mode")).p("supported", J::Arr(vec![J::s("ad_policy")])).j()))
}

struct V { missing: Vec<String>, invalid: Vec<String>, errors: Vec<String> }
impl V {
    fn miss(&mut self, f: &str) { self.missing.push(f.into()); self.errors.push(format!("{}: is required", f)); }
    fn inv(&mut self, f: &str, m: &str) { self.invalid.push(f.into()); self.errors.push(format!("{}: {}", f, m)); }
    fn s(&mut self, o: &J, path: &str, k: &str, req: bool, min: usize, max: usize) {
        let f = if path.is_empty() { k.to_string() } else { format!("{}.{}", path, k) };
        match o.get(k) {
            None => if req { self.miss(&f) },
            Some(J::Str(s)) => { let n = s.chars().count(); if n < min || n > max { self.inv(&f, &format!("length must be {}..{}", min, max)); } }
            Some(_) => self.inv(&f, "must be a string"),
        }
    }
}
fn is_http_url(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    let rest = if l.starts_with("http://") { &s[7..] } else if l.starts_with("https://") { &s[8..] } else { return false };
    let host = rest.split(|c| c == '/' || c == '?' || c == '#').next().unwrap_or("");
    !host.is_empty() && !s.chars().any(|c| c.is_whitespace())
}
fn is_uri(s: &str) -> bool {
    match s.find(':') { Some(p) if p > 0 => s[..p].chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) && s[..1].chars().all(|c| c.is_ascii_alphabetic()) && !s.contains(' '), _ => false }
}
const CTAS: [&str; 9] = ["APPLY_NOW", "BOOK_NOW", "GET_NOW", "INSTALL_NOW", "MORE", "SHOP_NOW", "SIGN_UP", "VIEW", "WATCH"];

fn validate_case(c: &J) -> Result<J, V> {
    let mut v = V { missing: vec![], invalid: vec![], errors: vec![] };
    if !c.is_obj() { v.inv("(root)", "case must be an object"); return Err(v); }
    for (k, max, req) in [("externalId", 256, true), ("sourceSystem", 128, true), ("sourcePlatform", 128, true), ("sourceAdId", 256, true), ("advertiserId", 256, false), ("advertiserName", 500, true),
        ("campaignId", 256, false), ("market", 128, true), ("placement", 128, true), ("language", 64, false), ("title", 500, true), ("headline", 500, false), ("brandName", 500, false)] {
        v.s(c, "", k, req, 1, max);
    }
    match c.get("callToAction") { None => {}, Some(J::Str(s)) if CTAS.contains(&s.as_str()) => {}, Some(_) => v.inv("callToAction", "must be one of the supported values") }
    match c.get("providerMetadata") { None => {}, Some(x) if x.is_obj() => {}, Some(_) => v.inv("providerMetadata", "must be an object") }
    match c.get("landingPageUrl") { None => v.miss("landingPageUrl"), Some(J::Null) | Some(J::Str(_)) => {}, Some(_) => v.inv("landingPageUrl", "must be a string or null") }
    match c.get("publicProfile") {
        None => {}
        Some(p) if p.is_obj() => {
            v.s(p, "publicProfile", "displayName", false, 1, 500);
            match p.get("logoUrl") { None => {}, Some(J::Str(s)) if is_uri(s) => {}, Some(_) => v.inv("publicProfile.logoUrl", "must be a URI") }
            match p.get("verified") { None | Some(J::Bool(_)) => {}, Some(_) => v.inv("publicProfile.verified", "must be a boolean") }
        }
        Some(_) => v.inv("publicProfile", "must be an object"),
    }
    match c.get("media") {
        None => v.miss("media"),
        Some(J::Arr(a)) => {
            if a.is_empty() || a.len() > 20 { v.inv("media", "must contain 1..20 items"); }
            let pmin = if dev("R10") { 0.0 } else { 1.0 };
            for (i, m) in a.iter().enumerate() {
                let p = format!("media[{}]", i);
                if !m.is_obj() { v.inv(&p, "must be an object"); continue; }
                match m.get("url") { None => v.miss(&format!("{}.url", p)), Some(J::Str(s)) if is_http_url(s) => {}, Some(_) => v.inv(&format!("{}.url", p), "must be an absolute HTTP or HTTPS URL") }
                match m.get("type") { None => v.miss(&format!("{}.type", p)), Some(J::Str(s)) if s == "image" || s == "video" => {}, Some(_) => v.inv(&format!("{}.type", p), "must be image or video") }
                match m.get("position") { None => v.miss(&format!("{}.position", p)), Some(x) if x.is_int() && x.as_f64().map(|n| n >= pmin && n <= 20.0).unwrap_or(false) => {}, Some(_) => v.inv(&format!("{}.position", p), "must be an integer 1..20") }
            }
        }
        Some(_) => v.inv("media", "must be an array"),
    }
    match c.get("attachment") {
        None => v.miss("attachment"),
        Some(a) if a.is_obj() => {
            match a.get("type") { None => v.miss("attachment.type"), Some(J::Str(s)) if ["web_view", "deep_link", "app_install", "lens", "long_form_video"].contains(&s.as_str()) => {}, Some(_) => v.inv("attachment.type", "must be one of web_view, deep_link, app_install, lens, long_form_video") }
            match a.get("destinationUrl") { None => v.miss("attachment.destinationUrl"), Some(J::Null) | Some(J::Str(_)) => {}, Some(_) => v.inv("attachment.destinationUrl", "must be a string or null") }
        }
        Some(_) => v.inv("attachment", "must be an object"),
    }
    match c.get("targeting") {
        None => v.miss("targeting"),
        Some(t) if t.is_obj() => {
            match t.get("ageMin") { None => v.miss("targeting.ageMin"), Some(J::Null) => {}, Some(x) if x.is_int() => {}, Some(_) => v.inv("targeting.ageMin", "must be an integer or null") }
            match t.get("ageMax") { None | Some(J::Null) => {}, Some(x) if x.is_int() => {}, Some(_) => v.inv("targeting.ageMax", "must be an integer or null") }
            match t.get("geos") { None => v.miss("targeting.geos"), Some(J::Arr(a)) if !a.is_empty() && a.len() <= 250 && a.iter().all(|x| x.as_str().is_some()) => {}, Some(_) => v.inv("targeting.geos", "must be an array of 1..250 strings") }
            match t.get("languages") { None => {}, Some(J::Arr(a)) if !a.is_empty() && a.len() <= 100 && a.iter().all(|x| x.as_str().is_some()) => {}, Some(_) => v.inv("targeting.languages", "must be an array of 1..100 strings") }
        }
        Some(_) => v.inv("targeting", "must be an object"),
    }
    match c.get("copy") {
        None => v.miss("copy"),
        Some(cp) if cp.is_obj() => { for k in ["body", "caption", "linkDescription", "sourceTitle"] { v.s(cp, "copy", k, false, 0, 20000); } }
        Some(_) => v.inv("copy", "must be an object"),
    }
    for k in ["discoverTile", "partnershipAd"] { match c.get(k) { None | Some(J::Bool(_)) => {}, Some(_) => v.inv(k, "must be a boolean") } }
    for k in ["format", "arLens"] { match c.get(k) { None | Some(J::Null) | Some(J::Str(_)) => {}, Some(_) => v.inv(k, "must be a string or null") } }
    match c.get("submittedAt") { None => {}, Some(J::Str(s)) if matches!(parse_iso(s), Some((_, false))) => {}, Some(_) => v.inv("submittedAt", "must be an ISO 8601 date-time") }
    if !v.missing.is_empty() || !v.invalid.is_empty() { return Err(v); }
    let mut n = c.clone();
    if let J::Obj(m) = &mut n {
        if c.get("language").is_none() { m.push(("language".into(), J::s("en"))); }
    }
    Ok(n)
}

fn v_fields(v: &V, o: &mut Ob) {
    let code = if !v.missing.is_empty() { "MODERATION_INPUT_INCOMPLETE" } else { "MODERATION_INPUT_INVALID" };
    o.push("message", J::s(if !v.missing.is_empty() { "Required moderation input is missing" } else { "Moderation input is invalid" }));
    o.push("code", J::s(code));
    o.push("missingFields", J::Arr(v.missing.iter().map(|s| J::s(s.clone())).collect()));
    o.push("invalidFields", J::Arr(v.invalid.iter().map(|s| J::s(s.clone())).collect()));
}

enum Sub { New(String), Dup(String), Conflict(String) }

fn submit(st: &mut State, org: usize, norm: &J, now: i64) -> Sub {
    let ext = norm.get("externalId").and_then(|x| x.as_str()).unwrap_or("").to_string();
    let mut content_src = norm.clone();
    if dev("R09") && norm.get("submittedAt").is_none() { if let J::Obj(m) = &mut content_src { m.push(("submittedAt".into(), J::s(iso(now)))); } }
    let content = content_src.canonical();
    if let Some(cid) = st.case_by_ext.get(&(org, ext.clone())) {
        let c = &st.cases[&(org, cid.clone())];
        return if c.content == content { Sub::Dup(cid.clone()) } else { Sub::Conflict(cid.clone()) };
    }
    st.counter += 1;
    let h = fnv(&format!("{}|{}|{}", org, ext, st.counter));
    let cid = format!("mc_{:06}_{:08x}", st.counter, h as u32);
    let eid = format!("ev_{:016x}", fnv(&format!("eval{}", cid)));
    let key = format!("idem_{:016x}", fnv(&format!("{}|{}|{}", st.orgs[org].id, ext, content)));
    st.cases.insert((org, cid.clone()), ModCase { case_id: cid.clone(), external_id: ext.clone(), evaluation_id: eid, content, created_ms: now, submission: norm.clone(), idem_key: key });
    st.case_by_ext.insert((org, ext), cid.clone());
    Sub::New(cid)
}

fn ack(c: &ModCase, dup: bool) -> Ob {
    Ob::new().p("caseId", J::s(c.case_id.clone())).p("externalId", J::s(c.external_id.clone())).p("status", J::s(if dup { "duplicate" } else { "accepted" }))
        .p("analysisStatus", J::s("pending")).p("evaluationId", J::s(c.evaluation_id.clone()))
        .p("idempotency", Ob::new().p("key", J::s(c.idem_key.clone())).p("replayed", J::Bool(dup)).j())
}

fn body_json(req: &Req) -> Result<J, String> {
    let s = std::str::from_utf8(&req.body).map_err(|_| "Request body is not valid UTF-8".to_string())?;
    if s.trim().is_empty() { return Err("Request body is required".into()); }
    parse(s).map_err(|e| format!("Request body is not valid JSON: {}", e))
}

fn mod_single(st: &mut State, org: usize, req: &Req, now: i64) -> R {
    let b = body_json(req).map_err(|e| bad(&e))?;
    if !b.is_obj() { return Err(bad("Request body must be a JSON object")); }
    let norm = match validate_case(&b) {
        Ok(n) => n,
        Err(v) => {
            let mut o = Ob::new().p("success", J::Bool(false)).p("error", J::s("Moderation input validation failed"));
            v_fields(&v, &mut o);
            o.push("errors", J::Arr(v.errors.iter().map(|s| J::s(s.clone())).collect()));
            return Err(resp(422, o.j()));
        }
    };
    match submit(st, org, &norm, now) {
        Sub::New(c) => Ok(resp(202, ack(&st.cases[&(org, c)], false).j())),
        Sub::Dup(c) => Ok(resp(202, ack(&st.cases[&(org, c)], true).j())),
        Sub::Conflict(c) => Err(resp(409, Ob::new().p("success", J::Bool(false)).p("error", J::s("externalId already exists with different content"))
            .p("message", J::s(format!("externalId is immutable; existing case {}", c))).j())),
    }
}

fn mod_batch(st: &mut State, org: usize, req: &Req, now: i64) -> R {
    let b = body_json(req).map_err(|e| bad(&e))?;
    let cases = match b.get("cases") { Some(J::Arr(a)) => a.clone(), _ => return Err(bad("Body must be an object with a 'cases' array")) };
    if cases.is_empty() || cases.len() > 100 { return Err(bad("'cases' must contain 1..100 items")); }
    let mut results = Vec::new();
    for c in cases.iter() {
        let ext = c.get("externalId").and_then(|x| x.as_str()).map(|s| J::s(s)).unwrap_or(J::Null);
        match validate_case(c) {
            Err(v) => {
                let mut o = Ob::new().p("externalId", ext).p("caseId", J::Null).p("status", J::s("rejected")).p("errors", J::Arr(v.errors.iter().map(|s| J::s(s.clone())).collect()));
                v_fields(&v, &mut o);
                results.push(o.j());
            }
            Ok(norm) => match submit(st, org, &norm, now) {
                Sub::New(cid) => { let mut o = ack(&st.cases[&(org, cid)], false); o.0.retain(|_| true); results.push(o.j()); }
                Sub::Dup(cid) => results.push(ack(&st.cases[&(org, cid)], true).j()),
                Sub::Conflict(cid) => results.push(Ob::new().p("externalId", ext).p("caseId", J::s(cid)).p("status", J::s("rejected"))
                    .p("errors", J::Arr(vec![J::s("externalId already exists with different content")])).p("message", J::s("externalId is immutable per organization")).j()),
            },
        }
    }
    Ok(resp(202, Ob::new().p("results", J::Arr(results)).j()))
}

fn decision(sub: &J) -> J {
    let g = |k: &str| sub.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
    let title = g("title");
    let body = sub.get("copy").and_then(|c| c.get("body")).and_then(|x| x.as_str()).unwrap_or("").to_string();
    let text = format!("{} {} {}", title, g("headline"), body).to_lowercase();
    let age_min = sub.get("targeting").and_then(|t| t.get("ageMin")).and_then(|x| x.as_f64());
    let landing = sub.get("landingPageUrl").and_then(|x| x.as_str()).is_some();
    let assess = |p: &str, r: &str| Ob::new().p("polarity", J::s(p)).p("reasoning", J::s(r)).j();
    let bad_words = ["guaranteed", "miracle", "get rich", "risk-free"];
    let age_words = ["alcohol", "beer", "wine", "casino", "betting"];
    let (disp, conf, reason, hits) = if let Some(w) = bad_words.iter().find(|w| text.contains(*w)) {
        let lt = title.to_lowercase(); let span = lt.find(*w).map(|s| { let st = lt[..s].chars().count(); Ob::new().p("field", J::s("title")).p("start", J::int(st as i64)).p("end", J::int((st + w.chars().count()) as i64)).j() });
        let mut ev = Ob::new().p("modality", J::s("text")).p("claim", J::s(format!("Copy contains the misleading claim '{}'", w)));
        if let Some(sp) = span { ev.push("locator", Ob::new().p("textSpan", sp).j()); }
        ("reject", "high", format!("Misleading claim detected: '{}'", w), vec![Ob::new().p("ruleId", J::s("rule_001")).p("ruleSlug", J::s("misleading-claims")).p("polarity", J::s("NEGATIVE")).p("confidence", J::s("high")).p("reasoning", J::s("Unsubstantiated outcome guarantee")).p("evidence", J::Arr(vec![ev.j()])).j()])
    } else if age_words.iter().any(|w| text.contains(*w)) && age_min.map(|a| a < 18.0).unwrap_or(true) {
        ("age_gate", "medium", "Age-restricted category requires an 18+ audience".to_string(), vec![Ob::new().p("ruleId", J::s("rule_002")).p("ruleSlug", J::s("age-restricted-products")).p("polarity", J::s("AMBIGUOUS")).p("confidence", J::s("medium")).p("reasoning", J::Null)
            .p("evidence", J::Arr(vec![Ob::new().p("modality", J::s("metadata")).p("claim", J::s("Targeting allows audiences under 18")).j()])).j()])
    } else if !landing {
        ("escalate", "low", "No landing page available for review".to_string(), vec![])
    } else {
        ("approve", "medium", "No policy violations found".to_string(), vec![])
    };
    Ob::new().p("disposition", J::s(disp)).p("confidence", J::s(conf)).p("title", J::Null).p("reason", J::s(reason)).p("hits", J::Arr(hits))
        .p("advertiserAssessment", assess(if disp == "reject" { "NEGATIVE" } else { "POSITIVE" }, "Advertiser profile reviewed"))
        .p("landingAssessment", assess(if landing { "POSITIVE" } else { "AMBIGUOUS" }, if landing { "Landing page consistent with ad" } else { "No landing page supplied" }))
        .p("decisionSource", J::s("model")).p("failureCode", J::Null).p("failureMessage", J::Null).j()
}

fn mod_get(st: &State, org: usize, id: &str, now: i64) -> R {
    let c = st.cases.get(&(org, id.to_string())).ok_or_else(|| err(404, "Moderation case not found"))?;
    let el = now - c.created_ms;
    let fail = c.submission.get("providerMetadata").and_then(|p| p.get("forceFailure")).and_then(|x| x.as_bool()).unwrap_or(false);
    let status = if el < 300 { "pending" } else if el < 1000 { "running" } else if fail { "failed" } else { "completed" };
    let mut o = Ob::new().p("caseId", J::s(c.case_id.clone())).p("externalId", J::s(c.external_id.clone())).p("analysisStatus", J::s(status)).p("evaluationId", J::s(c.evaluation_id.clone()));
    if status == "completed" { o.push("decision", decision(&c.submission)); }
    if status == "failed" { o.push("failureCode", J::s("EVALUATION_UNAVAILABLE")); }
    Ok(resp(200, o.j()))
}

// ---------- ingestion ----------
fn ing_err(errs: Vec<String>) -> Resp {
    resp(422, Ob::new().p("success", J::Bool(false)).p("error", J::s(format!("Validation failed: {}", errs.first().cloned().unwrap_or_default()))).p("details", J::Arr(errs.into_iter().map(J::s).collect())).j())
}

fn ingest(st: &mut State, org: usize, req: &Req, now: i64) -> R {
    let b = body_json(req).map_err(|e| ing_err(vec![e]))?;
    if !b.is_obj() { return Err(ing_err(vec!["body must be a JSON object".into()])); }
    let mut e: Vec<String> = Vec::new();
    let req_str = |o: &J, k: &str, p: &str, e: &mut Vec<String>, req: bool, min: usize| -> Option<String> {
        match o.get(k) {
            None => { if req { e.push(format!("{}{}: is required", p, k)); } None }
            Some(J::Str(s)) => { if s.chars().count() < min { e.push(format!("{}{}: must not be empty", p, k)); } Some(s.clone()) }
            Some(_) => { e.push(format!("{}{}: must be a string", p, k)); None }
        }
    };
    let platform = req_str(&b, "platform", "", &mut e, true, 1).unwrap_or_default();
    if !platform.is_empty() && !PLATFORMS.contains(&platform.as_str()) { e.push("platform: must be one of the supported platforms".into()); }
    let server_id = req_str(&b, "serverId", "", &mut e, true, 1).unwrap_or_default();
    let server_name = req_str(&b, "serverName", "", &mut e, true, 1).unwrap_or_default();
    req_str(&b, "channelId", "", &mut e, false, 0);
    let channel = req_str(&b, "channelName", "", &mut e, false, 0);
    let level = req_str(&b, "processingLevel", "", &mut e, false, 0);
    if let Some(l) = &level { if l != "INSIGHTS" && l != "STATS_ONLY" { e.push("processingLevel: must be INSIGHTS or STATS_ONLY".into()); } }
    match b.get("source") {
        None => {}
        Some(s) if s.is_obj() => { req_str(s, "system", "source.", &mut e, true, 1); req_str(s, "sourceId", "source.", &mut e, false, 0); }
        Some(_) => e.push("source: must be an object".into()),
    }
    let recs = match b.get("records") { Some(J::Arr(a)) => a.clone(), Some(_) => { e.push("records: must be an array".into()); vec![] } None => { e.push("records: is required".into()); vec![] } };
    if b.get("records").map(|r| r.as_arr().is_some()).unwrap_or(false) && (recs.is_empty() || recs.len() > 500) { e.push("records: must contain 1..500 items".into()); }
    for (i, r) in recs.iter().enumerate() {
        let p = format!("records[{}].", i);
        if !r.is_obj() { e.push(format!("records[{}]: must be an object", i)); continue; }
        req_str(r, "externalId", &p, &mut e, true, 1);
        req_str(r, "threadExternalId", &p, &mut e, false, 0);
        req_str(r, "parentExternalId", &p, &mut e, false, 0);
        req_str(r, "authorId", &p, &mut e, true, 1);
        req_str(r, "authorName", &p, &mut e, true, 1);
        req_str(r, "title", &p, &mut e, false, 0);
        req_str(r, "body", &p, &mut e, true, 0);
        req_str(r, "createdAt", &p, &mut e, true, 1);
        req_str(r, "recordType", &p, &mut e, true, 1);
        match r.get("score") { None => {}, Some(J::Num(s, _)) if *s >= 0.0 && (*s <= 5.0 && !(dev("R11") && *s == 5.0)) => {}, Some(_) => e.push(format!("{}score: must be a number between 0 and 5", p)) }
        match r.get("url") { None => {}, Some(J::Str(s)) if is_http_url(s) => {}, Some(_) => e.push(format!("{}url: must be an absolute HTTP or HTTPS URL", p)) }
        match r.get("customFields") { None => {}, Some(x) if x.is_obj() => {}, Some(_) => e.push(format!("{}customFields: must be an object", p)) }
    }
    if !e.is_empty() { return Err(ing_err(e)); }
    let stats_only = level.as_deref() == Some("STATS_ONLY");
    for r in recs.iter() {
        let g = |k: &str| r.get(k).and_then(|x| x.as_str()).map(|s| s.to_string());
        let ext = g("externalId").unwrap_or_default();
        let ident = (org, platform.clone(), server_id.clone(), ext.clone());
        let aid = st.ingested.entry(ident).or_insert_with(|| format!("ing_{:016x}", fnv(&format!("{}\u{1}{}\u{1}{}\u{1}{}", org, platform, server_id, ext)))).clone();
        if stats_only { continue; }
        let created = g("createdAt").and_then(|s| parse_iso(&s)).map(|x| x.0).unwrap_or(now);
        let body = g("body").unwrap_or_default();
        let url = g("url");
        let fields = &st.orgs[org].fields;
        let custom: Vec<(String, CfVal)> = match r.get("customFields") {
            Some(J::Obj(m)) => m.iter().filter(|(k, v)| fields.iter().any(|f| f.name == *k && check_type(f, v).is_ok()) && *v != J::Null)
                .map(|(k, v)| (k.clone(), CfVal { value: v.clone(), provenance: Ob::new().p("source", J::s("ingest")).p("setAt", J::s(iso(now))).j() })).collect(),
            _ => vec![],
        };
        let short: String = body.chars().take(200).collect();
        let a = Action {
            id: aid.clone(), title: g("title").unwrap_or_else(|| body.chars().take(80).collect()), summary: short, status: "OPEN".into(), platform: platform.clone(),
            record_type: g("recordType"), is_public: url.is_some(), queue: None, initial_queue: None, sentiment: None, sentiment_score: None, moderation: None, assignee: None,
            user_name: g("authorName").unwrap_or_default(), user_username: g("authorName").unwrap_or_default(), user_id: g("authorId").unwrap_or_default(), user_email: None, followers: None,
            created, updated: Some(now), initial_message_time: Some(created), initial_response_time: None, close_time: None, claim_time: None, frt: None, handle: None,
            server_name: server_name.clone(), channel_name: channel.clone().unwrap_or_default(), csat: r.get("score").and_then(|s| s.as_f64()).map(crate::json::fmt_num), csat_feedback: None, est_csat: None,
            tags: vec![], closing_tags: vec![], custom, root_text: Some(body.clone()),
            messages: vec![Msg { id: ext.clone(), ts: created, author: g("authorName").unwrap_or_default(), author_id: g("authorId"), author_type: "USER", message: body, media: vec![], parent: g("parentExternalId") }],
            comments: vec![], thread_id: g("threadExternalId").unwrap_or(ext.clone()), easy_id: None, contributors: g("authorName"),
            resolution_quality: 0.0, sentiment_change: 0.0, rubric: 0.0, actionability: None, relevance: None, src_url: url.clone(),
        };
        st.pending.push(PendingIngest { ready: now + 800, org, action: a });
    }
    Ok(resp(202, Ob::new().p("status", J::s("accepted")).p("accepted", J::int(recs.len() as i64)).j()))
}

pub fn process_due(st: &mut State, now: i64) {
    if st.pending.is_empty() { return; }
    let (due, rest): (Vec<PendingIngest>, Vec<PendingIngest>) = std::mem::take(&mut st.pending).into_iter().partition(|p| p.ready <= now);
    st.pending = rest;
    if due.is_empty() { return; }
    let mut touched = HashSet::new();
    for p in due {
        let o = &mut st.orgs[p.org];
        if let Some(&i) = o.idx.get(&p.action.id) { o.actions[i] = p.action; } else { o.idx.insert(p.action.id.clone(), o.actions.len()); o.actions.push(p.action); }
        touched.insert(p.org);
    }
    for oi in touched { st.orgs[oi].reindex(); }
}
