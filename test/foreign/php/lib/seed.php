<?php
declare(strict_types=1);

/**
 * In-memory store. Records are plain PHP arrays, indexed by hand:
 *   actions[org]     : list of action arrays, kept sorted newest createdAt first
 *   actionIdx[org]   : actionId => position in actions[org]
 *   tagIndex[tagId]  : list of [org, position] (global tag index; queries filter by org)
 */
final class Store
{
    public array $keys = [];       // keyValue => [name, org, scopes, expiresMs|null, revoked]
    public array $keyNames = [];   // name => keyValue
    public array $orgs = [];       // org => [name, moderationMode]
    public array $actions = [];
    public array $actionIdx = [];
    public array $tagIndex = [];
    public array $agents = [];     // org => userId => [name, email, role]
    public array $queues = [];     // org => queueId => name
    public array $tags = [];       // org => tagId => [name, group]
    public array $cfDefs = [];     // org => fieldName => [displayName, type, options|null]
    public array $modCases = [];   // org => caseId => case
    public array $modByExt = [];   // org => externalId => caseId
    public array $ingested = [];   // org => identityKey => record
    public int $ingestCount = 0;

    public function keyExport(): array
    {
        return $this->keyNames;
    }

    public function addKey(string $name, string $org, array $scopes, ?int $expires = null, bool $revoked = false): void
    {
        $v = 'cca_' . strtolower(str_replace('_', '', substr($name, 4))) . '_' . rand_hex(16);
        $this->keys[$v] = ['name' => $name, 'org' => $org, 'scopes' => $scopes, 'expires' => $expires, 'revoked' => $revoked];
        $this->keyNames[$name] = $v;
    }

    public function reindex(string $org): void
    {
        usort($this->actions[$org], function ($a, $b) {
            return [$b['createdAt'], $a['actionId']] <=> [$a['createdAt'], $b['actionId']];
        });
        $this->actionIdx[$org] = [];
        foreach ($this->actions[$org] as $i => $a) $this->actionIdx[$org][$a['actionId']] = $i;
        // rebuild the global tag index
        $this->tagIndex = [];
        foreach ($this->actions as $o => $list) {
            foreach ($list as $i => $a) {
                foreach ($a['tags'] as $t) $this->tagIndex[$t['tagId']][] = [$o, $i];
            }
        }
    }
}

function seed_store(Store $st, int $nowMs): void
{
    mt_srand(20240601, MT_RAND_MT19937);
    $day = 86400000;

    $st->orgs = [
        'org_a' => ['name' => 'Acme Games', 'moderationMode' => 'ad_policy'],
        'org_b' => ['name' => 'Borealis Bank', 'moderationMode' => 'ad_policy'],
        'org_c' => ['name' => 'Cobalt Retail', 'moderationMode' => 'none'],
    ];

    // ---- keys
    $st->addKey('CCA_READ_KEY', 'org_a', ['read']);
    $st->addKey('CCA_WRITE_KEY', 'org_a', ['write']);
    $st->addKey('CCA_INGEST_KEY', 'org_a', ['ingest', 'ingest:read']);
    $st->addKey('CCA_READ_WRITE_KEY', 'org_a', ['read', 'write']);
    $st->addKey('CCA_OTHER_ORG_READ_KEY', 'org_b', ['read']);
    $st->addKey('CCA_OTHER_ORG_WRITE_KEY', 'org_b', ['write']);
    $st->addKey('CCA_NO_MODERATION_WRITE_KEY', 'org_c', ['write']);
    $st->addKey('CCA_EXPIRED_KEY', 'org_a', ['read', 'write'], $nowMs - 2 * $day);
    $st->addKey('CCA_REVOKED_KEY', 'org_a', ['read', 'write'], $nowMs + 90 * $day, true);
    // extra keys (documented, not in KEYS_FILE)
    $st->addKey('CCA_OTHER_ORG_READ_WRITE_KEY', 'org_b', ['read', 'write']);
    $st->addKey('CCA_NO_MODERATION_READ_KEY', 'org_c', ['read']);
    $st->addKey('CCA_OTHER_ORG_INGEST_KEY', 'org_b', ['ingest', 'ingest:read']);

    // ---- org A reference data
    $st->agents['org_a'] = [
        'U0001' => ['Alice Moreau', 'alice@acme.example', 'AGENT'],
        '8000000000000000001' => ['Bartholomew Okafor', 'bart@acme.example', 'AGENT'],
        '007' => ['Chidi Anagonye', 'chidi@acme.example', 'SUPERVISOR'],
        'agent-ü-04' => ['Dörte Jürgens', 'doerte@acme.example', 'AGENT'],
        'U0005' => ['Eun-ji Park', 'eunji@acme.example', 'AGENT'],
        '9007199254740993' => ['Farid Haddad', null, 'ADMIN'],
        'U0007' => ['Grace Liu', 'grace@acme.example', 'AGENT'],
    ];
    $st->queues['org_a'] = [
        'q_billing' => 'Billing',
        'q_tech' => 'Technical Support',
        'q_vip' => 'VIP',
        'q_general' => 'General',
    ];
    $st->tags['org_a'] = [
        'tag_bug' => ['bug', 'Product'],
        'tag_feature' => ['feature-request', 'Product'],
        'tag_ui' => ['ui', 'Product'],
        'tag_refund' => ['refund', 'Billing'],
        'tag_invoice' => ['invoice', 'Billing'],
        'tag_pricing' => ['pricing', 'Billing'],
        'tag_praise' => ['praise', 'Feedback'],
        'tag_complaint' => ['complaint', 'Feedback'],
        'tag_urgent' => ['Urgent', 'Priority'],
        'tag_cafe' => ['café-ñ', 'Localization'],
    ];
    $closingA = [['resolved', 'Resolution'], ['wont-fix', 'Resolution'], ['duplicate', 'Resolution']];
    $st->cfDefs['org_a'] = [
        'priority_level' => ['Priority level', 'select', ['low', 'medium', 'high', 'critical']],
        'order_value' => ['Order value', 'number', null],
        'is_vip' => ['VIP customer', 'boolean', null],
        'follow_up_date' => ['Follow-up date', 'date', null],
        'notes' => ['Notes', 'text', null],
        'product_areas' => ['Product areas', 'multi_select', ['payments', 'matchmaking', 'store', 'account', 'graphics']],
        'ticket_url' => ['Ticket URL', 'url', null],
    ];

    $st->agents['org_b'] = [
        'U0001' => ['Ulrich Brandt', 'ulrich@borealis.example', 'AGENT'],
        '007' => ['Valentina Rossi', 'valentina@borealis.example', 'AGENT'],
        'U0100' => ['Wanjiru Kamau', 'wanjiru@borealis.example', 'SUPERVISOR'],
    ];
    $st->queues['org_b'] = ['q_billing' => 'Cards & Billing', 'q_fraud' => 'Fraud'];
    $st->tags['org_b'] = [
        'tag_bug' => ['bug', 'Product'],
        'tag_fraud' => ['fraud', 'Risk'],
        'tag_refund' => ['refund', 'Billing'],
        'tag_kyc' => ['kyc', 'Risk'],
    ];
    $st->cfDefs['org_b'] = [
        'priority_level' => ['Priority (bank)', 'text', null],
        'region' => ['Region', 'select', ['emea', 'amer', 'apac']],
    ];

    $st->agents['org_c'] = ['C-01' => ['Yusuf Demir', 'yusuf@cobalt.example', 'AGENT']];
    $st->queues['org_c'] = ['q_store' => 'Store'];
    $st->tags['org_c'] = ['tag_shipping' => ['shipping', 'Logistics']];
    $st->cfDefs['org_c'] = ['order_number' => ['Order number', 'text', null]];

    // ---- org A actions
    $special = [
        '9007199254740993', '18446744073709551617', '000123', '123', '1000', 'ação-ü-日本-42',
        'a/b c?d#e%f&g+h', 'x+y', '50%off', 'emoji-🎮-1',
    ];
    $ids = [];
    foreach ($special as $s) $ids[] = $s;
    for ($i = count($ids); $i < 480; $i++) {
        $r = $i % 3;
        if ($r === 0) $ids[] = (string)(1180000000000000000 + $i * 104729 + mt_rand(0, 9999));
        elseif ($r === 1) $ids[] = (string)(100000 + $i);
        else $ids[] = 'zd-' . str_pad((string)$i, 6, '0', STR_PAD_LEFT);
    }
    $today = day_start($nowMs);
    $st->actions['org_a'] = [];
    foreach ($ids as $i => $id) {
        // 150 actions within the last 7 days, the rest spread over days 7..60
        if ($i < 150) $created = $nowMs - mt_rand(60, 7 * 86400 - 3600) * 1000 - mt_rand(0, 999);
        else $created = $nowMs - mt_rand(7 * 86400 + 3600, 60 * 86400) * 1000 - mt_rand(0, 999);
        $st->actions['org_a'][] = make_action('org_a', $id, $created, $nowMs, $st, $closingA, $i);
    }
    // boundary records: exactly at UTC midnight and at noon of the same days
    foreach ([1, 3, 5, 10] as $k) {
        $mid = $today - $k * $day;
        $a = make_action('org_a', 'midnight-' . $k, $mid, $nowMs, $st, $closingA, 1000 + $k, true);
        $st->actions['org_a'][] = $a;
        $b = make_action('org_a', 'noon-' . $k, $mid + $day / 2, $nowMs, $st, $closingA, 2000 + $k, true);
        $st->actions['org_a'][] = $b;
    }
    // a record updated recently but created long ago (for sortBy=updatedAt)
    $old = make_action('org_a', 'old-but-updated', $nowMs - 40 * $day, $nowMs, $st, $closingA, 3001, true);
    $old['updatedAt'] = $nowMs - 2 * 3600 * 1000;
    $st->actions['org_a'][] = $old;
    // one with a custom field of every type set
    $st->reindex('org_a');

    // ---- org B actions: overlapping ids, different content
    $idsB = ['9007199254740993', '000123', '123', '1000', 'x+y'];
    for ($i = 0; $i < 55; $i++) $idsB[] = (string)(100000 + $i * 3 + 1);
    $st->actions['org_b'] = [];
    foreach ($idsB as $i => $id) {
        $created = $nowMs - mt_rand(600, 20 * 86400) * 1000;
        $st->actions['org_b'][] = make_action('org_b', $id, $created, $nowMs, $st, [['closed-ok', 'Outcome']], $i, $i < 5);
    }
    $st->reindex('org_b');

    // ---- org C
    $st->actions['org_c'] = [];
    for ($i = 0; $i < 20; $i++) {
        $st->actions['org_c'][] = make_action('org_c', 'c-' . (500 + $i), $nowMs - mt_rand(600, 20 * 86400) * 1000, $nowMs, $st, [['done', 'Outcome']], $i);
    }
    $st->reindex('org_c');

    // ---- seeded moderation cases in org A
    $st->modCases['org_a'] = [];
    $st->modByExt['org_a'] = [];
    $st->modCases['org_b'] = [];
    $st->modByExt['org_b'] = [];
    $seedCases = [
        ['case_seed_completed', 'seed-ext-completed', 'completed'],
        ['case_seed_failed', 'seed-ext-failed', 'failed'],
        ['case_seed_unconfigured', 'seed-ext-unconfigured', 'policy_not_configured'],
    ];
    foreach ($seedCases as [$cid, $ext, $stt]) {
        $st->modCases['org_a'][$cid] = [
            'caseId' => $cid, 'externalId' => $ext, 'evaluationId' => 'eval_' . substr(hash('sha256', $cid), 0, 24),
            'fixedStatus' => $stt, 'submittedMs' => $nowMs - 3 * $day, 'hash' => hash('sha256', $cid), 'shallow' => hash('sha256', $cid),
            'body' => null, 'decision' => $stt === 'completed' ? seed_decision() : null,
        ];
        $st->modByExt['org_a'][$ext] = $cid;
    }
}

function seed_decision(): array
{
    return [
        'disposition' => 'approve', 'confidence' => 'high', 'title' => null,
        'reason' => 'No policy concerns were found in the creative, copy or landing page.',
        'hits' => [],
        'advertiserAssessment' => ['polarity' => 'POSITIVE', 'reasoning' => 'Established advertiser with consistent branding.'],
        'landingAssessment' => ['polarity' => 'POSITIVE', 'reasoning' => 'Landing page matches the advertised offer.'],
        'decisionSource' => 'model', 'failureCode' => null, 'failureMessage' => null,
    ];
}

function make_action(string $org, string $id, int $created, int $nowMs, Store $st, array $closing, int $i, bool $forceResponded = false): array
{
    $platforms = ['DISCORD', 'SLACK', 'ZENDESK', 'TWITTER', 'INSTAGRAM', 'GITHUB', 'WHATSAPP', 'DISCOURSE'];
    $public = ['TWITTER' => true, 'INSTAGRAM' => true, 'GITHUB' => true, 'DISCOURSE' => true, 'DISCORD' => true,
        'SLACK' => false, 'ZENDESK' => false, 'WHATSAPP' => false];
    $recordTypes = ['DISCORD' => 'MESSAGE', 'SLACK' => 'MESSAGE', 'ZENDESK' => 'TICKET', 'TWITTER' => 'MENTION', 'INSTAGRAM' => 'COMMENT',
        'GITHUB' => 'ISSUE', 'WHATSAPP' => 'CHAT', 'DISCOURSE' => 'TOPIC'];
    $platform = $platforms[mt_rand(0, count($platforms) - 1)];
    // some posts on public platforms are private (DMs)
    $isPublic = $public[$platform] && mt_rand(0, 9) > 1;
    $agents = array_map('strval', array_keys($st->agents[$org]));
    $queues = array_map('strval', array_keys($st->queues[$org]));
    $tagIds = array_map('strval', array_keys($st->tags[$org]));

    $roll = mt_rand(1, 100);
    if ($forceResponded) $roll = mt_rand(1, 70);
    if ($roll <= 50) $status = 'CLOSED';
    elseif ($roll <= 70) $status = 'IN_PROGRESS';
    elseif ($roll <= 90) $status = 'OPEN';
    else $status = 'CANCELLED';
    $responded = $status === 'CLOSED' || $status === 'IN_PROGRESS' || ($status === 'CANCELLED' && mt_rand(0, 1) === 1);
    $assignee = ($responded || mt_rand(0, 2) === 0) ? $agents[mt_rand(0, count($agents) - 1)] : null;
    if ($responded && $assignee === null) $assignee = $agents[0];

    $qRoll = mt_rand(0, count($queues));
    $queue = $qRoll === count($queues) ? null : $queues[$qRoll];
    $initialQueue = ($queue !== null && mt_rand(0, 4) === 0) ? $queues[0] : $queue;

    $score = mt_rand(0, 19) === 0 ? null : round(mt_rand(-1000, 1000) / 1000, 3);
    $sentiment = null;
    if ($score !== null) {
        if ($score <= -0.6) $sentiment = 'Very Negative';
        elseif ($score <= -0.2) $sentiment = 'Negative';
        elseif ($score < 0.2) $sentiment = 'Neutral';
        else $sentiment = 'Positive';
    }

    $tags = [];
    $nt = mt_rand(0, 9) < 2 ? 0 : mt_rand(1, 3);
    $pick = $tagIds;
    for ($k = 0; $k < $nt && $pick; $k++) {
        $j = mt_rand(0, count($pick) - 1);
        $tid = $pick[$j];
        array_splice($pick, $j, 1);
        $tags[] = ['tagId' => $tid, 'value' => $st->tags[$org][$tid][0], 'group' => $st->tags[$org][$tid][1]];
    }
    $closingTags = [];
    if ($status === 'CLOSED') {
        $c = $closing[mt_rand(0, count($closing) - 1)];
        $closingTags[] = ['value' => $c[0], 'group' => $c[1]];
    }

    $users = [
        ['Sam Rivera', 'samr', '1234567890123456789', 'sam@example.com', 1520],
        ['Léa Dubois', 'lea.d', '000042', null, null],
        ['Kenji Watanabe', 'kenji_w', '9007199254740995', 'kenji@example.jp', 98000],
        ['Priya Natarajan', 'priyan', 'cust-7781', 'priya@example.in', 310],
        ['Olu Adeyemi', 'oluade', '555000111', null, 12],
        ['Marta Nowak', 'mnowak', 'U-ž-19', 'marta@example.pl', null],
        ['Tom Becker', 'tbeck', '4400', 'tom@example.de', 77],
        ['Ana Souza', 'anasouza', '18446744073709551615', null, 4021],
        ['Jon Snow', 'jsnow', '0', null, 0],
        ['Zoë Kravitz-Ng', 'zoe.kn', 'zk-11', 'zoe@example.com', 640],
        ['Ahmed Ali', 'ahmed', '73', 'ahmed@example.eg', 5],
        ['Ingrid Berg', 'iberg', 'ib-2', null, 890],
    ];
    $u = $users[mt_rand(0, count($users) - 1)];
    if ($org !== 'org_a') $u[0] = $u[0] . ' (' . strtoupper(substr($org, -1)) . ')';

    $subjects = ['cannot log in after update', 'refund for double charge', 'game crashes on launch', 'love the new season!',
        'invoice missing VAT number', 'feature idea: dark mode', 'matchmaking takes forever', 'store purchase not delivered',
        'account hacked?', 'UI text overlaps on small screens', 'pricing change question', 'great support, thanks'];
    $subject = $subjects[mt_rand(0, count($subjects) - 1)];
    $orgLabel = $st->orgs[$org]['name'] ?? $org;
    $title = ucfirst($subject);
    if ($org !== 'org_a') $title = '[' . $orgLabel . '] ' . $title;

    // conversation
    $frt = $responded ? mt_rand(30, 4 * 3600) : null;
    $msgs = [];
    $nUser = mt_rand(1, 4);
    $nAgent = $responded ? mt_rand(1, 3) : 0;
    $bot = mt_rand(0, 5) === 0;
    $t = $created;
    $mid = 0;
    $mkId = function () use ($platform, $id, &$mid) {
        $mid++;
        return $platform === 'DISCORD' ? (string)(1190000000000000000 + crc32($id) * 100 + $mid) : 'm_' . rawurlencode($id) . '_' . $mid;
    };
    $rootId = $mkId();
    $rootText = "Hi, $subject. Can someone help?";
    $msgs[] = ['id' => $rootId, 'timestamp' => $t, 'author' => $u[0], 'authorId' => $u[2], 'authorType' => 'USER', 'message' => $rootText,
        'mediaUrls' => mt_rand(0, 3) === 0 ? ['https://cdn.example.com/media/' . rawurlencode($id) . '/screenshot.png'] : [], 'parent' => null];
    if ($bot) {
        $t += 5000;
        $msgs[] = ['id' => $mkId(), 'timestamp' => $t, 'author' => 'HelpBot', 'authorId' => 'bot-1', 'authorType' => 'BOT',
            'message' => 'Thanks for reaching out! An agent will be with you shortly.', 'mediaUrls' => [], 'parent' => $rootId];
    }
    $agentInfo = $assignee !== null ? $st->agents[$org][$assignee] : null;
    $firstResp = null;
    for ($k = 1; $k < $nUser + $nAgent; $k++) {
        $isAgent = ($k % 2 === 1 && $nAgent > 0) || ($k >= $nUser);
        if ($isAgent && $nAgent <= 0) $isAgent = false;
        if ($isAgent) {
            $t = ($firstResp === null) ? $created + $frt * 1000 : $t + mt_rand(60, 3600) * 1000;
            if ($firstResp === null) $firstResp = $t;
            $nAgent--;
            $msgs[] = ['id' => $mkId(), 'timestamp' => $t, 'author' => $agentInfo[0], 'authorId' => $assignee, 'authorType' => 'AGENT',
                'message' => 'Thanks, looking into it now.', 'mediaUrls' => [], 'parent' => $rootId];
        } else {
            $t += mt_rand(60, 3600) * 1000;
            $msgs[] = ['id' => $mkId(), 'timestamp' => $t, 'author' => $u[0], 'authorId' => $u[2], 'authorType' => 'USER',
                'message' => 'Any update on this?', 'mediaUrls' => [], 'parent' => $rootId];
        }
    }
    while ($nAgent > 0) {
        $t = ($firstResp === null) ? $created + $frt * 1000 : $t + mt_rand(60, 3600) * 1000;
        if ($firstResp === null) $firstResp = $t;
        $nAgent--;
        $msgs[] = ['id' => $mkId(), 'timestamp' => $t, 'author' => $agentInfo[0], 'authorId' => $assignee, 'authorType' => 'AGENT',
            'message' => 'Following up on your request.', 'mediaUrls' => [], 'parent' => $rootId];
    }
    // never in the future
    $lastT = $created;
    foreach ($msgs as &$m) {
        if ($m['timestamp'] > $nowMs) $m['timestamp'] = max($created, $nowMs - 1000);
        $lastT = max($lastT, $m['timestamp']);
    }
    unset($m);
    if ($firstResp !== null && $firstResp > $nowMs) $firstResp = max($created, $nowMs - 1000);
    $cntUser = 0; $cntAgent = 0;
    foreach ($msgs as $m) { if ($m['authorType'] === 'USER') $cntUser++; elseif ($m['authorType'] === 'AGENT') $cntAgent++; }
    if ($responded && $cntAgent === 0) $responded = false;

    $claim = $assignee !== null ? min($nowMs, $created + mt_rand(10, 600) * 1000) : null;
    $close = null;
    if ($status === 'CLOSED' || $status === 'CANCELLED') $close = min($nowMs, $lastT + mt_rand(60, 7200) * 1000);
    $handle = ($close !== null && $claim !== null) ? max(0, intdiv($close - $claim, 1000)) : null;
    $updated = $close ?? $lastT;
    if ($status === 'OPEN' && count($msgs) === 1 && mt_rand(0, 2) === 0) $updated = null;

    $csat = null; $csatFb = null;
    if ($status === 'CLOSED' && mt_rand(0, 2) > 0) {
        $csat = (string)mt_rand(1, 5);
        $csatFb = mt_rand(0, 1) ? 'Quick and friendly.' : null;
    }

    $serverNames = ['DISCORD' => 'Acme Community', 'SLACK' => 'acme-partners', 'ZENDESK' => 'acme.zendesk.com', 'TWITTER' => '@AcmeGames',
        'INSTAGRAM' => 'acmegames', 'GITHUB' => 'acme/launcher', 'WHATSAPP' => '+1 555 0100', 'DISCOURSE' => 'forum.acme.example'];
    $channels = ['DISCORD' => '#support', 'SLACK' => '#help', 'ZENDESK' => 'Email', 'TWITTER' => 'Mentions', 'INSTAGRAM' => 'Comments',
        'GITHUB' => 'Issues', 'WHATSAPP' => 'Business Chat', 'DISCOURSE' => 'Support'];

    $cf = [];
    $defs = $st->cfDefs[$org];
    $prov = ['source' => 'seed', 'updatedAt' => fmt_ts($created)];
    if ($org === 'org_a') {
        if ($i % 2 === 0) $cf['priority_level'] = ['value' => ['low', 'medium', 'high', 'critical'][$i % 4], 'provenance' => $prov];
        if ($i % 3 === 0) $cf['order_value'] = ['value' => round(mt_rand(100, 99999) / 100, 2), 'provenance' => $prov];
        if ($i % 5 === 0) $cf['is_vip'] = ['value' => ($i % 10 === 0), 'provenance' => $prov];
        if ($i % 7 === 0) $cf['follow_up_date'] = ['value' => fmt_day($created + 7 * 86400000), 'provenance' => $prov];
        if ($i % 4 === 1) $cf['notes'] = ['value' => 'Customer mentioned “' . $subject . '”', 'provenance' => $prov];
        if ($i % 6 === 1) $cf['product_areas'] = ['value' => ['payments', 'store'], 'provenance' => $prov];
        if ($i % 8 === 3) $cf['ticket_url'] = ['value' => 'https://tickets.acme.example/T-' . $i, 'provenance' => $prov];
        if ($i === 0) {
            $cf = [
                'priority_level' => ['value' => 'critical', 'provenance' => $prov],
                'order_value' => ['value' => 1234.5, 'provenance' => $prov],
                'is_vip' => ['value' => true, 'provenance' => $prov],
                'follow_up_date' => ['value' => fmt_day($created), 'provenance' => $prov],
                'notes' => ['value' => 'Big-id customer', 'provenance' => $prov],
                'product_areas' => ['value' => ['payments', 'account'], 'provenance' => $prov],
                'ticket_url' => ['value' => 'https://tickets.acme.example/T-0', 'provenance' => $prov],
            ];
        }
    } elseif ($org === 'org_b') {
        if ($i % 2 === 0) $cf['priority_level'] = ['value' => 'P' . ($i % 3 + 1), 'provenance' => $prov];
        if ($i % 3 === 0) $cf['region'] = ['value' => ['emea', 'amer', 'apac'][$i % 3], 'provenance' => $prov];
    }

    $comments = [];
    if ($assignee !== null && mt_rand(0, 2) === 0) {
        $comments[] = ['text' => 'Escalated to engineering.', 'authorNativeId' => $assignee, 'authorNativeName' => $agentInfo[0]];
    }
    if (mt_rand(0, 9) === 0) $comments[] = ['text' => 'Automated note', 'authorNativeId' => 'system', 'authorNativeName' => null];

    $easy = strtoupper(substr($org, -1)) . '-' . (10000 + $i);
    $contributors = $assignee !== null ? ($u[0] . ', ' . $agentInfo[0]) : null;

    return [
        'org' => $org,
        'actionId' => $id,
        'actionTitle' => $title,
        'actionSummary' => 'Customer reports: ' . $subject . '.' . ($responded ? ' An agent responded.' : ' Awaiting response.'),
        'status' => $status,
        'platform' => $platform,
        'recordType' => mt_rand(0, 15) === 0 ? null : $recordTypes[$platform],
        'isPublicPost' => $isPublic,
        'sourceURL' => $isPublic ? 'https://' . strtolower($platform) . '.example.com/p/' . rawurlencode($id) : null,
        'queue' => $queue,
        'initialQueue' => $initialQueue,
        'sentiment' => $sentiment,
        'sentimentScore' => $score,
        'moderation' => mt_rand(0, 9) === 0 ? 'FLAGGED' : null,
        'assignee' => $assignee,
        'user' => ['name' => $u[0], 'username' => $u[1], 'userId' => $u[2], 'email' => $u[3], 'followerCount' => $u[4]],
        'createdAt' => $created,
        'updatedAt' => $updated,
        'initialMessageTime' => $created,
        'initialResponseTime' => $responded ? $firstResp : null,
        'closeTime' => $close,
        'claimTime' => $claim,
        'frtSec' => $responded ? (int)intdiv($firstResp - $created, 1000) : null,
        'handleSec' => $handle,
        'serverName' => $serverNames[$platform],
        'channelName' => $channels[$platform],
        'csatScore' => $csat,
        'csatFeedback' => $csatFb,
        'estimatedCSAT' => $status === 'CLOSED' ? round(mt_rand(100, 500) / 100, 2) : null,
        'messages' => $msgs,
        'totalMessages' => count($msgs),
        'totalUserMessages' => $cntUser,
        'totalAgentMessages' => $cntAgent,
        'tags' => $tags,
        'closingTags' => $closingTags,
        'cf' => $cf,
        'rootMessageText' => $rootText,
        'comments' => $comments,
        'responded' => $responded,
        'threadId' => 'th_' . rawurlencode($id),
        'easyId' => mt_rand(0, 9) === 0 ? null : $easy,
        'contributors' => $contributors,
        // hidden analytic inputs
        'resolutionQuality' => $status === 'CLOSED' ? mt_rand(20, 50) / 10 : null,
        'sentimentChange' => $responded ? round(mt_rand(-500, 800) / 1000, 3) : null,
        'rubricScore' => $responded ? mt_rand(50, 100) : null,
        'actionability' => round(mt_rand(0, 100) / 100, 2),
        'relevance' => round(mt_rand(0, 100) / 100, 2),
    ];
}
