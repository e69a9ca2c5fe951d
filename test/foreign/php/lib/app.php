<?php
declare(strict_types=1);

const JSON_CT = 'application/json; charset=utf-8';
const PLATFORMS = ['DISCORD', 'SLACK', 'GITHUB', 'ZENDESK', 'TELEGRAM', 'FACEBOOK_GROUP', 'TWITTER_COMMUNITY', 'SALESFORCE', 'FACEBOOK',
    'TWITTER', 'THREADS', 'TIKTOK', 'INSTAGRAM', 'LINKEDIN', 'WHATSAPP', 'YOUTUBE', 'GAINSIGHT', 'APPSTORE', 'GOOGLE_PLAY', 'HIGHER_LOGIC',
    'DISCOURSE', 'CUSTOM_FORM', 'MODERATION_API', 'CHROME_WEB_STORE', 'CANNY'];
const SEARCH_CAP = 10000;

final class HttpError extends Exception
{
    public array $extra;
    public int $status;
    public function __construct(int $status, string $msg, array $extra = [])
    {
        parent::__construct($msg);
        $this->status = $status;
        $this->extra = $extra;
    }
}

function ok($data, int $code = 200): array
{
    return [$code, ['Content-Type' => JSON_CT], json_out($data)];
}

function err(int $code, string $msg, array $extra = []): array
{
    return [$code, ['Content-Type' => JSON_CT], json_out(['success' => false, 'error' => $msg] + $extra)];
}

/** Parse a query string. DSL parameters keep a literal '+' (term separator); others use form decoding. */
function parse_query(string $qs): array
{
    $out = [];
    if ($qs === '') return $out;
    foreach (explode('&', $qs) as $pair) {
        if ($pair === '') continue;
        $p = strpos($pair, '=');
        $rawName = $p === false ? $pair : substr($pair, 0, $p);
        $rawVal = $p === false ? '' : substr($pair, $p + 1);
        $name = urldecode($rawName);
        $val = ($name === 'filter' || $name === 'fullFilter') ? rawurldecode($rawVal) : urldecode($rawVal);
        if (!valid_utf8($val)) throw new HttpError(400, "Query parameter '$name' is not valid UTF-8");
        $out[$name] = $val;
    }
    return $out;
}

function handle_request(string $method, string $target, array $headers, string $body): array
{
    if (preg_match('#^https?://[^/]+(/.*)?$#i', $target, $m)) $target = $m[1] ?? '/';
    if ($target === '' || $target[0] !== '/') return err(400, 'Invalid request target');
    $qpos = strpos($target, '?');
    $rawPath = $qpos === false ? $target : substr($target, 0, $qpos);
    $qs = $qpos === false ? '' : substr($target, $qpos + 1);
    $hpos = strpos($qs, '#');
    if ($hpos !== false) $qs = substr($qs, 0, $hpos);
    $segs = explode('/', substr($rawPath, 1));
    foreach ($segs as &$s) $s = rawurldecode($s);
    unset($s);
    $isHead = $method === 'HEAD';
    if ($isHead) $method = 'GET';

    try {
        // ---- documentation host (no key required)
        $docPath = '/' . implode('/', $segs);
        $docs = docs_route($docPath);
        if ($docs !== null) {
            if ($method !== 'GET') return [405, ['Content-Type' => JSON_CT, 'Allow' => 'GET, HEAD'], json_out(['success' => false, 'error' => 'Method not allowed'])];
            return $docs;
        }
        if (($segs[0] ?? '') !== 'v0') return err(404, 'Not found');

        // ---- authentication
        $st = $GLOBALS['STORE'];
        $key = $headers['x-api-key'] ?? '';
        if ($key === '') return err(401, 'Missing API key');
        $k = $st->keys[$key] ?? null;
        if ($k === null) return err(401, 'Invalid API key');
        $now = now_ms();
        if ($k['revoked']) {
            return dev('P15') ? [401, ['Content-Type' => JSON_CT], json_out(['success' => false, 'error' => ['code' => 'KEY_REVOKED', 'message' => 'API key has been revoked']])]
                : err(401, 'API key has been revoked');
        }
        if ($k['expires'] !== null && $k['expires'] <= $now) {
            return dev('P15') ? [401, ['Content-Type' => JSON_CT], json_out(['success' => false, 'error' => ['code' => 'KEY_EXPIRED', 'message' => 'API key has expired']])]
                : err(401, 'API key has expired');
        }
        $ctx = ['org' => $k['org'], 'scopes' => $k['scopes'], 'now' => $now, 'key' => $k['name'], 'st' => $st];

        $q = parse_query($qs);
        $path = array_slice($segs, 1);
        $n = count($path);
        $route = null; $allow = null; $args = [];
        $p0 = $path[0] ?? '';
        if ($n === 2 && $p0 === 'action' && $path[1] === 'list') { $allow = ['GET']; $route = 'action_list'; }
        elseif ($n === 2 && $p0 === 'action') { $allow = ['GET']; $route = 'action_detail'; $args = [$path[1]]; }
        elseif ($n === 3 && $p0 === 'actions' && $path[2] === 'custom-fields') { $allow = ['GET', 'PATCH']; $route = $method === 'PATCH' ? 'cf_patch' : 'cf_get'; $args = [$path[1]]; }
        elseif ($n === 1 && $p0 === 'agents') { $allow = ['GET']; $route = 'agents'; }
        elseif ($n === 2 && $p0 === 'agents') { $allow = ['GET']; $route = 'agent_detail'; $args = [$path[1]]; }
        elseif ($n === 1 && $p0 === 'queues') { $allow = ['GET']; $route = 'queues'; }
        elseif ($n === 2 && $p0 === 'analytics' && $path[1] === 'tags') { $allow = ['GET']; $route = 'tags'; }
        elseif ($n === 3 && $p0 === 'analytics' && $path[1] === 'tags' && $path[2] === 'volume') { $allow = ['GET']; $route = 'tags_volume'; }
        elseif ($n === 2 && $p0 === 'analytics' && $path[1] === 'sentiment') { $allow = ['GET']; $route = 'sentiment'; }
        elseif ($n === 3 && $p0 === 'analytics' && $path[1] === 'sentiment' && $path[2] === 'by-tag') { $allow = ['GET']; $route = 'sentiment_tag'; }
        elseif ($n === 2 && $p0 === 'analytics' && $path[1] === 'engagement') { $allow = ['GET']; $route = 'engagement'; }
        elseif ($n === 2 && $p0 === 'conversations' && $path[1] === 'search') { $allow = ['GET']; $route = 'search'; }
        elseif ($n === 2 && $p0 === 'moderation' && $path[1] === 'cases') { $allow = ['POST']; $route = 'mod_post'; }
        elseif ($n === 3 && $p0 === 'moderation' && $path[1] === 'cases' && $path[2] === 'batch') { $allow = ['POST']; $route = 'mod_batch'; }
        elseif ($n === 3 && $p0 === 'moderation' && $path[1] === 'cases') { $allow = ['GET']; $route = 'mod_get'; $args = [$path[2]]; }
        elseif ($n === 3 && $p0 === 'ingest' && $path[1] === 'records' && $path[2] === '') { $allow = null; }
        elseif ($n === 2 && $p0 === 'ingest' && $path[1] === 'records') { $allow = ['POST']; $route = 'ingest'; }
        if ($allow === null) return err(404, 'Not found');
        if (!in_array($method, $allow, true)) {
            return [405, ['Content-Type' => JSON_CT, 'Allow' => implode(', ', $allow)], json_out(['success' => false, 'error' => 'Method not allowed'])];
        }
        foreach ($args as $a) {
            if ($a === '') return err(404, 'Not found');
        }
        $fn = 'h_' . $route;
        return $fn($ctx, $q, $body, ...$args);
    } catch (HttpError $e) {
        return err($e->status, $e->getMessage(), $e->extra);
    }
}

function need_scope(array $ctx, string $scope): void
{
    if (!in_array($scope, $ctx['scopes'], true)) {
        throw new HttpError(403, "This API key lacks the '$scope' scope required for this route");
    }
}

// ------------------------------------------------------------------ parameters

function q_bool(array $q, string $name, bool $default): bool
{
    if (!array_key_exists($name, $q)) return $default;
    $v = $q[$name];
    if ($v === 'true') return true;
    if ($v === 'false') return false;
    throw new HttpError(400, "Query parameter '$name' must be true or false");
}

function q_int(array $q, string $name, int $default, int $min, int $max): int
{
    if (!array_key_exists($name, $q)) return $default;
    $v = $q[$name];
    if (!preg_match('/^\d{1,9}$/', $v)) throw new HttpError(400, "Query parameter '$name' must be an integer between $min and $max");
    $i = (int)$v;
    if ($i < $min || $i > $max) throw new HttpError(400, "Query parameter '$name' must be an integer between $min and $max");
    return $i;
}

/** @return array{0:int,1:int} [fromMs, toMs], both inclusive */
function q_window(array $q, int $now, int $defaultDays, bool $toEndOfDay = false): array
{
    $to = $now;
    if (array_key_exists('to', $q)) {
        $p = parse_iso($q['to']);
        if ($p === null) throw new HttpError(400, "Query parameter 'to' must be an ISO 8601 date or timestamp");
        $to = $p[0];
        if ($p[1] && $toEndOfDay) $to += 86400000 - 1;
    }
    if (array_key_exists('from', $q)) {
        $p = parse_iso($q['from']);
        if ($p === null) throw new HttpError(400, "Query parameter 'from' must be an ISO 8601 date or timestamp");
        $from = $p[0];
    } else {
        $from = $to - $defaultDays * 86400000;
    }
    if ($from > $to) throw new HttpError(400, "'from' must not be later than 'to'");
    return [$from, $to];
}

// ------------------------------------------------------------------ filter DSL

const DSL_KEYS = ['platform', 'status', 'queue', 'sentiment', 'tag', 'assigneeUserId', 'assignee', 'userId', 'recordType', 'responded',
    'actionId', 'channelName', 'serverName', 'isPublicPost', 'threadId', 'easyId'];

/** Parse `key=value+key=value`; values may be comma-separated alternatives. */
function dsl_parse(string $s): array
{
    $terms = [];
    if (trim($s) === '') return $terms;
    foreach (explode('+', $s) as $t) {
        $t = trim($t);
        if ($t === '') throw new HttpError(400, 'Invalid filter: empty term');
        $p = strpos($t, '=');
        if ($p === false || $p === 0) throw new HttpError(400, "Invalid filter term '$t': expected key=value");
        $k = trim(substr($t, 0, $p));
        $v = trim(substr($t, $p + 1));
        if (!in_array($k, DSL_KEYS, true)) throw new HttpError(400, "Invalid filter: unknown key '$k'");
        if ($v === '') throw new HttpError(400, "Invalid filter term '$t': empty value");
        $vals = array_map('trim', explode(',', $v));
        if ($k === 'responded' || $k === 'isPublicPost') {
            foreach ($vals as $x) if ($x !== 'true' && $x !== 'false') throw new HttpError(400, "Invalid filter: '$k' must be true or false");
        }
        if ($k === 'assignee') $k = 'assigneeUserId';
        $terms[] = [$k, $vals];
    }
    return $terms;
}

function dsl_match(array $a, array $terms, Store $st): bool
{
    foreach ($terms as [$k, $vals]) {
        $hit = false;
        foreach ($vals as $v) {
            switch ($k) {
                case 'platform': case 'status': case 'sentiment':
                    $hit = $a[$k] !== null && strcasecmp($a[$k], $v) === 0; break;
                case 'queue':
                    $hit = $a['queue'] !== null && ($a['queue'] === $v || strcasecmp($st->queues[$a['org']][$a['queue']] ?? '', $v) === 0); break;
                case 'tag':
                    foreach ($a['tags'] as $t) if ($t['tagId'] === $v || strcasecmp($t['value'], $v) === 0) { $hit = true; break; }
                    break;
                case 'assigneeUserId': $hit = $a['assignee'] === $v; break;
                case 'userId': $hit = $a['user']['userId'] === $v; break;
                case 'recordType': $hit = $a['recordType'] !== null && strcasecmp($a['recordType'], $v) === 0; break;
                case 'responded': $hit = $a['responded'] === ($v === 'true'); break;
                case 'isPublicPost': $hit = $a['isPublicPost'] === ($v === 'true'); break;
                case 'actionId': $hit = $a['actionId'] === $v; break;
                case 'channelName': $hit = $a['channelName'] === $v; break;
                case 'serverName': $hit = $a['serverName'] === $v; break;
                case 'threadId': $hit = $a['threadId'] === $v; break;
                case 'easyId': $hit = $a['easyId'] === $v; break;
            }
            if ($hit) break;
        }
        if (!$hit) return false;
    }
    return true;
}

// ------------------------------------------------------------------ record shapes

function assignee_info(array $a, Store $st): array
{
    if ($a['assignee'] === null) return ['name' => null, 'email' => null, 'userId' => null, 'role' => null];
    $g = $st->agents[$a['org']][$a['assignee']] ?? [null, null, null];
    return ['name' => $g[0], 'email' => $g[1], 'userId' => $a['assignee'], 'role' => $g[2]];
}

function service_url(array $a): string
{
    return 'https://app.cca.example/' . $a['org'] . '/actions/' . rawurlencode($a['actionId']);
}

function tag_list(array $tags): array
{
    return array_map(fn($t) => ['value' => $t['value'], 'group' => $t['group']], $tags);
}

function cf_map(array $a): stdClass
{
    $o = new stdClass();
    foreach ($a['cf'] as $k => $v) $o->$k = $v['value'];
    return $o;
}

function conversation_list(array $a): array
{
    return array_map(fn($m) => [
        'id' => $m['id'], 'timestamp' => fmt_ts($m['timestamp']), 'author' => $m['author'], 'authorId' => $m['authorId'],
        'authorType' => $m['authorType'], 'message' => $m['message'], 'parentMessageId' => $m['parent'], 'mediaUrls' => $m['mediaUrls'],
    ], $a['messages']);
}

function summary_record(array $a, Store $st, bool $withConv): array
{
    $as = assignee_info($a, $st);
    return [
        'actionId' => $a['actionId'],
        'actionTitle' => $a['actionTitle'],
        'actionSummary' => $a['actionSummary'],
        'status' => $a['status'],
        'platform' => $a['platform'],
        'recordType' => $a['recordType'],
        'isPublicPost' => $a['isPublicPost'],
        'serviceURL' => service_url($a),
        'sourceURL' => $a['sourceURL'],
        'queue' => $a['queue'] === null ? null : ($st->queues[$a['org']][$a['queue']] ?? $a['queue']),
        'initialQueue' => $a['initialQueue'] === null ? null : ($st->queues[$a['org']][$a['initialQueue']] ?? $a['initialQueue']),
        'sentiment' => $a['sentiment'],
        'sentimentScore' => $a['sentimentScore'],
        'moderation' => $a['moderation'],
        'assigneeName' => $as['name'],
        'assigneeEmail' => $as['email'],
        'assigneeUserId' => $as['userId'],
        'assigneeRole' => $as['role'],
        'userName' => $a['user']['name'],
        'userUsername' => $a['user']['username'],
        'userId' => $a['user']['userId'],
        'userEmail' => $a['user']['email'],
        'userFollowerCount' => $a['user']['followerCount'],
        'createdAt' => fmt_ts($a['createdAt']),
        'updatedAt' => fmt_ts($a['updatedAt']),
        'initialMessageTime' => fmt_ts($a['initialMessageTime']),
        'initialResponseTime' => fmt_ts($a['initialResponseTime']),
        'closeTime' => fmt_ts($a['closeTime']),
        'claimTime' => fmt_ts($a['claimTime']),
        'firstResponseTime' => fmt_dur($a['frtSec']),
        'handleTime' => fmt_dur($a['handleSec']),
        'serverName' => $a['serverName'],
        'channelName' => $a['channelName'],
        'csatScore' => $a['csatScore'],
        'csatFeedback' => $a['csatFeedback'],
        'estimatedCSAT' => $a['estimatedCSAT'],
        'totalMessages' => $a['totalMessages'],
        'totalUserMessages' => $a['totalUserMessages'],
        'totalAgentMessages' => $a['totalAgentMessages'],
        'tags' => tag_list($a['tags']),
        'closingTags' => tag_list($a['closingTags']),
        'customFields' => cf_map($a),
        'rootMessageText' => $a['rootMessageText'],
        'conversationJson' => $withConv ? json_out(conversation_list($a)) : null,
    ];
}

function detail_record(array $a, Store $st): array
{
    $user = $a['user'];
    if (dev('P04') && preg_match('/^\d+$/', $user['userId']) && (string)(int)$user['userId'] === $user['userId']) $user['userId'] = (int)$user['userId'];
    return [
        'user' => $user,
        'actionId' => $a['actionId'],
        'actionTitle' => $a['actionTitle'],
        'actionSummary' => $a['actionSummary'],
        'platform' => $a['platform'],
        'recordType' => $a['recordType'],
        'isPublicPost' => $a['isPublicPost'],
        'sentiment' => $a['sentiment'],
        'sentimentScore' => $a['sentimentScore'],
        'queue' => $a['queue'] === null ? null : ($st->queues[$a['org']][$a['queue']] ?? $a['queue']),
        'initialQueue' => $a['initialQueue'] === null ? null : ($st->queues[$a['org']][$a['initialQueue']] ?? $a['initialQueue']),
        'status' => $a['status'],
        'createdAt' => fmt_ts($a['createdAt']),
        'serviceURL' => service_url($a),
        'sourceURL' => $a['sourceURL'],
        'updatedAt' => fmt_ts($a['updatedAt']),
        'initialMessageTime' => fmt_ts($a['initialMessageTime']),
        'initialResponseTime' => fmt_ts($a['initialResponseTime']),
        'closeTime' => fmt_ts($a['closeTime']),
        'firstResponseTime' => fmt_dur($a['frtSec']),
        'handleTime' => fmt_dur($a['handleSec']),
        'claimTime' => fmt_ts($a['claimTime']),
        'assignee' => assignee_info($a, $st),
        'serverName' => $a['serverName'],
        'channelName' => $a['channelName'],
        'tags' => tag_list($a['tags']),
        'closingTags' => tag_list($a['closingTags']),
        'moderation' => $a['moderation'],
        'comments' => $a['comments'],
        'messages' => array_map(function ($m) {
            $r = ['id' => $m['id'], 'timestamp' => fmt_ts($m['timestamp']), 'author' => $m['author']];
            if ($m['authorId'] !== null) $r['authorId'] = $m['authorId'];
            $r += ['authorType' => $m['authorType'], 'message' => $m['message'], 'mediaUrls' => $m['mediaUrls']];
            return $r;
        }, $a['messages']),
        'conversation' => conversation_list($a),
        'rootMessageText' => $a['rootMessageText'],
        'customFields' => cf_map($a),
        'csatScore' => $a['csatScore'],
        'csatFeedback' => $a['csatFeedback'],
        'estimatedCSAT' => $a['estimatedCSAT'],
        'totalMessages' => $a['totalMessages'],
        'totalUserMessages' => $a['totalUserMessages'],
        'totalAgentMessages' => $a['totalAgentMessages'],
    ];
}

function find_action(Store $st, string $org, string $id): ?int
{
    if (dev('P05')) {
        foreach ($st->actions[$org] as $i => $a) {
            if ($a['actionId'] == $id) return $i; // loose comparison
        }
        return null;
    }
    return $st->actionIdx[$org][$id] ?? null;
}

// ------------------------------------------------------------------ actions

function h_action_list(array $ctx, array $q): array
{
    need_scope($ctx, 'read');
    $st = $ctx['st'];
    $pageSize = q_int($q, 'pageSize', 50, 1, dev('P01') ? 499 : 500);
    $sortBy = $q['sortBy'] ?? 'createdAt';
    if ($sortBy !== 'createdAt' && $sortBy !== 'updatedAt') throw new HttpError(400, "Query parameter 'sortBy' must be createdAt or updatedAt");
    $withConv = q_bool($q, 'includeFullConversation', false);
    $terms = [];
    $responded = true; // default: responded actions only
    if (array_key_exists('fullFilter', $q)) {
        if (array_key_exists('filter', $q) || array_key_exists('filterJson', $q)) {
            throw new HttpError(400, 'fullFilter must not be combined with filter or filterJson');
        }
        if (ulen($q['fullFilter']) > 10000) throw new HttpError(400, 'fullFilter exceeds 10000 characters');
        $terms = dsl_parse($q['fullFilter']);
        $responded = null;
    } else {
        if (array_key_exists('filter', $q) && $q['filter'] !== '') {
            foreach (explode('+', $q['filter']) as $t) {
                $p = strpos($t, '=');
                if ($p === false) continue;
                if (trim(substr($t, 0, $p)) === 'responded') {
                    $v = trim(substr($t, $p + 1));
                    if ($v !== 'true' && $v !== 'false') throw new HttpError(400, "Invalid filter: 'responded' must be true or false");
                    $responded = $v === 'true';
                }
            }
        }
        if (array_key_exists('filterJson', $q)) {
            $j = json_decode($q['filterJson'], false, 64);
            if (!is_obj($j)) throw new HttpError(400, 'filterJson must be a JSON object');
            if (property_exists($j, 'responded')) {
                $v = $j->responded;
                if ($v === 'true') $v = true;
                if ($v === 'false') $v = false;
                if (!is_bool($v)) throw new HttpError(400, "filterJson 'responded' must be a boolean");
                $responded = $v;
            }
        }
    }
    [$from, $to] = q_window($q, $ctx['now'], 7, dev('P02'));
    $field = ($sortBy === 'updatedAt' && !dev('P03')) ? 'updatedAt' : 'createdAt';
    $rows = [];
    foreach ($st->actions[$ctx['org']] as $a) {
        $t = $a[$field];
        if ($t === null || $t < $from || $t > $to) continue;
        if ($sortBy === 'updatedAt' && $a['updatedAt'] === null) continue;
        if ($responded !== null && $a['responded'] !== $responded) continue;
        if ($terms && !dsl_match($a, $terms, $st)) continue;
        $rows[] = $a;
    }
    if ($sortBy === 'updatedAt') {
        usort($rows, fn($x, $y) => [$y['updatedAt'], $x['actionId']] <=> [$x['updatedAt'], $y['actionId']]);
    }
    $total = count($rows);
    $data = [];
    foreach (array_slice($rows, 0, $pageSize) as $a) $data[] = summary_record($a, $st, $withConv);
    return ok([
        'data' => $data,
        'totalRecords' => $total,
        'currentPage' => 1,
        'pageSize' => $pageSize,
        'totalPages' => (int)ceil($total / $pageSize),
    ]);
}

function h_action_detail(array $ctx, array $q, string $body, string $id): array
{
    need_scope($ctx, 'read');
    $st = $ctx['st'];
    $i = find_action($st, $ctx['org'], $id);
    if ($i === null) throw new HttpError(404, 'Action not found');
    return ok(detail_record($st->actions[$ctx['org']][$i], $st));
}

// ------------------------------------------------------------------ custom fields

function h_cf_get(array $ctx, array $q, string $body, string $id): array
{
    need_scope($ctx, 'read');
    $st = $ctx['st'];
    $i = find_action($st, $ctx['org'], $id);
    if ($i === null) throw new HttpError(404, 'Action not found');
    $a = $st->actions[$ctx['org']][$i];
    $fields = [];
    foreach ($st->cfDefs[$ctx['org']] as $name => [$disp, $type, $opts]) {
        $f = ['fieldName' => $name, 'displayName' => $disp, 'fieldType' => $type, 'value' => $a['cf'][$name]['value'] ?? null];
        if (isset($a['cf'][$name])) $f['provenance'] = $a['cf'][$name]['provenance'];
        $fields[] = $f;
    }
    return ok(['actionId' => $a['actionId'], 'fields' => $fields]);
}

function cf_check_value(string $type, ?array $opts, $v): ?string
{
    if ($v === null) return null; // null clears the value
    switch ($type) {
        case 'text':
            return is_string($v) ? (ulen($v) <= 10000 ? null : 'Text values are limited to 10000 characters') : 'Expected a string';
        case 'number':
            return ((is_int($v) || is_float($v)) && is_finite((float)$v)) ? null : 'Expected a number';
        case 'boolean':
            return is_bool($v) ? null : 'Expected a boolean';
        case 'date':
            if (!is_string($v) || !preg_match('/^(\d{4})-(\d{2})-(\d{2})$/', $v, $m) || !checkdate((int)$m[2], (int)$m[3], (int)$m[1])) {
                return 'Expected a date in YYYY-MM-DD format';
            }
            return null;
        case 'select':
            return (is_string($v) && in_array($v, $opts, true)) ? null : 'Expected one of: ' . implode(', ', $opts);
        case 'multi_select':
            if (!is_list($v)) return 'Expected an array of options';
            foreach ($v as $x) if (!is_string($x) || !in_array($x, $opts, true)) return 'Each item must be one of: ' . implode(', ', $opts);
            if (count(array_unique($v)) !== count($v)) return 'Options must not repeat';
            return null;
        case 'url':
            return abs_http_url($v) ? null : 'Expected an absolute http or https URL';
    }
    return 'Unsupported field type';
}

function h_cf_patch(array $ctx, array $q, string $body, string $id): array
{
    need_scope($ctx, 'write');
    $st = $ctx['st'];
    $org = $ctx['org'];
    $i = find_action($st, $org, $id);
    if ($i === null) throw new HttpError(404, 'Action not found');
    $j = json_decode($body, false, 128);
    if ($body === '' || json_last_error() !== JSON_ERROR_NONE) {
        throw new HttpError(422, 'Request body must be valid JSON', ['fieldErrors' => ['body' => 'Invalid JSON']]);
    }
    if (!is_obj($j)) throw new HttpError(422, 'Request body must be a JSON object', ['fieldErrors' => ['body' => 'Expected an object']]);
    if (!property_exists($j, 'fields') || !is_list($j->fields)) {
        throw new HttpError(422, 'Validation failed', ['fieldErrors' => ['fields' => 'fields must be an array']]);
    }
    if (count($j->fields) < 1) throw new HttpError(422, 'Validation failed', ['fieldErrors' => ['fields' => 'fields must contain at least 1 item']]);
    $errors = [];
    $updates = [];
    $defs = $st->cfDefs[$org];
    foreach ($j->fields as $n => $f) {
        $p = "fields[$n]";
        if (!is_obj($f)) { $errors[$p] = 'Expected an object'; continue; }
        if (!property_exists($f, 'fieldName') || !is_string($f->fieldName) || $f->fieldName === '') {
            $errors["$p.fieldName"] = 'fieldName must be a non-empty string';
            continue;
        }
        $name = $f->fieldName;
        if (!property_exists($f, 'value')) { $errors[$name] = 'value is required'; continue; }
        if (property_exists($f, 'confidence')) {
            $c = $f->confidence;
            if (!(is_int($c) || is_float($c)) || $c < 0 || $c > 1) { $errors[$name] = 'confidence must be a number between 0 and 1'; continue; }
        }
        if (property_exists($f, 'rationale') && !is_string($f->rationale)) { $errors[$name] = 'rationale must be a string'; continue; }
        if (!isset($defs[$name])) { $errors[$name] = 'Unknown custom field'; continue; }
        $e = cf_check_value($defs[$name][1], $defs[$name][2], $f->value);
        if ($e !== null) { $errors[$name] = $e; continue; }
        $updates[] = [$name, $f->value];
    }
    if ($errors) throw new HttpError(422, 'Validation failed', ['fieldErrors' => (object)$errors]);
    $a = &$st->actions[$org][$i];
    $out = [];
    foreach ($updates as [$name, $v]) {
        if ($v === null) unset($a['cf'][$name]);
        else $a['cf'][$name] = ['value' => $v, 'provenance' => ['source' => 'api', 'updatedAt' => fmt_ts($ctx['now'])]];
        $out[] = ['fieldName' => $name, 'value' => $v];
    }
    $a['updatedAt'] = $ctx['now'];
    unset($a);
    return ok(['actionId' => $st->actions[$org][$i]['actionId'], 'updated' => $out]);
}

// ------------------------------------------------------------------ agents & queues

function window_actions(array $ctx, int $from, int $to, ?bool $responded = null, bool $toExclusive = false, ?string $org = null): array
{
    $rows = [];
    foreach ($ctx['st']->actions[$org ?? $ctx['org']] as $a) {
        $t = $a['createdAt'];
        if ($t < $from || $t > $to || ($toExclusive && $t === $to)) continue;
        if ($responded === true && !$a['responded']) continue;
        $rows[] = $a;
    }
    return $rows;
}

function metrics(array $rows): array
{
    $pick = function (string $k) use ($rows) {
        $v = [];
        foreach ($rows as $a) if ($a[$k] !== null) $v[] = (float)$a[$k];
        return $v;
    };
    $csat = [];
    foreach ($rows as $a) if ($a['csatScore'] !== null && is_numeric($a['csatScore'])) $csat[] = (float)$a['csatScore'];
    $sum = fn(string $k) => array_sum(array_map(fn($a) => (int)($a[$k] ?? 0), $rows));
    return [
        'totalActions' => count($rows),
        'totalMessages' => $sum('totalMessages'),
        'totalAgentMessages' => $sum('totalAgentMessages'),
        'totalUserMessages' => $sum('totalUserMessages'),
        'averageCsat' => avg($csat),
        'averageResponseTime' => avg($pick('frtSec')),
        'averageHandleTime' => avg($pick('handleSec')),
        'averageEstimatedCsat' => avg($pick('estimatedCSAT')),
        'averageResolutionQuality' => avg($pick('resolutionQuality')),
        'averageSentimentChange' => avg($pick('sentimentChange')),
        'averageRubricScore' => avg($pick('rubricScore')),
    ];
}

function workload(array $rows): array
{
    $w = ['active' => 0, 'closed' => 0, 'cancelled' => 0];
    foreach ($rows as $a) {
        if ($a['status'] === 'CLOSED') $w['closed']++;
        elseif ($a['status'] === 'CANCELLED') $w['cancelled']++;
        else $w['active']++;
    }
    return $w;
}

function h_agents(array $ctx, array $q): array
{
    need_scope($ctx, 'read');
    [$from, $to] = q_window($q, $ctx['now'], 30, dev('P02'));
    $rows = window_actions($ctx, $from, $to, null, dev('P14'));
    $by = [];
    foreach ($rows as $a) if ($a['assignee'] !== null) $by[$a['assignee']][] = $a;
    $leak = [];
    if (dev('P07')) {
        foreach (array_keys($ctx['st']->orgs) as $o) {
            foreach (window_actions($ctx, $from, $to, null, false, $o) as $a) if ($a['assignee'] !== null) $leak[$a['assignee']][] = $a;
        }
    }
    $out = [];
    foreach ($ctx['st']->agents[$ctx['org']] as $uid => $info) {
        $mine = $by[$uid] ?? [];
        $m = metrics($mine);
        $resp = count(array_filter($mine, fn($a) => $a['responded']));
        $m['totalActionsWithResponse'] = $resp;
        $out[] = [
            'agentId' => (string)$uid,
            'agentName' => $info[0],
            'totalActionsWithResponse' => $resp,
            'metrics' => $m,
            'workload' => workload(dev('P07') ? ($leak[$uid] ?? []) : $mine),
        ];
    }
    return ok(['success' => true, 'data' => $out]);
}

function h_agent_detail(array $ctx, array $q, string $body, string $id): array
{
    need_scope($ctx, 'read');
    $st = $ctx['st'];
    if (!isset($st->agents[$ctx['org']][$id])) throw new HttpError(404, 'Agent not found');
    [$from, $to] = q_window($q, $ctx['now'], 30, dev('P02'));
    $mine = array_values(array_filter(window_actions($ctx, $from, $to), fn($a) => $a['assignee'] === $id));
    $days = [];
    foreach ($mine as $a) $days[fmt_day($a['createdAt'])][] = $a;
    ksort($days);
    $daily = [];
    foreach ($days as $d => $rows) $daily[] = ['date' => $d] + metrics($rows);
    $qs = [];
    foreach ($mine as $a) $qs[$a['queue'] ?? ''][] = $a;
    $queues = [];
    foreach ($qs as $qid => $rows) {
        $qid = (string)$qid;
        $queues[] = ['queueId' => $qid === '' ? null : $qid, 'queueName' => $qid === '' ? null : ($st->queues[$ctx['org']][$qid] ?? null),
            'totalActions' => count($rows)];
    }
    return ok(['success' => true, 'data' => [
        'agentId' => $id,
        'metrics' => $daily,
        'aggregatedMetrics' => metrics($mine),
        'currentWorkload' => workload($mine),
        'queues' => $queues,
    ]]);
}

function h_queues(array $ctx, array $q): array
{
    need_scope($ctx, 'read');
    $st = $ctx['st'];
    [$from, $to] = q_window($q, $ctx['now'], 30, dev('P02'));
    $rows = window_actions($ctx, $from, $to);
    $by = [];
    foreach ($rows as $a) $by[$a['queue'] ?? ''][] = $a;
    $out = [];
    $entry = function (?string $qid, ?string $name, array $rs) {
        $m = metrics($rs);
        $s = [];
        foreach ($rs as $a) if ($a['sentimentScore'] !== null) $s[] = (float)$a['sentimentScore'];
        $m['averageSentimentScore'] = avg($s);
        return ['queueId' => $qid, 'queueName' => $name, 'averageSentimentScore' => $m['averageSentimentScore'], 'metrics' => $m, 'workload' => workload($rs)];
    };
    foreach ($st->queues[$ctx['org']] as $qid => $name) $out[] = $entry((string)$qid, $name, $by[$qid] ?? []);
    if (isset($by[''])) $out[] = $entry(null, null, $by['']);
    return ok(['success' => true, 'data' => $out]);
}

// ------------------------------------------------------------------ tag & sentiment analytics

function tag_stats(array $rows): array
{
    $t = [];
    foreach ($rows as $a) {
        foreach ($a['tags'] as $tg) {
            $t[$tg['tagId']][] = $a;
        }
    }
    return $t;
}

function h_tags(array $ctx, array $q): array
{
    need_scope($ctx, 'read');
    $st = $ctx['st'];
    [$from, $to] = q_window($q, $ctx['now'], 30, dev('P02'));
    $respOnly = q_bool($q, 'respondedOnly', false);
    $limit = q_int($q, 'limit', 20, 1, 1000);
    $offset = q_int($q, 'offset', 0, 0, 1000000000);
    $search = $q['search'] ?? '';
    $rows = window_actions($ctx, $from, $to, $respOnly ? true : null);
    $byTag = tag_stats($rows);
    $defs = $st->tags[$ctx['org']];
    $groups = [];
    $tagged = 0;
    foreach ($rows as $a) if ($a['tags']) $tagged++;
    foreach (array_keys($byTag) as $tid) $groups[$defs[$tid][1] ?? ''] = true;
    $list = [];
    foreach ($byTag as $tid => $as) {
        $name = $defs[$tid][0]; $group = $defs[$tid][1];
        if ($search !== '') {
            if (dev('P17')) {
                if (!str_contains($name, $search)) continue;
            } else {
                $re = '/' . preg_quote($search, '/') . '/iu';
                if (!preg_match($re, $name) && !preg_match($re, (string)$group)) continue;
            }
        }
        $list[] = [$tid, $name, $group, $as];
    }
    usort($list, fn($x, $y) => [count($y[3]), $x[1]] <=> [count($x[3]), $y[1]]);
    $total = count($list);
    $page = array_slice($list, $offset, $limit);
    $breakdown = [];
    $volume = [];
    foreach ($page as [$tid, $name, $group, $as]) {
        $c = count($as);
        $breakdown[] = ['tagId' => (string)$tid, 'tagName' => $name, 'groupName' => $group, 'count' => $c,
            'percentage' => $tagged ? round($c * 100 / $tagged, 2) : 0];
        $resp = count(array_filter($as, fn($a) => $a['responded']));
        $sent = []; $actn = []; $rel = [];
        foreach ($as as $a) {
            if ($a['sentimentScore'] !== null) $sent[] = (float)$a['sentimentScore'];
            if ($a['actionability'] !== null) $actn[] = (float)$a['actionability'];
            if ($a['relevance'] !== null) $rel[] = (float)$a['relevance'];
        }
        $volume[] = ['tagId' => (string)$tid, 'tagName' => $name, 'total' => $c, 'responded' => $resp, 'notResponded' => $c - $resp,
            'avgSentiment' => avg_or_null($sent), 'avgActionability' => avg_or_null($actn), 'avgRelevance' => avg_or_null($rel)];
    }
    return ok(['success' => true, 'data' => [
        'summary' => ['totalTags' => count($byTag), 'totalTagGroups' => count($groups), 'totalTaggedRecords' => $tagged, 'totalActions' => count($rows)],
        'tagBreakdown' => $breakdown,
        'volumeByTag' => $volume,
        'pagination' => ['total' => $total, 'limit' => $limit, 'offset' => $offset, 'hasMore' => $offset + count($page) < $total],
    ]]);
}

function day_list(int $from, int $to): array
{
    $days = [];
    for ($d = day_start($from); $d <= $to; $d += 86400000) $days[] = fmt_day($d);
    return $days;
}

function h_tags_volume(array $ctx, array $q): array
{
    need_scope($ctx, 'read');
    $st = $ctx['st'];
    [$from, $to] = q_window($q, $ctx['now'], 30, dev('P02'));
    $respOnly = q_bool($q, 'respondedOnly', false);
    $top = q_int($q, 'topTagsLimit', 10, 1, 100);
    $rows = window_actions($ctx, $from, $to, $respOnly ? true : null);
    $byTag = tag_stats($rows);
    $defs = $st->tags[$ctx['org']];
    if (array_key_exists('tagIds', $q) && trim($q['tagIds']) !== '') {
        $sel = [];
        foreach (explode(',', $q['tagIds']) as $t) {
            $t = trim($t);
            if ($t !== '' && isset($defs[$t]) && !in_array($t, $sel, true)) $sel[] = $t;
        }
    } else {
        $cand = array_keys($byTag);
        usort($cand, fn($x, $y) => [count($byTag[$y]), $defs[$x][0]] <=> [count($byTag[$x]), $defs[$y][0]]);
        $sel = array_slice($cand, 0, $top);
    }
    $grid = [];
    foreach (day_list($from, $to) as $d) {
        $grid[$d] = ['date' => $d];
        foreach ($sel as $tid) $grid[$d][$defs[$tid][0]] = 0;
    }
    foreach ($sel as $tid) {
        foreach ($byTag[$tid] ?? [] as $a) {
            $d = fmt_day($a['createdAt']);
            if (isset($grid[$d])) $grid[$d][$defs[$tid][0]]++;
        }
    }
    return ok(['success' => true, 'data' => ['data' => array_values($grid), 'tags' => array_map(fn($t) => $defs[$t][0], $sel)]]);
}

function h_sentiment(array $ctx, array $q): array
{
    need_scope($ctx, 'read');
    [$from, $to] = q_window($q, $ctx['now'], 30, dev('P02'));
    $grid = [];
    foreach (day_list($from, $to) as $d) $grid[$d] = ['day' => $d, 'Very Negative' => 0, 'Negative' => 0, 'Neutral' => 0, 'Positive' => 0];
    foreach (window_actions($ctx, $from, $to) as $a) {
        if ($a['sentiment'] === null) continue;
        $d = fmt_day($a['createdAt']);
        if (isset($grid[$d])) $grid[$d][$a['sentiment']]++;
    }
    return ok(['success' => true, 'data' => array_values($grid)]);
}

function h_sentiment_tag(array $ctx, array $q): array
{
    need_scope($ctx, 'read');
    $defs = $ctx['st']->tags[$ctx['org']];
    [$from, $to] = q_window($q, $ctx['now'], 30, dev('P02'));
    $map = ['Very Negative' => 'veryNegative', 'Negative' => 'negative', 'Neutral' => 'neutral', 'Positive' => 'positive'];
    $out = [];
    foreach (tag_stats(window_actions($ctx, $from, $to)) as $tid => $as) {
        $r = ['tagName' => $defs[$tid][0], 'veryNegative' => 0, 'negative' => 0, 'neutral' => 0, 'positive' => 0, 'totalMentions' => 0];
        foreach ($as as $a) {
            if ($a['sentiment'] === null) continue;
            $r[$map[$a['sentiment']]]++;
            $r['totalMentions']++;
        }
        if ($r['totalMentions'] > 0) $out[] = $r;
    }
    usort($out, fn($x, $y) => [$y['totalMentions'], $x['tagName']] <=> [$x['totalMentions'], $y['tagName']]);
    return ok(['success' => true, 'data' => $out]);
}

function h_engagement(array $ctx, array $q): array
{
    need_scope($ctx, 'read');
    [$from, $to] = q_window($q, $ctx['now'], 30, dev('P02'));
    $plats = null;
    if (array_key_exists('platforms', $q) && trim($q['platforms']) !== '') {
        $plats = [];
        foreach (explode(',', $q['platforms']) as $p) {
            $p = strtoupper(trim($p));
            if ($p === '') continue;
            if (!in_array($p, PLATFORMS, true)) throw new HttpError(400, "Unknown platform '$p'");
            $plats[$p] = true;
        }
    }
    $all = array_values(array_filter($ctx['st']->actions[$ctx['org']], fn($a) => $plats === null || isset($plats[$a['platform']])));
    $rows = array_values(array_filter($all, fn($a) => $a['createdAt'] >= $from && $a['createdAt'] <= $to));
    // percentiles of user messages per customer, per platform
    $per = [];
    foreach ($rows as $a) {
        $per[$a['platform']][$a['user']['userId']] = ($per[$a['platform']][$a['user']['userId']] ?? 0) + (int)$a['totalUserMessages'];
    }
    ksort($per);
    $pct = [];
    foreach ($per as $p => $users) {
        $v = array_values($users);
        $pct[] = ['platform' => $p, 'p25MessagesPerUser' => percentile($v, 0.25), 'medianMessagesPerUser' => percentile($v, 0.5),
            'p75MessagesPerUser' => percentile($v, 0.75)];
    }
    // weekly growth (weeks start Monday 00:00 UTC)
    $wk = function (int $ms): int {
        $d = day_start($ms);
        $dow = (int)gmdate('N', intdiv($d, 1000));
        return $d - ($dow - 1) * 86400000;
    };
    $weekUsers = [];
    foreach ($all as $a) $weekUsers[$a['platform']][$wk($a['createdAt'])][$a['user']['userId']] = true;
    $growth = [];
    $platsSeen = array_keys($per);
    sort($platsSeen);
    for ($w = $wk($from); $w <= $to; $w += 7 * 86400000) {
        foreach ($platsSeen as $p) {
            $cur = count($weekUsers[$p][$w] ?? []);
            $prev = count($weekUsers[$p][$w - 7 * 86400000] ?? []);
            $g = $prev > 0 ? round(($cur - $prev) * 100 / $prev, 2) : ($cur > 0 ? 100 : 0);
            $growth[] = ['week' => fmt_ts($w), 'platform' => $p, 'currentWeekUsers' => $cur, 'previousWeekUsers' => $prev, 'growthPercentage' => $g];
        }
    }
    $funnel = [];
    $conv = count($rows);
    $resp = count(array_filter($rows, fn($a) => $a['responded']));
    $closed = count(array_filter($rows, fn($a) => $a['status'] === 'CLOSED'));
    $rated = count(array_filter($rows, fn($a) => $a['csatScore'] !== null));
    foreach ([['conversations', $conv], ['responded', $resp], ['closed', $closed], ['rated', $rated]] as [$stage, $c]) {
        $funnel[] = ['stage' => $stage, 'count' => $c, 'percentage' => $conv ? round($c * 100 / $conv, 2) : 0];
    }
    return ok(['success' => true, 'data' => ['engagementPercentiles' => $pct, 'growthTrends' => $growth, 'conversionFunnel' => $funnel]]);
}

// ------------------------------------------------------------------ conversation search

function h_search(array $ctx, array $q): array
{
    need_scope($ctx, 'read');
    $st = $ctx['st'];
    $page = q_int($q, 'page', 1, 1, 10000);
    $pageSize = q_int($q, 'pageSize', 50, 1, 100);
    $terms = dsl_parse($q['filter'] ?? '');
    $orgs = [$ctx['org']];
    if (dev('P06')) {
        foreach ($terms as [$k]) if ($k === 'tag') $orgs = array_keys($st->orgs);
    }
    $rows = [];
    foreach ($orgs as $o) {
        foreach ($st->actions[$o] as $a) if (dsl_match($a, $terms, $st)) $rows[] = $a;
    }
    if (count($orgs) > 1) usort($rows, fn($x, $y) => [$y['createdAt'], $x['actionId']] <=> [$x['createdAt'], $y['actionId']]);
    $total = count($rows);
    $capped = $total > SEARCH_CAP;
    $shown = min($total, SEARCH_CAP);
    $data = [];
    foreach (array_slice($rows, ($page - 1) * $pageSize, $pageSize) as $a) {
        $r = summary_record($a, $st, false);
        $r['threadId'] = $a['threadId'];
        $r['easyId'] = $a['easyId'];
        $r['contributors'] = $a['contributors'];
        $data[] = $r;
    }
    return ok(['success' => true, 'data' => $data, 'totalRecords' => $shown, 'totalRecordsCapped' => $capped, 'currentPage' => $page,
        'pageSize' => $pageSize, 'totalPages' => (int)ceil($shown / $pageSize)]);
}

require __DIR__ . '/moderation.php';
require __DIR__ . '/ingest.php';
