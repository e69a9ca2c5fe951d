#!/usr/bin/env bash
# Smoke test: build, exercise every route in clean mode, then show that each
# planted deviation has an observable effect. Exits non-zero on failure.
set -u
cd "$(dirname "$0")"
BIN=./cca_smoke
echo "== build"
g++ -O2 -std=c++17 -pthread -o "$BIN" *.cpp || { echo "build failed"; exit 1; }

TMP=$(mktemp -d)
FAIL=0
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

start() {
    rm -f "$TMP/keys.json" "$TMP/out"
    PORT=0 KEYS_FILE="$TMP/keys.json" DEVIATIONS="$1" "$BIN" >"$TMP/out" 2>&1 &
    PID=$!
    for _ in $(seq 100); do grep -q '^listening ' "$TMP/out" 2>/dev/null && break; sleep 0.05; done
    B=$(sed -n 's/^listening //p' "$TMP/out")
    [ -n "$B" ] || { echo "server did not start"; exit 1; }
    key() { python3 -c "import json,sys;print(json.load(open('$TMP/keys.json'))['CCA_$1'])"; }
    R=$(key READ_KEY); W=$(key WRITE_KEY); I=$(key INGEST_KEY); RW=$(key READ_WRITE_KEY)
    OR=$(key OTHER_ORG_READ_KEY); OW=$(key OTHER_ORG_WRITE_KEY); NM=$(key NO_MODERATION_WRITE_KEY)
    EX=$(key EXPIRED_KEY); RV=$(key REVOKED_KEY)
}
stop() { kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; PID=""; }

# req METHOD KEY PATH [BODY] -> $ST, body in $TMP/body, headers in $TMP/hdr
req() {
    local args=(-s -o "$TMP/body" -D "$TMP/hdr" -w '%{http_code}' -X "$1")
    [ -n "$2" ] && args+=(-H "X-API-Key: $2")
    if [ $# -ge 4 ]; then args+=(-H 'Content-Type: application/json' --data-binary "$4"); fi
    ST=$(curl "${args[@]}" "$B$3")
}
# jq-like check with python: expression over d (parsed body)
pyok() { python3 -c "import json,sys
d=json.load(open('$TMP/body'))
sys.exit(0 if ($1) else 1)" 2>/dev/null; }
# check DESC EXPECTED_STATUS PYEXPR METHOD KEY PATH [BODY]
check() {
    local desc=$1 exp=$2 expr=$3; shift 3
    req "$@"
    if [ "$ST" != "$exp" ]; then echo "FAIL $desc: status $ST, expected $exp: $(head -c 300 "$TMP/body")"; FAIL=1; return 1; fi
    if [ -n "$expr" ] && ! pyok "$expr"; then echo "FAIL $desc: check [$expr] on $(head -c 300 "$TMP/body")"; FAIL=1; return 1; fi
    echo "ok   $desc"
    return 0
}

DAY() { date -u -d "$1 days ago" +%Y-%m-%d; }
TS() { date -u -d "$1 days ago" +%Y-%m-%dT%H:%M:%SZ; }
RUN=$RANDOM$RANDOM
CASE() { # CASE externalId title mediaUrl
    echo "{\"externalId\":\"$1\",\"sourceSystem\":\"adsys\",\"sourcePlatform\":\"snap\",\"sourceAdId\":\"ad-1\",\"advertiserName\":\"Acme Ads\",\"market\":\"US\",\"placement\":\"feed\",\"landingPageUrl\":\"https://acme.example/landing\",\"title\":\"$2\",\"media\":[{\"url\":\"$3\",\"type\":\"image\",\"position\":1}],\"attachment\":{\"type\":\"web_view\",\"destinationUrl\":null},\"targeting\":{\"ageMin\":18,\"geos\":[\"US\"]},\"copy\":{\"body\":\"Save now\"}}"
}
REC() { echo "{\"platform\":\"DISCORD\",\"serverId\":\"srv-1\",\"serverName\":\"Server\",\"records\":[{\"externalId\":\"r-$RUN\",\"authorId\":\"u1\",\"authorName\":\"User\",\"body\":\"hello\",\"createdAt\":\"2026-01-01T00:00:00Z\",\"recordType\":\"MESSAGE\"$1}]}"; }

# ------------------------------------------------------------- probes
# Each probe passes on a conforming server; the deviation with the same id makes it fail.
probe() {
    case $1 in
    C01) check "C01 pageSize=501 rejected" 400 "" GET "$R" "/v0/action/list?pageSize=501" ;;
    C02) check "C02 date-only to is midnight" 200 "len(d['data'])>0 and max(x['createdAt'] for x in d['data']) < '$(DAY 2)T00:00:00'" \
             GET "$R" "/v0/action/list?from=$(DAY 4)&to=$(DAY 2)&pageSize=500" ;;
    C03) check "C03 search preserves big userId" 200 "d['data'] and d['data'][0]['userId']=='9007199254740993'" \
             GET "$R" "/v0/conversations/search?filter=userId%3D9007199254740993" ;;
    C04) check "C04 other org cannot read case" 404 "d['success'] is False" GET "$OR" "/v0/moderation/cases/mc_seed_a_completed" ;;
    C05) req GET "$R" "/v0/action/list?fullFilter=text%3D&from=$(TS 10)&to=$(TS 0)&pageSize=1"
         local n; n=$(python3 -c "import json;print(json.load(open('$TMP/body'))['totalRecords'])")
         check "C05 tag summary totalActions == org actions ($n)" 200 "d['data']['summary']['totalActions']==$n" \
             GET "$R" "/v0/analytics/tags?from=$(TS 10)&to=$(TS 0)" ;;
    C06) req POST "$W" /v0/moderation/cases "$(CASE p6-$RUN Sale https://cdn.example.com/1.png)"
         check "C06 changed media is a conflict" 409 "d['success'] is False" POST "$W" /v0/moderation/cases "$(CASE p6-$RUN Sale https://cdn.example.com/2.png)" ;;
    C07) check "C07 batch results in input order" 202 "[r['status'] for r in d['results']]==['rejected','accepted'] and d['results'][0]['externalId']=='p7a-$RUN'" \
             POST "$W" /v0/moderation/cases/batch "{\"cases\":[{\"externalId\":\"p7a-$RUN\"},$(CASE p7b-$RUN Sale https://cdn.example.com/1.png)]}" ;;
    C08) check "C08 ingest score 5 accepted" 202 "d['accepted']==1" POST "$I" /v0/ingest/records "$(REC ',"score":5')" ;;
    C09) check "C09 write key cannot ingest" 403 "d['success'] is False" POST "$W" /v0/ingest/records "$(REC '')" ;;
    C10) check "C10 agents list honours window" 200 "all(a['metrics']['totalActions']==0 for a in d['data'])" \
             GET "$R" "/v0/agents?from=2020-01-01&to=2020-01-02" ;;
    C11) check "C11 revoked key refused on analytics" 401 "d['success'] is False" GET "$RV" "/v0/queues" ;;
    C12) check "C12 fieldErrors keyed by field name" 422 "'region' in d['fieldErrors']" \
             PATCH "$RW" "/v0/actions/000123/custom-fields" '{"fields":[{"fieldName":"region","value":5}]}' ;;
    C13) check "C13 search default pageSize 50" 200 "d['pageSize']==50 and len(d['data'])==50" GET "$R" "/v0/conversations/search" ;;
    C14) check "C14 fullFilter+filter rejected" 400 "" GET "$R" "/v0/action/list?fullFilter=platform%3DSLACK&filter=responded%3Dtrue" ;;
    C15) check "C15 fullFilter adds no responded default" 200 "any(x['initialResponseTime'] is None for x in d['data'])" \
             GET "$R" "/v0/action/list?fullFilter=text%3D&from=$(TS 30)&pageSize=500" ;;
    C16) check "C16 queues include the no-queue bucket" 200 "any(q['queueId'] is None for q in d['data'])" GET "$R" "/v0/queues" ;;
    C17) req GET "" /docs/json
         if grep -qi '^content-type: application/json' "$TMP/hdr"; then echo "ok   C17 docs/json is application/json"; else echo "FAIL C17 docs/json content-type"; FAIL=1; return 1; fi ;;
    esac
}

echo "== clean mode"
start ""
V=/v0
# auth
check "missing key 401" 401 "d['success'] is False and isinstance(d['error'],str)" GET "" "$V/action/list"
check "invalid key 401" 401 "d['success'] is False" GET "nope" "$V/action/list"
check "expired key 401" 401 "" GET "$EX" "$V/action/list"
check "revoked key 401" 401 "" GET "$RV" "$V/action/detail"
check "ingest key cannot read 403" 403 "" GET "$I" "$V/agents"
check "read key on write route 403" 403 "" PATCH "$R" "$V/actions/000123/custom-fields" '{"fields":[{"fieldName":"region","value":"x"}]}'
check "unknown route 404" 404 "d['success'] is False" GET "$R" "$V/nothing"
# action list
check "action list default" 200 "len(d['data'])==50 and d['pageSize']==50 and d['currentPage']==1 and d['totalRecords']>50 and d['totalPages']==(d['totalRecords']+49)//50 and all(x['initialResponseTime'] for x in d['data']) and all(x['conversationJson'] is None for x in d['data'])" GET "$R" "$V/action/list"
check "action list pageSize=500" 200 "d['pageSize']==500" GET "$R" "$V/action/list?pageSize=500"
check "action list pageSize=0 400" 400 "d['success'] is False" GET "$R" "$V/action/list?pageSize=0"
check "action list pageSize=abc 400" 400 "" GET "$R" "$V/action/list?pageSize=abc"
check "action list includeFullConversation" 200 "all(isinstance(json.loads(x['conversationJson']),list) for x in d['data'])" GET "$R" "$V/action/list?includeFullConversation=true&pageSize=5"
check "action list sortBy=updatedAt" 200 "[x['updatedAt'] for x in d['data']]==sorted([x['updatedAt'] for x in d['data']],reverse=True)" GET "$R" "$V/action/list?sortBy=updatedAt"
check "action list bad sortBy 400" 400 "" GET "$R" "$V/action/list?sortBy=closeTime"
check "action list bad date 400" 400 "" GET "$R" "$V/action/list?from=2026-02-30"
check "action list filterJson responded=false" 200 "all(x['initialResponseTime'] is None for x in d['data'])" GET "$R" "$V/action/list?filterJson=%7B%22responded%22%3Afalse%7D&from=$(DAY 30)"
check "action list fullFilter" 200 "d['data'] and all(x['platform']=='SLACK' and x['status']=='OPEN' for x in d['data'])" GET "$R" "$V/action/list?fullFilter=platform%3DSLACK%2Bstatus%3DOPEN&from=$(DAY 60)"
check "action list fullFilter too long" 400 "" GET "$R" "$V/action/list?fullFilter=text%3D$(head -c 10000 /dev/zero | tr '\0' a)"
check "action list other org" 200 "all(x['actionTitle'].startswith('Globex') for x in d['data'])" GET "$OR" "$V/action/list"
# action detail with hard ids
check "detail big id" 200 "d['actionId']=='9007199254740993' and d['user']['userId']=='9007199254740993' and isinstance(d['messages'],list)" GET "$R" "$V/action/9007199254740993"
check "detail leading zeros" 200 "d['actionId']=='000123'" GET "$R" "$V/action/000123"
check "detail leading zeros stripped is 404" 404 "" GET "$R" "$V/action/123"
check "detail unicode id" 200 "d['actionId']=='ação-ünï-é'" GET "$R" "$V/action/a%C3%A7%C3%A3o-%C3%BCn%C3%AF-%C3%A9"
check "detail reserved chars id" 200 "d['actionId']=='id with/slash?&#%=+ space'" GET "$R" "$V/action/id%20with%2Fslash%3F%26%23%25%3D%2B%20space"
check "detail other org content differs" 200 "d['actionTitle'].startswith('Globex')" GET "$OR" "$V/action/000123"
check "detail unknown 404" 404 "d['success'] is False" GET "$R" "$V/action/A-9999"
check "detail org C id not visible to A" 404 "" GET "$R" "$V/action/C-0001"
# custom fields
check "custom fields get" 200 "d['actionId']=='000123' and {f['fieldType'] for f in d['fields']}=={'text','number','boolean','date','select','multi_select'}" GET "$R" "$V/actions/000123/custom-fields"
check "custom fields patch" 200 "d['updated']==[{'fieldName':'region','value':'EMEA'},{'fieldName':'follow_up_date','value':'2026-12-31'}]" PATCH "$RW" "$V/actions/000123/custom-fields" '{"fields":[{"fieldName":"region","value":"EMEA","confidence":0.9,"rationale":"crm"},{"fieldName":"follow_up_date","value":"2026-12-31"}]}'
check "custom fields read back" 200 "[f['value'] for f in d['fields'] if f['fieldName']=='region']==['EMEA']" GET "$R" "$V/actions/000123/custom-fields"
check "custom fields empty 422" 422 "'fields' in d['fieldErrors']" PATCH "$W" "$V/actions/000123/custom-fields" '{"fields":[]}'
check "custom fields confidence>1 422" 422 "'is_vip' in d['fieldErrors']" PATCH "$W" "$V/actions/000123/custom-fields" '{"fields":[{"fieldName":"is_vip","value":true,"confidence":1.01}]}'
check "custom fields bad select 422" 422 "'priority_level' in d['fieldErrors']" PATCH "$W" "$V/actions/000123/custom-fields" '{"fields":[{"fieldName":"priority_level","value":"HIGH"}]}'
check "custom fields unknown action 404" 404 "" GET "$R" "$V/actions/nope/custom-fields"
check "custom fields write key cannot read 403" 403 "" GET "$W" "$V/actions/000123/custom-fields"
check "custom fields org B type differs" 200 "[f['fieldType'] for f in d['fields'] if f['fieldName']=='priority_level']==['text']" GET "$OR" "$V/actions/000123/custom-fields"
# agents / queues
check "agents" 200 "d['success'] and len(d['data'])==6 and all(a['metrics']['totalActions']==a['workload']['active']+a['workload']['closed']+a['workload']['cancelled'] for a in d['data'])" GET "$R" "$V/agents"
check "agent detail hard id" 200 "d['data']['agentId']=='søren/ops+1' and d['data']['aggregatedMetrics']['totalActions']==sum(m['totalActions'] for m in d['data']['metrics'])" GET "$R" "$V/agents/s%C3%B8ren%2Fops%2B1"
check "agent detail big id" 200 "d['data']['agentId']=='9007199254740995'" GET "$R" "$V/agents/9007199254740995"
check "agent detail 404" 404 "" GET "$R" "$V/agents/nobody"
check "agent detail other org 404" 404 "" GET "$OR" "$V/agents/0042"
check "queues" 200 "d['success'] and len(d['data'])>=4" GET "$R" "$V/queues"
# analytics
check "tags" 200 "d['data']['pagination']['limit']==20 and d['data']['summary']['totalActions']>0 and all(v['total']==v['responded']+v['notResponded'] for v in d['data']['volumeByTag'])" GET "$R" "$V/analytics/tags"
check "tags paging" 200 "len(d['data']['tagBreakdown'])==3 and d['data']['pagination']['hasMore'] is True" GET "$R" "$V/analytics/tags?limit=3&offset=2"
check "tags search" 200 "[t['tagName'] for t in d['data']['tagBreakdown']]==['Ünïcødé Tag']" GET "$R" "$V/analytics/tags?search=%C3%BCn%C3%AF"
check "tags bad limit 400" 400 "" GET "$R" "$V/analytics/tags?limit=x"
check "tag volume" 200 "len(d['data']['tags'])==2 and all('date' in r for r in d['data']['data'])" GET "$R" "$V/analytics/tags/volume?topTagsLimit=2"
check "tag volume tagIds" 200 "d['data']['tags']==['VIP']" GET "$R" "$V/analytics/tags/volume?tagIds=tag-vip"
check "sentiment by day" 200 "len(d['data'])>=30 and all(set(['day','Very Negative','Negative','Neutral','Positive'])<=set(r) for r in d['data'])" GET "$R" "$V/analytics/sentiment"
check "sentiment by tag" 200 "d['data'] and all(r['totalMentions']==r['veryNegative']+r['negative']+r['neutral']+r['positive'] for r in d['data'])" GET "$R" "$V/analytics/sentiment/by-tag"
check "engagement" 200 "d['data']['engagementPercentiles'] and all(p['platform'] in ('TWITTER','SLACK') for p in d['data']['engagementPercentiles']) and d['data']['growthTrends']" GET "$R" "$V/analytics/engagement?platforms=TWITTER,SLACK"
check "analytics write-only key 403" 403 "" GET "$W" "$V/analytics/sentiment"
# search
check "search default" 200 "d['success'] and d['pageSize']==50 and d['currentPage']==1 and d['totalRecordsCapped'] is False and all('threadId' in x and 'easyId' in x and 'contributors' in x for x in d['data'])" GET "$R" "$V/conversations/search"
check "search page 2" 200 "d['currentPage']==2 and len(d['data'])==10" GET "$R" "$V/conversations/search?page=2&pageSize=10"
check "search pageSize=101 400" 400 "" GET "$R" "$V/conversations/search?pageSize=101"
check "search page=10001 400" 400 "" GET "$R" "$V/conversations/search?page=10001"
check "search bad filter 400" 400 "" GET "$R" "$V/conversations/search?filter=bogus%3D1"
check "search filter" 200 "d['data'] and all(x['platform']=='TWITTER' and x['status']=='OPEN' for x in d['data'])" GET "$R" "$V/conversations/search?filter=platform%3DTWITTER%2Bstatus%3DOPEN"
check "search ingest key 403" 403 "" GET "$I" "$V/conversations/search"
# moderation
check "moderation accept" 202 "d['status']=='accepted' and d['analysisStatus']=='pending' and d['idempotency']['replayed'] is False" POST "$W" "$V/moderation/cases" "$(CASE m1-$RUN Sale https://cdn.example.com/1.png)"
CID=$(python3 -c "import json;print(json.load(open('$TMP/body'))['caseId'])")
check "moderation duplicate" 202 "d['status']=='duplicate' and d['caseId']=='$CID' and d['idempotency']['replayed'] is True" POST "$W" "$V/moderation/cases" "$(CASE m1-$RUN Sale https://cdn.example.com/1.png)"
check "moderation conflict 409" 409 "d['success'] is False" POST "$W" "$V/moderation/cases" "$(CASE m1-$RUN Other https://cdn.example.com/1.png)"
check "moderation incomplete 422" 422 "d['code']=='MODERATION_INPUT_INCOMPLETE' and 'title' in d['missingFields']" POST "$W" "$V/moderation/cases" '{"externalId":"x"}'
check "moderation invalid 422" 422 "d['code']=='MODERATION_INPUT_INVALID' and 'media[0].url' in d['invalidFields']" POST "$W" "$V/moderation/cases" "$(CASE m2-$RUN Sale ftp://cdn.example.com/1.png)"
check "moderation bad json 400" 400 "" POST "$W" "$V/moderation/cases" '{'
check "moderation read key 403" 403 "" POST "$R" "$V/moderation/cases" "$(CASE m3-$RUN Sale https://cdn.example.com/1.png)"
check "moderation org C 403" 403 "'ad_policy' in d.get('supported',[])" POST "$NM" "$V/moderation/cases" "$(CASE m3-$RUN Sale https://cdn.example.com/1.png)"
check "moderation batch" 202 "[r['status'] for r in d['results']]==['accepted','rejected','duplicate']" POST "$W" "$V/moderation/cases/batch" "{\"cases\":[$(CASE b1-$RUN Sale https://cdn.example.com/1.png),{\"externalId\":\"b2-$RUN\"},$(CASE m1-$RUN Sale https://cdn.example.com/1.png)]}"
check "moderation batch empty 400" 400 "" POST "$W" "$V/moderation/cases/batch" '{"cases":[]}'
check "moderation status pending" 200 "d['caseId']=='$CID' and d['analysisStatus'] in ('pending','running') and 'decision' not in d" GET "$RW" "$V/moderation/cases/$CID"
check "moderation seeded completed" 200 "d['analysisStatus']=='completed' and d['decision']['disposition']=='approve'" GET "$R" "$V/moderation/cases/mc_seed_a_completed"
check "moderation seeded failed" 200 "d['analysisStatus']=='failed' and 'decision' not in d and d['failureCode']" GET "$R" "$V/moderation/cases/mc_seed_a_failed"
check "moderation status 404" 404 "" GET "$R" "$V/moderation/cases/nope"
sleep 2.2
check "moderation status completed" 200 "d['analysisStatus']=='completed' and d['decision']['decisionSource']=='model'" GET "$RW" "$V/moderation/cases/$CID"
# ingestion
check "ingest" 202 "d=={'status':'accepted','accepted':1}" POST "$I" "$V/ingest/records" "$(REC ',"score":4.5,"url":"https://x.example/1"')"
check "ingest bad platform 422" 422 "d['success'] is False" POST "$I" "$V/ingest/records" "$(REC '' | sed 's/DISCORD/discord/')"
check "ingest score 5.01 422" 422 "" POST "$I" "$V/ingest/records" "$(REC ',"score":5.01')"
check "ingest bad url 422" 422 "" POST "$I" "$V/ingest/records" "$(REC ',"url":"ftp://x"')"
check "ingest read key 403" 403 "" POST "$R" "$V/ingest/records" "$(REC '')"
# docs
check "docs json" 200 "d['openapi'].startswith('3') and '/v0/action/list' in d['paths']" GET "" /docs/json
req GET "" /docs; if [ "$ST" = 200 ] && grep -qi swagger "$TMP/body"; then echo "ok   docs html"; else echo "FAIL docs html"; FAIL=1; fi
# malformed request
RESP=$(printf 'GARBAGE\r\n\r\n' | timeout 3 curl -s telnet://${B#http://} 2>/dev/null | head -1)
case "$RESP" in *" 400 "*) echo "ok   malformed request 400";; *) echo "FAIL malformed request: $RESP"; FAIL=1;; esac
check "bad percent-encoding 400" 400 "" GET "$R" "$V/action/%zz"
# probes in clean mode
for id in $(cut -d' ' -f1 IDS.txt); do probe "$id" || true; done
stop

echo "== deviations"
for id in $(cut -d' ' -f1 IDS.txt); do
    start "$id"
    OUTP=$(probe "$id" 2>&1)
    if echo "$OUTP" | grep -q '^FAIL'; then echo "ok   $id observable: $(echo "$OUTP" | grep '^FAIL' | head -1 | cut -c1-160)"
    else echo "FAIL $id not observable"; FAIL=1; fi
    stop
done

echo "== SIGTERM"
start ""
kill -TERM "$PID"; T0=$(date +%s%N)
for _ in $(seq 20); do kill -0 "$PID" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$PID" 2>/dev/null; then echo "FAIL did not exit on SIGTERM"; FAIL=1; else echo "ok   exited on SIGTERM in $(( ($(date +%s%N)-T0)/1000000 )) ms"; fi
PID=""
rm -f "$BIN"
[ $FAIL = 0 ] && echo "ALL OK" || echo "SOME CHECKS FAILED"
exit $FAIL
