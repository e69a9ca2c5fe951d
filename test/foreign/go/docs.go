package main

import (
	"encoding/json"
	"sort"
	"strings"
)

type J = map[string]interface{}

func tStr() J               { return J{"type": "string"} }
func tNStr() J              { return J{"type": "string", "nullable": true} }
func tNum() J               { return J{"type": "number"} }
func tNNum() J              { return J{"type": "number", "nullable": true} }
func tInt() J               { return J{"type": "integer"} }
func tBool() J              { return J{"type": "boolean"} }
func tArr(it J) J           { return J{"type": "array", "items": it} }
func ref(n string) J        { return J{"$ref": "#/components/schemas/" + n} }
func strLen(min, max int) J { return J{"type": "string", "minLength": min, "maxLength": max} }
func enumS(v ...string) J   { return J{"type": "string", "enum": v} }

func obj(props J, req ...string) J {
	o := J{"type": "object", "properties": props}
	if len(req) > 0 {
		o["required"] = req
	}
	return o
}

func objAll(props J) J {
	var req []string
	for k := range props {
		req = append(req, k)
	}
	sort.Strings(req)
	return obj(props, req...)
}

func merge(a J, b J) J {
	out := J{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func summaryProps() J {
	p := J{"actionId": tStr(), "actionTitle": tStr(), "actionSummary": tStr(), "status": tStr(), "platform": tStr(), "recordType": tNStr(),
		"isPublicPost": tBool(), "serviceURL": tStr(), "sourceURL": tNStr(), "queue": tNStr(), "initialQueue": tNStr(), "sentiment": tNStr(),
		"sentimentScore": tNNum(), "moderation": tNStr(), "assigneeName": tNStr(), "assigneeEmail": tNStr(), "assigneeUserId": tNStr(),
		"assigneeRole": tNStr(), "userName": tStr(), "userUsername": tStr(), "userId": tStr(), "userEmail": tNStr(), "userFollowerCount": tNNum(),
		"createdAt": tStr(), "updatedAt": tNStr(), "initialMessageTime": tNStr(), "initialResponseTime": tNStr(), "closeTime": tNStr(),
		"claimTime": tNStr(), "firstResponseTime": merge(tNStr(), J{"description": "duration value, not a timestamp (ISO 8601 duration)"}),
		"handleTime": merge(tNStr(), J{"description": "duration value, not a timestamp (ISO 8601 duration)"}), "serverName": tStr(), "channelName": tStr(),
		"csatScore": tNStr(), "csatFeedback": tNStr(), "estimatedCSAT": tNNum(), "totalMessages": tNNum(), "totalUserMessages": tNNum(),
		"totalAgentMessages": tNNum(), "tags": tArr(ref("Tag")), "closingTags": tArr(ref("Tag")),
		"customFields": J{"type": "object", "additionalProperties": true}, "rootMessageText": tNStr(),
		"conversationJson": merge(tNStr(), J{"description": "filled only with includeFullConversation=true on the action list"})}
	return p
}

func metricsProps() J {
	p := J{}
	for _, k := range []string{"totalActions", "totalMessages", "totalAgentMessages", "totalUserMessages", "averageCsat", "averageResponseTime",
		"averageHandleTime", "averageEstimatedCsat", "averageResolutionQuality", "averageSentimentChange", "averageRubricScore"} {
		p[k] = tNum()
	}
	return p
}

func caseSchema() J {
	return obj(J{
		"externalId": strLen(1, 256), "sourceSystem": strLen(1, 128), "sourcePlatform": strLen(1, 128), "sourceAdId": strLen(1, 256),
		"advertiserId": strLen(1, 256), "advertiserName": strLen(1, 500), "campaignId": strLen(1, 256), "market": strLen(1, 128),
		"placement": strLen(1, 128), "language": merge(strLen(1, 64), J{"default": "en"}), "providerMetadata": J{"type": "object", "additionalProperties": true},
		"landingPageUrl": tNStr(), "title": strLen(1, 500), "headline": strLen(1, 500), "brandName": strLen(1, 500),
		"callToAction":  enumS(ctas...),
		"publicProfile": obj(J{"displayName": strLen(1, 500), "logoUrl": J{"type": "string", "format": "uri"}, "verified": tBool()}),
		"media": J{"type": "array", "minItems": 1, "maxItems": 20, "items": obj(J{"url": J{"type": "string", "format": "uri"},
			"type": enumS("image", "video"), "position": J{"type": "integer", "minimum": 1, "maximum": 20}}, "url", "type", "position")},
		"attachment": obj(J{"type": enumS(attachTypes...), "destinationUrl": tNStr()}, "type", "destinationUrl"),
		"targeting": obj(J{"ageMin": J{"type": "integer", "nullable": true}, "ageMax": J{"type": "integer", "nullable": true},
			"geos":      J{"type": "array", "minItems": 1, "maxItems": 250, "items": tStr()},
			"languages": J{"type": "array", "minItems": 1, "maxItems": 100, "items": tStr()}}, "ageMin", "geos"),
		"copy": obj(J{"body": J{"type": "string", "maxLength": 20000}, "caption": J{"type": "string", "maxLength": 20000},
			"linkDescription": J{"type": "string", "maxLength": 20000}, "sourceTitle": J{"type": "string", "maxLength": 20000}}),
		"discoverTile": tBool(), "partnershipAd": tBool(), "format": tNStr(), "arLens": tNStr(), "submittedAt": J{"type": "string", "format": "date-time"},
	}, "externalId", "sourceSystem", "sourcePlatform", "sourceAdId", "advertiserName", "market", "placement", "landingPageUrl", "title", "media", "attachment", "targeting", "copy")
}

func resp(desc string, schema J) J {
	return J{"description": desc, "content": J{"application/json": J{"schema": schema}}}
}

func errResps(codes ...string) J {
	out := J{}
	names := map[string]string{"400": "Bad request", "401": "Missing or invalid API key", "403": "Forbidden", "404": "Not found",
		"409": "Immutable identifier conflict", "422": "Validation failed", "500": "Internal server error"}
	for _, c := range codes {
		out[c] = resp(names[c], ref("Error"))
	}
	return out
}

func qp(name string, schema J, desc string) J {
	return J{"name": name, "in": "query", "required": false, "schema": schema, "description": desc}
}

func pp(name string, schema J) J {
	return J{"name": name, "in": "path", "required": true, "schema": schema}
}

func op(id, summary string, params []J, ok string, okSchema J, errs J, body J) J {
	o := J{"operationId": id, "summary": summary, "parameters": params}
	r := J{}
	for k, v := range errs {
		r[k] = v
	}
	r[ok] = resp("Success", okSchema)
	o["responses"] = r
	if body != nil {
		o["requestBody"] = J{"required": true, "content": J{"application/json": J{"schema": body}}}
	}
	if params == nil {
		o["parameters"] = []J{}
	}
	return o
}

func openAPI() J {
	dates := []J{qp("from", tStr(), "ISO 8601 date or timestamp; date-only = midnight UTC"), qp("to", tStr(), "ISO 8601 date or timestamp, inclusive; date-only = midnight UTC")}
	withE := func(e J, more ...string) J {
		m := errResps(append([]string{"401"}, more...)...)
		for k, v := range e {
			m[k] = v
		}
		return m
	}
	cfErr := J{"422": resp("Validation failed", ref("CustomFieldError")), "404": resp("Not found", ref("CustomFieldError")), "403": resp("Forbidden", ref("CustomFieldError"))}
	modErrs := func(codes ...string) J {
		m := errResps("401")
		for _, c := range codes {
			m[c] = resp(c, ref("ModerationError"))
		}
		return m
	}
	succ := func(data J) J { return objAll(J{"success": tBool(), "data": data}) }
	paths := J{
		"/v0/action/list": J{"get": op("listActions", "List actions", append(append([]J{}, dates...),
			qp("pageSize", J{"type": "integer", "minimum": 1, "maximum": 500, "default": 50}, ""),
			qp("filter", tStr(), "legacy; only the responded flag is read"), qp("filterJson", tStr(), "legacy JSON; only the responded flag is read"),
			qp("fullFilter", J{"type": "string", "maxLength": 10000}, "full Operations DSL; not combinable with filter/filterJson"),
			qp("includeFullConversation", J{"type": "boolean", "default": false}, ""), qp("sortBy", J{"type": "string", "enum": []string{"createdAt", "updatedAt"}, "default": "createdAt"}, "")),
			"200", objAll(J{"data": tArr(ref("ActionSummary")), "totalRecords": tNum(), "currentPage": tNum(), "pageSize": tNum(), "totalPages": tNum()}),
			withE(nil, "400", "500"), nil)},
		"/v0/action/{id}": J{"get": op("getAction", "Get one action", []J{pp("id", tStr())}, "200", ref("ActionDetail"), withE(nil, "404", "500"), nil)},
		"/v0/actions/{actionId}/custom-fields": J{
			"get": op("getCustomFields", "Read custom field values", []J{pp("actionId", J{"type": "string", "minLength": 1})}, "200",
				objAll(J{"actionId": tStr(), "fields": tArr(ref("CustomFieldValue"))}), merge(withE(nil, "500"), cfErr), nil),
			"patch": op("patchCustomFields", "Write custom field values", []J{pp("actionId", J{"type": "string", "minLength": 1})}, "200",
				objAll(J{"actionId": tStr(), "updated": tArr(objAll(J{"fieldName": tStr(), "value": J{}}))}), merge(withE(nil, "500"), cfErr),
				obj(J{"fields": J{"type": "array", "minItems": 1, "items": obj(J{"fieldName": J{"type": "string", "minLength": 1}, "value": J{},
					"confidence": J{"type": "number", "minimum": 0, "maximum": 1}, "rationale": tStr()}, "fieldName", "value")}}, "fields")),
		},
		"/v0/agents": J{"get": op("listAgents", "Agent metrics", dates, "200", succ(tArr(ref("AgentEntry"))), withE(nil, "403", "500"), nil)},
		"/v0/agents/{id}": J{"get": op("getAgent", "One agent", append([]J{pp("id", tStr())}, dates...), "200", succ(objAll(J{
			"metrics": tArr(J{"type": "object"}), "aggregatedMetrics": objAll(metricsProps()), "currentWorkload": ref("Workload"), "queues": tArr(J{"type": "object"})})),
			withE(nil, "403", "404", "500"), nil)},
		"/v0/queues": J{"get": op("listQueues", "Queue metrics", dates, "200", succ(tArr(ref("QueueEntry"))), withE(nil, "403", "500"), nil)},
		"/v0/analytics/tags": J{"get": op("tagAnalytics", "Tag analytics", append(append([]J{}, dates...), qp("respondedOnly", tBool(), ""),
			qp("limit", J{"type": "number", "default": 25}, ""), qp("offset", J{"type": "number", "default": 0}, ""), qp("search", tStr(), "text search over tags")),
			"200", succ(objAll(J{"summary": objAll(J{"totalTags": tNum(), "totalTagGroups": tNum(), "totalTaggedRecords": tNum(), "totalActions": tNum()}),
				"tagBreakdown": tArr(objAll(J{"tagId": tStr(), "tagName": tStr(), "groupName": tNStr(), "count": tNum(), "percentage": tNum()})),
				"volumeByTag": tArr(objAll(J{"tagId": tStr(), "tagName": tStr(), "total": tNum(), "responded": tNum(), "notResponded": tNum(),
					"avgSentiment": tNNum(), "avgActionability": tNNum(), "avgRelevance": tNNum()})),
				"pagination": objAll(J{"total": tNum(), "limit": tNum(), "offset": tNum(), "hasMore": tBool()})})),
			withE(nil, "403", "500"), nil)},
		"/v0/analytics/tags/volume": J{"get": op("tagVolume", "Tag volume over time", append(append([]J{}, dates...), qp("respondedOnly", tBool(), ""),
			qp("topTagsLimit", J{"type": "number", "default": 5}, ""), qp("tagIds", tStr(), "comma-separated tag IDs")),
			"200", succ(objAll(J{"data": tArr(J{"type": "object"}), "tags": tArr(tStr())})), withE(nil, "403", "500"), nil)},
		"/v0/analytics/sentiment": J{"get": op("sentimentDaily", "Sentiment by day", dates, "200", succ(tArr(objAll(J{"day": tStr(),
			"Very Negative": tNum(), "Negative": tNum(), "Neutral": tNum(), "Positive": tNum()}))), withE(nil, "403", "500"), nil)},
		"/v0/analytics/sentiment/by-tag": J{"get": op("sentimentByTag", "Sentiment by tag", dates, "200", succ(tArr(objAll(J{"tagName": tStr(),
			"veryNegative": tNum(), "negative": tNum(), "neutral": tNum(), "positive": tNum(), "totalMentions": tNum()}))), withE(nil, "403", "500"), nil)},
		"/v0/analytics/engagement": J{"get": op("engagement", "Engagement analytics", append(append([]J{}, dates...), qp("platforms", tStr(), "comma-separated platforms")),
			"200", succ(objAll(J{"engagementPercentiles": tArr(objAll(J{"platform": tStr(), "p25MessagesPerUser": tNum(), "medianMessagesPerUser": tNum(), "p75MessagesPerUser": tNum()})),
				"growthTrends":     tArr(objAll(J{"week": J{"type": "string", "format": "date-time"}, "platform": tStr(), "currentWeekUsers": tNum(), "previousWeekUsers": tNum(), "growthPercentage": tNum()})),
				"conversionFunnel": tArr(J{"type": "object"})})), withE(nil, "403", "500"), nil)},
		"/v0/conversations/search": J{"get": op("searchConversations", "Search conversations", []J{qp("filter", tStr(), "DSL: key=value terms joined with +"),
			qp("page", J{"type": "integer", "minimum": 1, "maximum": 10000, "default": 1}, ""), qp("pageSize", J{"type": "integer", "minimum": 1, "maximum": 100, "default": 50}, "")},
			"200", objAll(J{"success": tBool(), "data": tArr(ref("SearchItem")), "totalRecords": tNum(), "totalRecordsCapped": tBool(), "currentPage": tNum(), "pageSize": tNum(), "totalPages": tNum()}),
			withE(nil, "400", "403", "500"), nil)},
		"/v0/moderation/cases": J{"post": op("submitModerationCase", "Submit a moderation case", nil, "202", ref("ModerationAck"),
			merge(modErrs("400", "403", "409", "422"), errResps("500")), ref("ModerationSubmission"))},
		"/v0/moderation/cases/batch": J{"post": op("submitModerationBatch", "Submit up to 100 moderation cases", nil, "202",
			objAll(J{"results": tArr(ref("BatchResult"))}), modErrs("400", "403"),
			obj(J{"cases": J{"type": "array", "minItems": 1, "maxItems": 100, "items": ref("ModerationSubmission")}}, "cases"))},
		"/v0/moderation/cases/{caseId}": J{"get": op("getModerationCase", "Read a moderation case status", []J{pp("caseId", J{"type": "string", "minLength": 1})}, "200",
			obj(J{"caseId": tStr(), "externalId": tStr(), "analysisStatus": enumS("policy_not_configured", "pending", "running", "completed", "failed"),
				"evaluationId": tStr(), "decision": ref("Decision"), "failureCode": tNStr()}, "caseId", "externalId", "analysisStatus"), modErrs("403", "404"), nil)},
		"/v0/ingest/records": J{"post": op("ingestRecords", "Ingest normalized records", nil, "202", objAll(J{"status": enumS("accepted"), "accepted": tNum()}),
			withE(nil, "403", "422", "500"), obj(J{"platform": enumS(ingestPlatforms...), "serverId": J{"type": "string", "minLength": 1}, "serverName": J{"type": "string", "minLength": 1},
				"channelId": tStr(), "channelName": tStr(), "processingLevel": enumS("INSIGHTS", "STATS_ONLY"),
				"source": obj(J{"system": J{"type": "string", "minLength": 1}, "sourceId": tStr()}, "system"),
				"records": J{"type": "array", "minItems": 1, "maxItems": 500, "items": obj(J{"externalId": J{"type": "string", "minLength": 1}, "threadExternalId": tStr(),
					"parentExternalId": tStr(), "authorId": J{"type": "string", "minLength": 1}, "authorName": J{"type": "string", "minLength": 1}, "title": tStr(),
					"body": tStr(), "score": J{"type": "number", "minimum": 0, "maximum": 5}, "createdAt": J{"type": "string", "minLength": 1},
					"url": J{"type": "string", "format": "uri"}, "recordType": J{"type": "string", "minLength": 1}, "customFields": J{"type": "object", "additionalProperties": true}},
					"externalId", "authorId", "authorName", "body", "createdAt", "recordType")}}, "platform", "serverId", "serverName", "records"))},
	}
	detail := merge(summaryProps(), J{})
	for _, k := range []string{"assigneeName", "assigneeEmail", "assigneeUserId", "assigneeRole", "userName", "userUsername", "userId", "userEmail", "userFollowerCount", "conversationJson"} {
		delete(detail, k)
	}
	detail["user"] = objAll(J{"name": tStr(), "username": tStr(), "userId": tStr(), "email": tNStr(), "followerCount": tNNum()})
	detail["assignee"] = objAll(J{"name": tNStr(), "email": tNStr(), "userId": tNStr(), "role": tNStr()})
	detail["comments"] = tArr(objAll(J{"text": tStr(), "authorNativeId": tStr(), "authorNativeName": tNStr()}))
	detail["messages"] = tArr(ref("Message"))
	detailSchema := objAll(detail)
	detailSchema["properties"].(J)["conversation"] = tArr(ref("ConversationMessage"))
	evidence := obj(J{"modality": enumS("image", "video", "text", "metadata"), "claim": J{"type": "string", "minLength": 1},
		"locator": obj(J{"asset": enumS("public_profile_logo"), "mediaIndex": J{"type": "integer", "minimum": 0, "maximum": 9007199254740991}, "boundingBox": J{},
			"startSeconds": J{"type": "number", "minimum": 0}, "endSeconds": J{"type": "number", "minimum": 0},
			"textSpan": obj(J{"field": strLen(1, 128), "start": J{"type": "integer", "minimum": 0, "maximum": 9007199254740991}, "end": J{"type": "integer", "minimum": 0, "maximum": 9007199254740991}}, "start", "end")})}, "modality", "claim")
	assess := obj(J{"polarity": enumS("AMBIGUOUS", "NEGATIVE", "POSITIVE"), "reasoning": strLen(1, 1000)}, "polarity", "reasoning")
	schemas := J{
		"Error":            obj(J{"success": J{"type": "boolean", "enum": []bool{false}}, "error": tStr()}, "success", "error"),
		"CustomFieldError": obj(J{"success": tBool(), "error": tStr(), "fieldErrors": J{"type": "object", "additionalProperties": tStr()}}, "success", "error"),
		"ModerationError": obj(J{"success": tBool(), "error": tStr(), "message": tStr(), "code": enumS("MODERATION_INPUT_INCOMPLETE", "MODERATION_INPUT_INVALID"),
			"missingFields": tArr(tStr()), "invalidFields": tArr(tStr()), "supported": tArr(tStr())}, "success", "error"),
		"Tag":           objAll(J{"value": tStr(), "group": tStr()}),
		"ActionSummary": objAll(summaryProps()),
		"SearchItem":    objAll(merge(summaryProps(), J{"threadId": tStr(), "easyId": tNStr(), "contributors": tNStr()})),
		"ActionDetail":  detailSchema,
		"Message": obj(J{"id": tStr(), "timestamp": tStr(), "author": tStr(), "authorId": tStr(), "authorType": enumS("USER", "AGENT", "BOT"), "message": tStr(), "mediaUrls": tArr(tStr())},
			"id", "timestamp", "author", "authorType", "message", "mediaUrls"),
		"ConversationMessage": objAll(J{"id": tStr(), "timestamp": tStr(), "author": tStr(), "message": tStr(), "authorId": tNStr(), "authorType": enumS("USER", "AGENT", "BOT"),
			"parentMessageId": tNStr(), "mediaUrls": tArr(tStr())}),
		"CustomFieldValue": obj(J{"fieldName": J{"type": "string", "minLength": 1}, "displayName": tStr(), "fieldType": tStr(), "value": J{"nullable": true}, "provenance": J{}},
			"fieldName", "displayName", "fieldType", "value"),
		"Workload":             objAll(J{"active": tNum(), "closed": tNum(), "cancelled": tNum()}),
		"AgentEntry":           objAll(J{"agentId": tStr(), "metrics": objAll(merge(metricsProps(), J{"totalActionsWithResponse": tNum()})), "workload": ref("Workload")}),
		"QueueEntry":           objAll(J{"queueId": tNStr(), "queueName": tNStr(), "metrics": objAll(merge(metricsProps(), J{"averageSentimentScore": tNum()})), "workload": ref("Workload")}),
		"ModerationSubmission": caseSchema(),
		"ModerationAck": objAll(J{"caseId": tStr(), "externalId": tStr(), "status": enumS("accepted", "duplicate"), "analysisStatus": enumS("pending"),
			"evaluationId": tStr(), "idempotency": objAll(J{"key": tStr(), "replayed": tBool()})}),
		"BatchResult": obj(J{"externalId": tNStr(), "caseId": tNStr(), "status": enumS("accepted", "duplicate", "rejected"), "analysisStatus": enumS("pending"),
			"evaluationId": tStr(), "idempotency": objAll(J{"key": tStr(), "replayed": tBool()}), "errors": tArr(tStr()), "message": tStr(),
			"code": enumS("MODERATION_INPUT_INCOMPLETE", "MODERATION_INPUT_INVALID"), "missingFields": tArr(tStr()), "invalidFields": tArr(tStr())}, "externalId", "caseId", "status"),
		"Decision": obj(J{"disposition": enumS("age_gate", "approve", "escalate", "reject"), "confidence": enumS("low", "medium", "high"),
			"title": J{"type": "string", "nullable": true, "default": nil}, "reason": J{"type": "string", "minLength": 1},
			"hits": tArr(obj(J{"ruleId": J{"type": "string", "minLength": 1}, "ruleSlug": J{"type": "string", "minLength": 1}, "polarity": enumS("AMBIGUOUS", "NEGATIVE", "POSITIVE"),
				"confidence": enumS("low", "medium", "high"), "reasoning": tNStr(), "evidence": tArr(evidence)}, "ruleId", "ruleSlug", "polarity", "confidence", "reasoning", "evidence")),
			"advertiserAssessment": assess, "landingAssessment": assess, "decisionSource": J{"type": "string", "enum": []string{"model", "fail_closed"}, "default": "model"},
			"failureCode": tNStr(), "failureMessage": tNStr()}, "disposition", "confidence", "reason", "hits", "advertiserAssessment", "landingAssessment"),
	}
	return J{
		"openapi":    "3.0.3",
		"info":       J{"title": "Customer-Conversation Analytics API (ccago)", "version": "v0", "description": "Independent implementation of the CCA REST interface."},
		"servers":    []J{{"url": "/"}},
		"security":   []J{{"ApiKeyAuth": []string{}}},
		"components": J{"securitySchemes": J{"ApiKeyAuth": J{"type": "apiKey", "in": "header", "name": "X-API-Key"}}, "schemas": schemas},
		"paths":      paths,
	}
}

var openAPICache []byte

func (s *Server) docsJSON(c *ctx) {
	if openAPICache == nil {
		b, _ := json.Marshal(openAPI())
		openAPICache = b
	}
	c.w.Header().Set("Content-Type", "application/json; charset=utf-8")
	c.w.WriteHeader(200)
	c.w.Write(openAPICache)
}

const docsHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>CCA REST API · Swagger UI</title>
<link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css">
</head>
<body>
<noscript>The machine-readable contract is at <a href="/docs/json">/docs/json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>
window.onload = function () {
  window.ui = SwaggerUIBundle({ url: "/docs/json", dom_id: "#swagger-ui" });
};
</script>
</body>
</html>
`

func (s *Server) docsPage(c *ctx) {
	c.w.Header().Set("Content-Type", "text/html; charset=utf-8")
	c.w.WriteHeader(200)
	c.w.Write([]byte(strings.TrimSpace(docsHTML) + "\n"))
}
