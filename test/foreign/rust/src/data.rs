// Data model and deterministic seed.
use crate::json::{Ob, J};
use crate::tm::*;
use std::collections::HashMap;

pub struct Rng(u64);
impl Rng {
    pub fn new(s: u64) -> Rng { Rng(s) }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 { if n == 0 { 0 } else { self.next() % n } }
    pub fn f(&mut self) -> f64 { (self.next() >> 11) as f64 / (1u64 << 53) as f64 }
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T { &v[self.below(v.len() as u64) as usize] }
    pub fn chance(&mut self, p: f64) -> bool { self.f() < p }
}

#[derive(Clone)]
pub struct Msg {
    pub id: String,
    pub ts: i64,
    pub author: String,
    pub author_id: Option<String>,
    pub author_type: &'static str,
    pub message: String,
    pub media: Vec<String>,
    pub parent: Option<String>,
}

#[derive(Clone)]
pub struct Comment { pub text: String, pub author_id: String, pub author_name: Option<String> }

#[derive(Clone)]
pub struct CfVal { pub value: J, pub provenance: J }

#[derive(Clone)]
pub struct Action {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub status: String,
    pub platform: String,
    pub record_type: Option<String>,
    pub is_public: bool,
    pub queue: Option<usize>,
    pub initial_queue: Option<usize>,
    pub sentiment: Option<String>,
    pub sentiment_score: Option<f64>,
    pub moderation: Option<String>,
    pub assignee: Option<usize>,
    pub user_name: String,
    pub user_username: String,
    pub user_id: String,
    pub user_email: Option<String>,
    pub followers: Option<f64>,
    pub created: i64,
    pub updated: Option<i64>,
    pub initial_message_time: Option<i64>,
    pub initial_response_time: Option<i64>,
    pub close_time: Option<i64>,
    pub claim_time: Option<i64>,
    pub frt: Option<i64>,
    pub handle: Option<i64>,
    pub server_name: String,
    pub channel_name: String,
    pub csat: Option<String>,
    pub csat_feedback: Option<String>,
    pub est_csat: Option<f64>,
    pub tags: Vec<usize>,
    pub closing_tags: Vec<usize>,
    pub custom: Vec<(String, CfVal)>,
    pub root_text: Option<String>,
    pub messages: Vec<Msg>,
    pub comments: Vec<Comment>,
    pub thread_id: String,
    pub easy_id: Option<String>,
    pub contributors: Option<String>,
    pub resolution_quality: f64,
    pub sentiment_change: f64,
    pub rubric: f64,
    pub actionability: Option<f64>,
    pub relevance: Option<f64>,
    pub src_url: Option<String>,
}

impl Action {
    pub fn responded(&self) -> bool { self.initial_response_time.is_some() }
    pub fn total_messages(&self) -> usize { self.messages.len() }
    pub fn user_messages(&self) -> usize { self.messages.iter().filter(|m| m.author_type == "USER").count() }
    pub fn agent_messages(&self) -> usize { self.messages.iter().filter(|m| m.author_type == "AGENT").count() }
    pub fn workload(&self) -> &'static str {
        match self.status.as_str() { "CLOSED" => "closed", "CANCELLED" => "cancelled", _ => "active" }
    }
}

pub struct Agent { pub id: String, pub name: String, pub email: String, pub role: String }
pub struct Queue { pub id: String, pub name: String }
pub struct Tag { pub id: String, pub name: String, pub group: String }
pub struct FieldDef { pub name: String, pub display: String, pub ftype: &'static str, pub options: Vec<String> }

pub struct Org {
    pub id: String,
    pub ad_policy: bool,
    pub agents: Vec<Agent>,
    pub queues: Vec<Queue>,
    pub tags: Vec<Tag>,
    pub fields: Vec<FieldDef>,
    pub actions: Vec<Action>,
    pub idx: HashMap<String, usize>,
}

impl Org {
    pub fn reindex(&mut self) {
        self.actions.sort_by(|a, b| a.created.cmp(&b.created).then_with(|| a.id.cmp(&b.id)));
        self.idx.clear();
        for (i, a) in self.actions.iter().enumerate() { self.idx.insert(a.id.clone(), i); }
    }
    pub fn find(&self, id: &str) -> Option<&Action> { self.idx.get(id).map(|&i| &self.actions[i]) }
    pub fn tag_by_name(&mut self, name: &str, group: &str) -> usize {
        if let Some(p) = self.tags.iter().position(|t| t.name == name) { return p; }
        let id = format!("{}", 1001 + self.tags.len());
        self.tags.push(Tag { id, name: name.into(), group: group.into() });
        self.tags.len() - 1
    }
}

#[derive(Clone, Copy, PartialEq)]
pub enum Scope { Read, Write, Ingest }

pub struct Key { pub org: usize, pub scopes: Vec<Scope>, pub expired: bool, pub revoked: bool }

pub struct ModCase {
    pub case_id: String,
    pub external_id: String,
    pub evaluation_id: String,
    pub content: String,
    pub created_ms: i64,
    pub submission: J,
    pub idem_key: String,
}

pub struct PendingIngest { pub ready: i64, pub org: usize, pub action: Action }

pub struct State {
    pub orgs: Vec<Org>,
    pub keys: HashMap<String, Key>,
    pub cases: HashMap<(usize, String), ModCase>,
    pub case_by_ext: HashMap<(usize, String), String>,
    pub pending: Vec<PendingIngest>,
    pub ingested: HashMap<(usize, String, String, String), String>,
    pub counter: u64,
    #[allow(dead_code)]
    pub start: i64,
}

pub const PLATFORMS: [&str; 25] = ["DISCORD", "SLACK", "GITHUB", "ZENDESK", "TELEGRAM", "FACEBOOK_GROUP", "TWITTER_COMMUNITY", "SALESFORCE", "FACEBOOK", "TWITTER", "THREADS", "TIKTOK", "INSTAGRAM", "LINKEDIN", "WHATSAPP", "YOUTUBE", "GAINSIGHT", "APPSTORE", "GOOGLE_PLAY", "HIGHER_LOGIC", "DISCOURSE", "CUSTOM_FORM", "MODERATION_API", "CHROME_WEB_STORE", "CANNY"];

pub const SENTS: [&str; 4] = ["Very Negative", "Negative", "Neutral", "Positive"];

pub fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in s.bytes() { h ^= b as u64; h = h.wrapping_mul(0x100000001b3); }
    h
}

pub fn pct_enc(s: &str) -> String {
    let mut o = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) { o.push(b as char) } else { o.push_str(&format!("%{:02X}", b)) }
    }
    o
}

fn mk_fields(org: usize) -> Vec<FieldDef> {
    let f = |n: &str, d: &str, t: &'static str, o: &[&str]| FieldDef { name: n.into(), display: d.into(), ftype: t, options: o.iter().map(|s| s.to_string()).collect() };
    if org == 1 {
        return vec![
            f("priority_level", "Priority (free text)", "text", &[]),
            f("region", "Region", "select", &["emea", "amer", "apac"]),
            f("refund_amount", "Refund amount", "number", &[]),
        ];
    }
    vec![
        f("priority_level", "Priority level", "select", &["low", "medium", "high", "urgent"]),
        f("contract_value", "Contract value", "number", &[]),
        f("seat_count", "Seat count", "integer", &[]),
        f("is_vip", "VIP customer", "boolean", &[]),
        f("notes", "Notes", "text", &[]),
        f("follow_up_date", "Follow-up date", "date", &[]),
        f("product_areas", "Product areas", "multi_select", &["billing", "mobile", "web", "api"]),
    ]
}

const FIRST: [&str; 12] = ["Ana", "Bo", "Chen", "Dara", "Émile", "Farah", "Gus", "Hiro", "Ines", "José", "Kai", "Lena"];
const LAST: [&str; 8] = ["Silva", "Nguyen", "Müller", "O'Brien", "Kowalski", "Tanaka", "Okafor", "Smith"];
const TOPICS: [(&str, &str); 12] = [
    ("billing", "Topic"), ("login", "Topic"), ("shipping", "Topic"), ("refund", "Topic"), ("bug", "Topic"), ("feature-request", "Topic"),
    ("complaint", "Intent"), ("praise", "Intent"), ("question", "Intent"), ("mobile-app", "Product"), ("web", "Product"), ("api", "Product"),
];

pub fn seed(now: i64) -> State {
    let mut orgs = Vec::new();
    let specs: [(&str, bool, usize, u64); 3] = [("org_a", true, 640, 11), ("org_b", true, 220, 22), ("org_c", false, 90, 33)];
    for (oi, (oid, ad, n, s)) in specs.iter().enumerate() {
        let mut r = Rng::new(*s);
        let mut org = Org { id: oid.to_string(), ad_policy: *ad, agents: vec![], queues: vec![], tags: vec![], fields: mk_fields(oi), actions: vec![], idx: HashMap::new() };
        let nag = [8, 5, 3][oi];
        for i in 0..nag {
            let id = match (oi, i) {
                (0, 0) => "9007199254740995123".to_string(),
                (0, 1) => "0007".to_string(),
                (1, 0) => "0007".to_string(),
                _ => format!("{}", 70_000_000_000_000_000u64 + (oi as u64) * 1000 + i as u64 * 7),
            };
            let nm = format!("{} {}", FIRST[(i * 5 + oi) % 12], LAST[(i + oi * 3) % 8]);
            org.agents.push(Agent { id, email: format!("agent{}@{}.example.com", i, oid), name: nm, role: if i == 0 { "ADMIN".into() } else { "AGENT".into() } });
        }
        let qn: Vec<(&str, &str)> = match oi {
            0 => vec![("q_billing", "Billing"), ("q_tech", "Technical Support"), ("q_social", "Social Care"), ("q_vip", "VIP & Escalations"), ("q_es", "Soporte en español")],
            1 => vec![("q_billing", "Billing B"), ("q_general", "General")],
            _ => vec![("q_main", "Main")],
        };
        for (id, nm) in qn { org.queues.push(Queue { id: id.into(), name: nm.into() }); }
        let topics: Vec<(&str, &str)> = match oi { 0 => TOPICS.to_vec(), 1 => vec![("shipping", "Topic"), ("billing", "Topic"), ("praise", "Intent"), ("outage", "Topic")], _ => vec![("billing", "Topic"), ("general", "Topic")] };
        for (t, g) in topics.iter() { org.tag_by_name(t, g); }
        let plats: &[&str] = match oi { 0 => &["TWITTER", "DISCORD", "ZENDESK", "SLACK", "INSTAGRAM", "FACEBOOK", "APPSTORE", "GITHUB"], 1 => &["TWITTER", "ZENDESK", "DISCORD"], _ => &["SLACK", "GITHUB"] };
        let specials: Vec<String> = match oi {
            0 => vec!["9007199254740993".into(), "123456789012345678901234567890".into(), "000042".into(), "ação/日本 🚀".into(), "a b+c%d?e#f&g=h".into(), "x%2Fy".into()],
            1 => vec!["000042".into(), "9007199254740993".into()],
            _ => vec!["9007199254740993".into()],
        };
        for i in 0..*n {
            let id = if i < specials.len() { specials[i].clone() } else {
                match r.below(3) {
                    0 => format!("{}", 1_700_000_000_000_000_000u64 + r.below(1_000_000_000_000_000)),
                    1 => format!("00{}", 100000 + i * 13 + oi),
                    _ => format!("act_{}_{:08x}", oi, r.next() as u32),
                }
            };
            if org.idx.contains_key(&id) { continue; }
            let created = if i < specials.len() { now - (i as i64 + 1) * 5 * HOUR - 1234 }
                else if r.chance(0.45) { now - (r.below(7 * DAY as u64 - 10 * MIN as u64) as i64) - 10 * MIN }
                else { now - 7 * DAY - r.below(53 * DAY as u64) as i64 };
            let platform = if i < specials.len() { plats[0].to_string() } else { r.pick(plats).to_string() };
            let responded = i < specials.len() || r.chance(0.72);
            let status = if !responded { (*r.pick(&["OPEN", "OPEN", "CANCELLED", "SNOOZED"])).to_string() } else { (*r.pick(&["OPEN", "IN_PROGRESS", "CLOSED", "CLOSED", "CLOSED", "CANCELLED"])).to_string() };
            let uid = if platform == "TWITTER" { format!("{}", 1_400_000_000_000_000_000u64 + r.below(99_999_999_999)) } else { format!("u{:05}", r.below(400)) };
            let uname = format!("{} {}", r.pick(&FIRST), r.pick(&LAST));
            let handle = format!("@{}", uname.to_lowercase().replace(' ', "_"));
            let ntags = if i < specials.len() { 2 } else { r.below(4) as usize };
            let mut tags = Vec::new();
            for _ in 0..ntags { let t = r.below(org.tags.len() as u64) as usize; if !tags.contains(&t) { tags.push(t); } }
            let (sent, score) = if tags.is_empty() && r.chance(0.3) { (None, None) } else {
                let sc = ((r.f() * 2.0 - 1.0) * 1000.0).round() / 1000.0;
                let l = if sc < -0.6 { 0 } else if sc < -0.2 { 1 } else if sc < 0.2 { 2 } else { 3 };
                (Some(SENTS[l].to_string()), Some(sc))
            };
            let mut msgs = Vec::new();
            let nm = 1 + r.below(5) as usize;
            let mut t = created + r.below(60_000) as i64;
            let agent = if responded || r.chance(0.3) { Some(r.below(nag as u64) as usize) } else { None };
            let mut first_user = None; let mut first_agent = None;
            let mut prev: Option<String> = None;
            for k in 0..nm {
                let ty = if k == 0 { "USER" } else if responded && k == 1 { "AGENT" } else if !responded { if r.chance(0.2) { "BOT" } else { "USER" } } else { *r.pick(&["USER", "AGENT", "BOT"]) };
                let mid = format!("{}", 1_800_000_000_000_000_000u64 + (oi as u64) * 10_000_000 + (i as u64) * 100 + k as u64);
                let (author, aid) = match ty {
                    "USER" => (uname.clone(), Some(uid.clone())),
                    "AGENT" => { let a = &org.agents[agent.unwrap_or(0)]; (a.name.clone(), Some(a.id.clone())) }
                    _ => ("HelperBot".to_string(), None),
                };
                if ty == "USER" && first_user.is_none() { first_user = Some(t); }
                if ty == "AGENT" && first_agent.is_none() { first_agent = Some(t); }
                let text = match ty { "USER" => format!("Hi, I have a problem with {} — order #{} \"urgent\"", org.tags.get(tags.first().copied().unwrap_or(0)).map(|x| x.name.clone()).unwrap_or_default(), 1000 + i), "AGENT" => "Thanks for reaching out, we're looking into it.".to_string(), _ => "Automated reply: ticket received.".to_string() };
                let media = if r.chance(0.1) { vec![format!("https://cdn.example.com/m/{}.png", mid)] } else { vec![] };
                msgs.push(Msg { id: mid.clone(), ts: t, author, author_id: aid, author_type: ty, message: text, media, parent: prev.clone() });
                prev = Some(mid);
                t += MIN + r.below(3 * HOUR as u64) as i64;
            }
            let last = t;
            let closed = status == "CLOSED";
            let qi = if r.chance(0.1) { None } else { Some(r.below(org.queues.len() as u64) as usize) };
            let iq = if r.chance(0.2) { Some(r.below(org.queues.len() as u64) as usize) } else { qi };
            let mut custom = Vec::new();
            if oi == 0 && r.chance(0.4) {
                let prov = Ob::new().p("source", J::s("seed")).p("setAt", J::s(iso(created))).j();
                custom.push(("priority_level".to_string(), CfVal { value: J::s(*r.pick(&["low", "medium", "high", "urgent"])), provenance: prov.clone() }));
                if r.chance(0.5) { custom.push(("contract_value".to_string(), CfVal { value: J::num((r.below(100000) as f64) / 100.0), provenance: prov.clone() })); }
                if r.chance(0.5) { custom.push(("is_vip".to_string(), CfVal { value: J::Bool(r.chance(0.3)), provenance: prov.clone() })); }
                if r.chance(0.3) { custom.push(("product_areas".to_string(), CfVal { value: J::Arr(vec![J::s("billing"), J::s("api")]), provenance: prov.clone() })); }
            }
            if oi == 1 && r.chance(0.3) {
                custom.push(("region".to_string(), CfVal { value: J::s("emea"), provenance: Ob::new().p("source", J::s("seed")).j() }));
            }
            let is_public = matches!(platform.as_str(), "TWITTER" | "INSTAGRAM" | "FACEBOOK" | "APPSTORE" | "GITHUB") && r.chance(0.8);
            let title = format!("{} issue reported on {}", org.tags.get(tags.first().copied().unwrap_or(0)).map(|x| x.name.clone()).unwrap_or("General".into()), platform.to_lowercase());
            let ncom = r.below(3);
            let comments = (0..ncom).map(|c| Comment { text: format!("Internal note {}", c + 1), author_id: org.agents[(c as usize) % nag].id.clone(), author_name: if c == 1 { None } else { Some(org.agents[(c as usize) % nag].name.clone()) } }).collect();
            let csat = if closed && r.chance(0.6) { Some(format!("{}", 1 + r.below(5))) } else { None };
            let a = Action {
                title, summary: format!("Customer {} contacted support via {}; {} message(s).", uname, platform, nm),
                status: status.clone(), platform: platform.clone(),
                record_type: if r.chance(0.1) { None } else { Some((*r.pick(&["POST", "COMMENT", "DIRECT_MESSAGE", "TICKET", "REVIEW"])).to_string()) },
                is_public, queue: qi, initial_queue: iq, sentiment: sent, sentiment_score: score,
                moderation: if r.chance(0.2) { Some((*r.pick(&["SAFE", "FLAGGED"])).to_string()) } else { None },
                assignee: agent, user_name: uname.clone(), user_username: handle, user_id: uid.clone(),
                user_email: if r.chance(0.5) { Some(format!("cust{}@mail.example.org", r.below(10000))) } else { None },
                followers: if platform == "TWITTER" || platform == "INSTAGRAM" { Some(r.below(50000) as f64) } else { None },
                created, updated: Some(last.max(created)),
                initial_message_time: first_user, initial_response_time: first_agent,
                close_time: if closed { Some(last) } else { None },
                claim_time: if agent.is_some() { Some(created + 30_000) } else { None },
                frt: match (first_user, first_agent) { (Some(u), Some(g)) => Some((g - u).max(0) / 1000), _ => None },
                handle: if closed { Some((last - created) / 1000) } else { None },
                server_name: format!("{} {}", oid, platform.to_lowercase()), channel_name: format!("#support-{}", r.below(4)),
                csat: csat.clone(), csat_feedback: csat.as_ref().map(|_| "Quick and helpful".to_string()),
                est_csat: if responded { Some(((r.f() * 4.0 + 1.0) * 100.0).round() / 100.0) } else { None },
                closing_tags: if closed && !tags.is_empty() { vec![tags[0]] } else { vec![] },
                tags, custom, root_text: msgs.first().map(|m| m.message.clone()), messages: msgs, comments,
                thread_id: format!("th_{}", fnv(&format!("{}{}", oid, id)) % 100_000_000),
                easy_id: if r.chance(0.9) { Some(format!("{}-{}", oid.to_uppercase().replace("ORG_", ""), 1000 + i)) } else { None },
                contributors: Some(match agent { Some(g) => format!("{}, {}", uname, org.agents[g].name), None => uname.clone() }),
                resolution_quality: (r.f() * 100.0).round() / 100.0, sentiment_change: ((r.f() - 0.5) * 100.0).round() / 100.0, rubric: (r.f() * 1000.0).round() / 100.0,
                actionability: Some((r.f() * 100.0).round() / 100.0), relevance: Some((r.f() * 100.0).round() / 100.0), src_url: None,
                id: id.clone(),
            };
            org.idx.insert(id, 0);
            org.actions.push(a);
        }
        org.reindex();
        orgs.push(org);
    }
    State { orgs, keys: HashMap::new(), cases: HashMap::new(), case_by_ext: HashMap::new(), pending: vec![], ingested: HashMap::new(), counter: 0, start: now }
}
