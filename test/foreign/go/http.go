package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

type ctx struct {
	w     http.ResponseWriter
	r     *http.Request
	key   *Key
	org   *Org
	segs  []string
	now   time.Time
	query map[string][]string // standard-decoded
	raw   map[string][]string // path-decoded ('+' kept literal)
}

func fmtTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func tstr(t *time.Time) interface{} {
	if t == nil {
		return nil
	}
	return fmtTime(*t)
}

func writeJSON(w http.ResponseWriter, status int, v interface{}) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func errBody(msg string) map[string]interface{} {
	return map[string]interface{}{"success": false, "error": msg}
}

func (c *ctx) fail(status int, msg string) {
	writeJSON(c.w, status, errBody(msg))
}

func parseQueries(rawq string) (map[string][]string, map[string][]string) {
	q := map[string][]string{}
	raw := map[string][]string{}
	for _, part := range strings.Split(rawq, "&") {
		if part == "" {
			continue
		}
		k, v := part, ""
		if i := strings.Index(part, "="); i >= 0 {
			k, v = part[:i], part[i+1:]
		}
		dk, err := url.QueryUnescape(k)
		if err != nil {
			dk = k
		}
		dv, err := url.QueryUnescape(v)
		if err != nil {
			dv = v
		}
		rv, err := url.PathUnescape(v)
		if err != nil {
			rv = v
		}
		q[dk] = append(q[dk], dv)
		raw[dk] = append(raw[dk], rv)
	}
	return q, raw
}

func (c *ctx) q(name string) (string, bool) {
	v, ok := c.query[name]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[0], true
}

func (c *ctx) rawq(name string) (string, bool) {
	v, ok := c.raw[name]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[0], true
}

var dateOnlyRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// parseWhen parses an ISO 8601 date or timestamp. Date-only means midnight UTC.
func parseWhen(s string) (time.Time, bool, error) {
	if dateOnlyRe.MatchString(s) {
		t, err := time.Parse("2006-01-02", s)
		return t, true, err
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), false, nil
		}
	}
	// timestamps without an offset are read as UTC
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, false, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("not an ISO 8601 date or timestamp")
}

// window resolves from/to. def = default span ending now. strict: errors are returned.
func (c *ctx) window(def time.Duration, endOfDayTo bool) (time.Time, time.Time, error) {
	to := c.now
	from := time.Time{}
	fs, hasF := c.q("from")
	ts, hasT := c.q("to")
	if hasT {
		t, dateOnly, err := parseWhen(ts)
		if err != nil {
			return from, to, fmt.Errorf("invalid 'to': %v", err)
		}
		if dateOnly && endOfDayTo {
			t = t.Add(24*time.Hour - time.Millisecond)
		}
		to = t
	}
	if hasF {
		f, _, err := parseWhen(fs)
		if err != nil {
			return from, to, fmt.Errorf("invalid 'from': %v", err)
		}
		from = f
	} else {
		from = to.Add(-def)
	}
	if from.After(to) {
		return from, to, fmt.Errorf("'from' must not be after 'to'")
	}
	return from, to, nil
}

// lenient window for routes without a declared 400: invalid values fall back to defaults.
func (c *ctx) softWindow(def time.Duration) (time.Time, time.Time) {
	from, to, err := c.window(def, false)
	if err != nil {
		return c.now.Add(-def), c.now
	}
	return from, to
}

func inWin(t time.Time, from, to time.Time) bool {
	return !t.Before(from) && !t.After(to)
}

var intRe = regexp.MustCompile(`^[0-9]{1,9}$`)

func parseIntStrict(s string) (int, bool) {
	if !intRe.MatchString(s) {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

func parseBool(s string) (bool, bool) {
	switch s {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// ---- routing ----

type route struct {
	method string
	parts  []string // "*" = parameter
	scope  string   // read | write | ingest | none
	h      func(*Server, *ctx)
}

var routes []route

func init() {
	add := func(m, p, scope string, h func(*Server, *ctx)) {
		routes = append(routes, route{m, strings.Split(strings.Trim(p, "/"), "/"), scope, h})
	}
	add("GET", "v0/action/list", "read", (*Server).actionList)
	add("GET", "v0/action/*", "read", (*Server).actionDetail)
	add("GET", "v0/actions/*/custom-fields", "read", (*Server).cfGet)
	add("PATCH", "v0/actions/*/custom-fields", "write", (*Server).cfPatch)
	add("GET", "v0/agents", "read", (*Server).agentsList)
	add("GET", "v0/agents/*", "read", (*Server).agentDetail)
	add("GET", "v0/queues", "read", (*Server).queuesList)
	add("GET", "v0/analytics/tags", "read", (*Server).tagsAnalytics)
	add("GET", "v0/analytics/tags/volume", "read", (*Server).tagsVolume)
	add("GET", "v0/analytics/sentiment", "read", (*Server).sentimentDaily)
	add("GET", "v0/analytics/sentiment/by-tag", "read", (*Server).sentimentByTag)
	add("GET", "v0/analytics/engagement", "read", (*Server).engagement)
	add("GET", "v0/conversations/search", "read", (*Server).search)
	add("POST", "v0/moderation/cases", "write", (*Server).modSubmit)
	add("POST", "v0/moderation/cases/batch", "write", (*Server).modBatch)
	add("GET", "v0/moderation/cases/*", "read", (*Server).modGet)
	add("POST", "v0/ingest/records", "ingest", (*Server).ingest)
	add("GET", "docs/json", "none", (*Server).docsJSON)
	add("GET", "docs", "none", (*Server).docsPage)
	add("GET", "docs/", "none", (*Server).docsPage)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := &ctx{w: w, r: r, now: time.Now().UTC()}
	defer func() {
		if e := recover(); e != nil {
			c.fail(500, "Internal server error")
		}
	}()
	esc := r.URL.EscapedPath()
	trimmed := strings.TrimPrefix(esc, "/")
	var segs []string
	if trimmed == "docs/" {
		segs = []string{"docs", ""}
	} else {
		segs = strings.Split(strings.TrimSuffix(trimmed, "/"), "/")
	}
	if trimmed == "docs/" {
		segs = []string{"docs"}
	}
	var dec []string
	for _, sg := range segs {
		d, err := url.PathUnescape(sg)
		if err != nil {
			c.fail(404, "Not found")
			return
		}
		dec = append(dec, d)
	}
	c.query, c.raw = parseQueries(r.URL.RawQuery)
	var matched *route
	methodMismatch := false
	var params []string
	for i := range routes {
		rt := &routes[i]
		if len(rt.parts) != len(dec) {
			continue
		}
		ok := true
		var ps []string
		for j, p := range rt.parts {
			if p == "*" {
				if dec[j] == "" {
					ok = false
					break
				}
				ps = append(ps, dec[j])
			} else if p != dec[j] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		// literal routes win over parameter routes (e.g. /v0/action/list)
		if rt.method != r.Method && !(r.Method == "HEAD" && rt.method == "GET") {
			methodMismatch = true
			continue
		}
		if matched == nil || literalness(rt) > literalness(matched) {
			matched = rt
			params = ps
		}
	}
	if matched == nil {
		if methodMismatch {
			c.fail(405, "Method not allowed")
			return
		}
		c.fail(404, "Not found")
		return
	}
	c.segs = params
	if matched.scope != "none" {
		if !s.auth(c, matched) {
			return
		}
	}
	matched.h(s, c)
}

func literalness(r *route) int {
	n := 0
	for _, p := range r.parts {
		if p != "*" {
			n++
		}
	}
	return n
}

func (s *Server) auth(c *ctx, rt *route) bool {
	v := c.r.Header.Get("X-API-Key")
	if v == "" {
		c.fail(401, "Missing API key")
		return false
	}
	s.st.mu.Lock()
	k := s.st.keys[v]
	s.st.mu.Unlock()
	if k == nil {
		c.fail(401, "Invalid API key")
		return false
	}
	if k.Revoked {
		c.fail(401, "API key has been revoked")
		return false
	}
	if k.Expires != nil && !c.now.Before(*k.Expires) {
		if !(dev("D09") && rt.parts[len(rt.parts)-1] == "search") {
			c.fail(401, "API key has expired")
			return false
		}
	}
	c.key = k
	c.org = s.st.orgs[k.Org]
	if !k.Scopes[rt.scope] {
		if dev("D10") && rt.method == "PATCH" {
			// resolved later in the handler
			return true
		}
		c.fail(403, fmt.Sprintf("This API key lacks the '%s' scope required by this route", rt.scope))
		return false
	}
	return true
}
