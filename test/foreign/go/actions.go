package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

func tagsJSON(ts []Tag) []interface{} {
	out := []interface{}{}
	for _, t := range ts {
		out = append(out, map[string]interface{}{"value": t.Value, "group": t.Group})
	}
	return out
}

func durStr(secs *int) interface{} {
	if secs == nil {
		return nil
	}
	s := *secs
	h, m, sec := s/3600, (s%3600)/60, s%60
	out := "PT"
	if h > 0 {
		out += fmt.Sprintf("%dH", h)
	}
	if m > 0 {
		out += fmt.Sprintf("%dM", m)
	}
	if sec > 0 || (h == 0 && m == 0) {
		out += fmt.Sprintf("%dS", sec)
	}
	return out
}

func nstr(s *string) interface{} {
	if s == nil {
		return nil
	}
	return *s
}
func nfloat(f *float64) interface{} {
	if f == nil {
		return nil
	}
	return *f
}
func nint(i *int) interface{} {
	if i == nil {
		return nil
	}
	return *i
}

func serviceURL(id string) string {
	return "https://app.cca.example/actions/" + url.PathEscape(id)
}

func conversationArr(a *Action) []interface{} {
	out := []interface{}{}
	for _, m := range a.Messages {
		out = append(out, map[string]interface{}{"id": m.ID, "timestamp": fmtTime(m.Timestamp), "author": m.Author,
			"authorId": m.AuthorID, "authorType": m.AuthorType, "message": m.Text, "parentMessageId": nstr(m.ParentID), "mediaUrls": m.Media})
	}
	return out
}

func messagesArr(a *Action) []interface{} {
	out := []interface{}{}
	for _, m := range a.Messages {
		out = append(out, map[string]interface{}{"id": m.ID, "timestamp": fmtTime(m.Timestamp), "author": m.Author,
			"authorId": m.AuthorID, "authorType": m.AuthorType, "message": m.Text, "mediaUrls": m.Media})
	}
	return out
}

func msgTotals(a *Action) (interface{}, interface{}, interface{}) {
	if a.NoTotals {
		return nil, nil, nil
	}
	t, u, g := totals(a)
	return t, u, g
}

func summaryJSON(a *Action, fullConv bool, cf map[string]interface{}) map[string]interface{} {
	m := map[string]interface{}{
		"actionId": a.ID, "actionTitle": a.Title, "actionSummary": a.Summary, "status": a.Status, "platform": a.Platform,
		"recordType": nstr(a.RecordType), "isPublicPost": a.IsPublic, "serviceURL": serviceURL(a.ID), "sourceURL": nstr(a.SourceURL),
		"queue": nstr(a.Queue), "initialQueue": nstr(a.InitialQueue), "sentiment": nstr(a.Sentiment), "sentimentScore": nfloat(a.SentimentScore),
		"moderation": nstr(a.Moderation), "userName": a.UserName, "userUsername": a.UserHandle, "userId": a.UserID, "userEmail": nstr(a.UserEmail),
		"userFollowerCount": nint(a.UserFollowers), "createdAt": fmtTime(a.CreatedAt), "updatedAt": tstr(a.UpdatedAt),
		"initialMessageTime": tstr(a.InitialMessageTime), "initialResponseTime": tstr(a.InitialResponseTime), "closeTime": tstr(a.CloseTime),
		"claimTime": tstr(a.ClaimTime), "firstResponseTime": durStr(a.FirstResponseSecs), "handleTime": durStr(a.HandleSecs),
		"serverName": a.ServerName, "channelName": a.ChannelName, "csatScore": nstr(a.CsatScore), "csatFeedback": nstr(a.CsatFeedback),
		"estimatedCSAT": nfloat(a.EstimatedCSAT), "tags": tagsJSON(a.Tags), "closingTags": tagsJSON(a.ClosingTags),
		"customFields": copyMap(cf), "rootMessageText": nstr(a.RootText), "conversationJson": nil,
	}
	m["assigneeName"], m["assigneeEmail"], m["assigneeUserId"], m["assigneeRole"] = nil, nil, nil, nil
	if a.Assignee != nil {
		m["assigneeName"], m["assigneeEmail"], m["assigneeUserId"], m["assigneeRole"] = a.Assignee.Name, a.Assignee.Email, a.Assignee.ID, a.Assignee.Role
	}
	m["totalMessages"], m["totalUserMessages"], m["totalAgentMessages"] = msgTotals(a)
	if fullConv {
		b, _ := json.Marshal(conversationArr(a))
		m["conversationJson"] = string(b)
	}
	return m
}

func detailJSON(a *Action) map[string]interface{} {
	user := map[string]interface{}{"name": a.UserName, "username": a.UserHandle, "userId": a.UserID, "email": nstr(a.UserEmail), "followerCount": nint(a.UserFollowers)}
	asg := map[string]interface{}{"name": nil, "email": nil, "userId": nil, "role": nil}
	if a.Assignee != nil {
		asg = map[string]interface{}{"name": a.Assignee.Name, "email": a.Assignee.Email, "userId": a.Assignee.ID, "role": a.Assignee.Role}
	}
	comments := []interface{}{}
	for _, cm := range a.Comments {
		comments = append(comments, map[string]interface{}{"text": cm.Text, "authorNativeId": cm.AuthorID, "authorNativeName": nstr(cm.AuthorName)})
	}
	m := map[string]interface{}{
		"user": user, "actionId": a.ID, "actionTitle": a.Title, "actionSummary": a.Summary, "platform": a.Platform,
		"recordType": nstr(a.RecordType), "isPublicPost": a.IsPublic, "sentiment": nstr(a.Sentiment), "sentimentScore": nfloat(a.SentimentScore),
		"queue": nstr(a.Queue), "initialQueue": nstr(a.InitialQueue), "status": a.Status, "createdAt": fmtTime(a.CreatedAt),
		"serviceURL": serviceURL(a.ID), "sourceURL": nstr(a.SourceURL), "updatedAt": tstr(a.UpdatedAt),
		"initialMessageTime": tstr(a.InitialMessageTime), "initialResponseTime": tstr(a.InitialResponseTime), "closeTime": tstr(a.CloseTime),
		"firstResponseTime": durStr(a.FirstResponseSecs), "handleTime": durStr(a.HandleSecs), "claimTime": tstr(a.ClaimTime),
		"assignee": asg, "serverName": a.ServerName, "channelName": a.ChannelName, "tags": tagsJSON(a.Tags), "closingTags": tagsJSON(a.ClosingTags),
		"moderation": nstr(a.Moderation), "comments": comments, "messages": messagesArr(a), "rootMessageText": nstr(a.RootText),
		"customFields": copyMap(a.CF), "csatScore": nstr(a.CsatScore), "csatFeedback": nstr(a.CsatFeedback), "estimatedCSAT": nfloat(a.EstimatedCSAT),
		"conversation": conversationArr(a),
	}
	m["totalMessages"], m["totalUserMessages"], m["totalAgentMessages"] = msgTotals(a)
	return m
}

// ---- filter DSL ----

type term struct {
	key    string
	values []string
}

var dslKeys = map[string]bool{"platform": true, "status": true, "queue": true, "initialQueue": true, "sentiment": true, "tag": true,
	"tagGroup": true, "responded": true, "assigneeUserId": true, "userId": true, "actionId": true, "recordType": true,
	"isPublicPost": true, "text": true, "serverName": true, "channelName": true, "moderation": true, "source": true, "assignee": true}

func parseDSL(s string) ([]term, error) {
	var out []term
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, "+") {
		i := strings.Index(part, "=")
		if i <= 0 {
			return nil, fmt.Errorf("filter term %q is not of the form key=value", part)
		}
		k, v := part[:i], part[i+1:]
		if !dslKeys[k] {
			return nil, fmt.Errorf("unknown filter key %q", k)
		}
		if v == "" {
			return nil, fmt.Errorf("filter key %q has an empty value", k)
		}
		vals := strings.Split(v, ",")
		for _, x := range vals {
			if x == "" {
				return nil, fmt.Errorf("filter key %q has an empty alternative", k)
			}
		}
		if k == "responded" || k == "isPublicPost" {
			for _, x := range vals {
				if _, ok := parseBool(x); !ok {
					return nil, fmt.Errorf("filter key %q takes true or false", k)
				}
			}
		}
		out = append(out, term{k, vals})
	}
	return out, nil
}

func termHas(terms []term, key string) bool {
	for _, t := range terms {
		if t.key == key {
			return true
		}
	}
	return false
}

func matchTerm(a *Action, t term) bool {
	for _, v := range t.values {
		if matchOne(a, t.key, v) {
			return true
		}
	}
	return false
}

func eqp(p *string, v string) bool { return p != nil && *p == v }

func matchOne(a *Action, key, v string) bool {
	switch key {
	case "platform", "source":
		return a.Platform == v
	case "status":
		return a.Status == v
	case "queue":
		return eqp(a.Queue, v)
	case "initialQueue":
		return eqp(a.InitialQueue, v)
	case "sentiment":
		return eqp(a.Sentiment, v)
	case "moderation":
		return eqp(a.Moderation, v)
	case "tag":
		for _, t := range a.Tags {
			if t.Value == v || t.ID == v {
				return true
			}
		}
	case "tagGroup":
		for _, t := range a.Tags {
			if t.Group == v {
				return true
			}
		}
	case "responded":
		b, _ := parseBool(v)
		return a.Responded() == b
	case "isPublicPost":
		b, _ := parseBool(v)
		return a.IsPublic == b
	case "assigneeUserId", "assignee":
		return a.Assignee != nil && a.Assignee.ID == v
	case "userId":
		return a.UserID == v
	case "actionId":
		return a.ID == v
	case "recordType":
		return eqp(a.RecordType, v)
	case "serverName":
		return a.ServerName == v
	case "channelName":
		return a.ChannelName == v
	case "text":
		lv := strings.ToLower(v)
		if strings.Contains(strings.ToLower(a.Title), lv) || strings.Contains(strings.ToLower(a.Summary), lv) {
			return true
		}
		return a.RootText != nil && strings.Contains(strings.ToLower(*a.RootText), lv)
	}
	return false
}

func matchAll(a *Action, terms []term) bool {
	for _, t := range terms {
		if !matchTerm(a, t) {
			return false
		}
	}
	return true
}

// legacy filter: only the responded flag is read
func legacyResponded(filter string, hasFilter bool, fj string, hasFJ bool) (*bool, []term, error) {
	var resp *bool
	var extra []term
	if hasFJ && fj != "" {
		var m map[string]interface{}
		if err := json.Unmarshal([]byte(fj), &m); err != nil {
			return nil, nil, fmt.Errorf("filterJson is not a JSON object")
		}
		if v, ok := m["responded"]; ok {
			b, ok := v.(bool)
			if !ok {
				return nil, nil, fmt.Errorf("filterJson.responded must be a boolean")
			}
			resp = &b
		}
	}
	if hasFilter && filter != "" {
		for _, part := range strings.Split(filter, "+") {
			i := strings.Index(part, "=")
			if i < 0 {
				i = strings.Index(part, ":")
			}
			if i <= 0 {
				continue
			}
			if part[:i] == "responded" {
				b, ok := parseBool(part[i+1:])
				if !ok {
					return nil, nil, fmt.Errorf("legacy filter responded must be true or false")
				}
				resp = &b
			}
		}
	}
	return resp, extra, nil
}

func (s *Server) actionList(c *ctx) {
	fullFilter, hasFull := c.rawq("fullFilter")
	filter, hasFilter := c.rawq("filter")
	fj, hasFJ := c.q("filterJson")
	if hasFull && (hasFilter || hasFJ) {
		c.fail(400, "fullFilter cannot be combined with filter or filterJson")
		return
	}
	pageSize := 50
	if v, ok := c.q("pageSize"); ok {
		n, ok := parseIntStrict(v)
		if !ok || n < 1 || n > 500 {
			c.fail(400, "pageSize must be an integer from 1 to 500")
			return
		}
		pageSize = n
	}
	full := false
	if v, ok := c.q("includeFullConversation"); ok {
		b, ok := parseBool(v)
		if !ok {
			c.fail(400, "includeFullConversation must be true or false")
			return
		}
		full = b
	}
	sortBy := "createdAt"
	if v, ok := c.q("sortBy"); ok {
		if v != "createdAt" && v != "updatedAt" {
			c.fail(400, "sortBy must be createdAt or updatedAt")
			return
		}
		sortBy = v
	}
	from, to, err := c.window(7*24*time.Hour, dev("D01"))
	if err != nil {
		c.fail(400, err.Error())
		return
	}
	var terms []term
	var resp *bool
	t := true
	if hasFull {
		if len([]rune(fullFilter)) > 10000 {
			c.fail(400, "fullFilter exceeds 10000 characters")
			return
		}
		terms, err = parseDSL(fullFilter)
		if err != nil {
			c.fail(400, err.Error())
			return
		}
		if dev("D04") && !termHas(terms, "responded") {
			resp = &t
		}
	} else {
		resp, _, err = legacyResponded(filter, hasFilter, fj, hasFJ)
		if err != nil {
			c.fail(400, err.Error())
			return
		}
		if resp == nil {
			resp = &t
		}
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	dateOf := func(a *Action) *time.Time {
		if sortBy == "updatedAt" {
			return a.UpdatedAt
		}
		return &a.CreatedAt
	}
	winOf := dateOf
	if dev("D05") {
		winOf = func(a *Action) *time.Time { return &a.CreatedAt }
	}
	var sel []*Action
	for _, a := range c.org.Actions {
		d := winOf(a)
		if d == nil || !inWin(*d, from, to) {
			continue
		}
		if resp != nil && a.Responded() != *resp {
			continue
		}
		if !matchAll(a, terms) {
			continue
		}
		sel = append(sel, a)
	}
	sortActions(sel, func(a *Action) time.Time {
		d := dateOf(a)
		if d == nil {
			return time.Time{}
		}
		return *d
	})
	total := len(sel)
	if len(sel) > pageSize {
		sel = sel[:pageSize]
	}
	data := []interface{}{}
	for _, a := range sel {
		data = append(data, summaryJSON(a, full, a.CFList))
	}
	pages := 0
	if total > 0 {
		pages = int(math.Ceil(float64(total) / float64(pageSize)))
	}
	writeJSON(c.w, 200, map[string]interface{}{"data": data, "totalRecords": total, "currentPage": 1, "pageSize": pageSize, "totalPages": pages})
}

// newest first; ties broken by actionId ascending (byte order)
func sortActions(sel []*Action, key func(*Action) time.Time) {
	sort.SliceStable(sel, func(i, j int) bool {
		ki, kj := key(sel[i]), key(sel[j])
		if !ki.Equal(kj) {
			return ki.After(kj)
		}
		return sel[i].ID < sel[j].ID
	})
}

func (s *Server) actionDetail(c *ctx) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	a := c.org.ByID[c.segs[0]]
	if a == nil {
		c.fail(404, "Action not found")
		return
	}
	writeJSON(c.w, 200, detailJSON(a))
}

// ---- conversation search ----

const searchCap = 300

func roundTripNumeric(s string) string {
	if _, err := strconv.ParseUint(s, 10, 64); err == nil {
		f, _ := strconv.ParseFloat(s, 64)
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return s
}

func (s *Server) search(c *ctx) {
	page, pageSize := 1, 50
	if v, ok := c.q("page"); ok {
		n, ok := parseIntStrict(v)
		if !ok || n < 1 || n > 10000 {
			c.fail(400, "page must be an integer from 1 to 10000")
			return
		}
		page = n
	}
	if v, ok := c.q("pageSize"); ok {
		n, ok := parseIntStrict(v)
		if !ok || n < 1 || n > 100 {
			c.fail(400, "pageSize must be an integer from 1 to 100")
			return
		}
		pageSize = n
	}
	f, _ := c.rawq("filter")
	if len([]rune(f)) > 10000 {
		c.fail(400, "filter exceeds 10000 characters")
		return
	}
	terms, err := parseDSL(f)
	if err != nil {
		c.fail(400, err.Error())
		return
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	var sel []*Action
	for _, a := range c.org.Actions {
		if matchAll(a, terms) {
			sel = append(sel, a)
		}
	}
	sortActions(sel, func(a *Action) time.Time { return a.CreatedAt })
	total := len(sel)
	capped := false
	if total > searchCap {
		total, capped = searchCap, true
		sel = sel[:searchCap]
	}
	startI := (page - 1) * pageSize
	data := []interface{}{}
	for i := startI; i < len(sel) && i < startI+pageSize; i++ {
		a := sel[i]
		m := summaryJSON(a, false, a.CFList)
		m["threadId"] = a.ThreadID
		m["easyId"] = nstr(a.EasyID)
		m["contributors"] = nstr(a.Contributors)
		if dev("D06") {
			m["userId"] = roundTripNumeric(a.UserID)
			if a.Assignee != nil {
				m["assigneeUserId"] = roundTripNumeric(a.Assignee.ID)
			}
		}
		data = append(data, m)
	}
	pages := 0
	if total > 0 {
		pages = int(math.Ceil(float64(total) / float64(pageSize)))
	}
	writeJSON(c.w, 200, map[string]interface{}{"success": true, "data": data, "totalRecords": total, "totalRecordsCapped": capped,
		"currentPage": page, "pageSize": pageSize, "totalPages": pages})
}
