#!/usr/bin/env bash
# Smoke test: starts the server, exercises every route, checks key answers, stops it.
#   ./smoke.sh            conforming mode (every check must pass)
#   ./smoke.sh S03        with DEVIATIONS=S03 (the checks tagged S03 must fail)
#   ./smoke.sh --all      conforming mode, then once per id listed in IDS.txt
#   (in deviation mode only the checks tagged with that id are evaluated, unless FULL=1)
set -u
cd "$(dirname "$0")"
HERE=$(pwd)

if [ "${1:-}" = "--all" ]; then
  rc=0
  "$0" || rc=1
  while read -r id level; do
    [ -z "$id" ] && continue
    "$0" "$id" || rc=1
  done < IDS.txt
  exit $rc
fi

DEV="${1:-}"
T="$HERE/.smoke/run.$$"
mkdir -p "$T"
KEYS="$T/keys.json"
PASS=0; FAIL=0; FAILED_TAGS=""

PORT=0 KEYS_FILE="$KEYS" DEVIATIONS="$DEV" python3 server.py >"$T/out" 2>"$T/err" &
SPID=$!
cleanup() { kill "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
for i in $(seq 1 100); do grep -q '^listening ' "$T/out" 2>/dev/null && break; sleep 0.1; done
if ! grep -q '^listening ' "$T/out"; then echo "server did not start"; cat "$T/err"; exit 1; fi
BASE=$(sed -n 's/^listening //p' "$T/out" | head -1)

key() { python3 -S -c "import json;print(json.load(open('$KEYS'))['$1'])"; }
RK=$(key CCA_READ_KEY); WK=$(key CCA_WRITE_KEY); IK=$(key CCA_INGEST_KEY); RWK=$(key CCA_READ_WRITE_KEY)
BRK=$(key CCA_OTHER_ORG_READ_KEY); BWK=$(key CCA_OTHER_ORG_WRITE_KEY); CWK=$(key CCA_NO_MODERATION_WRITE_KEY)
EXK=$(key CCA_EXPIRED_KEY); RVK=$(key CCA_REVOKED_KEY)

# req METHOD PATH KEY [BODY|@file]   -> $T/body, $T/hdr, $STATUS
req() {
  local m=$1 p=$2 k=$3 b=${4:-}
  local args=(-s -o "$T/body" -D "$T/hdr" -w '%{http_code}' -X "$m" --max-time 20)
  [ -n "$k" ] && args+=(-H "X-API-Key: $k")
  if [ -n "$b" ]; then args+=(-H 'Content-Type: application/json' --data-binary "$b"); fi
  STATUS=$(curl "${args[@]}" "$BASE$p")
}
# ck TAG DESCRIPTION PYTHON-EXPR  (s = status, d = parsed JSON body or None, raw, hdr)
ck() {
  local tag=$1 desc=$2 expr=$3
  if [ -n "$DEV" ] && [ -z "${FULL:-}" ] && ! echo ",$DEV," | grep -q ",$tag,"; then return; fi
  if python3 -S - "$STATUS" "$T/body" "$T/hdr" "$expr" <<'PY'
import json, sys, math, datetime as dt
s = int(sys.argv[1]); raw = open(sys.argv[2], 'rb').read().decode('utf-8', 'replace')
hdr = open(sys.argv[3]).read().lower()
try: d = json.loads(raw)
except Exception: d = None
def ts(x): return dt.datetime.fromisoformat(x.replace('Z', '+00:00'))
NOW = dt.datetime.now(dt.timezone.utc)
try: ok = bool(eval(sys.argv[4]))
except Exception as e:
    print('   (eval error: %r)' % e); ok = False
sys.exit(0 if ok else 1)
PY
  then PASS=$((PASS+1))
  else FAIL=$((FAIL+1)); FAILED_TAGS="$FAILED_TAGS $tag"; echo "  FAIL [$tag] $desc (status $STATUS): $(head -c 300 "$T/body")"; fi
}
val() { python3 -S -c "import json,sys;d=json.load(open('$T/body'));print($1)"; }
py() { python3 -S -c "$1"; }

ERRB='d and d.get("success") is False and isinstance(d.get("error"), str)'

# ------------------------------------------------------------------ auth
req GET /v0/action/list ""
ck - "missing key -> 401" "s==401 and $ERRB"
req GET /v0/action/list "cca_not_a_real_key"
ck S23 "unknown key -> 401" "s==401 and $ERRB"
req GET /v0/action/list "$EXK"
ck - "expired key -> 401" "s==401 and $ERRB"
req GET /v0/action/list "$RVK"
ck S12 "revoked key GET -> 401" "s==401 and $ERRB"
req PATCH /v0/actions/42/custom-fields "$RVK" '{"fields":[{"fieldName":"priority","value":"low"}]}'
ck - "revoked key PATCH -> 401" "s==401"
req GET /v0/action/list "$WK"
ck - "write-only key cannot read reporting data -> 403" "s==403 and $ERRB"
req GET /v0/agents "$IK"
ck - "import key cannot read reporting data -> 403" "s==403 and $ERRB"
req GET /v0/actions/42/custom-fields "$WK"
ck S10 "custom-fields GET requires read scope -> 403 for write key" "s==403 and $ERRB"
req PATCH /v0/actions/42/custom-fields "$RK" '{"fields":[{"fieldName":"priority","value":"low"}]}'
ck - "read key on write route -> 403" "s==403 and $ERRB"

# ------------------------------------------------------------------ action list
req GET /v0/action/list "$RK"
ck - "list default shape" "s==200 and isinstance(d['data'],list) and d['pageSize']==50 and d['currentPage']==1 and all(k in d for k in ('totalRecords','totalPages')) and len(d['data'])<=50"
ck S04 "default window is the past seven days" "all(ts(x['createdAt']) >= NOW - dt.timedelta(days=7, seconds=5) for x in d['data'])"
ck - "default list only responded" "all(x['initialResponseTime'] is not None for x in d['data'])"
ck - "newest first" "[x['createdAt'] for x in d['data']] == sorted([x['createdAt'] for x in d['data']], reverse=True)"
ck - "summary keys present" "all(set(['actionId','actionTitle','actionSummary','status','platform','recordType','isPublicPost','serviceURL','sourceURL','queue','initialQueue','sentiment','sentimentScore','moderation','assigneeName','assigneeEmail','assigneeUserId','assigneeRole','userName','userUsername','userId','userEmail','userFollowerCount','createdAt','updatedAt','initialMessageTime','initialResponseTime','closeTime','claimTime','firstResponseTime','handleTime','serverName','channelName','csatScore','csatFeedback','estimatedCSAT','totalMessages','totalUserMessages','totalAgentMessages','tags','closingTags','customFields','rootMessageText','conversationJson']) <= set(x) for x in d['data'])"
ck - "conversationJson null by default; ids are strings" "all(x['conversationJson'] is None and isinstance(x['actionId'],str) and isinstance(x['userId'],str) for x in d['data'])"
ck - "private records have null sourceURL" "all(x['sourceURL'] is None for x in d['data'] if not x['isPublicPost'])"
for ps in 7 11; do
  req GET "/v0/action/list?pageSize=$ps" "$RK"
  ck S22 "totalPages = ceil(totalRecords/pageSize) ($ps)" "s==200 and d['totalPages']==math.ceil(d['totalRecords']/$ps) and len(d['data'])==min($ps,d['totalRecords'])"
done
req GET "/v0/action/list?pageSize=500" "$RK"
ck S02 "pageSize=500 accepted" "s==200 and d['pageSize']==500"
ck S04 "default window is the past seven days (whole window)" "s==200 and d['totalRecords']==len(d['data']) and all(ts(x['createdAt']) >= NOW - dt.timedelta(days=7, seconds=5) for x in d['data'])"
for bad in 501 0 -1 abc 1.5 99999999999999999999999999; do
  req GET "/v0/action/list?pageSize=$bad" "$RK"; ck - "pageSize=$bad -> 400" "s==400 and $ERRB"
done
FROM60=$(py "import datetime as dt;print((dt.datetime.now(dt.timezone.utc)-dt.timedelta(days=61)).strftime('%Y-%m-%dT%H:%M:%SZ'))")
req GET "/v0/action/list?pageSize=500&from=$FROM60&fullFilter=platform=TWITTER" "$RK"
ck - "fullFilter platform" "s==200 and d['data'] and all(x['platform']=='TWITTER' for x in d['data'])"
ck S05 "fullFilter adds no responded default" "any(x['initialResponseTime'] is None for x in d['data'])"
req GET "/v0/action/list?pageSize=500&from=$FROM60&fullFilter=status=OPEN" "$RK"
ck S06 "userId/assigneeUserId preserved (leading zeros, > 2^63)" "s==200 and any(x['userId'].startswith('0') for x in d['data']) and any(x['userId'].isdigit() and int(x['userId'])>2**64 for x in d['data'])"
req GET "/v0/action/list?pageSize=500&from=$FROM60&fullFilter=assignee=00731" "$RK"
ck S06 "assignee filter by leading-zero id" "s==200 and d['data'] and all(x['assigneeUserId']=='00731' for x in d['data'])"
D2=$(py "import datetime as dt;print((dt.datetime.now(dt.timezone.utc)-dt.timedelta(days=2)).strftime('%Y-%m-%d'))")
D5=$(py "import datetime as dt;print((dt.datetime.now(dt.timezone.utc)-dt.timedelta(days=5)).strftime('%Y-%m-%d'))")
req GET "/v0/action/list?pageSize=500&from=$D5&to=$D2" "$RK"
ck S01 "date-only to = midnight UTC of that date" "s==200 and d['data'] and all(x['createdAt'] <= '${D2}T00:00:00.000Z' for x in d['data']) and all(x['createdAt'] >= '${D5}T00:00:00.000Z' for x in d['data'])"
EX=$(val "d['data'][3]['createdAt']"); EXID=$(val "d['data'][3]['actionId']")
req GET "/v0/action/list?pageSize=500&from=$EX&to=$EX" "$RK"
ck - "window bounds inclusive" "s==200 and '$EXID' in [x['actionId'] for x in d['data']]"
OFF=$(py "import datetime as dt;t=dt.datetime.fromisoformat('$EX'.replace('Z','+00:00')).astimezone(dt.timezone(dt.timedelta(hours=2)));print(t.isoformat(timespec='milliseconds').replace('+','%2B'))")
req GET "/v0/action/list?pageSize=500&from=$OFF&to=$OFF" "$RK"
ck - "offset timestamps honoured" "s==200 and '$EXID' in [x['actionId'] for x in d['data']]"
req GET "/v0/action/list?pageSize=500&sortBy=updatedAt" "$RK"
ck - "sortBy=updatedAt orders by updatedAt" "s==200 and [x['updatedAt'] for x in d['data']] == sorted([x['updatedAt'] for x in d['data']], reverse=True)"
req GET "/v0/action/list?sortBy=title" "$RK"; ck - "bad sortBy -> 400" "s==400"
req GET "/v0/action/list?from=yesterday" "$RK"; ck - "bad from -> 400" "s==400 and $ERRB"
req GET "/v0/action/list?from=2024-02-30" "$RK"; ck - "impossible date -> 400" "s==400"
req GET "/v0/action/list?from=2024-05-02&to=2024-05-01" "$RK"; ck - "from > to -> 400" "s==400"
req GET "/v0/action/list?fullFilter=platform=TWITTER&filter=responded=true" "$RK"; ck - "fullFilter + filter -> 400" "s==400"
req GET "/v0/action/list?fullFilter=platform=TWITTER&filterJson=%7B%7D" "$RK"; ck - "fullFilter + filterJson -> 400" "s==400"
LONG=$(py "print('text=' + 'a'*9995)")
req GET "/v0/action/list?fullFilter=$LONG" "$RK"; ck - "fullFilter 10000 chars ok" "s==200"
req GET "/v0/action/list?fullFilter=${LONG}a" "$RK"; ck - "fullFilter 10001 chars -> 400" "s==400"
req GET "/v0/action/list?fullFilter=nosuchkey=1" "$RK"; ck - "unknown DSL key -> 400" "s==400"
req GET "/v0/action/list?filterJson=%7Bbad" "$RK"; ck - "malformed filterJson -> 400" "s==400"
req GET "/v0/action/list?pageSize=500" "$RK"; DEFN=$(val "d['totalRecords']")
req GET "/v0/action/list?pageSize=500&filter=responded=false" "$RK"
ck - "legacy filter responded=false" "s==200 and d['data'] and all(x['initialResponseTime'] is None for x in d['data'])"
req GET "/v0/action/list?pageSize=500&filterJson=%7B%22responded%22%3Afalse%7D" "$RK"
ck - "filterJson responded=false" "s==200 and d['data'] and all(x['initialResponseTime'] is None for x in d['data'])"
req GET "/v0/action/list?pageSize=500&filter=platform%3DTWITTER" "$RK"
ck - "legacy filter cannot filter by platform" "s==200 and d['totalRecords']==$DEFN"
req GET "/v0/action/list?pageSize=3&includeFullConversation=true" "$RK"
ck - "includeFullConversation fills conversationJson" "s==200 and all(isinstance(json.loads(x['conversationJson']), list) and json.loads(x['conversationJson']) for x in d['data'])"

# ------------------------------------------------------------------ action detail
req GET /v0/action/0042 "$RK"
ck S07 "detail preserves id 0042" "s==200 and d['actionId']=='0042'"
req GET /v0/action/007 "$RK"
ck S07 "detail preserves id 007" "s==200 and d['actionId']=='007'"
req GET /v0/action/18446744073709551617 "$RK"
ck - "detail id above 2^64" "s==200 and d['actionId']=='18446744073709551617'"
ck - "detail keys" "all(k in d for k in ('user','assignee','comments','messages','tags','closingTags','customFields','rootMessageText','firstResponseTime','handleTime','sourceURL')) and all(m['authorType'] in ('USER','AGENT','BOT') and isinstance(m['mediaUrls'],list) for m in d['messages'])"
req GET /v0/action/no-such-action "$RK"; ck - "unknown action -> 404" "s==404 and $ERRB"
req GET "/v0/action/list?pageSize=500&from=$FROM60&fullFilter=isPublicPost=false" "$RK"
PRIV=$(val "d['data'][0]['actionId']")
req GET "/v0/action/$PRIV" "$RK"
ck S24 "private action detail sourceURL null" "s==200 and d['isPublicPost'] is False and d['sourceURL'] is None"
req GET /v0/action/42 "$BRK"
ck - "colliding id resolved within org B" "s==200 and d['actionTitle'].startswith('Globex:')"
req GET /v0/action/ZD-10045 "$BRK"; ck - "org A action invisible to org B" "s==404"
req GET "/v0/action/0042" "$BRK"; ck - "org B 0042" "s==200 and d['actionId']=='0042' and d['actionTitle'].startswith('Globex:')"

# ------------------------------------------------------------------ custom fields
req GET /v0/actions/ZD-10045/custom-fields "$RK"
ck - "custom fields GET" "s==200 and d['actionId']=='ZD-10045' and any(f['fieldName']=='priority' and f['fieldType']=='select' for f in d['fields']) and all(set(['fieldName','displayName','fieldType','value'])<=set(f) for f in d['fields'])"
req GET /v0/actions/ZD-10045/custom-fields "$BRK"
ck S08 "custom fields of org A action invisible to org B" "s==404 and $ERRB"
req GET /v0/actions/nope/custom-fields "$RK"; ck - "custom fields unknown action -> 404" "s==404"
req PATCH /v0/actions/ZD-10045/custom-fields "$WK" '{"fields":[{"fieldName":"priority","value":"high","confidence":0.9,"rationale":"smoke"},{"fieldName":"refundAmount","value":12.5}]}'
ck - "PATCH ok" "s==200 and d['actionId']=='ZD-10045' and d['updated']==[{'fieldName':'priority','value':'high'},{'fieldName':'refundAmount','value':12.5}]"
req GET /v0/actions/ZD-10045/custom-fields "$RK"
ck - "PATCH visible on GET" "s==200 and [f['value'] for f in d['fields'] if f['fieldName']=='priority']==['high'] and 'confidence' not in json.dumps(d)"
req PATCH /v0/actions/ZD-10045/custom-fields "$WK" '{"fields":[{"fieldName":"vip","value":"yes"}]}'
ck S25 "type mismatch -> 422 with fieldErrors" "s==422 and $ERRB and 'vip' in d.get('fieldErrors',{})"
req PATCH /v0/actions/ZD-10045/custom-fields "$WK" '{"fields":[]}'; ck - "empty fields -> 422" "s==422 and isinstance(d.get('fieldErrors'),dict)"
req PATCH /v0/actions/ZD-10045/custom-fields "$WK" '{"fields":[{"fieldName":"nope","value":1}]}'; ck - "unknown field -> 422" "s==422"
req PATCH /v0/actions/ZD-10045/custom-fields "$WK" '{"fields":[{"fieldName":"priority","value":"low","confidence":1.5}]}'; ck - "confidence > 1 -> 422" "s==422"
req PATCH /v0/actions/ZD-10045/custom-fields "$WK" '{"fields":[{"fieldName":"priority","value":"low"},{"fieldName":"vip","value":3}]}'; ck - "atomic batch" "s in (400,422)"
req GET /v0/actions/ZD-10045/custom-fields "$RK"; ck - "failed PATCH changed nothing" "[f['value'] for f in d['fields'] if f['fieldName']=='priority']==['high']"
req PATCH /v0/actions/ZD-10045/custom-fields "$WK" '{"fields":'; ck - "malformed JSON PATCH -> 422" "s==422 and $ERRB"
req PATCH /v0/actions/nope/custom-fields "$WK" '{"fields":[{"fieldName":"priority","value":"low"}]}'; ck - "PATCH unknown action -> 404" "s==404"

# ------------------------------------------------------------------ agents / queues
FROM30=$(py "import datetime as dt;print((dt.datetime.now(dt.timezone.utc)-dt.timedelta(days=30)).strftime('%Y-%m-%dT%H:%M:%SZ'))")
TO=$(py "import datetime as dt;print((dt.datetime.now(dt.timezone.utc)+dt.timedelta(minutes=1)).strftime('%Y-%m-%dT%H:%M:%SZ'))")
req GET "/v0/agents?from=$FROM30&to=$TO" "$RK"
ck - "agents list" "s==200 and d['success'] is True and d['data'] and all(isinstance(a['agentId'],str) and 'totalActionsWithResponse' in a['metrics'] and set(a['workload'])=={'active','closed','cancelled'} for a in d['data'])"
ck - "agent ids preserved" "set(['00731','1029384756102938475','9007199254740993']) <= set(a['agentId'] for a in d['data'])"
req GET "/v0/agents/00731?from=$FROM30&to=$TO" "$RK"
ck - "agent detail" "s==200 and d['success'] is True and all(k in d['data'] for k in ('metrics','aggregatedMetrics','currentWorkload','queues')) and isinstance(d['data']['metrics'],list)"
req GET /v0/agents/nobody "$RK"; ck - "unknown agent -> 404" "s==404 and $ERRB"
req GET /v0/agents/00731 "$BRK"; ck S09 "org A agent invisible to org B" "s==404"
req GET "/v0/queues?from=$FROM30&to=$TO" "$RK"
ck - "queues" "s==200 and d['success'] is True and any(q['queueId'] is None for q in d['data']) and all('averageSentimentScore' in q['metrics'] for q in d['data'])"
ck S27 "workload buckets count actions" "all(q['workload']['active']+q['workload']['closed']+q['workload']['cancelled']==q['metrics']['totalActions'] for q in d['data'])"
QSUM=$(val "sum(q['metrics']['totalActions'] for q in d['data'])")
req GET "/v0/action/list?pageSize=1&from=$FROM30&to=$TO&filter=responded=true" "$RK"; N1=$(val "d['totalRecords']")
req GET "/v0/action/list?pageSize=1&from=$FROM30&to=$TO&filter=responded=false" "$RK"; N2=$(val "d['totalRecords']")
ck - "queue totals add up to action count" "$QSUM == $N1 + $N2"
req GET "/v0/queues?from=bogus" "$RK"; ck - "queues bad from -> 400" "s==400"

# ------------------------------------------------------------------ analytics
req GET "/v0/analytics/tags?limit=3&from=$FROM30&to=$TO" "$RK"
ck - "tags analytics" "s==200 and d['success'] is True and set(d['data']['summary'])>={'totalTags','totalTagGroups','totalTaggedRecords','totalActions'} and len(d['data']['tagBreakdown'])<=3 and d['data']['pagination']['limit']==3 and d['data']['pagination']['hasMore'] is True"
ck - "volumeByTag total = responded + notResponded" "all(v['total']==v['responded']+v['notResponded'] for v in d['data']['volumeByTag'])"
req GET "/v0/analytics/tags?search=bill&respondedOnly=true" "$RK"; ck - "tags search" "s==200"
req GET "/v0/analytics/tags?limit=0" "$RK"; ck - "tags limit=0 -> 400" "s==400"
req GET "/v0/analytics/tags/volume?topTagsLimit=2" "$RK"
ck - "tags volume" "s==200 and isinstance(d['data']['data'],list) and len(d['data']['tags'])<=2 and all(isinstance(t,str) for t in d['data']['tags'])"
req GET "/v0/analytics/tags/volume?tagIds=t_refund,0007" "$RK"
ck - "tags volume by ids" "s==200 and sorted(d['data']['tags'])==['churn-risk','refund']"
req GET "/v0/analytics/sentiment?from=$FROM30&to=$TO" "$RK"
ck S18 "sentiment rows carry all four keys" "s==200 and d['data'] and all(isinstance(r['day'],str) and all(isinstance(r.get(k),int) for k in ('Very Negative','Negative','Neutral','Positive')) for r in d['data'])"
req GET "/v0/analytics/sentiment/by-tag" "$RK"
ck - "sentiment by tag" "s==200 and d['data'] and all(set(r)>={'tagName','veryNegative','negative','neutral','positive','totalMentions'} for r in d['data'])"
req GET "/v0/analytics/engagement?platforms=TWITTER,DISCORD" "$RK"
ck - "engagement" "s==200 and all(r['platform'] in ('TWITTER','DISCORD') for r in d['data']['engagementPercentiles']+d['data']['growthTrends']) and isinstance(d['data']['conversionFunnel'],list)"

# ------------------------------------------------------------------ conversation search
req GET /v0/conversations/search "$RK"
ck - "search default" "s==200 and d['success'] is True and d['currentPage']==1 and d['pageSize']==50 and d['totalRecordsCapped'] is False and all(k in x for x in d['data'] for k in ('threadId','easyId','contributors'))"
ck S20 "search conversationJson null" "all(x['conversationJson'] is None for x in d['data'])"
P1=$(val "','.join(x['actionId'] for x in d['data'])")
req GET "/v0/conversations/search?page=2" "$RK"
ck - "page 2 disjoint" "s==200 and not (set('$P1'.split(',')) & set(x['actionId'] for x in d['data']))"
req GET "/v0/conversations/search?pageSize=100" "$RK"; ck - "search pageSize=100" "s==200 and len(d['data'])==100"
req GET "/v0/conversations/search?pageSize=101" "$RK"; ck S03 "search pageSize=101 -> 400" "s==400 and $ERRB"
req GET "/v0/conversations/search?page=0" "$RK"; ck - "search page=0 -> 400" "s==400"
req GET "/v0/conversations/search?page=10001" "$RK"; ck - "search page=10001 -> 400" "s==400"
req GET "/v0/conversations/search?page=10000" "$RK"; ck - "search page=10000" "s==200 and d['data']==[]"
req GET "/v0/conversations/search?filter=platform=DISCORD%2Bresponded=false" "$RK"
ck - "search filter" "s==200 and d['data'] and all(x['platform']=='DISCORD' and x['initialResponseTime'] is None for x in d['data'])"
req GET "/v0/conversations/search?filter=text=refund" "$RK"; ck - "search text" "s==200 and d['totalRecords']>0"
req GET "/v0/conversations/search?filter=bogus" "$RK"; ck - "search malformed filter -> 400" "s==400"
req GET /v0/conversations/search "$IK"; ck - "search with import key -> 403" "s==403"

# ------------------------------------------------------------------ moderation
EXT="smoke-$$-$RANDOM"
CASE=$(py "import json;print(json.dumps({'externalId':'$EXT','sourceSystem':'smoke','sourcePlatform':'snap','sourceAdId':'ad-1','advertiserName':'Acme','market':'US','placement':'feed','landingPageUrl':'https://acme.example/','title':'Spring sale','media':[{'url':'https://cdn.example/a.png','type':'image','position':1}],'attachment':{'type':'web_view','destinationUrl':'https://acme.example/'},'targeting':{'ageMin':18,'geos':['US']},'copy':{'body':'Everything 20% off'}}))")
CASE2=$(py "import json;c=json.loads('''$CASE''');c['title']='Changed title';print(json.dumps(c))")
req POST /v0/moderation/cases "$RK" "$CASE"; ck - "read key cannot submit -> 403" "s==403"
req POST /v0/moderation/cases "$CWK" "$CASE"; ck - "org without ad_policy -> 403" "s==403 and $ERRB"
req POST /v0/moderation/cases/batch "$CWK" "{\"cases\":[$CASE]}"; ck S19 "batch for org without ad_policy -> 403" "s==403"
req POST /v0/moderation/cases "$WK" "$CASE"
ck - "case accepted" "s==202 and d['status']=='accepted' and d['analysisStatus']=='pending' and d['externalId']=='$EXT' and isinstance(d['caseId'],str) and isinstance(d['evaluationId'],str) and d['idempotency']['replayed'] is False"
CID=$(val "d['caseId']")
req GET "/v0/moderation/cases/$CID" "$RK"
ck S16 "new case pending without decision" "s==200 and d['analysisStatus'] in ('pending','running') and 'decision' not in d"
req POST /v0/moderation/cases "$WK" "$CASE"
ck S21 "exact resubmission -> duplicate, replayed" "s==202 and d['status']=='duplicate' and d['caseId']=='$CID' and d['idempotency']['replayed'] is True"
req POST /v0/moderation/cases "$WK" "$CASE2"
ck S13 "changed content under same externalId -> 409" "s==409 and $ERRB"
req POST /v0/moderation/cases "$BWK" "$CASE2"
ck S14 "externalId is per organization" "s==202 and d['status']=='accepted' and d['caseId']!='$CID'"
req GET "/v0/moderation/cases/$CID" "$BRK"; ck - "org B cannot read org A case" "s==404"
req GET "/v0/moderation/cases/mc_nope" "$RK"; ck - "unknown case -> 404" "s==404"
req POST /v0/moderation/cases "$WK" '{"externalId":"x"}'
ck - "incomplete -> 422" "s==422 and $ERRB and d['code']=='MODERATION_INPUT_INCOMPLETE' and 'title' in d['missingFields']"
BADCTA=$(py "import json;c=json.loads('''$CASE''');c['externalId']='cta-$$';c['callToAction']='CLICK';print(json.dumps(c))")
req POST /v0/moderation/cases "$WK" "$BADCTA"
ck - "invalid -> 422" "s==422 and d['code']=='MODERATION_INPUT_INVALID' and 'callToAction' in d['invalidFields']"
req POST /v0/moderation/cases "$WK" '{"externalId":'; ck - "malformed JSON -> 400" "s==400 and $ERRB"
ZZ=$(py "import json;c=json.loads('''$CASE''');c['externalId']='zz-$$';print(json.dumps(c))")
AA=$(py "import json;c=json.loads('''$CASE''');c['externalId']='aa-$$';print(json.dumps(c))")
req POST /v0/moderation/cases/batch "$WK" "{\"cases\":[$ZZ,{\"externalId\":\"mm-$$\"},$AA,$CASE2]}"
ck S15 "batch results in input order" "s==202 and [r['externalId'] for r in d['results']]==['zz-$$','mm-$$','aa-$$','$EXT']"
ck - "batch statuses" "s==202 and sorted([r['status'] for r in d['results']])==['accepted','accepted','rejected','rejected'] and all('caseId' in r for r in d['results'])"
req POST /v0/moderation/cases/batch "$WK" '{"cases":[]}'; ck - "empty batch -> 400" "s==400"
BIG=$(py "import json;c=json.loads('''$CASE''');print(json.dumps({'cases':[dict(c, externalId='b%d-$$' % i) for i in range(101)]}))")
printf '%s' "$BIG" > "$T/big.json"
req POST /v0/moderation/cases/batch "$WK" "@$T/big.json"; ck - "101 cases -> 400" "s==400"
sleep 2
req GET "/v0/moderation/cases/$CID" "$RK"
ck - "case completes with decision" "s==200 and d['analysisStatus']=='completed' and d['decision']['disposition'] in ('age_gate','approve','escalate','reject') and d['decision']['decisionSource'] in ('model','fail_closed')"

# ------------------------------------------------------------------ ingestion
REC='{"externalId":"r1","authorId":"u1","authorName":"User","body":"hello","createdAt":"2024-05-01T00:00:00Z","recordType":"message"}'
ING="{\"platform\":\"DISCORD\",\"serverId\":\"srv1\",\"serverName\":\"Server\",\"records\":[$REC]}"
req POST /v0/ingest/records "$IK" "$ING"; ck - "ingest accepted" "s==202 and d=={'status':'accepted','accepted':1}"
req POST /v0/ingest/records "$WK" "$ING"; ck S11 "write key cannot ingest -> 403" "s==403 and $ERRB"
req POST /v0/ingest/records "$RK" "$ING"; ck - "read key cannot ingest -> 403" "s==403"
py "import json;r=json.loads('''$REC''');print(json.dumps({'platform':'SLACK','serverId':'s','serverName':'S','records':[dict(r,externalId='e%d'%i) for i in range(500)]}))" > "$T/i500.json"
req POST /v0/ingest/records "$IK" "@$T/i500.json"; ck S17 "500 records accepted" "s==202 and d['accepted']==500"
py "import json;r=json.loads('''$REC''');print(json.dumps({'platform':'SLACK','serverId':'s','serverName':'S','records':[dict(r,externalId='e%d'%i) for i in range(501)]}))" > "$T/i501.json"
req POST /v0/ingest/records "$IK" "@$T/i501.json"; ck - "501 records -> 422" "s==422 and $ERRB"
req POST /v0/ingest/records "$IK" "${ING/DISCORD/discord}"; ck S28 "platform must be one of the listed values" "s==422 and $ERRB"
req POST /v0/ingest/records "$IK" "${ING/\"body\":\"hello\"/\"body\":\"hello\",\"score\":5.5}"; ck - "score > 5 -> 422" "s==422"
req POST /v0/ingest/records "$IK" "${ING/\"body\":\"hello\"/\"body\":\"hello\",\"score\":5}"; ck - "score 5 ok" "s==202"
req POST /v0/ingest/records "$IK" "${ING/\"body\":\"hello\"/\"body\":\"hello\",\"url\":\"ftp://x/y\"}"; ck - "non-http url -> 422" "s==422"
req POST /v0/ingest/records "$IK" '{"platform":"DISCORD"'; ck - "malformed ingest JSON -> 422" "s==422 and $ERRB"
req POST /v0/ingest/records "$IK" '{"platform":"DISCORD","serverId":"s","serverName":"S","records":[]}'; ck - "0 records -> 422" "s==422"

# ------------------------------------------------------------------ docs, routing, robustness
req GET /docs ""; ck - "docs page" "s==200 and 'text/html' in hdr and 'swagger' in raw.lower() and '/docs/json' in raw"
req GET /docs/json ""
ck S26 "openapi lists every endpoint" "s==200 and d['openapi'].startswith('3') and all(p in d['paths'] for p in ['/v0/action/list','/v0/action/{id}','/v0/actions/{actionId}/custom-fields','/v0/agents','/v0/agents/{id}','/v0/queues','/v0/analytics/tags','/v0/analytics/tags/volume','/v0/analytics/sentiment','/v0/analytics/sentiment/by-tag','/v0/analytics/engagement','/v0/conversations/search','/v0/moderation/cases','/v0/moderation/cases/batch','/v0/moderation/cases/{caseId}','/v0/ingest/records']) and 'patch' in d['paths']['/v0/actions/{actionId}/custom-fields']"
req GET /v0/nothing "$RK"; ck - "unknown route -> 404 JSON" "s==404 and $ERRB"
req DELETE /v0/agents "$RK"; ck - "wrong method -> 405" "s==405 and $ERRB"
req POST /v0/action/list "$RK" '{}'; ck - "POST on list -> 405" "s==405"
req GET /v0/moderation/cases/batch "$RK"; ck - "GET batch -> 405" "s==405"
req POST /v0/moderation/cases "$WK" '[1,2,3]'; ck - "array body -> 400" "s==400"
req POST /v0/moderation/cases "$WK" "$(py "print('['*100000)")"; ck - "deep nesting -> 400" "s==400"
req POST /v0/ingest/records "$IK" "$(py "print('{\"platform\":' + '9'*5000 + '}')")"; ck - "huge number -> 422" "s==422"
req PATCH /v0/actions/ZD-10045/custom-fields "$WK" '{"fields":[{"fieldName":"escalationCount","value":1e400}]}'; ck - "1e400 -> 422" "s in (400,422)"
req GET "/v0/analytics/tags?offset=99999999999999999999999999" "$RK"; ck - "huge offset -> 400" "s==400"
req GET "/v0/action/%ff%fe" "$RK"; ck - "bad percent-encoding" "s in (400,404)"
req GET "/v0/agents?from=0001-01-01&to=9999-12-31" "$RK"; ck - "extreme window" "s in (200,400)"
grep -q 'Traceback' "$T/err" && { echo "  FAIL [-] server logged a traceback"; FAIL=$((FAIL+1)); FAILED_TAGS="$FAILED_TAGS -"; sed -n 1,40p "$T/err"; }

# ------------------------------------------------------------------ verdict
if [ -z "$DEV" ]; then
  echo "conforming: $PASS passed, $FAIL failed"
  [ "$FAIL" -eq 0 ]
else
  ok=0
  for id in ${DEV//,/ }; do
    if echo " $FAILED_TAGS " | grep -q " $id "; then echo "$id: detected ($FAIL failing checks)"; else echo "$id: NOT detected"; ok=1; fi
  done
  exit $ok
fi
