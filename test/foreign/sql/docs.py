"""OpenAPI document (GET /docs/json) and Swagger UI page (GET /docs)."""
from common import flag


def _q(name, typ="string", desc="", **extra):
    schema = {"type": typ}
    schema.update(extra)
    return {"name": name, "in": "query", "required": False, "description": desc, "schema": schema}


def _p(name, desc=""):
    return {"name": name, "in": "path", "required": True, "description": desc,
            "schema": {"type": "string", "minLength": 1}}


WINDOW = [_q("from", desc="ISO 8601 date or timestamp; date-only = midnight UTC"),
          _q("to", desc="ISO 8601 date or timestamp, inclusive; date-only = midnight UTC")]

ERR = {"description": "Error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
MOD_ERR = {"description": "Error", "content": {"application/json": {
    "schema": {"$ref": "#/components/schemas/ModerationError"}}}}


def _ok(desc, status="200", schema=None):
    return {status: {"description": desc, "content": {"application/json": {"schema": schema or {"type": "object"}}}}}


def _errs(codes, body=ERR):
    d = {"401": dict(ERR, description="Missing or invalid API key")}
    for c in codes:
        d[str(c)] = body
    return d


def _op(summary, params, responses, tag, body=None):
    op = {"summary": summary, "tags": [tag], "parameters": params, "responses": responses,
          "security": [{"ApiKeyAuth": []}]}
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    return op


def openapi(base_url):
    resp = lambda d, codes, s="200", body=ERR: dict(_ok(d, s), **_errs(codes, body))  # noqa: E731
    paths = {
        "/v0/action/list": {"get": _op("List actions (newest first, timestamp windows)", WINDOW + [
            _q("pageSize", "integer", "1..500, default 50", minimum=1, maximum=500, default=50),
            _q("filter", desc="legacy filter; only the responded flag is read"),
            _q("filterJson", desc="legacy JSON filter; only the responded flag is read"),
            _q("fullFilter", desc="Operations DSL, key=value terms joined by +; max 10000 chars", maxLength=10000),
            _q("includeFullConversation", "boolean", "fill conversationJson", default=False),
            _q("sortBy", desc="createdAt or updatedAt", enum=["createdAt", "updatedAt"], default="createdAt"),
        ], resp("Action page", [400, 403, 500]), "Actions")},
        "/v0/action/{id}": {"get": _op("Read one action", [_p("id")], resp("Action detail", [403, 404, 500]),
                                       "Actions")},
        "/v0/actions/{actionId}/custom-fields": {
            "get": _op("Read custom field values (read scope)", [_p("actionId")],
                       resp("Custom fields", [403, 404, 500]), "Custom fields"),
            "patch": _op("Write custom field values (write scope)", [_p("actionId")],
                         resp("Updated fields", [403, 404, 422, 500]), "Custom fields",
                         body={"$ref": "#/components/schemas/CustomFieldPatch"}),
        },
        "/v0/agents": {"get": _op("Agent metrics", WINDOW, resp("Agents", [400, 403, 500]), "Agents")},
        "/v0/agents/{id}": {"get": _op("One agent's metrics", WINDOW + [_p("id")],
                                       resp("Agent", [400, 403, 404, 500]), "Agents")},
        "/v0/queues": {"get": _op("Queue metrics", WINDOW, resp("Queues", [400, 403, 500]), "Queues")},
        "/v0/analytics/tags": {"get": _op("Tag analytics", WINDOW + [
            _q("respondedOnly", "boolean", default=False),
            _q("limit", "integer", "1..500, default 50", minimum=1, maximum=500, default=50),
            _q("offset", "integer", "default 0", minimum=0, default=0),
            _q("search", desc="text search over tag names and groups")], resp("Tags", [400, 403, 500]),
            "Analytics")},
        "/v0/analytics/tags/volume": {"get": _op("Daily tag volume", WINDOW + [
            _q("respondedOnly", "boolean", default=False),
            _q("topTagsLimit", "integer", "1..100, default 10", minimum=1, maximum=100, default=10),
            _q("tagIds", desc="comma-separated tag IDs")], resp("Volume", [400, 403, 500]), "Analytics")},
        "/v0/analytics/sentiment": {"get": _op("Daily sentiment", WINDOW, resp("Sentiment", [400, 403, 500]),
                                               "Analytics")},
        "/v0/analytics/sentiment/by-tag": {"get": _op("Sentiment per tag", WINDOW,
                                                      resp("Sentiment by tag", [400, 403, 500]), "Analytics")},
        "/v0/analytics/engagement": {"get": _op("Engagement", WINDOW + [
            _q("platforms", desc="comma-separated platform values")], resp("Engagement", [400, 403, 500]),
            "Analytics")},
        "/v0/conversations/search": {"get": _op("Search conversations", [
            _q("filter", desc="DSL text, key=value terms joined by +"),
            _q("page", "integer", "1..10000, default 1", minimum=1, maximum=10000, default=1),
            _q("pageSize", "integer", "1..100, default 50", minimum=1, maximum=100, default=50)],
            resp("Search page", [400, 403, 500]), "Conversations")},
        "/v0/moderation/cases": {"post": _op("Submit one moderation case (write scope, ad_policy mode)", [],
                                             resp("Acknowledged", [400, 403, 409, 422, 500], "202", MOD_ERR),
                                             "Moderation",
                                             body={"$ref": "#/components/schemas/ModerationCase"})},
        "/v0/moderation/cases/batch": {"post": _op("Submit 1..100 moderation cases", [],
                                                   resp("Per-item results", [400, 403], "202", MOD_ERR),
                                                   "Moderation", body={"type": "object", "required": ["cases"],
                                                                       "properties": {"cases": {
                                                                           "type": "array", "minItems": 1,
                                                                           "maxItems": 100, "items": {
                                                                               "$ref": "#/components/schemas/ModerationCase"}}}})},
        "/v0/moderation/cases/{caseId}": {"get": _op("Read moderation case status (read scope)", [_p("caseId")],
                                                     resp("Status", [403, 404], body=MOD_ERR), "Moderation")},
        "/v0/ingest/records": {"post": _op("Ingest normalized records (ingest scope)", [],
                                           resp("Accepted", [403, 422, 500], "202"), "Ingestion",
                                           body={"$ref": "#/components/schemas/IngestBatch"})},
    }
    if flag("S26"):
        paths.pop("/v0/moderation/cases/batch")
        paths.pop("/v0/ingest/records")
    return {
        "openapi": "3.0.3",
        "info": {"title": "Customer-Conversation Analytics REST API", "version": "v0",
                 "description": "REST interface for actions, agents, queues, analytics, conversation search, "
                                "custom fields, moderation intake and record ingestion."},
        "servers": [{"url": base_url}],
        "security": [{"ApiKeyAuth": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {"ApiKeyAuth": {"type": "apiKey", "in": "header", "name": "X-API-Key"}},
            "schemas": {
                "Error": {"type": "object", "required": ["success", "error"], "properties": {
                    "success": {"type": "boolean", "enum": [False]}, "error": {"type": "string"},
                    "fieldErrors": {"type": "object", "additionalProperties": {"type": "string"}}}},
                "ModerationError": {"type": "object", "required": ["success", "error"], "properties": {
                    "success": {"type": "boolean"}, "error": {"type": "string"}, "message": {"type": "string"},
                    "code": {"type": "string", "enum": ["MODERATION_INPUT_INCOMPLETE", "MODERATION_INPUT_INVALID"]},
                    "missingFields": {"type": "array", "items": {"type": "string"}},
                    "invalidFields": {"type": "array", "items": {"type": "string"}},
                    "supported": {"type": "array", "items": {"type": "string"}}}},
                "CustomFieldPatch": {"type": "object", "required": ["fields"], "properties": {
                    "fields": {"type": "array", "minItems": 1, "items": {
                        "type": "object", "required": ["fieldName", "value"], "properties": {
                            "fieldName": {"type": "string", "minLength": 1}, "value": {},
                            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                            "rationale": {"type": "string"}}}}}},
                "ModerationCase": {"type": "object", "required": [
                    "externalId", "sourceSystem", "sourcePlatform", "sourceAdId", "advertiserName", "market",
                    "placement", "landingPageUrl", "title", "media", "attachment", "targeting", "copy"],
                    "properties": {
                        "externalId": {"type": "string", "minLength": 1, "maxLength": 256},
                        "sourceSystem": {"type": "string", "minLength": 1, "maxLength": 128},
                        "sourcePlatform": {"type": "string", "minLength": 1, "maxLength": 128},
                        "sourceAdId": {"type": "string", "minLength": 1, "maxLength": 256},
                        "advertiserId": {"type": "string", "minLength": 1, "maxLength": 256},
                        "advertiserName": {"type": "string", "minLength": 1, "maxLength": 500},
                        "campaignId": {"type": "string", "minLength": 1, "maxLength": 256},
                        "market": {"type": "string", "minLength": 1, "maxLength": 128},
                        "placement": {"type": "string", "minLength": 1, "maxLength": 128},
                        "language": {"type": "string", "minLength": 1, "maxLength": 64, "default": "en"},
                        "providerMetadata": {"type": "object"},
                        "landingPageUrl": {"type": "string", "nullable": True},
                        "title": {"type": "string", "minLength": 1, "maxLength": 500},
                        "headline": {"type": "string", "minLength": 1, "maxLength": 500},
                        "brandName": {"type": "string", "minLength": 1, "maxLength": 500},
                        "callToAction": {"type": "string", "enum": [
                            "APPLY_NOW", "BOOK_NOW", "GET_NOW", "INSTALL_NOW", "MORE", "SHOP_NOW", "SIGN_UP",
                            "VIEW", "WATCH"]},
                        "media": {"type": "array", "minItems": 1, "maxItems": 20, "items": {
                            "type": "object", "required": ["url", "type", "position"], "properties": {
                                "url": {"type": "string", "format": "uri"},
                                "type": {"type": "string", "enum": ["image", "video"]},
                                "position": {"type": "integer", "minimum": 1, "maximum": 20}}}},
                        "attachment": {"type": "object", "required": ["type", "destinationUrl"]},
                        "targeting": {"type": "object", "required": ["ageMin", "geos"]},
                        "copy": {"type": "object"},
                        "submittedAt": {"type": "string", "format": "date-time"}}},
                "IngestBatch": {"type": "object", "required": ["platform", "serverId", "serverName", "records"],
                                "properties": {"records": {"type": "array", "minItems": 1, "maxItems": 500}}},
            },
        },
    }


HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Customer-Conversation Analytics API - Swagger UI</title>
<link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css">
</head>
<body>
<div id="swagger-ui">
<noscript>
<h1>Customer-Conversation Analytics API (v0)</h1>
<p>The machine-readable OpenAPI contract is at <a href="/docs/json">/docs/json</a>.</p>
</noscript>
</div>
<script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>
window.onload = function () {
  if (window.SwaggerUIBundle) {
    window.ui = SwaggerUIBundle({url: "/docs/json", dom_id: "#swagger-ui"});
  } else {
    document.getElementById("swagger-ui").innerHTML =
      '<h1>Customer-Conversation Analytics API (v0)</h1>' +
      '<p>Swagger UI assets could not be loaded. The OpenAPI contract is at <a href="/docs/json">/docs/json</a>.</p>';
  }
};
</script>
</body>
</html>
"""
