package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"net/url"
	"strings"
	"time"
)

func sp(s string) *string       { return &s }
func fp(f float64) *float64     { return &f }
func ip(i int) *int             { return &i }
func tp(t time.Time) *time.Time { return &t }

func round2(f float64) float64 { return math.Round(f*100) / 100 }

var sentimentLabels = []string{"Very Negative", "Negative", "Neutral", "Positive"}

type orgSpec struct {
	id, name, mod string
	n             int
	platforms     []string
	agents        []*Agent
	queues        []string
	tags          []Tag
	cfdefs        []CFDef
	special       []string
	seed          int64
	servers       []string
}

func seedStore(start time.Time) *Store {
	st := &Store{start: start, orgs: map[string]*Org{}, keys: map[string]*Key{}, keyNames: map[string]string{}}

	tagsA := []Tag{
		{"tag_0001", "bug", "Product"}, {"tag_0002", "feature-request", "Product"}, {"tag_0003", "performance", "Product"},
		{"tag_0004", "refund", "Billing"}, {"tag_0005", "invoice", "Billing"}, {"tag_0006", "pricing", "Billing"},
		{"tag_0007", "praise", "Voice of Customer"}, {"tag_0008", "complaint", "Voice of Customer"},
		{"tag_0009", "café-crème", "Ünïcode Group"}, {"tag_0010", "login", "Account"}, {"tag_0011", "2fa", "Account"},
		{"tag_0012", "churn-risk", "Voice of Customer"},
	}
	cfA := []CFDef{
		{"priority_level", "Priority level", "select", []string{"low", "medium", "high", "urgent"}},
		{"account_tier", "Account tier", "text", nil},
		{"order_value", "Order value (EUR)", "number", nil},
		{"is_vip", "VIP customer", "boolean", nil},
		{"renewal_date", "Renewal date", "date", nil},
		{"product_areas", "Product areas", "multi_select", []string{"billing", "api", "mobile", "web"}},
	}
	specs := []orgSpec{
		{id: "org_acme", name: "Acme Robotics", mod: "ad_policy", n: 420, seed: 20261203,
			platforms: []string{"DISCORD", "SLACK", "ZENDESK", "TWITTER", "INSTAGRAM", "GITHUB", "WHATSAPP"},
			agents: []*Agent{
				{"9007199254740993", "Ada Lovelace", "ada@acme.example", "admin"},
				{"000731", "Bruno Díaz", "bruno@acme.example", "agent"},
				{"agent/ü 7", "Chloé Martin", "chloe@acme.example", "agent"},
				{"u_4410", "Dmitri Ivanov", "dmitri@acme.example", "lead"},
				{"u_4411", "Esi Mensah", "esi@acme.example", "agent"},
				{"u_4412", "Fumiko Sato", "fumiko@acme.example", "agent"},
			},
			queues:  []string{"Billing", "Technical Support", "VIP", "Trust & Safety"},
			tags:    tagsA,
			cfdefs:  cfA,
			special: []string{"9007199254740993123", "000120", "msg/2024#17 ?&%", "dîner-☕-42", "0"},
			servers: []string{"Acme Community", "Acme Support Desk", "@acme"},
		},
		{id: "org_globex", name: "Globex Corporation", mod: "ad_policy", n: 130, seed: 777,
			platforms: []string{"DISCORD", "FACEBOOK", "ZENDESK", "TIKTOK"},
			agents: []*Agent{
				{"g_100", "Hank Scorpio", "hank@globex.example", "admin"},
				{"g_101", "Ivy Chen", "ivy@globex.example", "agent"},
				{"000731", "Jon Globex", "jon@globex.example", "agent"},
			},
			queues: []string{"Billing", "Escalations"},
			tags: []Tag{{"gtag_01", "refund", "Billing"}, {"gtag_02", "globex-only-outage", "Incidents"},
				{"gtag_03", "bug", "Product"}, {"gtag_04", "shipping-delay", "Logistics"}},
			cfdefs:  []CFDef{{"region", "Region", "select", []string{"emea", "amer", "apac"}}, {"contract_id", "Contract ID", "text", nil}},
			special: []string{"globex-000120"},
			servers: []string{"Globex Global", "Globex Help"},
		},
		{id: "org_initech", name: "Initech", mod: "", n: 16, seed: 99,
			platforms: []string{"SLACK", "CUSTOM_FORM"},
			agents:    []*Agent{{"i_1", "Peter Gibbons", "peter@initech.example", "agent"}},
			queues:    []string{"TPS"},
			tags:      []Tag{{"itag_1", "tps-report", "Reports"}},
			cfdefs:    []CFDef{{"stapler", "Stapler color", "text", nil}},
			servers:   []string{"Initech Slack"},
		},
	}
	for _, s := range specs {
		st.orgs[s.id] = buildOrg(s, start)
	}
	// one pre-existing completed moderation case in org A
	seedCase(st.orgs["org_acme"], start)

	exp := start.Add(-36 * time.Hour)
	fut := start.Add(90 * 24 * time.Hour)
	addKey := func(name, value, org string, exp *time.Time, revoked bool, scopes ...string) {
		k := &Key{Value: value, Name: name, Org: org, Scopes: map[string]bool{}, Expires: exp, Revoked: revoked}
		for _, s := range scopes {
			k.Scopes[s] = true
		}
		st.keys[value] = k
		st.keyNames[name] = value
	}
	addKey("CCA_READ_KEY", "ccak_r3ad~Acme.Z9q_7Lw!0x2f", "org_acme", &fut, false, "read")
	addKey("CCA_WRITE_KEY", "ccak_wr1te~Acme.Pq4*Hn8$", "org_acme", &fut, false, "write")
	addKey("CCA_INGEST_KEY", "ccak_1ngest~Acme.Imp0rt#55", "org_acme", nil, false, "ingest", "ingest:read")
	addKey("CCA_OTHER_ORG_READ_KEY", "ccak_r3ad~Globex.Kk2'Vb", "org_globex", &fut, false, "read")
	addKey("CCA_OTHER_ORG_WRITE_KEY", "ccak_wr1te~Globex.Mm+9=", "org_globex", &fut, false, "write")
	addKey("CCA_NO_MODERATION_WRITE_KEY", "ccak_wr1te~Initech.TPS^1", "org_initech", nil, false, "write")
	addKey("CCA_EXPIRED_KEY", "ccak_rw~Acme.expired|2026", "org_acme", &exp, false, "read", "write")
	addKey("CCA_REVOKED_KEY", "ccak_rw~Acme.revoked`00", "org_acme", &fut, true, "read", "write")
	addKey("CCA_READ_WRITE_KEY", "ccak_rw~Acme.both&Ok-3", "org_acme", &fut, false, "read", "write")
	return st
}

var firstNames = []string{"Liam", "Olivia", "Noah", "Emma", "Zoë", "Mateo", "Sofía", "Jürgen", "Aiko", "Chidi", "Priya", "Oğuz", "Łukasz", "Nguyễn", "Sam", "Ravi", "Fatima", "Kai", "Elena", "Tomás"}
var lastNames = []string{"Smith", "García", "Müller", "Kowalski", "Tanaka", "Okafor", "Sharma", "Yılmaz", "Nowak", "Brown", "O'Neil", "Dubois"}
var titles = []string{"Refund not received", "App crashes on login", "Invoice shows wrong VAT", "Feature request: dark mode", "Great support, thanks!", "2FA code never arrives", "Slow dashboard", "Pricing question for teams", "Cannot export report", "Account locked", "Order arrived damaged", "Webhook retries failing"}

func buildOrg(s orgSpec, start time.Time) *Org {
	o := &Org{ID: s.id, Name: s.name, Moderation: s.mod, ByID: map[string]*Action{}, AgentByID: map[string]*Agent{},
		Tags: s.tags, CFDefs: s.cfdefs, Cases: map[string]*ModCase{}, CaseByExt: map[string]*ModCase{}, Ingested: map[string]*IngestRec{}}
	o.Agents = s.agents
	for _, a := range s.agents {
		o.AgentByID[a.ID] = a
	}
	r := rand.New(rand.NewSource(s.seed))
	base := start.Truncate(time.Second)
	for i := 0; i < s.n; i++ {
		var id string
		if i < len(s.special) {
			id = s.special[i]
		} else if i%3 == 0 {
			id = fmt.Sprintf("%d", uint64(1190000000000000000)+uint64(s.seed%1000)*1000000+uint64(i)*7919)
		} else if i%3 == 1 {
			id = fmt.Sprintf("act_%s_%05d", strings.TrimPrefix(s.id, "org_"), i)
		} else {
			id = fmt.Sprintf("%08d", i*13)
		}
		if _, dup := o.ByID[id]; dup {
			id = id + "-x"
		}
		// age: 40% in last 7 days, rest up to 60 days
		var ageSec int
		if i < len(s.special) {
			ageSec = 3600*(5+i*7) + 17*i
		} else if r.Float64() < 0.4 {
			ageSec = r.Intn(7 * 86400)
		} else {
			ageSec = 7*86400 + r.Intn(53*86400)
		}
		created := base.Add(-time.Duration(ageSec) * time.Second)
		platform := s.platforms[r.Intn(len(s.platforms))]
		a := &Action{Org: s.id, ID: id, Platform: platform, CreatedAt: created}
		a.Title = titles[r.Intn(len(titles))]
		a.Summary = "Customer reports: " + strings.ToLower(a.Title) + ". Summary generated for triage."
		rts := []string{"message", "thread", "ticket", "post", "comment"}
		if r.Intn(10) != 0 {
			a.RecordType = sp(rts[r.Intn(len(rts))])
		}
		a.IsPublic = platform == "TWITTER" || platform == "INSTAGRAM" || platform == "TIKTOK" || platform == "FACEBOOK" || (platform == "GITHUB" && r.Intn(2) == 0)
		if a.IsPublic {
			a.SourceURL = sp("https://" + strings.ToLower(platform) + ".example.com/p/" + url.PathEscape(id))
		}
		if q := r.Intn(len(s.queues) + 1); q < len(s.queues) {
			a.Queue = sp(s.queues[q])
			a.InitialQueue = sp(s.queues[(q+r.Intn(2))%len(s.queues)])
		} else if r.Intn(2) == 0 {
			a.InitialQueue = sp(s.queues[0])
		}
		if r.Intn(12) != 0 {
			li := r.Intn(4)
			a.Sentiment = sp(sentimentLabels[li])
			lo := []float64{-1, -0.6, -0.2, 0.2}[li]
			a.SentimentScore = fp(round2(lo + r.Float64()*0.4))
		}
		if r.Intn(6) == 0 {
			a.Moderation = sp([]string{"safe", "flagged", "spam"}[r.Intn(3)])
		}
		fn := firstNames[r.Intn(len(firstNames))]
		ln := lastNames[r.Intn(len(lastNames))]
		a.UserName = fn + " " + ln
		a.UserHandle = strings.ToLower(strings.ReplaceAll(fn, " ", "")) + fmt.Sprintf("_%d", r.Intn(999))
		switch {
		case i%17 == 3:
			a.UserID = "9007199254740993"
		case i%17 == 5:
			a.UserID = "000000417"
		default:
			a.UserID = fmt.Sprintf("%d", 100000+r.Intn(400))
		}
		if r.Intn(3) == 0 {
			a.UserEmail = sp(strings.ToLower(a.UserHandle) + "@mail.example")
		}
		if a.IsPublic {
			a.UserFollowers = ip(r.Intn(50000))
		}
		a.ServerName = s.servers[r.Intn(len(s.servers))]
		a.ChannelName = []string{"#support", "#general", "inbox", "#bugs", "DMs"}[r.Intn(5)]

		// status & responsiveness
		roll := r.Intn(100)
		responded := roll < 72 || i < len(s.special)
		switch {
		case roll < 45:
			a.Status = "CLOSED"
		case roll < 55:
			a.Status = "IN_PROGRESS"
		case roll < 62:
			a.Status = "CANCELLED"
		default:
			a.Status = "OPEN"
		}
		if !responded && a.Status == "CLOSED" {
			a.Status = "CANCELLED"
		}
		if r.Intn(8) != 0 || responded {
			a.Assignee = s.agents[r.Intn(len(s.agents))]
		}
		if !responded && a.Assignee == nil {
			a.Status = "OPEN"
		}
		a.InitialMessageTime = tp(created)
		t := created
		if a.Assignee != nil {
			a.ClaimTime = tp(created.Add(time.Duration(30+r.Intn(600)) * time.Second))
		}
		nu := 1 + r.Intn(4)
		na := 0
		if responded {
			rt := 60 + r.Intn(7200)
			a.FirstResponseSecs = ip(rt)
			a.InitialResponseTime = tp(created.Add(time.Duration(rt) * time.Second))
			na = 1 + r.Intn(3)
		}
		// messages
		cust := a.UserID
		msgs := []Message{}
		var root *string
		ui, ai := 0, 0
		var lastID *string
		for k := 0; ui < nu || ai < na; k++ {
			var m Message
			m.ID = fmt.Sprintf("%s-m%02d", id, k)
			if k == 0 || (ui < nu && (ai >= na || k%2 == 0)) {
				m.Author, m.AuthorID, m.AuthorType = a.UserName, cust, "USER"
				m.Text = []string{"Hi, " + strings.ToLower(a.Title) + ".", "Any update on this?", "Still waiting 😕", "Thanks, that helps!"}[ui%4]
				ui++
			} else {
				if a.Assignee != nil {
					m.Author, m.AuthorID, m.AuthorType = a.Assignee.Name, a.Assignee.ID, "AGENT"
				} else {
					m.Author, m.AuthorID, m.AuthorType = "Acme Bot", "bot-1", "BOT"
				}
				m.Text = []string{"Thanks for reaching out, looking into it.", "Could you share your order number?", "This is fixed now."}[ai%3]
				ai++
			}
			if k == 0 {
				t = created
			} else if k == 1 && a.InitialResponseTime != nil && m.AuthorType != "USER" {
				t = *a.InitialResponseTime
			} else {
				t = t.Add(time.Duration(60+r.Intn(1800)) * time.Second)
			}
			if a.InitialResponseTime != nil && m.AuthorType != "USER" && t.Before(*a.InitialResponseTime) {
				t = *a.InitialResponseTime
			}
			m.Timestamp = t
			m.Media = []string{}
			if r.Intn(9) == 0 {
				m.Media = []string{"https://cdn.example.com/media/" + url.PathEscape(m.ID) + ".png"}
			}
			m.ParentID = lastID
			mid := m.ID
			lastID = &mid
			if k == 0 {
				root = sp(m.Text)
			}
			msgs = append(msgs, m)
		}
		a.Messages = msgs
		a.RootText = root
		a.NoTotals = r.Intn(15) == 0
		last := msgs[len(msgs)-1].Timestamp
		if a.Status == "CLOSED" || a.Status == "CANCELLED" {
			ct := last.Add(time.Duration(60+r.Intn(3600)) * time.Second)
			a.CloseTime = tp(ct)
			a.HandleSecs = ip(int(ct.Sub(created).Seconds()))
			last = ct
		}
		if r.Intn(20) != 0 {
			a.UpdatedAt = tp(last)
		}
		if last.After(base) {
			shiftAction(a, last.Sub(base)+time.Duration(1+r.Intn(600))*time.Second)
		}
		if a.Status == "CLOSED" && r.Intn(2) == 0 {
			a.CsatScore = sp(fmt.Sprintf("%d", 1+r.Intn(5)))
			if r.Intn(2) == 0 {
				a.CsatFeedback = sp([]string{"Quick and friendly", "Took too long", "Solved my problem", "Très bien 👍"}[r.Intn(4)])
			}
		}
		if r.Intn(3) != 0 {
			a.EstimatedCSAT = fp(round2(1 + r.Float64()*4))
		}
		// tags
		a.Tags = []Tag{}
		a.ClosingTags = []Tag{}
		nt := r.Intn(4)
		seen := map[string]bool{}
		for k := 0; k < nt; k++ {
			tg := s.tags[r.Intn(len(s.tags))]
			if !seen[tg.ID] {
				seen[tg.ID] = true
				a.Tags = append(a.Tags, tg)
			}
		}
		if a.Status == "CLOSED" && r.Intn(2) == 0 {
			a.ClosingTags = append(a.ClosingTags, s.tags[r.Intn(len(s.tags))])
		}
		// custom fields
		a.CF = map[string]interface{}{}
		a.CFProv = map[string]interface{}{}
		for _, d := range s.cfdefs {
			if r.Intn(3) != 0 {
				continue
			}
			var v interface{}
			switch d.Type {
			case "select":
				v = d.Options[r.Intn(len(d.Options))]
			case "text":
				v = []string{"gold", "silver", "bronze", "C-7781"}[r.Intn(4)]
			case "number":
				v = float64(r.Intn(200000)) / 100
			case "boolean":
				v = r.Intn(2) == 0
			case "date":
				v = created.AddDate(0, 6, 0).Format("2006-01-02")
			case "multi_select":
				v = []interface{}{d.Options[r.Intn(len(d.Options))]}
			}
			a.CF[d.Name] = v
			a.CFProv[d.Name] = map[string]interface{}{"source": "seed", "recordedAt": fmtTime(created)}
		}
		a.CFList = copyMap(a.CF)
		if r.Intn(5) == 0 {
			nm := "Team Lead"
			a.Comments = []Comment{{Text: "Escalated internally", AuthorID: "internal-" + fmt.Sprint(r.Intn(9)), AuthorName: &nm}}
		}
		a.ThreadID = "th_" + id
		if r.Intn(4) != 0 {
			a.EasyID = sp(fmt.Sprintf("%s-%d", strings.ToUpper(strings.TrimPrefix(s.id, "org_"))[:3], 1000+i))
		}
		if a.Assignee != nil {
			a.Contributors = sp(a.UserName + ", " + a.Assignee.Name)
		} else if r.Intn(2) == 0 {
			a.Contributors = sp(a.UserName)
		}
		a.ResolutionQuality = round2(r.Float64() * 5)
		a.SentimentChange = round2(r.Float64()*2 - 1)
		a.RubricScore = round2(r.Float64() * 100)
		a.Actionability = round2(r.Float64())
		a.Relevance = round2(r.Float64())
		o.Actions = append(o.Actions, a)
		o.ByID[id] = a
	}
	return o
}

func totals(a *Action) (int, int, int) {
	u, g := 0, 0
	for _, m := range a.Messages {
		if m.AuthorType == "USER" {
			u++
		} else {
			g++
		}
	}
	return len(a.Messages), u, g
}

func copyMap(m map[string]interface{}) map[string]interface{} {
	out := map[string]interface{}{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func seedCase(o *Org, start time.Time) {
	body := map[string]interface{}{"externalId": "seed-ext-0001", "title": "Spring sale", "language": "en"}
	b, _ := json.Marshal(body)
	c := &ModCase{Org: o.ID, CaseID: "mc_seed_0001", ExternalID: "seed-ext-0001", EvaluationID: "ev_seed_0001",
		Content: string(b), Body: body, CreatedAt: start.Add(-48 * time.Hour), Outcome: "completed"}
	c.Decision = map[string]interface{}{"disposition": "approve", "confidence": "high", "title": nil, "reason": "No policy concerns found.",
		"hits": []interface{}{}, "advertiserAssessment": map[string]interface{}{"polarity": "POSITIVE", "reasoning": "Known advertiser."},
		"landingAssessment": map[string]interface{}{"polarity": "POSITIVE", "reasoning": "Landing page matches ad."},
		"decisionSource":    "model", "failureCode": nil, "failureMessage": nil}
	o.Cases[c.CaseID] = c
	o.CaseByExt[c.ExternalID] = c
}

func shiftAction(a *Action, d time.Duration) {
	sh := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		x := t.Add(-d)
		return &x
	}
	a.CreatedAt = a.CreatedAt.Add(-d)
	a.UpdatedAt = sh(a.UpdatedAt)
	a.InitialMessageTime = sh(a.InitialMessageTime)
	a.InitialResponseTime = sh(a.InitialResponseTime)
	a.CloseTime = sh(a.CloseTime)
	a.ClaimTime = sh(a.ClaimTime)
	for i := range a.Messages {
		a.Messages[i].Timestamp = a.Messages[i].Timestamp.Add(-d)
	}
}
