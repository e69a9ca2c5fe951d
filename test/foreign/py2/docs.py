"""OpenAPI document and Swagger UI page."""
import copy as _copy

ERR = {"type": "object", "required": ["success", "error"],
       "properties": {"success": {"type": "boolean", "enum": [False]}, "error": {"type": "string"}}}
MODERR = {"type": "object", "required": ["success", "error"], "properties": {
    "success": {"type": "boolean"}, "error": {"type": "string"}, "message": {"type": "string"},
    "code": {"type": "string", "enum": ["MODERATION_INPUT_INCOMPLETE", "MODERATION_INPUT_INVALID"]},
    "missingFields": {"type": "array", "items": {"type": "string"}},
    "invalidFields": {"type": "array", "items": {"type": "string"}},
    "supported": {"type": "array", "items": {"type": "string"}}}}
CFERR = {"type": "object", "required": ["success", "error"], "properties": {
    "success": {"type": "boolean"}, "error": {"type": "string"},
    "fieldErrors": {"type": "object", "additionalProperties": {"type": "string"}}}}

S = {"type": "string"}
SN = {"type": "string", "nullable": True}
N = {"type": "number"}
NN = {"type": "number", "nullable": True}
B = {"type": "boolean"}
TAG = {"type": "object", "required": ["value", "group"], "properties": {"value": S, "group": S}}


def _obj(props, req=None):
    return {"type": "object", "required": req if req is not None else list(props), "properties": props}


SUMMARY_FIELDS = {
    "actionId": S, "actionTitle": S, "actionSummary": S, "status": S, "platform": S, "recordType": SN,
    "isPublicPost": B, "serviceURL": S, "sourceURL": SN, "queue": SN, "initialQueue": SN, "sentiment": SN,
    "sentimentScore": NN, "moderation": SN, "assigneeName": SN, "assigneeEmail": SN, "assigneeUserId": SN,
    "assigneeRole": SN, "userName": S, "userUsername": S, "userId": S, "userEmail": SN, "userFollowerCount": NN,
    "createdAt": S, "updatedAt": SN, "initialMessageTime": SN, "initialResponseTime": SN, "closeTime": SN,
    "claimTime": SN, "firstResponseTime": dict(SN, description="duration value, not a timestamp"),
    "handleTime": dict(SN, description="duration value, not a timestamp"), "serverName": S, "channelName": S,
    "csatScore": SN, "csatFeedback": SN, "estimatedCSAT": NN, "totalMessages": NN, "totalUserMessages": NN,
    "totalAgentMessages": NN, "tags": {"type": "array", "items": TAG}, "closingTags": {"type": "array", "items": TAG},
    "customFields": {"type": "object", "additionalProperties": True}, "rootMessageText": SN,
    "conversationJson": dict(SN, description="filled only with includeFullConversation=true"),
}
METRICS = _obj({k: N for k in ("totalActions", "totalMessages", "totalAgentMessages", "totalUserMessages",
                                "averageCsat", "averageResponseTime", "averageHandleTime", "averageEstimatedCsat",
                                "averageResolutionQuality", "averageSentimentChange", "averageRubricScore")})
WORKLOAD = _obj({"active": N, "closed": N, "cancelled": N})
FROMTO = [{"name": "from", "in": "query", "required": False, "schema": {"type": "string"},
           "description": "ISO 8601 date or timestamp; date-only = midnight UTC"},
          {"name": "to", "in": "query", "required": False, "schema": {"type": "string"},
           "description": "ISO 8601 date or timestamp, inclusive; date-only = midnight UTC (not end of that date)"}]


def _q(name, schema, desc=None):
    p = {"name": name, "in": "query", "required": False, "schema": schema}
    if desc:
        p["description"] = desc
    return p


def _path(name, minlen=1):
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string", "minLength": minlen}}


def _resp(schema, code="200", errs=(), errschema=ERR):
    r = {code: {"description": "OK" if code == "200" else "Accepted",
                "content": {"application/json": {"schema": schema}}}}
    desc = {"400": "Bad request", "401": "Missing or invalid key", "403": "Forbidden", "404": "Not found",
            "409": "Immutable identifier conflict", "422": "Validation failed", "500": "Internal server error"}
    for e in ("401",) + tuple(errs):
        r[e] = {"description": desc[e], "content": {"application/json": {"schema": errschema}}}
    return r


def _mod_submission():
    s30 = lambda lo, hi: {"type": "string", "minLength": lo, "maxLength": hi}
    return {"type": "object",
            "required": ["externalId", "sourceSystem", "sourcePlatform", "sourceAdId", "advertiserName", "market",
                         "placement", "landingPageUrl", "title", "media", "attachment", "targeting", "copy"],
            "properties": {
                "externalId": s30(1, 256), "sourceSystem": s30(1, 128), "sourcePlatform": s30(1, 128),
                "sourceAdId": s30(1, 256), "advertiserId": s30(1, 256), "advertiserName": s30(1, 500),
                "campaignId": s30(1, 256), "market": s30(1, 128), "placement": s30(1, 128),
                "language": dict(s30(1, 64), default="en"), "providerMetadata": {"type": "object"},
                "landingPageUrl": SN, "title": s30(1, 500), "headline": s30(1, 500), "brandName": s30(1, 500),
                "callToAction": {"type": "string", "enum": ["APPLY_NOW", "BOOK_NOW", "GET_NOW", "INSTALL_NOW", "MORE",
                                                            "SHOP_NOW", "SIGN_UP", "VIEW", "WATCH"]},
                "publicProfile": {"type": "object", "properties": {"displayName": s30(1, 500),
                                                                   "logoUrl": {"type": "string", "format": "uri"},
                                                                   "verified": B}},
                "media": {"type": "array", "minItems": 1, "maxItems": 20, "items": _obj({
                    "url": {"type": "string", "format": "uri"}, "type": {"type": "string", "enum": ["image", "video"]},
                    "position": {"type": "integer", "minimum": 1, "maximum": 20}})},
                "attachment": _obj({"type": {"type": "string", "enum": ["web_view", "deep_link", "app_install", "lens",
                                                                        "long_form_video"]}, "destinationUrl": SN}),
                "targeting": _obj({"ageMin": {"type": "integer", "nullable": True},
                                   "ageMax": {"type": "integer", "nullable": True},
                                   "geos": {"type": "array", "minItems": 1, "maxItems": 250, "items": S},
                                   "languages": {"type": "array", "minItems": 1, "maxItems": 100, "items": S}},
                                  ["ageMin", "geos"]),
                "copy": _obj({k: {"type": "string", "maxLength": 20000}
                              for k in ("body", "caption", "linkDescription", "sourceTitle")}, []),
                "discoverTile": B, "partnershipAd": B, "format": SN, "arLens": SN,
                "submittedAt": {"type": "string", "format": "date-time"}}}


ACK = _obj({"caseId": S, "externalId": S, "status": {"type": "string", "enum": ["accepted", "duplicate"]},
            "analysisStatus": {"type": "string", "enum": ["pending"]}, "evaluationId": S,
            "idempotency": _obj({"key": S, "replayed": B})})


def openapi(dev):
    search_item = dict(SUMMARY_FIELDS)
    search_item.update({"threadId": S, "easyId": SN, "contributors": SN})
    detail = dict((k, v) for k, v in SUMMARY_FIELDS.items() if not k.startswith(("assignee", "user")) and
                  k != "conversationJson")
    detail.update({"user": _obj({"name": S, "username": S, "userId": S, "email": SN, "followerCount": NN}),
                   "assignee": _obj({"name": SN, "email": SN, "userId": SN, "role": SN}),
                   "comments": {"type": "array", "items": _obj({"text": S, "authorNativeId": S,
                                                                "authorNativeName": SN})},
                   "messages": {"type": "array", "items": _obj({
                       "id": S, "timestamp": S, "author": S, "authorId": S,
                       "authorType": {"type": "string", "enum": ["USER", "AGENT", "BOT"]}, "message": S,
                       "mediaUrls": {"type": "array", "items": S}},
                       ["id", "timestamp", "author", "authorType", "message", "mediaUrls"])},
                   "conversation": {"type": "array", "items": _obj({
                       "id": S, "timestamp": S, "author": S, "message": S, "authorId": SN,
                       "authorType": {"type": "string", "enum": ["USER", "AGENT", "BOT"]}, "parentMessageId": SN,
                       "mediaUrls": {"type": "array", "items": S}})}})
    detail_schema = {"type": "object", "required": [k for k in detail if k != "conversation"], "properties": detail}
    paths = {
        "/v0/action/list": {"get": {
            "summary": "List actions (newest first)", "operationId": "listActions",
            "parameters": FROMTO + [
                _q("pageSize", {"type": "integer", "default": 50, "minimum": 1, "maximum": 500}),
                _q("filter", {"type": "string"}, "legacy; only the responded flag is read"),
                _q("filterJson", {"type": "string"}, "legacy JSON; only the responded flag is read"),
                _q("fullFilter", {"type": "string", "maxLength": 10000},
                   "full Operations DSL (key=value terms joined with +); not combinable with filter/filterJson; "
                   "adds no responded default"),
                _q("includeFullConversation", {"type": "boolean", "default": False}),
                _q("sortBy", {"type": "string", "enum": ["createdAt", "updatedAt"], "default": "createdAt"})],
            "description": "Without fullFilter the list defaults to the past seven days and to responded actions. "
                           "No numbered page input: move the timestamp window and deduplicate on actionId.",
            "responses": _resp(_obj({"data": {"type": "array", "items": _obj(SUMMARY_FIELDS)}, "totalRecords": N,
                                     "currentPage": N, "pageSize": N, "totalPages": N}), errs=("400", "500"))}},
        "/v0/action/{id}": {"get": {"operationId": "getAction", "parameters": [_path("id", 0)],
                                    "responses": _resp(detail_schema, errs=("404", "500"))}},
        "/v0/actions/{actionId}/custom-fields": {
            "get": {"operationId": "getCustomFields", "parameters": [_path("actionId")],
                    "description": "Requires a read-scoped key.",
                    "responses": _resp(_obj({"actionId": S, "fields": {"type": "array", "items": _obj(
                        {"fieldName": dict(S, minLength=1), "displayName": S, "fieldType": S, "value": {},
                         "provenance": {}}, ["fieldName", "displayName", "fieldType", "value"])}}),
                        errs=("403", "404", "500"), errschema=CFERR)},
            "patch": {"operationId": "patchCustomFields", "parameters": [_path("actionId")],
                      "description": "Requires a write-scoped key. Values must match the registered field types.",
                      "requestBody": {"required": True, "content": {"application/json": {"schema": _obj({
                          "fields": {"type": "array", "minItems": 1, "items": _obj({
                              "fieldName": dict(S, minLength=1), "value": {},
                              "confidence": {"type": "number", "minimum": 0, "maximum": 1}, "rationale": S},
                              ["fieldName", "value"])}})}}},
                      "responses": _resp(_obj({"actionId": S, "updated": {"type": "array", "items": _obj(
                          {"fieldName": S, "value": {}})}}), errs=("403", "404", "422", "500"), errschema=CFERR)}},
        "/v0/agents": {"get": {"operationId": "listAgents", "parameters": FROMTO, "responses": _resp(_obj({
            "success": B, "data": {"type": "array", "items": _obj({"agentId": S, "metrics": METRICS,
                                                                   "workload": WORKLOAD})}}), errs=("403", "500"))}},
        "/v0/agents/{id}": {"get": {"operationId": "getAgent", "parameters": FROMTO + [_path("id", 0)],
                                    "responses": _resp(_obj({"success": B, "data": _obj({
                                        "metrics": {"type": "array", "items": {"type": "object"}},
                                        "aggregatedMetrics": METRICS, "currentWorkload": WORKLOAD,
                                        "queues": {"type": "array", "items": {"type": "object"}}})}),
                                        errs=("403", "404", "500"))}},
        "/v0/queues": {"get": {"operationId": "listQueues", "parameters": FROMTO, "responses": _resp(_obj({
            "success": B, "data": {"type": "array", "items": _obj({"queueId": SN, "queueName": SN, "metrics": METRICS,
                                                                   "workload": WORKLOAD})}}), errs=("403", "500"))}},
        "/v0/analytics/tags": {"get": {"operationId": "tagAnalytics", "parameters": FROMTO + [
            _q("respondedOnly", {"type": "boolean"}), _q("limit", {"type": "number"}), _q("offset", {"type": "number"}),
            _q("search", {"type": "string"}, "text search over tags")],
            "responses": _resp(_obj({"success": B, "data": _obj({
                "summary": _obj({"totalTags": N, "totalTagGroups": N, "totalTaggedRecords": N, "totalActions": N}),
                "tagBreakdown": {"type": "array", "items": _obj({"tagId": S, "tagName": S, "groupName": SN,
                                                                 "count": N, "percentage": N})},
                "volumeByTag": {"type": "array", "items": _obj({"tagId": S, "tagName": S, "total": N, "responded": N,
                                                                "notResponded": N, "avgSentiment": NN,
                                                                "avgActionability": NN, "avgRelevance": NN})},
                "pagination": _obj({"total": N, "limit": N, "offset": N, "hasMore": B})})}), errs=("403", "500"))}},
        "/v0/analytics/tags/volume": {"get": {"operationId": "tagVolume", "parameters": FROMTO + [
            _q("respondedOnly", {"type": "boolean"}), _q("topTagsLimit", {"type": "number"}),
            _q("tagIds", {"type": "string"}, "comma-separated tag IDs")],
            "responses": _resp(_obj({"success": B, "data": _obj({
                "data": {"type": "array", "items": {"type": "object"}}, "tags": {"type": "array", "items": S}})}),
                errs=("403", "500"))}},
        "/v0/analytics/sentiment": {"get": {"operationId": "sentimentByDay", "parameters": FROMTO,
                                            "responses": _resp(_obj({"success": B, "data": {"type": "array", "items": _obj({
                                                "day": S, "Very Negative": N, "Negative": N, "Neutral": N,
                                                "Positive": N})}}), errs=("403", "500"))}},
        "/v0/analytics/sentiment/by-tag": {"get": {"operationId": "sentimentByTag", "parameters": FROMTO,
                                                   "responses": _resp(_obj({"success": B, "data": {"type": "array", "items": _obj({
                                                       "tagName": S, "veryNegative": N, "negative": N, "neutral": N,
                                                       "positive": N, "totalMentions": N})}}), errs=("403", "500"))}},
        "/v0/analytics/engagement": {"get": {"operationId": "engagement", "parameters": FROMTO + [
            _q("platforms", {"type": "string"}, "comma-separated source platform values")],
            "responses": _resp(_obj({"success": B, "data": _obj({
                "engagementPercentiles": {"type": "array", "items": _obj({
                    "platform": S, "p25MessagesPerUser": N, "medianMessagesPerUser": N, "p75MessagesPerUser": N})},
                "growthTrends": {"type": "array", "items": _obj({
                    "week": {"type": "string", "format": "date-time"}, "platform": S, "currentWeekUsers": N,
                    "previousWeekUsers": N, "growthPercentage": N})},
                "conversionFunnel": {"type": "array", "items": {"type": "object"}}})}), errs=("403", "500"))}},
        "/v0/conversations/search": {"get": {"operationId": "searchConversations", "parameters": [
            _q("filter", {"type": "string"}, "DSL: key=value terms joined with +, all must hold"),
            _q("page", {"type": "integer", "default": 1, "minimum": 1, "maximum": 10000}),
            _q("pageSize", {"type": "integer", "default": 50, "minimum": 1, "maximum": 500 if dev("D20") else 100})],
            "responses": _resp(_obj({"success": B, "data": {"type": "array", "items": _obj(search_item)},
                                     "totalRecords": N, "totalRecordsCapped": B, "currentPage": N, "pageSize": N,
                                     "totalPages": N}), errs=("400", "403", "500"))}},
        "/v0/moderation/cases": {"post": {
            "operationId": "submitModerationCase",
            "description": "Requires write scope and an organization in ad_policy moderation mode. The whole request "
                           "is validated before any work is enqueued.",
            "requestBody": {"required": True, "content": {"application/json": {"schema": _mod_submission()}}},
            "responses": _resp(ACK, "202", ("400", "403", "409", "422", "500"), MODERR)}},
        "/v0/moderation/cases/batch": {"post": {
            "operationId": "submitModerationBatch",
            "requestBody": {"required": True, "content": {"application/json": {"schema": _obj({
                "cases": {"type": "array", "minItems": 1, "maxItems": 100, "items": _mod_submission()}})}}},
            "responses": _resp(_obj({"results": {"type": "array", "items": _obj({
                "externalId": SN, "caseId": SN, "status": {"type": "string", "enum": ["accepted", "duplicate", "rejected"]},
                "analysisStatus": {"type": "string", "enum": ["pending"]}, "evaluationId": S,
                "idempotency": _obj({"key": S, "replayed": B}), "errors": {"type": "array", "items": S},
                "message": S, "code": {"type": "string", "enum": ["MODERATION_INPUT_INCOMPLETE", "MODERATION_INPUT_INVALID"]},
                "missingFields": {"type": "array", "items": S}, "invalidFields": {"type": "array", "items": S}},
                ["externalId", "caseId", "status"])}}), "202", ("400", "403"), MODERR)}},
        "/v0/moderation/cases/{caseId}": {"get": {
            "operationId": "getModerationCase", "parameters": [_path("caseId")],
            "description": "Requires read scope. decision appears only when analysisStatus is completed.",
            "responses": _resp(_obj({"caseId": S, "externalId": S, "analysisStatus": {"type": "string", "enum": [
                "policy_not_configured", "pending", "running", "completed", "failed"]}, "evaluationId": S,
                "decision": {"type": "object"}, "failureCode": SN}, ["caseId", "externalId", "analysisStatus"]),
                errs=("403", "404"), errschema=MODERR)}},
        "/v0/ingest/records": {"post": {
            "operationId": "ingestRecords", "description": "Requires a key with the ingest scope.",
            "requestBody": {"required": True, "content": {"application/json": {"schema": _obj({
                "platform": {"type": "string", "enum": ["DISCORD", "SLACK", "GITHUB", "ZENDESK", "TELEGRAM",
                                                        "FACEBOOK_GROUP", "TWITTER_COMMUNITY", "SALESFORCE", "FACEBOOK",
                                                        "TWITTER", "THREADS", "TIKTOK", "INSTAGRAM", "LINKEDIN",
                                                        "WHATSAPP", "YOUTUBE", "GAINSIGHT", "APPSTORE", "GOOGLE_PLAY",
                                                        "HIGHER_LOGIC", "DISCOURSE", "CUSTOM_FORM", "MODERATION_API",
                                                        "CHROME_WEB_STORE", "CANNY"]},
                "serverId": dict(S, minLength=1), "serverName": dict(S, minLength=1), "channelId": S, "channelName": S,
                "processingLevel": {"type": "string", "enum": ["INSIGHTS", "STATS_ONLY"]},
                "source": _obj({"system": dict(S, minLength=1), "sourceId": S}, ["system"]),
                "records": {"type": "array", "minItems": 1, "maxItems": 500, "items": _obj({
                    "externalId": dict(S, minLength=1), "threadExternalId": S, "parentExternalId": S,
                    "authorId": dict(S, minLength=1), "authorName": dict(S, minLength=1), "title": S, "body": S,
                    "score": {"type": "number", "minimum": 0, "maximum": 5}, "createdAt": dict(S, minLength=1),
                    "url": {"type": "string", "format": "uri"}, "recordType": dict(S, minLength=1),
                    "customFields": {"type": "object"}},
                    ["externalId", "authorId", "authorName", "body", "createdAt", "recordType"])}},
                ["platform", "serverId", "serverName", "records"])}}},
            "responses": _resp(_obj({"status": {"type": "string", "enum": ["accepted"]}, "accepted": N}), "202",
                               ("403", "422", "500"))}},
    }
    if dev("D16"):
        paths = _copy.deepcopy(paths)
        del paths["/v0/actions/{actionId}/custom-fields"]["patch"]
    return {
        "openapi": "3.0.3",
        "info": {"title": "Customer-Conversation Analytics Service REST API", "version": "v0",
                 "description": "All paths are under the /v0/ prefix. Every request carries X-API-Key. Error body: "
                                "{success: false, error}. Clients must tolerate unknown fields."},
        "servers": [{"url": "/"}],
        "security": [{"ApiKeyAuth": []}],
        "components": {"securitySchemes": {"ApiKeyAuth": {"type": "apiKey", "in": "header", "name": "X-API-Key"}},
                       "schemas": {"Error": ERR, "ModerationError": MODERR, "CustomFieldError": CFERR}},
        "paths": paths,
    }


def swagger_html():
    return """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>CCA REST API - Swagger UI</title>
<link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css"></head>
<body><div id="swagger-ui"><noscript>The OpenAPI contract is at <a href="/docs/json">/docs/json</a>.</noscript></div>
<script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>window.onload=function(){window.ui=SwaggerUIBundle({url:'/docs/json',dom_id:'#swagger-ui'});};</script>
</body></html>"""
