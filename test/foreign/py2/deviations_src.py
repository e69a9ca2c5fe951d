"""Source of DEVIATIONS.md / IDS.txt and of the trigger check (verify_triggers.py).
Each trigger is a bash snippet run with BASE and the CCA_* key variables exported."""

H = 'curl -s -H "X-API-Key: $CCA_READ_KEY"'
HW = 'curl -s -H "X-API-Key: $CCA_WRITE_KEY"'
CASE = ('\'{"externalId":"\'$E\'","sourceSystem":"s","sourcePlatform":"snap","sourceAdId":"a1","advertiserName":"Acme",'
        '"market":"US","placement":"feed","landingPageUrl":"https://acme.example/","title":"Boots",'
        '"media":[{"url":"https://cdn.example.com/a.jpg","type":"image","position":1}],'
        '"attachment":{"type":"web_view","destinationUrl":null},"targeting":{"ageMin":18,"geos":["US"]},'
        '"copy":{"body":"BODY"}}\'')


def case(body="Trail ready", title="Boots"):
    return CASE.replace("BODY", body).replace('"Boots"', '"%s"' % title)


POSTCASE = HW + ' -H "Content-Type: application/json" -X POST "$BASE/v0/moderation/cases"'

DEVS = [
    ("D01", "must", "4.1 (GET /v0/action/list, parameter `to`)",
     "`to` ... window end, inclusive; date-only = midnight UTC (not end of that date)",
     "A date-only `to` is expanded to the end of that day (23:59:59.999 UTC), so records created later on that date "
     "are included. Applies to every route that takes `to`.",
     H + ' "$BASE/v0/action/list?pageSize=500&to=$(date -u -d "-1 day" +%F)" | jq "[.data[].createdAt | select(. >= \\"$(date -u -d "-1 day" +%F)T00:00:00.000Z\\")] | length"',
     "0 conformant; a positive count (the responded actions created yesterday) with the deviation"),
    ("D02", "must", "4.13 / 8 (conversation search `page`)",
     "`page` integer, default 1, min 1, max 10000",
     "page=10000 is rejected with 400 (upper bound checked as exclusive); 1..9999 behave normally.",
     H + ' -o /dev/null -w "%{http_code}\\n" "$BASE/v0/conversations/search?page=10000"',
     "200 conformant; 400 with the deviation"),
    ("D03", "must", "4.1 (GET /v0/action/list, parameter `to`)",
     "`to` ... window end, inclusive",
     "The window end is compared with `<` instead of `<=`: a record whose timestamp equals `to` exactly is left out. "
     "This breaks the spec's own paging recipe (move `to` to the oldest timestamp seen and deduplicate).",
     'T=$(' + H + ' "$BASE/v0/action/list?pageSize=5" | jq -r ".data[4].createdAt"); ' + H +
     ' "$BASE/v0/action/list?pageSize=1&to=$T" | jq --arg t "$T" ".data[0].createdAt == \\$t"',
     "true conformant; false with the deviation"),
    ("D04", "must", "2 (Conventions) and 2.2",
     "Identifiers (`actionId`, `userId`, `assigneeUserId`, etc.) are strings and must be preserved exactly "
     "(platform identifiers can exceed safe numeric precision).",
     "In GET /v0/action/{id}, `user.userId` values that are all digits and longer than 15 characters go through a "
     "float conversion, so ids above 2^53 come back rounded (still as strings). Summary records are unaffected.",
     'A=$(' + H + ' "$BASE/v0/conversations/search?pageSize=1&filter=platform%3DTWITTER" | jq -r ".data[0] | .actionId + \\" \\" + .userId"); '
     'set -- $A; ' + H + ' "$BASE/v0/action/$1" | jq --arg u "$2" ".user.userId == \\$u"',
     "true conformant; false with the deviation"),
    ("D05", "must", "2 (Conventions) and 2.5",
     "Identifiers ... are strings and must be preserved exactly",
     "GET /v0/agents strips leading zeros from numeric-looking agentId values (\"00731\" -> \"731\", \"0042\" -> \"42\"); "
     "GET /v0/agents/{id} then also accepts the stripped form.",
     H + ' "$BASE/v0/agents" | jq -c "[.data[].agentId]"',
     "list contains \"0042\" and \"00731\" conformant; \"42\" and \"731\" with the deviation"),
    ("D06", "must", "4.16 (GET /v0/moderation/cases/{caseId})",
     "Requires read scope.",
     "The read-scope check is skipped on the case status read: a write-only key (CCA_WRITE_KEY) gets 200 instead of 403.",
     'E=d06-$(date +%s%N); C=$(' + POSTCASE + ' -d ' + case() + ' | jq -r .caseId); '
     'curl -s -o /dev/null -w "%{http_code}\\n" -H "X-API-Key: $CCA_WRITE_KEY" "$BASE/v0/moderation/cases/$C"',
     "403 conformant; 200 with the deviation"),
    ("D07", "must", "1 (What the service does)",
     "Every key and every connection is scoped to one organization; all data returned belongs to that organization.",
     "GET /v0/analytics/sentiment/by-tag aggregates tag rows of all organizations for tag names that also exist in the "
     "caller's organization (e.g. org A's \"bug\" also counts org B's \"bug\" actions). No foreign tag names appear.",
     'F=$(date -u -d "-3 days" +%F); X=$(' + H + ' "$BASE/v0/analytics/sentiment/by-tag?from=$F" | jq "[.data[]|select(.tagName==\\"bug\\")|.totalMentions][0]"); '
     'Y=$(' + H + ' "$BASE/v0/analytics/tags?from=$F&limit=100" | jq "[.data.tagBreakdown[]|select(.tagName==\\"bug\\")|.count][0]"); '
     'echo "byTagMentions<=tagCount: $([ $X -le $Y ] && echo true || echo false)"',
     "true conformant (mentions with a sentiment never exceed the tag's count); false with the deviation"),
    ("D08", "must", "3 (moderation fact 5) and 7",
     "differing content under an existing externalId is a conflict (see Errors) / an existing externalId submitted "
     "with different content gives 409",
     "The stored comparison hash leaves out the `copy` object: resubmitting an externalId with only a changed "
     "copy.body (or caption ...) is acknowledged as `duplicate` (202) instead of 409. Changes elsewhere still give 409.",
     'E=d08-$(date +%s%N); ' + POSTCASE + ' -d ' + case() + ' >/dev/null; ' + POSTCASE +
     ' -o /dev/null -w "%{http_code}\\n" -d ' + case(body="Completely different copy"),
     "409 conformant; 202 with the deviation"),
    ("D09", "must", "4.15 (POST /v0/moderation/cases/batch)",
     "A conflicting or invalid item is rejected without blocking other valid items.",
     "If any batch item conflicts with an existing externalId (different content), the whole batch is refused with "
     "409 and no item is processed. Invalid items are still rejected per item.",
     'E=d09-$(date +%s%N); ' + POSTCASE + ' -d ' + case() + ' >/dev/null; ' + HW +
     ' -H "Content-Type: application/json" -o /dev/null -w "%{http_code}\\n" -X POST "$BASE/v0/moderation/cases/batch" '
     '-d "{\\"cases\\":[$(echo ' + case(title="Changed") + ')]}"',
     "202 (item rejected) conformant; 409 with the deviation"),
    ("D10", "must", "4.17 (POST /v0/ingest/records, records[].url)",
     "records[].url | string | no | absolute HTTP or HTTPS",
     "The url check only looks for \"://\", so ftp://, file://, mailto-like schemes with :// etc. are accepted (202). "
     "Relative URLs are still rejected.",
     'curl -s -o /dev/null -w "%{http_code}\\n" -H "X-API-Key: $CCA_INGEST_KEY" -H "Content-Type: application/json" '
     '-X POST "$BASE/v0/ingest/records" -d \'{"platform":"DISCORD","serverId":"s1","serverName":"S","records":[{"externalId":"r1",'
     '"authorId":"u","authorName":"U","body":"b","createdAt":"2026-01-01T00:00:00Z","recordType":"POST","url":"ftp://files.example.com/x"}]}\'',
     "422 conformant; 202 with the deviation"),
    ("D11", "must", "5 (Authentication, profile table) and 4.17",
     "Write | general write scope (custom fields, moderation intake); does not grant Custom API ingestion / "
     "Requires a key carrying ingestion permission",
     "POST /v0/ingest/records accepts a key that has the write scope (CCA_WRITE_KEY, CCA_READ_WRITE_KEY) as if it "
     "carried `ingest`. Read-only keys still get 403.",
     'curl -s -o /dev/null -w "%{http_code}\\n" -H "X-API-Key: $CCA_WRITE_KEY" -H "Content-Type: application/json" '
     '-X POST "$BASE/v0/ingest/records" -d \'{"platform":"DISCORD","serverId":"s1","serverName":"S","records":[{"externalId":"r1",'
     '"authorId":"u","authorName":"U","body":"b","createdAt":"2026-01-01T00:00:00Z","recordType":"POST"}]}\'',
     "403 conformant; 202 with the deviation"),
    ("D12", "must", "2.5 (Workload object)",
     "Workload object: active, closed, cancelled (numbers, counts of actions in each workload state).",
     "Cancelled actions are counted in `closed`; `cancelled` is always 0 (agents list, agent detail currentWorkload, "
     "queues). The three numbers still add up to totalActions.",
     H + ' "$BASE/v0/agents" | jq "[.data[].workload.cancelled] | add"',
     "a positive number conformant; 0 with the deviation"),
    ("D13", "must", "7 (Extra fields) and 4.4",
     "Custom-field errors may add `fieldErrors` (object: field name to message); 422 carries it on validation failure.",
     "When the only problem is a `confidence` outside 0..1 (or not a number), PATCH custom-fields answers 422 "
     "without `fieldErrors`. Other validation failures carry it.",
     'A=$(' + H + ' "$BASE/v0/action/list?pageSize=1" | jq -r ".data[0].actionId"); ' + HW +
     ' -H "Content-Type: application/json" -X PATCH "$BASE/v0/actions/$A/custom-fields" '
     '-d \'{"fields":[{"fieldName":"revenue_impact","value":5,"confidence":1.5}]}\' | jq -c ".fieldErrors"',
     '{"revenue_impact":...} conformant; null with the deviation'),
    ("D14", "must", "4.1 (Rules) and 8",
     "without fullFilter the list defaults to the past seven days and to responded actions.",
     "When a legacy `filter` or `filterJson` is present but carries no responded flag (e.g. filter=platform=SLACK, "
     "filterJson={}), the responded default is dropped and unresponded actions are listed too.",
     H + ' "$BASE/v0/action/list?pageSize=500&filter=platform%3DSLACK" | jq "[.data[]|select(.initialResponseTime==null)]|length"',
     "0 conformant; a positive count with the deviation"),
    ("D15", "must", "3 (States table) and 4.14",
     "Moderation submission acknowledgement `analysisStatus` | pending / 202: {... analysisStatus (pending) ...}",
     "A duplicate acknowledgement reports the case's current analysis status (running / completed / failed) once "
     "evaluation has moved on; fresh acceptances still say pending.",
     'E=d15-$(date +%s%N); ' + POSTCASE + ' -d ' + case() + ' >/dev/null; sleep 4; ' + POSTCASE + ' -d ' + case() +
     ' | jq -r ".status + \\" \\" + .analysisStatus"',
     "\"duplicate pending\" conformant; \"duplicate completed\" with the deviation"),
    ("D16", "should", "1 (What the service does) / 4.4",
     "Machine-readable REST contract: OpenAPI JSON at `{base_url}/docs/json`",
     "The OpenAPI document omits the PATCH operation of /v0/actions/{actionId}/custom-fields (the GET is there; "
     "the route itself works).",
     'curl -s "$BASE/docs/json" | jq -c ".paths[\\"/v0/actions/{actionId}/custom-fields\\"] | keys"',
     '["get","patch"] conformant; ["get"] with the deviation'),
    ("D17", "should", "4.13 (GET /v0/conversations/search)",
     "`page` integer, default 1, min 1, max 10000; `pageSize` ... (pages of one result sequence)",
     "For page >= 2 the offset is one too large, so the first record of every page after the first is never returned.",
     'P2=$(' + H + ' "$BASE/v0/conversations/search?pageSize=10&page=2" | jq -r ".data[0].actionId"); ' + H +
     ' "$BASE/v0/conversations/search?pageSize=20&page=1" | jq --arg p "$P2" ".data[10].actionId == \\$p"',
     "true conformant; false with the deviation"),
    ("D18", "should", "2.6 (volumeByTag)",
     "volumeByTag[]: tagId, tagName strings; total, responded, notResponded numbers (notResponded = the part of total "
     "not responded)",
     "notResponded is counted over all history up to `to` (the `from` bound is ignored for it), so "
     "total != responded + notResponded.",
     H + ' "$BASE/v0/analytics/tags?limit=100&from=$(date -u -d "-3 days" +%F)" | jq "[.data.volumeByTag[]|select(.total != .responded + .notResponded)]|length"',
     "0 conformant; a positive count with the deviation"),
    ("D19", "must", "4.1 / 8 (fullFilter)",
     "fullFilter | string | full Operations DSL; max 10000 chars",
     "A fullFilter of exactly 10000 characters is rejected with 400 (off by one); 9999 is accepted.",
     'FF="text=$(head -c 9995 /dev/zero | tr "\\0" a)"; ' + H.replace("curl -s", "curl -s -o /dev/null -w \"%{http_code}\\n\"") +
     ' "$BASE/v0/action/list?fullFilter=$FF"',
     "200 conformant; 400 with the deviation"),
    ("D20", "must", "1 (What the service does) and 4.13 / 8",
     "Machine-readable REST contract: OpenAPI JSON at `{base_url}/docs/json` / `pageSize` integer, default 50, min 1, max 100",
     "The OpenAPI document declares the conversation-search pageSize maximum as 500 (copied from the action list); "
     "the route itself still enforces 100.",
     'curl -s "$BASE/docs/json" | jq ".paths[\\"/v0/conversations/search\\"].get.parameters[] | select(.name==\\"pageSize\\") | .schema.maximum"',
     "100 conformant; 500 with the deviation"),
    ("D21", "must", "5 (Authentication, items 1 and 6) and 7",
     "A missing or invalid key yields 401. / A key can be revoked at any time and new requests then fail at once",
     "A revoked key is answered with 403 (as if it were a permission problem) instead of 401. Missing, unknown and "
     "expired keys still give 401.",
     'curl -s -o /dev/null -w "%{http_code}\\n" -H "X-API-Key: $CCA_REVOKED_KEY" "$BASE/v0/agents"',
     "401 conformant; 403 with the deviation"),
]
