package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"time"
)

func (s *Server) cfGet(c *ctx) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	a := c.org.ByID[c.segs[0]]
	if a == nil {
		c.fail(404, "Action not found")
		return
	}
	fields := []interface{}{}
	for _, d := range c.org.CFDefs {
		v, ok := a.CF[d.Name]
		if !ok {
			v = nil
		}
		f := map[string]interface{}{"fieldName": d.Name, "displayName": d.Display, "fieldType": d.Type, "value": v}
		if p, ok := a.CFProv[d.Name]; ok {
			f["provenance"] = p
		}
		fields = append(fields, f)
	}
	writeJSON(c.w, 200, map[string]interface{}{"actionId": a.ID, "fields": fields})
}

var isoDateRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func checkCFValue(d CFDef, v interface{}) string {
	if v == nil {
		return "" // null clears the value
	}
	switch d.Type {
	case "text":
		if _, ok := v.(string); !ok {
			return "expected a string"
		}
	case "number":
		if _, ok := v.(json.Number); !ok {
			return "expected a number"
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return "expected a boolean"
		}
	case "date":
		sv, ok := v.(string)
		if !ok || !isoDateRe.MatchString(sv) {
			return "expected a date YYYY-MM-DD"
		}
		if _, err := time.Parse("2006-01-02", sv); err != nil {
			return "expected a valid calendar date"
		}
	case "select":
		sv, ok := v.(string)
		if !ok || !contains(d.Options, sv) {
			return fmt.Sprintf("expected one of %v", d.Options)
		}
	case "multi_select":
		arr, ok := v.([]interface{})
		if !ok {
			return "expected an array of options"
		}
		for _, x := range arr {
			sv, ok := x.(string)
			if !ok || !contains(d.Options, sv) {
				return fmt.Sprintf("expected only options from %v", d.Options)
			}
		}
	}
	return ""
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func decodeBody(c *ctx, limit int64) (interface{}, error) {
	b, err := io.ReadAll(io.LimitReader(c.r.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("request body too large")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("body is not valid JSON")
	}
	if dec.More() {
		return nil, fmt.Errorf("body has trailing data")
	}
	var rest interface{}
	if err := dec.Decode(&rest); err != io.EOF {
		return nil, fmt.Errorf("body has trailing data")
	}
	return v, nil
}

func normalizeNumbers(v interface{}) interface{} {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = normalizeNumbers(e)
		}
		return out
	case map[string]interface{}:
		out := map[string]interface{}{}
		for k, e := range x {
			out[k] = normalizeNumbers(e)
		}
		return out
	}
	return v
}

func (s *Server) cfPatch(c *ctx) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	a := c.org.ByID[c.segs[0]]
	if !c.key.Scopes["write"] {
		// D10 path: scope check was deferred
		if a == nil {
			c.fail(404, "Action not found")
			return
		}
		c.fail(403, "This API key lacks the 'write' scope required by this route")
		return
	}
	if a == nil {
		c.fail(404, "Action not found")
		return
	}
	body, err := decodeBody(c, 1<<20)
	if err != nil {
		writeJSON(c.w, 422, map[string]interface{}{"success": false, "error": "Validation failed: " + err.Error(), "fieldErrors": map[string]string{}})
		return
	}
	obj, ok := body.(map[string]interface{})
	fe := map[string]string{}
	fail := func(msg string) {
		writeJSON(c.w, 422, map[string]interface{}{"success": false, "error": msg, "fieldErrors": fe})
	}
	if !ok {
		fail("Validation failed: body must be a JSON object")
		return
	}
	arr, ok := obj["fields"].([]interface{})
	if !ok {
		fe["fields"] = "required: array of at least 1 item"
		fail("Validation failed")
		return
	}
	if len(arr) == 0 {
		fe["fields"] = "must contain at least 1 item"
		fail("Validation failed")
		return
	}
	type upd struct {
		name string
		val  interface{}
		conf interface{}
		rat  interface{}
	}
	var ups []upd
	for i, it := range arr {
		m, ok := it.(map[string]interface{})
		if !ok {
			fe[fmt.Sprintf("fields[%d]", i)] = "must be an object"
			continue
		}
		name, ok := m["fieldName"].(string)
		if !ok || name == "" {
			fe[fmt.Sprintf("fields[%d].fieldName", i)] = "required: non-empty string"
			continue
		}
		var def *CFDef
		for j := range c.org.CFDefs {
			if c.org.CFDefs[j].Name == name {
				def = &c.org.CFDefs[j]
			}
		}
		if def == nil {
			fe[name] = "unknown custom field"
			continue
		}
		val, has := m["value"]
		if !has {
			fe[name] = "value is required"
			continue
		}
		if msg := checkCFValue(*def, val); msg != "" {
			fe[name] = msg
			continue
		}
		var conf interface{}
		if cv, has := m["confidence"]; has {
			n, ok := cv.(json.Number)
			f, err := n.Float64()
			if !ok || err != nil || f < 0 || f > 1 {
				fe[name] = "confidence must be a number from 0 to 1"
				continue
			}
			conf = f
		}
		var rat interface{}
		if rv, has := m["rationale"]; has {
			rs, ok := rv.(string)
			if !ok {
				fe[name] = "rationale must be a string"
				continue
			}
			rat = rs
		}
		ups = append(ups, upd{name, normalizeNumbers(val), conf, rat})
	}
	if len(fe) > 0 {
		fail("Validation failed")
		return
	}
	updated := []interface{}{}
	for _, u := range ups {
		if u.val == nil {
			delete(a.CF, u.name)
			delete(a.CFProv, u.name)
			if !dev("D11") {
				delete(a.CFList, u.name)
			}
		} else {
			a.CF[u.name] = u.val
			if !dev("D11") {
				a.CFList[u.name] = u.val
			}
			a.CFProv[u.name] = map[string]interface{}{"source": "api", "keyName": "api-key", "recordedAt": fmtTime(c.now)}
		}
		updated = append(updated, map[string]interface{}{"fieldName": u.name, "value": u.val})
	}
	t := c.now
	a.UpdatedAt = &t
	writeJSON(c.w, 200, map[string]interface{}{"actionId": a.ID, "updated": updated})
}
