package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type smoke struct {
	t    *testing.T
	base string
	keys map[string]string
}

func (s *smoke) do(method, path, key, body string) (int, map[string]interface{}, http.Header) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, s.base+path, rd)
	if key != "" {
		req.Header.Set("X-API-Key", s.keys[key])
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]interface{}
	if strings.Contains(resp.Header.Get("Content-Type"), "json") {
		if err := json.Unmarshal(b, &m); err != nil {
			s.t.Errorf("%s %s: body is not a JSON object: %s", method, path, b)
		}
	}
	return resp.StatusCode, m, resp.Header
}

func (s *smoke) expect(method, path, key, body string, want int) map[string]interface{} {
	s.t.Helper()
	code, m, _ := s.do(method, path, key, body)
	if code != want {
		s.t.Errorf("%s %s: status %d, want %d (%v)", method, path, code, want, m)
	}
	if code >= 400 && m != nil {
		if m["success"] != false {
			s.t.Errorf("%s %s: error body lacks success=false: %v", method, path, m)
		}
		if _, ok := m["error"].(string); !ok {
			s.t.Errorf("%s %s: error body lacks error string: %v", method, path, m)
		}
	}
	return m
}

func requireKeys(t *testing.T, what string, m map[string]interface{}, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: missing key %q", what, k)
		}
	}
}

var caseBody = `{"externalId":"smoke-%s","sourceSystem":"adsys","sourcePlatform":"SNAP","sourceAdId":"ad-1","advertiserName":"Acme",
"market":"US","placement":"feed","landingPageUrl":"https://acme.example","title":"Spring collection","media":[{"url":"https://cdn.example/a.png","type":"image","position":1}],
"attachment":{"type":"web_view","destinationUrl":null},"targeting":{"ageMin":18,"geos":["US","CA"]},"copy":{"body":"New arrivals"}}`

func TestSmoke(t *testing.T) {
	devs = map[string]bool{}
	dir := t.TempDir()
	kf := filepath.Join(dir, "keys.json")
	var base string
	hs, _, err := run("0", kf, func(a string) { base = a })
	if err != nil {
		t.Fatal(err)
	}
	defer hs.Close()
	raw, err := os.ReadFile(kf)
	if err != nil {
		t.Fatal(err)
	}
	s := &smoke{t: t, base: base}
	json.Unmarshal(raw, &s.keys)
	for _, k := range []string{"CCA_READ_KEY", "CCA_WRITE_KEY", "CCA_INGEST_KEY", "CCA_OTHER_ORG_READ_KEY", "CCA_OTHER_ORG_WRITE_KEY",
		"CCA_NO_MODERATION_WRITE_KEY", "CCA_EXPIRED_KEY", "CCA_REVOKED_KEY", "CCA_READ_WRITE_KEY"} {
		if s.keys[k] == "" {
			t.Fatalf("keys file lacks %s", k)
		}
	}

	// auth
	s.expect("GET", "/v0/action/list", "", "", 401)
	s.expect("GET", "/v0/action/list", "CCA_EXPIRED_KEY", "", 401)
	s.expect("GET", "/v0/action/list", "CCA_REVOKED_KEY", "", 401)
	s.expect("GET", "/v0/agents", "CCA_INGEST_KEY", "", 403)

	// action list
	m := s.expect("GET", "/v0/action/list", "CCA_READ_KEY", "", 200)
	requireKeys(t, "list", m, "data", "totalRecords", "currentPage", "pageSize", "totalPages")
	data := m["data"].([]interface{})
	if len(data) == 0 || len(data) > 50 {
		t.Fatalf("default list returned %d items", len(data))
	}
	first := data[0].(map[string]interface{})
	requireKeys(t, "summary", first, "actionId", "actionTitle", "status", "platform", "tags", "customFields", "conversationJson", "firstResponseTime")
	m = s.expect("GET", "/v0/action/list?pageSize=500&includeFullConversation=true&sortBy=updatedAt&from=2000-01-01", "CCA_READ_KEY", "", 200)
	if cj, _ := m["data"].([]interface{})[0].(map[string]interface{})["conversationJson"].(string); cj == "" {
		t.Errorf("includeFullConversation did not fill conversationJson")
	}
	s.expect("GET", "/v0/action/list?fullFilter="+url.QueryEscape("platform=DISCORD+responded=false"), "CCA_READ_KEY", "", 200)
	s.expect("GET", "/v0/action/list?filterJson="+url.QueryEscape(`{"responded":false}`), "CCA_READ_KEY", "", 200)
	s.expect("GET", "/v0/action/list?pageSize=0", "CCA_READ_KEY", "", 400)
	s.expect("GET", "/v0/action/list?pageSize=501", "CCA_READ_KEY", "", 400)
	s.expect("GET", "/v0/action/list?sortBy=closeTime", "CCA_READ_KEY", "", 400)
	s.expect("GET", "/v0/action/list?fullFilter=platform%3DSLACK&filter=responded%3Dtrue", "CCA_READ_KEY", "", 400)
	s.expect("GET", "/v0/action/list?from=yesterday", "CCA_READ_KEY", "", 400)

	// detail, including an id that needs percent-encoding
	id := first["actionId"].(string)
	d := s.expect("GET", "/v0/action/"+url.PathEscape(id), "CCA_READ_KEY", "", 200)
	requireKeys(t, "detail", d, "user", "assignee", "comments", "messages", "conversation")
	s.expect("GET", "/v0/action/"+url.PathEscape("msg/2024#17 ?&%"), "CCA_READ_KEY", "", 200)
	s.expect("GET", "/v0/action/does-not-exist", "CCA_READ_KEY", "", 404)
	s.expect("GET", "/v0/action/000120", "CCA_OTHER_ORG_READ_KEY", "", 404)

	// custom fields
	cf := s.expect("GET", "/v0/actions/000120/custom-fields", "CCA_READ_KEY", "", 200)
	requireKeys(t, "custom fields", cf, "actionId", "fields")
	s.expect("PATCH", "/v0/actions/000120/custom-fields", "CCA_READ_KEY", `{"fields":[{"fieldName":"is_vip","value":true}]}`, 403)
	s.expect("PATCH", "/v0/actions/000120/custom-fields", "CCA_WRITE_KEY", `{"fields":[{"fieldName":"is_vip","value":true,"confidence":0.9,"rationale":"smoke"}]}`, 200)
	s.expect("PATCH", "/v0/actions/000120/custom-fields", "CCA_WRITE_KEY", `{"fields":[]}`, 422)
	e := s.expect("PATCH", "/v0/actions/000120/custom-fields", "CCA_WRITE_KEY", `{"fields":[{"fieldName":"is_vip","value":"yes"}]}`, 422)
	if _, ok := e["fieldErrors"].(map[string]interface{}); !ok {
		t.Errorf("422 lacks fieldErrors")
	}
	s.expect("PATCH", "/v0/actions/nope/custom-fields", "CCA_WRITE_KEY", `{"fields":[{"fieldName":"is_vip","value":true}]}`, 404)

	// agents and queues
	ag := s.expect("GET", "/v0/agents", "CCA_READ_KEY", "", 200)
	if len(ag["data"].([]interface{})) == 0 {
		t.Errorf("no agents")
	}
	s.expect("GET", "/v0/agents/"+url.PathEscape("agent/ü 7")+"?from=2020-01-01", "CCA_READ_KEY", "", 200)
	s.expect("GET", "/v0/agents/nobody", "CCA_READ_KEY", "", 404)
	s.expect("GET", "/v0/queues", "CCA_READ_KEY", "", 200)

	// analytics
	s.expect("GET", "/v0/analytics/tags?limit=3&offset=1&respondedOnly=true", "CCA_READ_KEY", "", 200)
	s.expect("GET", "/v0/analytics/tags?search=bill", "CCA_READ_KEY", "", 200)
	s.expect("GET", "/v0/analytics/tags/volume?tagIds=tag_0001,tag_0004", "CCA_READ_KEY", "", 200)
	s.expect("GET", "/v0/analytics/sentiment", "CCA_READ_KEY", "", 200)
	s.expect("GET", "/v0/analytics/sentiment/by-tag", "CCA_READ_KEY", "", 200)
	s.expect("GET", "/v0/analytics/engagement?platforms=DISCORD,SLACK", "CCA_READ_KEY", "", 200)

	// search
	sr := s.expect("GET", "/v0/conversations/search?filter="+url.QueryEscape("platform=SLACK")+"&page=1&pageSize=5", "CCA_READ_KEY", "", 200)
	requireKeys(t, "search", sr, "success", "data", "totalRecords", "totalRecordsCapped", "currentPage", "pageSize", "totalPages")
	s.expect("GET", "/v0/conversations/search?pageSize=101", "CCA_READ_KEY", "", 400)
	s.expect("GET", "/v0/conversations/search?page=0", "CCA_READ_KEY", "", 400)
	s.expect("GET", "/v0/conversations/search?filter=bogus", "CCA_READ_KEY", "", 400)

	// moderation
	one := strings.Replace(caseBody, "%s", "1", 1)
	a := s.expect("POST", "/v0/moderation/cases", "CCA_WRITE_KEY", one, 202)
	if a["status"] != "accepted" || a["analysisStatus"] != "pending" {
		t.Errorf("ack: %v", a)
	}
	a2 := s.expect("POST", "/v0/moderation/cases", "CCA_WRITE_KEY", one, 202)
	if a2["status"] != "duplicate" || a2["caseId"] != a["caseId"] {
		t.Errorf("duplicate ack: %v", a2)
	}
	s.expect("POST", "/v0/moderation/cases", "CCA_WRITE_KEY", strings.Replace(one, "Spring collection", "Summer collection", 1), 409)
	s.expect("POST", "/v0/moderation/cases", "CCA_WRITE_KEY", `{"externalId":"x"}`, 422)
	s.expect("POST", "/v0/moderation/cases", "CCA_WRITE_KEY", `{`, 400)
	s.expect("POST", "/v0/moderation/cases", "CCA_READ_KEY", one, 403)
	s.expect("POST", "/v0/moderation/cases", "CCA_NO_MODERATION_WRITE_KEY", one, 403)
	b := s.expect("POST", "/v0/moderation/cases/batch", "CCA_WRITE_KEY", `{"cases":[`+strings.Replace(caseBody, "%s", "2", 1)+`,{"externalId":"bad"},`+one+`]}`, 202)
	res := b["results"].([]interface{})
	if len(res) != 3 || res[0].(map[string]interface{})["status"] != "accepted" || res[1].(map[string]interface{})["status"] != "rejected" || res[2].(map[string]interface{})["status"] != "duplicate" {
		t.Errorf("batch results: %v", res)
	}
	s.expect("POST", "/v0/moderation/cases/batch", "CCA_WRITE_KEY", `{"cases":[]}`, 400)
	st := s.expect("GET", "/v0/moderation/cases/"+a["caseId"].(string), "CCA_READ_KEY", "", 200)
	if st["analysisStatus"] != "pending" {
		t.Errorf("fresh case status %v", st["analysisStatus"])
	}
	s.expect("GET", "/v0/moderation/cases/"+a["caseId"].(string), "CCA_OTHER_ORG_READ_KEY", "", 404)
	s.expect("GET", "/v0/moderation/cases/mc_seed_0001", "CCA_READ_KEY", "", 200)
	if !testing.Short() {
		time.Sleep(2600 * time.Millisecond)
		st = s.expect("GET", "/v0/moderation/cases/"+a["caseId"].(string), "CCA_READ_KEY", "", 200)
		if st["analysisStatus"] != "completed" || st["decision"] == nil {
			t.Errorf("case did not complete: %v", st)
		}
	}

	// ingestion
	ing := `{"platform":"SLACK","serverId":"T1","serverName":"Acme Slack","records":[{"externalId":"r1","authorId":"u1","authorName":"U","body":"hello","createdAt":"2026-01-01T00:00:00Z","recordType":"message","score":4.5}]}`
	r := s.expect("POST", "/v0/ingest/records", "CCA_INGEST_KEY", ing, 202)
	if r["status"] != "accepted" || r["accepted"] != float64(1) {
		t.Errorf("ingest ack %v", r)
	}
	s.expect("POST", "/v0/ingest/records", "CCA_WRITE_KEY", ing, 403)
	s.expect("POST", "/v0/ingest/records", "CCA_INGEST_KEY", `{"platform":"MYSPACE"}`, 422)

	// docs
	code, doc, _ := s.do("GET", "/docs/json", "", "")
	if code != 200 || doc["openapi"] == nil || doc["paths"] == nil {
		t.Errorf("docs/json: %d", code)
	}
	resp, err := http.Get(base + "/docs")
	if err != nil || resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("docs page failed")
	}
	s.expect("GET", "/v0/nowhere", "CCA_READ_KEY", "", 404)
}
