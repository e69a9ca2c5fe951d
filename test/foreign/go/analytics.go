package main

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

const analyticsDefault = 30 * 24 * time.Hour

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return round2(s / float64(len(xs)))
}

func meanOrNil(xs []float64) interface{} {
	if len(xs) == 0 {
		return nil
	}
	return mean(xs)
}

func metricsOf(as []*Action) map[string]interface{} {
	var tm, ta, tu int
	var csat, rt, ht, ecs, rq, sc, rs []float64
	for _, a := range as {
		if !a.NoTotals {
			t, u, g := totals(a)
			tm += t
			tu += u
			ta += g
		}
		if a.CsatScore != nil {
			if f, err := strconv.ParseFloat(*a.CsatScore, 64); err == nil {
				csat = append(csat, f)
			}
		}
		if a.FirstResponseSecs != nil {
			rt = append(rt, float64(*a.FirstResponseSecs))
		}
		if a.HandleSecs != nil {
			ht = append(ht, float64(*a.HandleSecs))
		}
		if a.EstimatedCSAT != nil {
			ecs = append(ecs, *a.EstimatedCSAT)
		}
		rq = append(rq, a.ResolutionQuality)
		sc = append(sc, a.SentimentChange)
		rs = append(rs, a.RubricScore)
	}
	return map[string]interface{}{"totalActions": len(as), "totalMessages": tm, "totalAgentMessages": ta, "totalUserMessages": tu,
		"averageCsat": mean(csat), "averageResponseTime": mean(rt), "averageHandleTime": mean(ht), "averageEstimatedCsat": mean(ecs),
		"averageResolutionQuality": mean(rq), "averageSentimentChange": mean(sc), "averageRubricScore": mean(rs)}
}

func workloadOf(as []*Action) map[string]interface{} {
	act, cl, ca := 0, 0, 0
	for _, a := range as {
		switch a.Status {
		case "CLOSED":
			cl++
		case "CANCELLED":
			ca++
		default:
			act++
		}
	}
	return map[string]interface{}{"active": act, "closed": cl, "cancelled": ca}
}

func inWindow(o *Org, from, to time.Time) []*Action {
	var out []*Action
	for _, a := range o.Actions {
		if inWin(a.CreatedAt, from, to) {
			out = append(out, a)
		}
	}
	return out
}

func (s *Server) agentsList(c *ctx) {
	from, to := c.softWindow(analyticsDefault)
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	as := inWindow(c.org, from, to)
	agents := append([]*Agent{}, c.org.Agents...)
	sort.Slice(agents, func(i, j int) bool { return agents[i].ID < agents[j].ID })
	data := []interface{}{}
	for _, ag := range agents {
		var mine []*Action
		withResp := 0
		for _, a := range as {
			if a.Assignee == ag {
				mine = append(mine, a)
				if a.Responded() {
					withResp++
				}
			}
		}
		m := metricsOf(mine)
		m["totalActionsWithResponse"] = withResp
		data = append(data, map[string]interface{}{"agentId": ag.ID, "metrics": m, "workload": workloadOf(mine)})
	}
	writeJSON(c.w, 200, map[string]interface{}{"success": true, "data": data})
}

var slugRe = regexp.MustCompile(`[^a-z0-9]+`)

func queueID(name string) string {
	return "q_" + strings.Trim(slugRe.ReplaceAllString(strings.ToLower(name), "-"), "-")
}

func (s *Server) agentDetail(c *ctx) {
	from, to := c.softWindow(analyticsDefault)
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	ag := c.org.AgentByID[c.segs[0]]
	if ag == nil {
		c.fail(404, "Agent not found")
		return
	}
	var mine []*Action
	for _, a := range inWindow(c.org, from, to) {
		if a.Assignee == ag {
			mine = append(mine, a)
		}
	}
	byDay := map[string][]*Action{}
	var days []string
	for _, a := range mine {
		d := a.CreatedAt.Format("2006-01-02")
		if _, ok := byDay[d]; !ok {
			days = append(days, d)
		}
		byDay[d] = append(byDay[d], a)
	}
	sort.Strings(days)
	daily := []interface{}{}
	for _, d := range days {
		m := metricsOf(byDay[d])
		row := map[string]interface{}{"date": d}
		for _, k := range []string{"totalActions", "totalMessages", "totalAgentMessages", "totalUserMessages", "averageResponseTime", "averageHandleTime"} {
			row[k] = m[k]
		}
		daily = append(daily, row)
	}
	qc := map[string]int{}
	nullQ := 0
	for _, a := range mine {
		if a.Queue == nil {
			nullQ++
		} else {
			qc[*a.Queue]++
		}
	}
	var qn []string
	for k := range qc {
		qn = append(qn, k)
	}
	sort.Slice(qn, func(i, j int) bool {
		if qc[qn[i]] != qc[qn[j]] {
			return qc[qn[i]] > qc[qn[j]]
		}
		return qn[i] < qn[j]
	})
	queues := []interface{}{}
	for _, n := range qn {
		queues = append(queues, map[string]interface{}{"queueId": queueID(n), "queueName": n, "totalActions": qc[n]})
	}
	if nullQ > 0 {
		queues = append(queues, map[string]interface{}{"queueId": nil, "queueName": nil, "totalActions": nullQ})
	}
	writeJSON(c.w, 200, map[string]interface{}{"success": true, "data": map[string]interface{}{
		"metrics": daily, "aggregatedMetrics": metricsOf(mine), "currentWorkload": workloadOf(mine), "queues": queues}})
}

func (s *Server) queuesList(c *ctx) {
	from, to := c.softWindow(analyticsDefault)
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	groups := map[string][]*Action{}
	var nullG []*Action
	for _, a := range inWindow(c.org, from, to) {
		if a.Queue == nil {
			nullG = append(nullG, a)
		} else {
			groups[*a.Queue] = append(groups[*a.Queue], a)
		}
	}
	var names []string
	for k := range groups {
		names = append(names, k)
	}
	sort.Strings(names)
	entry := func(id, name interface{}, as []*Action) map[string]interface{} {
		m := metricsOf(as)
		var ss []float64
		for _, a := range as {
			if a.SentimentScore != nil {
				ss = append(ss, *a.SentimentScore)
			}
		}
		m["averageSentimentScore"] = mean(ss)
		return map[string]interface{}{"queueId": id, "queueName": name, "metrics": m, "workload": workloadOf(as)}
	}
	data := []interface{}{}
	for _, n := range names {
		data = append(data, entry(queueID(n), n, groups[n]))
	}
	if len(nullG) > 0 {
		data = append(data, entry(nil, nil, nullG))
	}
	writeJSON(c.w, 200, map[string]interface{}{"success": true, "data": data})
}

func (c *ctx) softBool(name string) bool {
	v, _ := c.q(name)
	b, _ := parseBool(v)
	return b
}

func (c *ctx) softInt(name string, def, lo, hi int) int {
	v, ok := c.q(name)
	if !ok {
		return def
	}
	n, ok := parseIntStrict(v)
	if !ok {
		return def
	}
	if n < lo {
		return lo
	}
	if n > hi {
		return hi
	}
	return n
}

type tagStat struct {
	tag             Tag
	acts            []*Action
	responded       int
	sent, actn, rel []float64
}

func collectTags(as []*Action, keep func(Tag) bool) (map[string]*tagStat, []string) {
	stats := map[string]*tagStat{}
	var ids []string
	for _, a := range as {
		for _, t := range a.Tags {
			if keep != nil && !keep(t) {
				continue
			}
			st := stats[t.ID]
			if st == nil {
				st = &tagStat{tag: t}
				stats[t.ID] = st
				ids = append(ids, t.ID)
			}
			st.acts = append(st.acts, a)
			if a.Responded() {
				st.responded++
			}
			if a.SentimentScore != nil {
				st.sent = append(st.sent, *a.SentimentScore)
			}
			st.actn = append(st.actn, a.Actionability)
			st.rel = append(st.rel, a.Relevance)
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := stats[ids[i]], stats[ids[j]]
		if len(a.acts) != len(b.acts) {
			return len(a.acts) > len(b.acts)
		}
		if a.tag.Value != b.tag.Value {
			return a.tag.Value < b.tag.Value
		}
		return a.tag.ID < b.tag.ID
	})
	return stats, ids
}

func (s *Server) tagsAnalytics(c *ctx) {
	from, to := c.softWindow(analyticsDefault)
	respondedOnly := c.softBool("respondedOnly")
	limit := c.softInt("limit", 25, 1, 500)
	offset := c.softInt("offset", 0, 0, 1000000)
	search, _ := c.q("search")
	ls := strings.ToLower(strings.TrimSpace(search))
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	var set []*Action
	for _, a := range inWindow(c.org, from, to) {
		if respondedOnly && !a.Responded() {
			continue
		}
		set = append(set, a)
	}
	keep := func(t Tag) bool {
		return ls == "" || strings.Contains(strings.ToLower(t.Value), ls) || strings.Contains(strings.ToLower(t.Group), ls)
	}
	stats, ids := collectTags(set, keep)
	groups := map[string]bool{}
	tagged := map[*Action]bool{}
	for _, id := range ids {
		groups[stats[id].tag.Group] = true
		for _, a := range stats[id].acts {
			tagged[a] = true
		}
	}
	breakdown := []interface{}{}
	volume := []interface{}{}
	end := offset + limit
	for i := offset; i < len(ids) && i < end; i++ {
		st := stats[ids[i]]
		pct := 0.0
		if len(set) > 0 {
			pct = round2(100 * float64(len(st.acts)) / float64(len(set)))
		}
		var g interface{} = st.tag.Group
		if st.tag.Group == "" {
			g = nil
		}
		breakdown = append(breakdown, map[string]interface{}{"tagId": st.tag.ID, "tagName": st.tag.Value, "groupName": g, "count": len(st.acts), "percentage": pct})
		volume = append(volume, map[string]interface{}{"tagId": st.tag.ID, "tagName": st.tag.Value, "total": len(st.acts), "responded": st.responded,
			"notResponded": len(st.acts) - st.responded, "avgSentiment": meanOrNil(st.sent), "avgActionability": meanOrNil(st.actn), "avgRelevance": meanOrNil(st.rel)})
	}
	hasMore := offset+limit < len(ids)
	if dev("D12") {
		hasMore = offset+limit <= len(ids)
	}
	writeJSON(c.w, 200, map[string]interface{}{"success": true, "data": map[string]interface{}{
		"summary":      map[string]interface{}{"totalTags": len(ids), "totalTagGroups": len(groups), "totalTaggedRecords": len(tagged), "totalActions": len(set)},
		"tagBreakdown": breakdown, "volumeByTag": volume,
		"pagination": map[string]interface{}{"total": len(ids), "limit": limit, "offset": offset, "hasMore": hasMore}}})
}

func daysBetween(from, to time.Time) []string {
	var out []string
	d := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
	for !d.After(to) && len(out) < 3700 {
		out = append(out, d.Format("2006-01-02"))
		d = d.AddDate(0, 0, 1)
	}
	return out
}

func (s *Server) tagsVolume(c *ctx) {
	from, to := c.softWindow(analyticsDefault)
	respondedOnly := c.softBool("respondedOnly")
	top := c.softInt("topTagsLimit", 5, 1, 100)
	tagIDs, hasIDs := c.q("tagIds")
	want := map[string]bool{}
	if hasIDs {
		for _, t := range strings.Split(tagIDs, ",") {
			if t = strings.TrimSpace(t); t != "" {
				want[t] = true
			}
		}
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	var set []*Action
	for _, a := range inWindow(c.org, from, to) {
		if respondedOnly && !a.Responded() {
			continue
		}
		set = append(set, a)
	}
	stats, ids := collectTags(set, nil)
	var chosen []*tagStat
	if len(want) > 0 {
		for _, id := range ids {
			if want[id] {
				chosen = append(chosen, stats[id])
			}
		}
	} else {
		for i := 0; i < len(ids) && i < top; i++ {
			chosen = append(chosen, stats[ids[i]])
		}
	}
	names := []string{}
	for _, st := range chosen {
		names = append(names, st.tag.Value)
	}
	rows := []interface{}{}
	for _, d := range daysBetween(from, to) {
		vals := map[string]interface{}{}
		total := 0
		for _, st := range chosen {
			n := 0
			for _, a := range st.acts {
				if a.CreatedAt.Format("2006-01-02") == d {
					n++
				}
			}
			vals[st.tag.Value] = n
			total += n
		}
		rows = append(rows, map[string]interface{}{"date": d, "counts": vals, "total": total})
	}
	writeJSON(c.w, 200, map[string]interface{}{"success": true, "data": map[string]interface{}{"data": rows, "tags": names}})
}

func (s *Server) sentimentDaily(c *ctx) {
	from, to := c.softWindow(analyticsDefault)
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	idx := map[string]map[string]interface{}{}
	rows := []interface{}{}
	for _, d := range daysBetween(from, to) {
		r := map[string]interface{}{"day": d, "Very Negative": 0, "Negative": 0, "Neutral": 0, "Positive": 0}
		idx[d] = r
		rows = append(rows, r)
	}
	for _, a := range inWindow(c.org, from, to) {
		if a.Sentiment == nil {
			continue
		}
		if r := idx[a.CreatedAt.Format("2006-01-02")]; r != nil {
			r[*a.Sentiment] = r[*a.Sentiment].(int) + 1
		}
	}
	writeJSON(c.w, 200, map[string]interface{}{"success": true, "data": rows})
}

func (s *Server) sentimentByTag(c *ctx) {
	from, to := c.softWindow(analyticsDefault)
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	as := inWindow(c.org, from, to)
	if dev("D03") {
		for _, o := range s.st.orgs {
			if o != c.org && o.Moderation == c.org.Moderation {
				as = append(as, inWindow(o, from, to)...)
			}
		}
	}
	type row struct {
		name         string
		vn, n, ne, p int
	}
	rowsBy := map[string]*row{}
	for _, a := range as {
		if a.Sentiment == nil {
			continue
		}
		seen := map[string]bool{}
		for _, t := range a.Tags {
			if seen[t.Value] {
				continue
			}
			seen[t.Value] = true
			r := rowsBy[t.Value]
			if r == nil {
				r = &row{name: t.Value}
				rowsBy[t.Value] = r
			}
			switch *a.Sentiment {
			case "Very Negative":
				r.vn++
			case "Negative":
				r.n++
			case "Neutral":
				r.ne++
			case "Positive":
				r.p++
			}
		}
	}
	var list []*row
	for _, r := range rowsBy {
		list = append(list, r)
	}
	sort.Slice(list, func(i, j int) bool {
		ti, tj := list[i].vn+list[i].n+list[i].ne+list[i].p, list[j].vn+list[j].n+list[j].ne+list[j].p
		if ti != tj {
			return ti > tj
		}
		return list[i].name < list[j].name
	})
	data := []interface{}{}
	for _, r := range list {
		data = append(data, map[string]interface{}{"tagName": r.name, "veryNegative": r.vn, "negative": r.n, "neutral": r.ne, "positive": r.p,
			"totalMentions": r.vn + r.n + r.ne + r.p})
	}
	writeJSON(c.w, 200, map[string]interface{}{"success": true, "data": data})
}

func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	pos := p * float64(len(xs)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return round2(xs[lo] + (xs[hi]-xs[lo])*(pos-float64(lo)))
}

func weekStart(t time.Time) time.Time {
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	wd := (int(d.Weekday()) + 6) % 7 // Monday = 0
	return d.AddDate(0, 0, -wd)
}

func (s *Server) engagement(c *ctx) {
	from, to := c.softWindow(analyticsDefault)
	pv, hasP := c.q("platforms")
	want := map[string]bool{}
	if hasP {
		for _, p := range strings.Split(pv, ",") {
			if p = strings.TrimSpace(p); p != "" {
				want[p] = true
			}
		}
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	keep := func(a *Action) bool { return len(want) == 0 || want[a.Platform] }
	var set []*Action
	for _, a := range inWindow(c.org, from, to) {
		if keep(a) {
			set = append(set, a)
		}
	}
	byPlat := map[string]map[string]float64{}
	var plats []string
	for _, a := range set {
		m := byPlat[a.Platform]
		if m == nil {
			m = map[string]float64{}
			byPlat[a.Platform] = m
			plats = append(plats, a.Platform)
		}
		_, u, _ := totals(a)
		m[a.UserID] += float64(u)
	}
	sort.Strings(plats)
	pcts := []interface{}{}
	for _, p := range plats {
		var xs []float64
		for _, v := range byPlat[p] {
			xs = append(xs, v)
		}
		pcts = append(pcts, map[string]interface{}{"platform": p, "p25MessagesPerUser": percentile(xs, 0.25),
			"medianMessagesPerUser": percentile(xs, 0.5), "p75MessagesPerUser": percentile(xs, 0.75)})
	}
	// weekly growth: distinct users per (week, platform), previous week computed over all data
	weekUsers := map[string]map[string]bool{}
	wk := func(w time.Time, p string) string { return w.Format("2006-01-02") + "|" + p }
	for _, a := range c.org.Actions {
		if !keep(a) {
			continue
		}
		k := wk(weekStart(a.CreatedAt), a.Platform)
		if weekUsers[k] == nil {
			weekUsers[k] = map[string]bool{}
		}
		weekUsers[k][a.UserID] = true
	}
	trends := []interface{}{}
	for w := weekStart(from); !w.After(to); w = w.AddDate(0, 0, 7) {
		for _, p := range plats {
			cur := len(weekUsers[wk(w, p)])
			prev := len(weekUsers[wk(w.AddDate(0, 0, -7), p)])
			g := 0.0
			if prev > 0 {
				g = round2(100 * float64(cur-prev) / float64(prev))
			}
			trends = append(trends, map[string]interface{}{"week": fmtTime(w), "platform": p, "currentWeekUsers": cur, "previousWeekUsers": prev, "growthPercentage": g})
		}
	}
	funnel := []interface{}{}
	for _, p := range plats {
		n, r, cl := 0, 0, 0
		for _, a := range set {
			if a.Platform != p {
				continue
			}
			n++
			if a.Responded() {
				r++
			}
			if a.Status == "CLOSED" {
				cl++
			}
		}
		funnel = append(funnel, map[string]interface{}{"platform": p, "conversations": n, "responded": r, "closed": cl})
	}
	writeJSON(c.w, 200, map[string]interface{}{"success": true, "data": map[string]interface{}{
		"engagementPercentiles": pcts, "growthTrends": trends, "conversionFunnel": funnel}})
}
