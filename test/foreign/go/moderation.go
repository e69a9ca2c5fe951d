package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

type vres struct {
	missing []string
	invalid []string
	errs    []string
}

func (v *vres) miss(p string) {
	v.missing = append(v.missing, p)
	v.errs = append(v.errs, p+" is required")
}
func (v *vres) bad(p, why string) {
	v.invalid = append(v.invalid, p)
	v.errs = append(v.errs, p+" "+why)
}

func isInt(x interface{}) bool {
	n, ok := x.(json.Number)
	if !ok {
		return false
	}
	s := n.String()
	return !strings.ContainsAny(s, ".eE")
}

func intVal(x interface{}) int64 {
	n := x.(json.Number)
	i, err := n.Int64()
	if err != nil {
		return -1 << 62
	}
	return i
}

// uriChars: only characters RFC 3986 allows in a URI (a `uri` string); Go's url.Parse alone accepts
// spaces and other characters a URI cannot hold. (Added after the suite's first run found it.)
func uriChars(s string) bool {
	for _, r := range s {
		if r <= 0x20 || r >= 0x7f || strings.ContainsRune("\"<>\\^`{|}", r) {
			return false
		}
	}
	return true
}

func absHTTP(s string) bool {
	u, err := url.Parse(s)
	return err == nil && uriChars(s) && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func absURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && uriChars(s) && u.Scheme != "" && (u.Host != "" || u.Opaque != "")
}

// strField checks a string field; returns true when present.
func strField(v *vres, m map[string]interface{}, path, key string, req bool, min, max int) {
	x, has := m[key]
	if !has {
		if req {
			v.miss(path + key)
		}
		return
	}
	s, ok := x.(string)
	if !ok {
		v.bad(path+key, "must be a string")
		return
	}
	n := utf8.RuneCountInString(s)
	if n < min || n > max {
		v.bad(path+key, fmt.Sprintf("must be %d..%d characters", min, max))
	}
}

func nullableStr(v *vres, m map[string]interface{}, path, key string, req bool) {
	x, has := m[key]
	if !has {
		if req {
			v.miss(path + key)
		}
		return
	}
	if x == nil {
		return
	}
	if _, ok := x.(string); !ok {
		v.bad(path+key, "must be a string or null")
	}
}

func boolField(v *vres, m map[string]interface{}, path, key string) {
	if x, has := m[key]; has {
		if _, ok := x.(bool); !ok {
			v.bad(path+key, "must be a boolean")
		}
	}
}

func objField(v *vres, m map[string]interface{}, key string, req bool) (map[string]interface{}, bool) {
	x, has := m[key]
	if !has {
		if req {
			v.miss(key)
		}
		return nil, false
	}
	o, ok := x.(map[string]interface{})
	if !ok {
		v.bad(key, "must be an object")
		return nil, false
	}
	return o, true
}

var ctas = []string{"APPLY_NOW", "BOOK_NOW", "GET_NOW", "INSTALL_NOW", "MORE", "SHOP_NOW", "SIGN_UP", "VIEW", "WATCH"}
var attachTypes = []string{"web_view", "deep_link", "app_install", "lens", "long_form_video"}

func validateCase(m map[string]interface{}) *vres {
	v := &vres{}
	strField(v, m, "", "externalId", true, 1, 256)
	strField(v, m, "", "sourceSystem", true, 1, 128)
	strField(v, m, "", "sourcePlatform", true, 1, 128)
	strField(v, m, "", "sourceAdId", true, 1, 256)
	strField(v, m, "", "advertiserId", false, 1, 256)
	strField(v, m, "", "advertiserName", true, 1, 500)
	strField(v, m, "", "campaignId", false, 1, 256)
	strField(v, m, "", "market", true, 1, 128)
	strField(v, m, "", "placement", true, 1, 128)
	strField(v, m, "", "language", false, 1, 64)
	objField(v, m, "providerMetadata", false)
	nullableStr(v, m, "", "landingPageUrl", true)
	strField(v, m, "", "title", true, 1, 500)
	strField(v, m, "", "headline", false, 1, 500)
	strField(v, m, "", "brandName", false, 1, 500)
	if x, has := m["callToAction"]; has {
		s, ok := x.(string)
		if !ok || !contains(ctas, s) {
			v.bad("callToAction", "must be one of "+strings.Join(ctas, ", "))
		}
	}
	if pp, ok := objField(v, m, "publicProfile", false); ok {
		strField(v, pp, "publicProfile.", "displayName", false, 1, 500)
		if x, has := pp["logoUrl"]; has {
			s, ok := x.(string)
			if !ok || !absURI(s) {
				v.bad("publicProfile.logoUrl", "must be a URI")
			}
		}
		boolField(v, pp, "publicProfile.", "verified")
	}
	if x, has := m["media"]; !has {
		v.miss("media")
	} else if arr, ok := x.([]interface{}); !ok {
		v.bad("media", "must be an array")
	} else if len(arr) < 1 || len(arr) > 20 {
		v.bad("media", "must have 1..20 items")
	} else {
		for i, it := range arr {
			p := fmt.Sprintf("media[%d].", i)
			mo, ok := it.(map[string]interface{})
			if !ok {
				v.bad(fmt.Sprintf("media[%d]", i), "must be an object")
				continue
			}
			if u, has := mo["url"]; !has {
				v.miss(p + "url")
			} else if s, ok := u.(string); !ok || !absHTTP(s) {
				v.bad(p+"url", "must be an absolute HTTP or HTTPS URL")
			}
			if t, has := mo["type"]; !has {
				v.miss(p + "type")
			} else if s, ok := t.(string); !ok || (s != "image" && s != "video") {
				v.bad(p+"type", "must be image or video")
			}
			if ps, has := mo["position"]; !has {
				v.miss(p + "position")
			} else if !isInt(ps) || intVal(ps) < 1 || intVal(ps) > 20 {
				v.bad(p+"position", "must be an integer 1..20")
			}
		}
	}
	if at, ok := objField(v, m, "attachment", true); ok {
		if t, has := at["type"]; !has {
			v.miss("attachment.type")
		} else if s, ok := t.(string); !ok || !contains(attachTypes, s) {
			v.bad("attachment.type", "must be one of "+strings.Join(attachTypes, ", "))
		}
		nullableStr(v, at, "attachment.", "destinationUrl", true)
	}
	if tg, ok := objField(v, m, "targeting", true); ok {
		for _, k := range []string{"ageMin", "ageMax"} {
			x, has := tg[k]
			if !has {
				if k == "ageMin" {
					v.miss("targeting.ageMin")
				}
				continue
			}
			if x != nil && !isInt(x) {
				v.bad("targeting."+k, "must be an integer or null")
			}
		}
		maxGeos := 250
		if dev("D02") {
			maxGeos = 251
		}
		if x, has := tg["geos"]; !has {
			v.miss("targeting.geos")
		} else if arr, ok := x.([]interface{}); !ok || len(arr) < 1 || len(arr) > maxGeos || !allStrings(arr) {
			v.bad("targeting.geos", "must be an array of 1..250 strings")
		}
		if x, has := tg["languages"]; has {
			if arr, ok := x.([]interface{}); !ok || len(arr) < 1 || len(arr) > 100 || !allStrings(arr) {
				v.bad("targeting.languages", "must be an array of 1..100 strings")
			}
		}
	}
	if cp, ok := objField(v, m, "copy", true); ok {
		for _, k := range []string{"body", "caption", "linkDescription", "sourceTitle"} {
			strField(v, cp, "copy.", k, false, 0, 20000)
		}
	}
	boolField(v, m, "", "discoverTile")
	boolField(v, m, "", "partnershipAd")
	nullableStr(v, m, "", "format", false)
	nullableStr(v, m, "", "arLens", false)
	if x, has := m["submittedAt"]; has {
		s, ok := x.(string)
		if !ok {
			v.bad("submittedAt", "must be a date-time string")
		} else if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			v.bad("submittedAt", "must be an RFC 3339 date-time")
		}
	}
	return v
}

func allStrings(a []interface{}) bool {
	for _, x := range a {
		if _, ok := x.(string); !ok {
			return false
		}
	}
	return true
}

func canonical(m map[string]interface{}) string {
	n := normalizeNumbers(m).(map[string]interface{})
	if _, ok := n["language"]; !ok {
		n["language"] = "en"
	}
	if dev("D07") {
		delete(n, "copy")
	}
	b, _ := json.Marshal(n)
	return string(b)
}

func hash(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:])[:20]
}

func (s *Server) modAllowed(c *ctx) bool {
	if c.org.Moderation != "ad_policy" {
		writeJSON(c.w, 403, map[string]interface{}{"success": false, "error": "Moderation intake is not enabled for this organization",
			"message": "The organization is not configured for the ad_policy moderation mode", "supported": []string{"ad_policy"}})
		return false
	}
	return true
}

type submitOutcome struct {
	c      *ModCase
	status string // accepted|duplicate|conflict
}

// submit must be called with the lock held; body already validated.
func (s *Server) submit(c *ctx, m map[string]interface{}) submitOutcome {
	ext := m["externalId"].(string)
	content := canonical(m)
	if old := c.org.CaseByExt[ext]; old != nil {
		if old.Content == content {
			return submitOutcome{old, "duplicate"}
		}
		return submitOutcome{old, "conflict"}
	}
	id := "mc_" + hash(c.org.ID, ext)
	mc := &ModCase{Org: c.org.ID, CaseID: id, ExternalID: ext, EvaluationID: "ev_" + hash(id, "ad_policy/v3"), Content: content,
		Body: m, CreatedAt: time.Now()}
	decide(mc)
	c.org.Cases[id] = mc
	c.org.CaseByExt[ext] = mc
	return submitOutcome{mc, "accepted"}
}

func ack(o submitOutcome) map[string]interface{} {
	return map[string]interface{}{"caseId": o.c.CaseID, "externalId": o.c.ExternalID, "status": o.status, "analysisStatus": "pending",
		"evaluationId": o.c.EvaluationID, "idempotency": map[string]interface{}{"key": o.c.ExternalID, "replayed": o.status == "duplicate"}}
}

func caseText(m map[string]interface{}) (string, string) {
	var b strings.Builder
	for _, k := range []string{"title", "headline", "brandName", "advertiserName"} {
		if s, ok := m[k].(string); ok {
			b.WriteString(s + " ")
		}
	}
	if cp, ok := m["copy"].(map[string]interface{}); ok {
		for _, k := range []string{"body", "caption", "linkDescription", "sourceTitle"} {
			if s, ok := cp[k].(string); ok {
				b.WriteString(s + " ")
			}
		}
	}
	t, _ := m["title"].(string)
	return strings.ToLower(b.String()), t
}

func decide(mc *ModCase) {
	m := mc.Body
	if mk, _ := m["market"].(string); mk == "ZZ" {
		mc.Outcome = "policy_not_configured"
		return
	}
	if pm, ok := m["providerMetadata"].(map[string]interface{}); ok {
		if pm["simulate"] == "failure" {
			mc.Outcome = "failed"
			mc.FailureCode = sp("MODEL_UNAVAILABLE")
			return
		}
	}
	mc.Outcome = "completed"
	text, title := caseText(m)
	disp, reason, conf := "approve", "No advertising-policy concerns were found.", "high"
	var hits []interface{}
	rule := func(id, slug, word, pol string) {
		start := strings.Index(strings.ToLower(title), word)
		loc := map[string]interface{}{}
		if start >= 0 {
			loc["textSpan"] = map[string]interface{}{"field": "title", "start": utf8.RuneCountInString(title[:start]), "end": utf8.RuneCountInString(title[:start]) + utf8.RuneCountInString(word)}
		}
		ev := map[string]interface{}{"modality": "text", "claim": "The ad copy mentions \"" + word + "\"."}
		if len(loc) > 0 {
			ev["locator"] = loc
		}
		hits = append(hits, map[string]interface{}{"ruleId": id, "ruleSlug": slug, "polarity": pol, "confidence": "high",
			"reasoning": "Matched restricted term \"" + word + "\".", "evidence": []interface{}{ev}})
	}
	for _, w := range []string{"casino", "betting"} {
		if strings.Contains(text, w) {
			rule("rule_0007", "gambling-restricted", w, "NEGATIVE")
			disp, reason = "reject", "Gambling content is not permitted in this market."
		}
	}
	if disp == "approve" {
		for _, w := range []string{"beer", "wine", "vodka"} {
			if strings.Contains(text, w) {
				rule("rule_0012", "alcohol-age-gate", w, "AMBIGUOUS")
				disp, reason, conf = "age_gate", "Alcohol advertising requires an age gate.", "medium"
			}
		}
	}
	if disp == "approve" {
		for _, w := range []string{"guaranteed", "miracle"} {
			if strings.Contains(text, w) {
				rule("rule_0021", "unsubstantiated-claims", w, "AMBIGUOUS")
				disp, reason, conf = "escalate", "Claims need human review.", "low"
			}
		}
	}
	if hits == nil {
		hits = []interface{}{}
	}
	landing := map[string]interface{}{"polarity": "POSITIVE", "reasoning": "Landing page is consistent with the ad."}
	if m["landingPageUrl"] == nil {
		landing = map[string]interface{}{"polarity": "AMBIGUOUS", "reasoning": "No landing page was provided."}
	}
	mc.Decision = map[string]interface{}{"disposition": disp, "confidence": conf, "title": nil, "reason": reason, "hits": hits,
		"advertiserAssessment": map[string]interface{}{"polarity": "POSITIVE", "reasoning": "Advertiser identity is consistent."},
		"landingAssessment":    landing, "decisionSource": "model", "failureCode": nil, "failureMessage": nil}
}

func modErr(c *ctx, status int, err string, v *vres) {
	body := map[string]interface{}{"success": false, "error": err, "message": err}
	if v != nil {
		code := "MODERATION_INPUT_INVALID"
		if len(v.missing) > 0 {
			code = "MODERATION_INPUT_INCOMPLETE"
		}
		body["code"] = code
		body["missingFields"] = nonNil(v.missing)
		body["invalidFields"] = nonNil(v.invalid)
	}
	writeJSON(c.w, status, body)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (s *Server) modSubmit(c *ctx) {
	if !s.modAllowed(c) {
		return
	}
	body, err := decodeBody(c, 4<<20)
	if err != nil {
		modErr(c, 400, "Malformed request: "+err.Error(), nil)
		return
	}
	m, ok := body.(map[string]interface{})
	if !ok {
		modErr(c, 400, "Malformed request: body must be a JSON object", nil)
		return
	}
	v := validateCase(m)
	if len(v.missing)+len(v.invalid) > 0 {
		modErr(c, 422, "Moderation input failed validation", v)
		return
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	o := s.submit(c, m)
	if o.status == "conflict" {
		writeJSON(c.w, 409, map[string]interface{}{"success": false, "error": "externalId already exists with different content",
			"message": "externalId is immutable per organization; submit changed content under a new externalId", "caseId": o.c.CaseID, "externalId": o.c.ExternalID})
		return
	}
	writeJSON(c.w, 202, ack(o))
}

func (s *Server) modBatch(c *ctx) {
	if !s.modAllowed(c) {
		return
	}
	body, err := decodeBody(c, 32<<20)
	if err != nil {
		modErr(c, 400, "Malformed request: "+err.Error(), nil)
		return
	}
	m, ok := body.(map[string]interface{})
	if !ok {
		modErr(c, 400, "Malformed request: body must be a JSON object", nil)
		return
	}
	arr, ok := m["cases"].([]interface{})
	if !ok {
		modErr(c, 400, "cases must be an array of 1..100 moderation submissions", nil)
		return
	}
	if len(arr) < 1 || len(arr) > 100 {
		modErr(c, 400, "cases must contain 1..100 items", nil)
		return
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	results := make([]map[string]interface{}, 0, len(arr))
	for i, it := range arr {
		im, ok := it.(map[string]interface{})
		if !ok {
			results = append(results, map[string]interface{}{"externalId": nil, "caseId": nil, "status": "rejected",
				"errors": []string{fmt.Sprintf("cases[%d] must be an object", i)}, "message": "Case is not an object", "code": "MODERATION_INPUT_INVALID",
				"missingFields": []string{}, "invalidFields": []string{fmt.Sprintf("cases[%d]", i)}})
			continue
		}
		var ext interface{}
		if e, ok := im["externalId"].(string); ok {
			ext = e
		}
		v := validateCase(im)
		if len(v.missing)+len(v.invalid) > 0 {
			code := "MODERATION_INPUT_INVALID"
			if len(v.missing) > 0 {
				code = "MODERATION_INPUT_INCOMPLETE"
			}
			var cid interface{}
			if e, ok := ext.(string); ok {
				if old := c.org.CaseByExt[e]; old != nil {
					cid = old.CaseID
				}
			}
			results = append(results, map[string]interface{}{"externalId": ext, "caseId": cid, "status": "rejected", "errors": v.errs,
				"message": "Moderation input failed validation", "code": code, "missingFields": nonNil(v.missing), "invalidFields": nonNil(v.invalid)})
			continue
		}
		o := s.submit(c, im)
		if o.status == "conflict" {
			results = append(results, map[string]interface{}{"externalId": ext, "caseId": o.c.CaseID, "status": "rejected",
				"errors": []string{"externalId already exists with different content"}, "message": "externalId is immutable per organization"})
			continue
		}
		results = append(results, ack(o))
	}
	if dev("D08") {
		sort.SliceStable(results, func(i, j int) bool {
			return results[i]["status"] != "rejected" && results[j]["status"] == "rejected"
		})
	}
	writeJSON(c.w, 202, map[string]interface{}{"results": results})
}

func (s *Server) modGet(c *ctx) {
	if !s.modAllowed(c) {
		return
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	mc := c.org.Cases[c.segs[0]]
	if mc == nil {
		c.fail(404, "Moderation case not found")
		return
	}
	el := time.Since(mc.CreatedAt)
	status := mc.Outcome
	switch {
	case el < 1000*time.Millisecond:
		status = "pending"
	case el < 2500*time.Millisecond && mc.Outcome != "policy_not_configured":
		status = "running"
	}
	out := map[string]interface{}{"caseId": mc.CaseID, "externalId": mc.ExternalID, "analysisStatus": status}
	if status != "policy_not_configured" {
		out["evaluationId"] = mc.EvaluationID
	}
	if status == "completed" {
		out["decision"] = mc.Decision
	}
	if status == "failed" && mc.FailureCode != nil {
		out["failureCode"] = *mc.FailureCode
	}
	writeJSON(c.w, 200, out)
}
