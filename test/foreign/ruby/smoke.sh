#!/usr/bin/env bash
# Smoke test: clean server exercises every route; then each deviation alone is shown observable.
set -u
cd "$(dirname "$0")"
FAILS=0
PASSES=0
PID=""
TMP=$(mktemp -d)
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$TMP"' EXIT

ok()   { PASSES=$((PASSES+1)); echo "  ok   $1"; }
bad()  { FAILS=$((FAILS+1)); echo "  FAIL $1"; }
check() { # desc, shell condition
  if eval "$2"; then ok "$1"; else bad "$1 (code=$CODE body=$(head -c 300 "$TMP/body"))"; fi
}

start() {
  KF="$TMP/keys.json"; rm -f "$KF"
  PORT=0 KEYS_FILE="$KF" DEVIATIONS="$1" ruby server.rb >"$TMP/out" 2>"$TMP/err" &
  PID=$!
  for _ in $(seq 1 100); do grep -q '^listening ' "$TMP/out" 2>/dev/null && break; sleep 0.1; done
  BASE=$(sed -n 's/^listening //p' "$TMP/out" | head -1)
  [ -n "$BASE" ] || { echo "server did not start"; cat "$TMP/err"; exit 1; }
  for k in READ WRITE INGEST READ_WRITE OTHER_ORG_READ OTHER_ORG_WRITE NO_MODERATION_WRITE EXPIRED REVOKED; do
    eval "K_$k=\$(jq -r .CCA_${k}_KEY \"$KF\")"
  done
}
stop() { kill -TERM "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; PID=""; }

# req METHOD PATH KEY [BODY]  -> $CODE, body in $TMP/body
req() {
  local m=$1 p=$2 key=$3 data=${4-}
  if [ -n "$data" ]; then
    CODE=$(curl -s -o "$TMP/body" -w '%{http_code}' -X "$m" -H "X-API-Key: $key" -H 'Content-Type: application/json' --data-binary "$data" "$BASE$p")
  else
    CODE=$(curl -s -o "$TMP/body" -w '%{http_code}' -X "$m" -H "X-API-Key: $key" "$BASE$p")
  fi
}
j() { jq -r "$1" "$TMP/body" 2>/dev/null; }

TODAY=$(date -u +%Y-%m-%d)
D3=$(date -u -d "$TODAY -3 days" +%Y-%m-%d)
D4=$(date -u -d "$TODAY -4 days" +%Y-%m-%d)
FROM60=$(date -u -d "$TODAY -61 days" +%Y-%m-%d)
TOMORROW=$(date -u -d "$TODAY +1 day" +%Y-%m-%d)
NOW=$(date -u +%Y-%m-%dT%H:%M:%SZ)

case_json() { # externalId [title] [position]
  local t=${2:-Summer sale on shoes} pos=${3:-1}
  printf '{"externalId":"%s","sourceSystem":"smoke","sourcePlatform":"snap","sourceAdId":"ad-%s","advertiserName":"Shoe Co","market":"US","placement":"feed","landingPageUrl":"https://shoes.example","title":"%s","media":[{"url":"https://cdn.example/a.png","type":"image","position":%s}],"attachment":{"type":"web_view","destinationUrl":"https://shoes.example"},"targeting":{"ageMin":18,"ageMax":null,"geos":["US","CA"]},"copy":{"body":"Great shoes"}}' "$1" "$1" "$t" "$pos"
}
ingest_json() { # externalId url
  printf '{"platform":"CANNY","serverId":"srv-smoke","serverName":"Smoke Board","source":{"system":"smoke"},"records":[{"externalId":"%s","authorId":"9007199254740993777","authorName":"Ann","body":"Please add SSO","createdAt":"%s","recordType":"post","url":"%s","score":5}]}' "$1" "$NOW" "$2"
}

# ---------------------------------------------------------------- probes (return 0 when the deviation is observed)
probe_B01() { req GET "/v0/action/list?from=$D4&to=$D3&pageSize=400" "$K_READ"; j '[.data[].actionId] | index("mid-2") != null' | grep -q true; }
probe_B02() { req GET "/v0/action/list?sortBy=updatedAt&pageSize=400" "$K_READ"; j '[.data[].actionId] | index("upd-1") == null' | grep -q true; }
probe_B03() { req GET "/v0/action/list?pageSize=500" "$K_READ"; [ "$CODE" = 400 ]; }
probe_B04() { req GET "/v0/action/a+b" "$K_READ"; [ "$CODE" = 404 ]; }
probe_B05() { req GET "/v0/analytics/tags?search=zebra" "$K_READ"; [ "$(j '.data.tagBreakdown | length')" != 0 ]; }
probe_B06() { req GET "/v0/conversations/search?pageSize=1" "$K_INGEST"; [ "$CODE" = 200 ]; }
probe_B07() { req GET "/v0/conversations/search?filter=actionId%3D100001" "$K_READ"; [ "$(j '.totalRecords')" != "$(j '.data | length')" ]; }
probe_B08() {
  req POST /v0/moderation/cases "$K_WRITE" "$(case_json probe-b08)"; local c1; c1=$(j .caseId)
  req POST /v0/moderation/cases/batch "$K_WRITE" "{\"cases\":[$(case_json probe-b08)]}"
  [ "$(j '.results[0].status')" = accepted ] && [ "$(j '.results[0].caseId')" != "$c1" ]
}
probe_B09() {
  req POST /v0/moderation/cases "$K_WRITE" "$(case_json "probe-b09-$RANDOM")"; local c; c=$(j .caseId)
  sleep 1.8; req GET "/v0/moderation/cases/$c" "$K_READ"
  [ "$(j .analysisStatus)" = running ] && [ "$(j 'has("decision")')" = true ]
}
probe_B10() { req POST /v0/moderation/cases "$K_WRITE" "$(case_json "probe-b10-$RANDOM" 'Shoes' 0)"; [ "$CODE" = 202 ]; }
probe_B11() { req POST /v0/ingest/records "$K_INGEST" "$(ingest_json probe-b11 ftp://files.example/x)"; [ "$CODE" = 202 ]; }
probe_B12() {
  req GET "/v0/action/a%2Bb" "$K_READ"; local t ag; t=$(j .createdAt); ag=$(j .assignee.userId)
  req GET "/v0/agents?from=$t&to=$t" "$K_READ"
  [ "$(jq -r --arg a "$ag" '.data[] | select(.agentId==$a) | .metrics.totalActions' "$TMP/body")" = 0 ]
}
probe_B13() { req GET "/v0/queues?from=$FROM60&to=$TOMORROW" "$K_READ"; [ "$(j '[.data[] | select(.queueId == null)] | length')" = 0 ]; }
probe_B14() { req PATCH "/v0/actions/a%2Bb/custom-fields" "$K_REVOKED" '{"fields":[{"fieldName":"vip","value":true}]}'; [ "$CODE" = 403 ]; }
probe_B15() { req GET "/v0/agents/no-such-agent" "$K_READ"; [ "$CODE" = 404 ] && [ "$(j '.error | type')" != string ]; }
probe_B16() { req GET /docs/json ""; [ "$(j '.paths | has("/v0/moderation/cases/batch")')" = false ]; }
probe_B17() {
  req GET "/v0/analytics/tags?limit=1000" "$K_READ"; local n; n=$(j .data.pagination.total)
  req GET "/v0/analytics/tags?limit=$n&offset=0" "$K_READ"; [ "$(j .data.pagination.hasMore)" = true ]
}
probe_B18() {
  req GET "/v0/queues?from=$FROM60&to=$TOMORROW" "$K_READ"
  local got; got=$(j '.data[] | select(.queueName=="Billing") | .averageSentimentScore')
  req GET "/v0/action/list?fullFilter=queue%3DBilling&from=$FROM60&to=$TOMORROW&pageSize=400" "$K_READ"
  local want; want=$(j '[.data[].sentimentScore | select(. != null)] | (add / length)')
  awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d > 0.001) }'
}
IDS=$(cut -d' ' -f1 IDS.txt)

# ---------------------------------------------------------------- clean run
echo "== clean server"
start ""
echo "-- auth"
req GET /v0/action/list ""; check "missing key -> 401" '[ $CODE = 401 ] && [ "$(j .success)" = false ] && [ "$(j ".error|type")" = string ]'
req GET /v0/action/list "nope"; check "invalid key -> 401" '[ $CODE = 401 ]'
req GET /v0/action/list "$K_EXPIRED"; check "expired key -> 401" '[ $CODE = 401 ]'
req GET /v0/action/list "$K_REVOKED"; check "revoked key -> 401" '[ $CODE = 401 ]'
req PATCH /v0/actions/0042/custom-fields "$K_REVOKED" '{"fields":[{"fieldName":"vip","value":true}]}'; check "revoked key on PATCH -> 401" '[ $CODE = 401 ]'
req PATCH /v0/actions/0042/custom-fields "$K_READ" '{"fields":[{"fieldName":"vip","value":true}]}'; check "read key on PATCH -> 403" '[ $CODE = 403 ]'
req GET /v0/actions/0042/custom-fields "$K_WRITE"; check "write-only key on custom-field GET -> 403" '[ $CODE = 403 ]'
req GET /v0/action/list "$K_INGEST"; check "ingest key cannot read reporting -> 403" '[ $CODE = 403 ]'
req POST /v0/ingest/records "$K_READ_WRITE" "$(ingest_json x https://a.example)"; check "read+write key cannot ingest -> 403" '[ $CODE = 403 ]'

echo "-- action list"
req GET /v0/action/list "$K_READ"
check "default list 200 with envelope" '[ $CODE = 200 ] && [ "$(j "[has(\"data\"),has(\"totalRecords\"),has(\"currentPage\"),has(\"pageSize\"),has(\"totalPages\")]|all")" = true ]'
check "default pageSize 50" '[ "$(j .pageSize)" = 50 ] && [ "$(j ".data|length")" -le 50 ]'
check "default only responded" '[ "$(j "[.data[].totalAgentMessages > 0]|all")" = true ]'
check "summary record keys" '[ "$(j ".data[0] | [has(\"actionId\"),has(\"conversationJson\"),has(\"customFields\"),has(\"closingTags\")]|all")" = true ] && [ "$(j ".data[0].conversationJson")" = null ]'
check "newest first" '[ "$(j "[.data[].createdAt] as \$c | (\$c == (\$c|sort|reverse))")" = true ]'
req GET "/v0/action/list?pageSize=500" "$K_READ"; check "pageSize 500 accepted" '[ $CODE = 200 ]'
req GET "/v0/action/list?pageSize=501" "$K_READ"; check "pageSize 501 -> 400" '[ $CODE = 400 ]'
req GET "/v0/action/list?pageSize=0" "$K_READ"; check "pageSize 0 -> 400" '[ $CODE = 400 ]'
req GET "/v0/action/list?from=bogus" "$K_READ"; check "bad from -> 400" '[ $CODE = 400 ]'
req GET "/v0/action/list?fullFilter=status%3DOPEN&filter=responded%3Dtrue" "$K_READ"; check "fullFilter+filter -> 400" '[ $CODE = 400 ]'
req GET "/v0/action/list?fullFilter=$(head -c 10001 /dev/zero | tr '\0' a)" "$K_READ"; check "fullFilter >10000 -> 400" '[ $CODE = 400 ]'
req GET "/v0/action/list?fullFilter=status%3DOPEN&pageSize=500" "$K_READ"; check "fullFilter status=OPEN, no responded default" '[ $CODE = 200 ] && [ "$(j "[.data[].status==\"OPEN\"]|all")" = true ] && [ "$(j "[.data[].totalAgentMessages==0]|any")" = true ]'
req GET "/v0/action/list?filter=platform%3DTWITTER&pageSize=500" "$K_READ"; check "legacy filter ignores platform" '[ "$(j "[.data[].platform]|unique|length")" -gt 1 ]'
req GET "/v0/action/list?filterJson=%7B%22responded%22%3Afalse%7D&pageSize=500" "$K_READ"; check "filterJson responded=false" '[ $CODE = 200 ] && [ "$(j "[.data[].totalAgentMessages==0]|all")" = true ]'
req GET "/v0/action/list?includeFullConversation=true&pageSize=3" "$K_READ"; check "includeFullConversation fills conversationJson" '[ "$(j ".data[0].conversationJson|fromjson|length")" -ge 1 ]'
req GET "/v0/action/list?from=$D4&to=$D3&pageSize=400" "$K_READ"; check "date-only to = midnight, inclusive" '[ "$(j "[.data[].actionId] | (index(\"mid-1\") != null and index(\"mid-2\") == null)")" = true ]'
req GET "/v0/action/list?sortBy=updatedAt&pageSize=400" "$K_READ"; check "sortBy=updatedAt windows on updatedAt" '[ "$(j "[.data[].actionId] | index(\"upd-1\") != null")" = true ]'
req GET "/v0/action/list?sortBy=bogus" "$K_READ"; check "bad sortBy -> 400" '[ $CODE = 400 ]'

echo "-- action detail and identifiers"
for id in 'a%2Bb' '50%25off' 'why%3F' 'issue%239' 'a%26b%3Dc' 'path%2Fseg' 'semi%3Bcolon' 'with%20space' 'caf%C3%A9-%CE%A9-42' '000123' '9007199254740993' '12345678901234567890123'; do
  req GET "/v0/action/$id" "$K_READ"; check "detail $id" '[ $CODE = 200 ] && [ "$(j .actionId)" = "$(printf "%b" "$(echo "$id" | sed "s/%/\\\\x/g")")" ]'
done
req GET "/v0/action/a+b" "$K_READ"; check "raw + in path preserved" '[ $CODE = 200 ] && [ "$(j .actionId)" = "a+b" ]'
req GET "/v0/action/0042" "$K_READ"; check "detail keys" '[ "$(j "[has(\"user\"),has(\"assignee\"),has(\"comments\"),has(\"messages\"),(.messages[0]|has(\"mediaUrls\"))]|all")" = true ]'
req GET "/v0/action/123" "$K_READ"; check "leading zeros not normalised -> 404" '[ $CODE = 404 ] && [ "$(j .success)" = false ]'
req GET "/v0/action/b-only-1" "$K_READ"; check "other org action -> 404" '[ $CODE = 404 ]'
req GET "/v0/action/100001" "$K_READ"; A1=$(j .actionTitle)/$(j .userId); req GET "/v0/action/100001" "$K_OTHER_ORG_READ"; check "same id, own org data" '[ $CODE = 200 ] && [ "$(j .actionTitle)/$(j .userId)" != "$A1" ]'

echo "-- custom fields"
req GET "/v0/actions/a%2Bb/custom-fields" "$K_READ"; check "GET custom fields" '[ $CODE = 200 ] && [ "$(j .actionId)" = "a+b" ] && [ "$(j ".fields|length")" = 6 ]'
req PATCH "/v0/actions/a%2Bb/custom-fields" "$K_WRITE" '{"fields":[{"fieldName":"churnRisk","value":42.5,"confidence":0.9,"rationale":"model"},{"fieldName":"priority","value":"urgent"}]}'
check "PATCH ok" '[ $CODE = 200 ] && [ "$(j ".updated|length")" = 2 ] && [ "$(j .updated[0].value)" = 42.5 ]'
req GET "/v0/actions/a%2Bb/custom-fields" "$K_READ"; check "PATCH visible" '[ "$(j ".fields[]|select(.fieldName==\"priority\")|.value")" = urgent ]'
req PATCH "/v0/actions/a%2Bb/custom-fields" "$K_READ_WRITE" '{"fields":[{"fieldName":"churnRisk","value":"high"}]}'; check "type mismatch -> 422 fieldErrors" '[ $CODE = 422 ] && [ "$(j ".fieldErrors.churnRisk|type")" = string ]'
req PATCH "/v0/actions/a%2Bb/custom-fields" "$K_WRITE" '{"fields":[]}'; check "empty fields -> 422" '[ $CODE = 422 ]'
req PATCH "/v0/actions/a%2Bb/custom-fields" "$K_WRITE" '{"fields":[{"fieldName":"vip","value":true,"confidence":1.5}]}'; check "confidence >1 -> 422" '[ $CODE = 422 ]'
req PATCH "/v0/actions/nope/custom-fields" "$K_WRITE" '{"fields":[{"fieldName":"vip","value":true}]}'; check "PATCH unknown action -> 404" '[ $CODE = 404 ]'
req PATCH "/v0/actions/b-only-1/custom-fields" "$K_WRITE" '{"fields":[{"fieldName":"vip","value":true}]}'; check "PATCH other org -> 404" '[ $CODE = 404 ]'

echo "-- agents and queues"
req GET "/v0/agents?from=$FROM60&to=$TOMORROW" "$K_READ"; check "agents" '[ $CODE = 200 ] && [ "$(j .success)" = true ] && [ "$(j "[.data[].agentId|type]|unique")" = "$(echo "[\"string\"]" | jq -r .)" ]'
SUM=$(j '[.data[].metrics.totalActions]|add')
req GET "/v0/conversations/search?filter=agentId%3Du-1001,007,9007199254740993123,u-1004,agent%20%C3%BC%2F1,u-1006&pageSize=1" "$K_READ"
check "agent totals agree with assigned records" '[ "$SUM" = "$(j .totalRecords)" ] || [ "$(j .totalRecordsCapped)" = true ]'
req GET "/v0/agents/007" "$K_READ"; check "agent detail" '[ $CODE = 200 ] && [ "$(j ".data|[has(\"metrics\"),has(\"aggregatedMetrics\"),has(\"currentWorkload\"),has(\"queues\")]|all")" = true ]'
req GET "/v0/agents/agent%20%C3%BC%2F1" "$K_READ"; check "agent detail with encoded id" '[ $CODE = 200 ]'
req GET "/v0/agents/b-2" "$K_READ"; check "other-org agent -> 404" '[ $CODE = 404 ] && [ "$(j ".error|type")" = string ]'
req GET "/v0/agents" "$K_INGEST"; check "ingest key on agents -> 403" '[ $CODE = 403 ]'
req GET "/v0/queues?from=$FROM60&to=$TOMORROW" "$K_READ"; check "queues include null queue" '[ $CODE = 200 ] && [ "$(j "[.data[]|select(.queueId==null)]|length")" = 1 ]'
check "queue workload sums to totalActions" '[ "$(j "[.data[]|(.workload.active+.workload.closed+.workload.cancelled)==.metrics.totalActions]|all")" = true ]'
req GET "/v0/action/list?fullFilter=queue%3DBilling&from=$FROM60&to=$TOMORROW&pageSize=500" "$K_READ"; QB=$(j .totalRecords)
req GET "/v0/queues?from=$FROM60&to=$TOMORROW" "$K_READ"; check "queue count agrees with list" '[ "$(j ".data[]|select(.queueName==\"Billing\")|.metrics.totalActions")" = "$QB" ]'

echo "-- analytics"
req GET "/v0/analytics/tags" "$K_READ"; check "tags" '[ $CODE = 200 ] && [ "$(j ".data|[has(\"summary\"),has(\"tagBreakdown\"),has(\"volumeByTag\"),has(\"pagination\")]|all")" = true ]'
check "tag ids unique, Refund twice" '[ "$(j "[.data.tagBreakdown[]|select(.tagName==\"Refund\")]|length")" = 2 ]'
req GET "/v0/analytics/tags?search=zebra" "$K_READ"; check "tag search isolated" '[ "$(j ".data.tagBreakdown|length")" = 0 ]'
req GET "/v0/analytics/tags?limit=2&offset=1&respondedOnly=true" "$K_READ"; check "tags paging" '[ "$(j ".data.tagBreakdown|length")" = 2 ] && [ "$(j .data.pagination.offset)" = 1 ] && [ "$(j .data.pagination.hasMore)" = true ]'
req GET "/v0/analytics/tags/volume?tagIds=t-101,00417" "$K_READ"; check "tag volume" '[ $CODE = 200 ] && [ "$(j ".data.tags|length")" = 2 ]'
req GET "/v0/analytics/sentiment?from=$D4&to=$D3" "$K_READ"; check "sentiment by day" '[ $CODE = 200 ] && [ "$(j ".data[0]|has(\"Very Negative\")")" = true ]'
req GET "/v0/analytics/sentiment/by-tag" "$K_READ"; check "sentiment by tag" '[ $CODE = 200 ] && [ "$(j ".data[0]|has(\"totalMentions\")")" = true ]'
req GET "/v0/analytics/engagement?platforms=TWITTER,SLACK" "$K_READ"; check "engagement" '[ $CODE = 200 ] && [ "$(j "[.data.engagementPercentiles[].platform]|unique|.-[\"TWITTER\",\"SLACK\"]|length")" = 0 ]'
req GET "/v0/analytics/engagement" "$K_INGEST"; check "ingest key on analytics -> 403" '[ $CODE = 403 ]'

echo "-- conversation search"
req GET "/v0/conversations/search?filter=platform%3DTWITTER%2Bstatus%3DCLOSED&pageSize=100" "$K_READ"
check "search DSL" '[ $CODE = 200 ] && [ "$(j "[.data[]|.platform==\"TWITTER\" and .status==\"CLOSED\"]|all")" = true ] && [ "$(j ".data[0]|has(\"threadId\") and has(\"easyId\") and has(\"contributors\")")" = true ]'
req GET "/v0/conversations/search?filter=actionId%3D100001" "$K_READ"; check "search isolated count" '[ "$(j .totalRecords)" = 1 ] && [ "$(j ".data|length")" = 1 ]'
req GET "/v0/conversations/search" "$K_READ"; check "search capped" '[ "$(j .totalRecordsCapped)" = true ] && [ "$(j .currentPage)" = 1 ] && [ "$(j .pageSize)" = 50 ]'
req GET "/v0/conversations/search?page=0" "$K_READ"; check "page 0 -> 400" '[ $CODE = 400 ]'
req GET "/v0/conversations/search?page=10001" "$K_READ"; check "page 10001 -> 400" '[ $CODE = 400 ]'
req GET "/v0/conversations/search?pageSize=101" "$K_READ"; check "pageSize 101 -> 400" '[ $CODE = 400 ]'
req GET "/v0/conversations/search?filter=nonsense" "$K_READ"; check "bad DSL -> 400" '[ $CODE = 400 ]'
req GET "/v0/conversations/search" "$K_INGEST"; check "ingest key on search -> 403" '[ $CODE = 403 ]'

echo "-- moderation"
req POST /v0/moderation/cases "$K_WRITE" "$(case_json smoke-1 'Casino night bonus')"; C1=$(j .caseId)
check "accepted" '[ $CODE = 202 ] && [ "$(j .status)" = accepted ] && [ "$(j .analysisStatus)" = pending ] && [ "$(j .idempotency.replayed)" = false ]'
req GET "/v0/moderation/cases/$C1" "$K_READ"; check "pending without decision" '[ "$(j .analysisStatus)" = pending ] && [ "$(j "has(\"decision\")")" = false ]'
req POST /v0/moderation/cases "$K_WRITE" "$(case_json smoke-1 'Casino night bonus' | jq -c '. + {language:"en"}')"; check "duplicate" '[ $CODE = 202 ] && [ "$(j .status)" = duplicate ] && [ "$(j .caseId)" = "$C1" ] && [ "$(j .idempotency.replayed)" = true ]'
req POST /v0/moderation/cases "$K_WRITE" "$(case_json smoke-1 'Different title')"; check "conflict -> 409" '[ $CODE = 409 ] && [ "$(j .success)" = false ]'
req POST /v0/moderation/cases "$K_WRITE" '{"externalId":"x"}'; check "incomplete -> 422" '[ $CODE = 422 ] && [ "$(j .code)" = MODERATION_INPUT_INCOMPLETE ] && [ "$(j ".missingFields|index(\"title\") != null")" = true ]'
req POST /v0/moderation/cases "$K_WRITE" "$(case_json smoke-2 | jq -c '.callToAction="BUY"')"; check "invalid -> 422" '[ $CODE = 422 ] && [ "$(j .code)" = MODERATION_INPUT_INVALID ] && [ "$(j ".invalidFields|index(\"callToAction\") != null")" = true ]'
req POST /v0/moderation/cases "$K_WRITE" "$(case_json smoke-3 Shoes 21)"; check "position 21 -> 422" '[ $CODE = 422 ]'
req POST /v0/moderation/cases "$K_WRITE" "not json"; check "malformed JSON -> 400" '[ $CODE = 400 ]'
req POST /v0/moderation/cases "$K_READ" "$(case_json smoke-4)"; check "read key -> 403" '[ $CODE = 403 ]'
req POST /v0/moderation/cases "$K_NO_MODERATION_WRITE" "$(case_json smoke-5)"; check "non ad_policy org -> 403" '[ $CODE = 403 ] && [ "$(j .success)" = false ]'
req GET "/v0/moderation/cases/$C1" "$K_OTHER_ORG_READ"; check "other org case -> 404" '[ $CODE = 404 ]'
req POST /v0/moderation/cases/batch "$K_WRITE" "{\"cases\":[$(case_json smoke-1 'Casino night bonus'),$(case_json smoke-1 'Changed'),$(case_json smoke-6),{\"externalId\":\"bad\"}]}"
check "batch mixed" '[ $CODE = 202 ] && [ "$(j "[.results[].status]|join(\",\")")" = "duplicate,rejected,accepted,rejected" ] && [ "$(j .results[3].code)" = MODERATION_INPUT_INCOMPLETE ]'
req POST /v0/moderation/cases/batch "$K_WRITE" '{"cases":[]}'; check "empty batch -> 400" '[ $CODE = 400 ]'
req POST /v0/moderation/cases/batch "$K_WRITE" "{\"cases\":[$(for i in $(seq 1 101); do printf '%s,' "$(case_json "big-$i")"; done | sed 's/,$//')]}"; check "101 cases -> 400" '[ $CODE = 400 ]'
req POST /v0/moderation/cases/batch "$K_NO_MODERATION_WRITE" "{\"cases\":[$(case_json smoke-7)]}"; check "batch non ad_policy -> 403" '[ $CODE = 403 ]'
req POST /v0/moderation/cases "$K_WRITE" "$(case_json smoke-8 'Casino night bonus')"; C2=$(j .caseId)
sleep 1.8; req GET "/v0/moderation/cases/$C2" "$K_READ"; check "running without decision" '[ "$(j .analysisStatus)" = running ] && [ "$(j "has(\"decision\")")" = false ]'
sleep 2; req GET "/v0/moderation/cases/$C2" "$K_READ"; check "completed with decision" '[ "$(j .analysisStatus)" = completed ] && [ "$(j .decision.disposition)" = reject ] && [ "$(j .decision.decisionSource)" = model ]'
req GET "/v0/moderation/cases/mc_nope" "$K_READ"; check "unknown case -> 404" '[ $CODE = 404 ]'
req GET "/v0/moderation/cases/$C1" "$K_WRITE"; check "write-only key on case read -> 403" '[ $CODE = 403 ]'

echo "-- ingestion"
req POST /v0/ingest/records "$K_INGEST" "$(ingest_json smoke-r1 https://canny.example/p/1)"; check "ingest accepted" '[ $CODE = 202 ] && [ "$(j .status)" = accepted ] && [ "$(j .accepted)" = 1 ]'
req POST /v0/ingest/records "$K_INGEST" '{"platform":"CANNY"}'; check "ingest invalid -> 422" '[ $CODE = 422 ] && [ "$(j .success)" = false ]'
req POST /v0/ingest/records "$K_INGEST" "$(ingest_json smoke-r2 https://a.example | jq -c '.records[0].score=5.5')"; check "score 5.5 -> 422" '[ $CODE = 422 ]'
req POST /v0/ingest/records "$K_INGEST" "$(ingest_json smoke-r3 ftp://a.example/x)"; check "ftp url -> 422" '[ $CODE = 422 ]'
req POST /v0/ingest/records "$K_WRITE" "$(ingest_json smoke-r4 https://a.example)"; check "write key cannot ingest -> 403" '[ $CODE = 403 ]'
sleep 1
req GET "/v0/conversations/search?filter=serverName%3DSmoke%20Board" "$K_READ"; check "ingested record visible" '[ "$(j .totalRecords)" = 1 ] && [ "$(j .data[0].userId)" = 9007199254740993777 ]'
req POST /v0/ingest/records "$K_INGEST" "$(ingest_json smoke-r1 https://canny.example/p/1)"; sleep 1
req GET "/v0/conversations/search?filter=serverName%3DSmoke%20Board" "$K_READ"; check "retry is idempotent" '[ "$(j .totalRecords)" = 1 ]'
req GET "/v0/conversations/search?filter=serverName%3DSmoke%20Board" "$K_OTHER_ORG_READ"; check "ingested data isolated" '[ "$(j .totalRecords)" = 0 ]'

echo "-- docs, errors, HTTP"
req GET /docs/json ""; check "openapi json" '[ $CODE = 200 ] && [ "$(j .openapi)" = 3.0.3 ] && [ "$(j ".paths|keys|length")" = 16 ]'
req GET /docs ""; check "docs html" '[ $CODE = 200 ] && grep -q swagger-ui "$TMP/body"'
req GET /v0/nothing "$K_READ"; check "unknown route -> 404" '[ $CODE = 404 ] && [ "$(j .success)" = false ]'
req DELETE /v0/agents "$K_READ"; check "wrong method -> 405" '[ $CODE = 405 ]'
CODE=$(curl -s -o "$TMP/body" -w '%{http_code}' -X PATCH -H "X-API-Key: $K_WRITE" -H 'Transfer-Encoding: chunked' --data-binary '{"fields":[{"fieldName":"vip","value":false}]}' "$BASE/v0/actions/0042/custom-fields")
check "chunked request body" '[ $CODE = 200 ]'
N=$(curl -s -o /dev/null -w '%{num_connects}\n' -H "X-API-Key: $K_READ" "$BASE/v0/queues" "$BASE/v0/agents" "$BASE/v0/queues" | awk '{s+=$1} END {print s}')
check "keep-alive reuses connection" '[ "$N" = 1 ]'
HP=${BASE#http://}; H=${HP%:*}; P=${HP##*:}
R=$(exec 3<>/dev/tcp/$H/$P; printf 'GARBAGE\r\n\r\n' >&3; head -c 12 <&3); check "garbage request -> 400" '[ "$R" = "HTTP/1.1 400" ]'
R=$(exec 3<>/dev/tcp/$H/$P; printf 'GET /v0/agents HTTP/1.1\r\nContent-Length: zz\r\n\r\n' >&3; head -c 12 <&3); check "bad content-length -> 400" '[ "$R" = "HTTP/1.1 400" ]'
CP=""; for i in $(seq 1 20); do curl -s -o /dev/null -H "X-API-Key: $K_READ" "$BASE/v0/analytics/tags" & CP="$CP $!"; done; wait $CP
req GET /v0/agents "$K_READ"; check "still alive after concurrency" '[ $CODE = 200 ]'

echo "-- deviation probes are silent on the clean server"
for id in $IDS; do if "probe_$id"; then bad "probe_$id fires on clean server"; else ok "probe_$id silent"; fi; done
stop

# ---------------------------------------------------------------- each deviation alone
for id in $IDS; do
  echo "== DEVIATIONS=$id"
  start "$id"
  if "probe_$id"; then ok "$id observable"; else bad "$id NOT observable (code=$CODE body=$(head -c 200 "$TMP/body"))"; fi
  stop
done

echo "== $PASSES passed, $FAILS failed"
[ "$FAILS" = 0 ]
