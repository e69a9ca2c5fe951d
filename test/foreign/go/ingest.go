package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

var ingestPlatforms = strings.Split("DISCORD, SLACK, GITHUB, ZENDESK, TELEGRAM, FACEBOOK_GROUP, TWITTER_COMMUNITY, SALESFORCE, FACEBOOK, TWITTER, THREADS, TIKTOK, INSTAGRAM, LINKEDIN, WHATSAPP, YOUTUBE, GAINSIGHT, APPSTORE, GOOGLE_PLAY, HIGHER_LOGIC, DISCOURSE, CUSTOM_FORM, MODERATION_API, CHROME_WEB_STORE, CANNY", ", ")

type issue struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (s *Server) ingest(c *ctx) {
	var issues []issue
	add := func(p, msg string) { issues = append(issues, issue{p, msg}) }
	fail := func() {
		msg := "Validation failed"
		if len(issues) > 0 {
			msg = fmt.Sprintf("Validation failed: %s %s", issues[0].Path, issues[0].Message)
		}
		writeJSON(c.w, 422, map[string]interface{}{"success": false, "error": msg, "issues": issues})
	}
	body, err := decodeBody(c, 32<<20)
	if err != nil {
		add("", err.Error())
		fail()
		return
	}
	m, ok := body.(map[string]interface{})
	if !ok {
		add("", "body must be a JSON object")
		fail()
		return
	}
	reqStr := func(o map[string]interface{}, path, key string, min int) (string, bool) {
		x, has := o[key]
		if !has {
			add(path+key, "is required")
			return "", false
		}
		sv, ok := x.(string)
		if !ok {
			add(path+key, "must be a string")
			return "", false
		}
		if len([]rune(sv)) < min {
			add(path+key, fmt.Sprintf("must have at least %d character(s)", min))
			return "", false
		}
		return sv, true
	}
	optStr := func(o map[string]interface{}, path, key string) {
		if x, has := o[key]; has {
			if _, ok := x.(string); !ok {
				add(path+key, "must be a string")
			}
		}
	}
	platform, pok := reqStr(m, "", "platform", 1)
	if pok && !contains(ingestPlatforms, platform) {
		add("platform", "must be one of "+strings.Join(ingestPlatforms, ", "))
	}
	serverID, _ := reqStr(m, "", "serverId", 1)
	reqStr(m, "", "serverName", 1)
	optStr(m, "", "channelId")
	optStr(m, "", "channelName")
	if x, has := m["processingLevel"]; has {
		if sv, ok := x.(string); !ok || (sv != "INSIGHTS" && sv != "STATS_ONLY") {
			add("processingLevel", "must be INSIGHTS or STATS_ONLY")
		}
	}
	if x, has := m["source"]; has {
		so, ok := x.(map[string]interface{})
		if !ok {
			add("source", "must be an object")
		} else {
			reqStr(so, "source.", "system", 1)
			optStr(so, "source.", "sourceId")
		}
	}
	recs, has := m["records"]
	arr, ok := recs.([]interface{})
	if !has {
		add("records", "is required")
	} else if !ok {
		add("records", "must be an array")
	} else if len(arr) < 1 || len(arr) > 500 {
		add("records", "must contain 1..500 items")
	} else {
		for i, it := range arr {
			p := fmt.Sprintf("records[%d].", i)
			r, ok := it.(map[string]interface{})
			if !ok {
				add(fmt.Sprintf("records[%d]", i), "must be an object")
				continue
			}
			reqStr(r, p, "externalId", 1)
			optStr(r, p, "threadExternalId")
			optStr(r, p, "parentExternalId")
			reqStr(r, p, "authorId", 1)
			reqStr(r, p, "authorName", 1)
			optStr(r, p, "title")
			reqStr(r, p, "body", 0)
			if x, has := r["score"]; has {
				n, ok := x.(json.Number)
				f, err := n.Float64()
				if !ok || err != nil || f < 0 || f > 5 {
					add(p+"score", "must be a number from 0 to 5")
				}
			}
			reqStr(r, p, "createdAt", 1)
			if x, has := r["url"]; has {
				sv, ok := x.(string)
				if !ok || !absHTTP(sv) {
					add(p+"url", "must be an absolute HTTP or HTTPS URL")
				}
			}
			reqStr(r, p, "recordType", 1)
			if x, has := r["customFields"]; has {
				if _, ok := x.(map[string]interface{}); !ok {
					add(p+"customFields", "must be an object")
				}
			}
		}
	}
	if len(issues) > 0 {
		fail()
		return
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	seen := map[string]bool{}
	for _, it := range arr {
		r := it.(map[string]interface{})
		key := strings.Join([]string{c.org.ID, platform, serverID, r["externalId"].(string)}, "\x00")
		seen[key] = true
		c.org.Ingested[key] = &IngestRec{Key: key, Data: normalizeNumbers(r).(map[string]interface{}), At: c.now}
	}
	writeJSON(c.w, 202, map[string]interface{}{"status": "accepted", "accepted": len(seen)})
}
