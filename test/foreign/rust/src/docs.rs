// OpenAPI document and Swagger-UI-like page.
use crate::json::{Ob, J};
use crate::Resp;

fn qp(name: &str, schema: J, desc: &str) -> J {
    Ob::new().p("name", J::s(name)).p("in", J::s("query")).p("required", J::Bool(false)).p("description", J::s(desc)).p("schema", schema).j()
}
fn pp(name: &str) -> J {
    Ob::new().p("name", J::s(name)).p("in", J::s("path")).p("required", J::Bool(true)).p("schema", Ob::new().p("type", J::s("string")).p("minLength", J::int(1)).j()).j()
}
fn ty(t: &str) -> J { Ob::new().p("type", J::s(t)).j() }
fn int(def: Option<i64>, min: i64, max: i64) -> J {
    let mut o = Ob::new().p("type", J::s("integer")).p("minimum", J::int(min)).p("maximum", J::int(max));
    if let Some(d) = def { o.push("default", J::int(d)); }
    o.j()
}
fn date_params() -> Vec<J> {
    vec![qp("from", ty("string"), "ISO 8601 date or timestamp; window start (inclusive); date-only = midnight UTC"),
         qp("to", ty("string"), "ISO 8601 date or timestamp; window end (inclusive); date-only = midnight UTC (not end of day)")]
}
fn op(summary: &str, params: Vec<J>, body: bool, ok: &str, others: &[&str]) -> J {
    let mut r = Ob::new().p(ok, Ob::new().p("description", J::s("Success")).p("content", Ob::new().p("application/json", Ob::new().p("schema", ty("object")).j()).j()).j());
    for s in others {
        r.push(*s, Ob::new().p("description", J::s(match *s { "400" => "Bad request", "401" => "Missing or invalid key", "403" => "Forbidden", "404" => "Not found", "409" => "Immutable identifier conflict", "422" => "Validation failed", _ => "Server error" }))
            .p("content", Ob::new().p("application/json", Ob::new().p("schema", Ob::new().p("$ref", J::s("#/components/schemas/Error")).j()).j()).j()).j());
    }
    let mut o = Ob::new().p("summary", J::s(summary)).p("parameters", J::Arr(params)).p("security", J::Arr(vec![Ob::new().p("ApiKey", J::Arr(vec![])).j()])).p("responses", r.j());
    if body { o.push("requestBody", Ob::new().p("required", J::Bool(true)).p("content", Ob::new().p("application/json", Ob::new().p("schema", ty("object")).j()).j()).j()); }
    o.j()
}

pub fn openapi() -> J {
    let ps_max = if crate::dev("R14") { 100 } else { 500 };
    let mut list_params = date_params();
    list_params.extend(vec![
        qp("pageSize", int(Some(50), 1, ps_max), "page size"),
        qp("filter", ty("string"), "legacy filter; only the responded flag is read"),
        qp("filterJson", ty("string"), "legacy JSON filter; only the responded flag is read"),
        qp("fullFilter", Ob::new().p("type", J::s("string")).p("maxLength", J::int(10000)).j(), "full Operations DSL (key=value terms joined with +); not combinable with filter/filterJson"),
        qp("includeFullConversation", Ob::new().p("type", J::s("boolean")).p("default", J::Bool(false)).j(), "fill conversationJson"),
        qp("sortBy", Ob::new().p("type", J::s("string")).p("enum", J::Arr(vec![J::s("createdAt"), J::s("updatedAt")])).p("default", J::s("createdAt")).j(), "date field for window and newest-first order"),
    ]);
    let mut tag_params = date_params();
    tag_params.extend(vec![qp("respondedOnly", ty("boolean"), ""), qp("limit", int(Some(20), 1, 1000), ""), qp("offset", int(Some(0), 0, 1_000_000_000), ""), qp("search", ty("string"), "text search over tag names")]);
    let mut vol_params = date_params();
    vol_params.extend(vec![qp("respondedOnly", ty("boolean"), ""), qp("topTagsLimit", int(Some(10), 1, 100), ""), qp("tagIds", ty("string"), "comma-separated tag IDs")]);
    let mut eng_params = date_params();
    eng_params.push(qp("platforms", ty("string"), "comma-separated source platforms"));
    let with_id = |mut v: Vec<J>, n: &str| { v.insert(0, pp(n)); v };
    let paths = Ob::new()
        .p("/v0/action/list", Ob::new().p("get", op("List actions", list_params, false, "200", &["400", "401", "500"])).j())
        .p("/v0/action/{id}", Ob::new().p("get", op("Get action detail", vec![pp("id")], false, "200", &["401", "404", "500"])).j())
        .p("/v0/actions/{actionId}/custom-fields", Ob::new()
            .p("get", op("Read custom field values", vec![pp("actionId")], false, "200", &["401", "403", "404", "500"]))
            .p("patch", op("Write custom field values", vec![pp("actionId")], true, "200", &["401", "403", "404", "422", "500"])).j())
        .p("/v0/agents", Ob::new().p("get", op("Agent metrics", date_params(), false, "200", &["400", "401", "403", "500"])).j())
        .p("/v0/agents/{id}", Ob::new().p("get", op("Agent detail", with_id(date_params(), "id"), false, "200", &["400", "401", "403", "404", "500"])).j())
        .p("/v0/queues", Ob::new().p("get", op("Queue metrics", date_params(), false, "200", &["400", "401", "403", "500"])).j())
        .p("/v0/analytics/tags", Ob::new().p("get", op("Tag analytics", tag_params, false, "200", &["400", "401", "403", "500"])).j())
        .p("/v0/analytics/tags/volume", Ob::new().p("get", op("Tag volume by day", vol_params, false, "200", &["400", "401", "403", "500"])).j())
        .p("/v0/analytics/sentiment", Ob::new().p("get", op("Sentiment by day", date_params(), false, "200", &["400", "401", "403", "500"])).j())
        .p("/v0/analytics/sentiment/by-tag", Ob::new().p("get", op("Sentiment by tag", date_params(), false, "200", &["400", "401", "403", "500"])).j())
        .p("/v0/analytics/engagement", Ob::new().p("get", op("Engagement analytics", eng_params, false, "200", &["400", "401", "403", "500"])).j())
        .p("/v0/conversations/search", Ob::new().p("get", op("Conversation search", vec![qp("filter", ty("string"), "DSL: key=value terms joined with +"), qp("page", int(Some(1), 1, 10000), ""), qp("pageSize", int(Some(50), 1, 100), "")], false, "200", &["400", "401", "403", "500"])).j())
        .p("/v0/moderation/cases", Ob::new().p("post", op("Submit a moderation case", vec![], true, "202", &["400", "401", "403", "409", "422", "500"])).j())
        .p("/v0/moderation/cases/batch", Ob::new().p("post", op("Submit 1..100 moderation cases", vec![], true, "202", &["400", "401", "403"])).j())
        .p("/v0/moderation/cases/{caseId}", Ob::new().p("get", op("Read moderation case status", vec![pp("caseId")], false, "200", &["401", "403", "404"])).j())
        .p("/v0/ingest/records", Ob::new().p("post", op("Ingest normalized records (1..500)", vec![], true, "202", &["401", "403", "422", "500"])).j());
    Ob::new().p("openapi", J::s("3.0.3"))
        .p("info", Ob::new().p("title", J::s("Customer-Conversation Analytics API")).p("version", J::s("v0")).j())
        .p("servers", J::Arr(vec![Ob::new().p("url", J::s("/")).j()]))
        .p("paths", paths.j())
        .p("components", Ob::new()
            .p("securitySchemes", Ob::new().p("ApiKey", Ob::new().p("type", J::s("apiKey")).p("in", J::s("header")).p("name", J::s("X-API-Key")).j()).j())
            .p("schemas", Ob::new().p("Error", Ob::new().p("type", J::s("object")).p("required", J::Arr(vec![J::s("success"), J::s("error")]))
                .p("properties", Ob::new().p("success", Ob::new().p("type", J::s("boolean")).p("enum", J::Arr(vec![J::Bool(false)])).j()).p("error", ty("string")).j()).j()).j()).j())
        .j()
}

pub fn serve(s: &[&str]) -> Resp {
    match s {
        ["docs", "json"] => Resp { status: 200, ctype: "application/json; charset=utf-8", body: openapi().to_string().into_bytes() },
        ["llms.txt"] => Resp { status: 200, ctype: "text/plain; charset=utf-8", body: b"# Customer-Conversation Analytics API\n\n- OpenAPI: /docs/json\n- Swagger UI: /docs\n".to_vec() },
        _ => Resp { status: 200, ctype: "text/html; charset=utf-8", body: br#"<!doctype html><html><head><meta charset="utf-8"><title>CCA API - Swagger UI</title></head><body><div id="swagger-ui"><h1>Customer-Conversation Analytics API (v0)</h1><p>OpenAPI document: <a href="/docs/json">/docs/json</a></p></div></body></html>"#.to_vec() },
    }
}
