<?php
declare(strict_types=1);

function oa_err(): array
{
    return ['description' => 'Error', 'content' => ['application/json' => ['schema' => ['$ref' => '#/components/schemas/Error']]]];
}

function oa_ok(string $desc, array $schema, int $code = 200): array
{
    return [(string)$code => ['description' => $desc, 'content' => ['application/json' => ['schema' => $schema]]]];
}

function oa_op(string $id, string $summary, array $params, array $ok, array $errs, ?array $body = null, string $tag = 'Reporting'): array
{
    $r = $ok;
    foreach ($errs as $e) $r[(string)$e] = oa_err();
    $r['401'] = oa_err();
    $op = ['operationId' => $id, 'summary' => $summary, 'tags' => [$tag], 'parameters' => $params, 'responses' => $r];
    if ($body) $op['requestBody'] = ['required' => true, 'content' => ['application/json' => ['schema' => $body]]];
    return $op;
}

function oa_q(string $name, array $schema, string $desc = ''): array
{
    return ['name' => $name, 'in' => 'query', 'required' => false, 'schema' => $schema, 'description' => $desc];
}

function oa_p(string $name): array
{
    return ['name' => $name, 'in' => 'path', 'required' => true, 'schema' => ['type' => 'string', 'minLength' => 1]];
}

function openapi_doc(): array
{
    $win = [oa_q('from', ['type' => 'string'], 'ISO 8601 date or timestamp; date-only = midnight UTC'),
        oa_q('to', ['type' => 'string'], 'ISO 8601 date or timestamp, inclusive; date-only = midnight UTC')];
    $obj = ['type' => 'object'];
    $succ = fn(array $data) => ['type' => 'object', 'required' => ['success', 'data'], 'properties' => ['success' => ['type' => 'boolean'], 'data' => $data]];
    $arr = fn(array $items) => ['type' => 'array', 'items' => $items];
    $paths = [];
    $paths['/v0/action/list'] = ['get' => oa_op('listActions', 'List actions (newest first within a time window)', array_merge($win, [
        oa_q('pageSize', ['type' => 'integer', 'minimum' => 1, 'maximum' => 500, 'default' => 50]),
        oa_q('filter', ['type' => 'string'], 'legacy; only the responded flag is read'),
        oa_q('filterJson', ['type' => 'string'], 'legacy JSON; only the responded flag is read'),
        oa_q('fullFilter', ['type' => 'string', 'maxLength' => 10000], 'Operations DSL; not combinable with filter/filterJson'),
        oa_q('includeFullConversation', ['type' => 'boolean', 'default' => false]),
        oa_q('sortBy', ['type' => 'string', 'enum' => ['createdAt', 'updatedAt'], 'default' => 'createdAt']),
    ]), oa_ok('Actions', ['type' => 'object', 'required' => ['data', 'totalRecords', 'currentPage', 'pageSize', 'totalPages'], 'properties' => [
        'data' => $arr(['$ref' => '#/components/schemas/ActionSummary']), 'totalRecords' => ['type' => 'number'], 'currentPage' => ['type' => 'number'],
        'pageSize' => ['type' => 'number'], 'totalPages' => ['type' => 'number']]]), [400, 500])];
    $paths['/v0/action/{id}'] = ['get' => oa_op('getAction', 'Get one action', [oa_p('id')], oa_ok('Action detail', ['$ref' => '#/components/schemas/ActionDetail']), [404, 500])];
    $paths['/v0/actions/{actionId}/custom-fields'] = [
        'get' => oa_op('getCustomFields', 'Read custom field values', [oa_p('actionId')], oa_ok('Fields', ['type' => 'object', 'properties' => [
            'actionId' => ['type' => 'string'], 'fields' => $arr(['$ref' => '#/components/schemas/CustomFieldValue'])]]), [403, 404, 500], null, 'Custom fields'),
        'patch' => oa_op('patchCustomFields', 'Write custom field values', [oa_p('actionId')], oa_ok('Updated', ['type' => 'object', 'properties' => [
            'actionId' => ['type' => 'string'], 'updated' => $arr(['type' => 'object', 'properties' => ['fieldName' => ['type' => 'string'], 'value' => new stdClass()]])]]),
            [403, 404, 422, 500], ['type' => 'object', 'required' => ['fields'], 'properties' => ['fields' => ['type' => 'array', 'minItems' => 1, 'items' => [
                'type' => 'object', 'required' => ['fieldName', 'value'], 'properties' => ['fieldName' => ['type' => 'string', 'minLength' => 1], 'value' => new stdClass(),
                    'confidence' => ['type' => 'number', 'minimum' => 0, 'maximum' => 1], 'rationale' => ['type' => 'string']]]]]], 'Custom fields'),
    ];
    $paths['/v0/agents'] = ['get' => oa_op('listAgents', 'Agent metrics', $win, oa_ok('Agents', $succ($arr($obj))), [403, 500])];
    $paths['/v0/agents/{id}'] = ['get' => oa_op('getAgent', 'Agent detail', array_merge([oa_p('id')], $win), oa_ok('Agent', $succ($obj)), [403, 404, 500])];
    $paths['/v0/queues'] = ['get' => oa_op('listQueues', 'Queue metrics', $win, oa_ok('Queues', $succ($arr($obj))), [403, 500])];
    $paths['/v0/analytics/tags'] = ['get' => oa_op('tagAnalytics', 'Tag analytics', array_merge($win, [
        oa_q('respondedOnly', ['type' => 'boolean']), oa_q('limit', ['type' => 'number', 'default' => 20]), oa_q('offset', ['type' => 'number', 'default' => 0]),
        oa_q('search', ['type' => 'string'])]), oa_ok('Tags', $succ($obj)), [403, 500], null, 'Analytics')];
    $paths['/v0/analytics/tags/volume'] = ['get' => oa_op('tagVolume', 'Tag volume by day', array_merge($win, [
        oa_q('respondedOnly', ['type' => 'boolean']), oa_q('topTagsLimit', ['type' => 'number', 'default' => 10]), oa_q('tagIds', ['type' => 'string'])]),
        oa_ok('Volume', $succ($obj)), [403, 500], null, 'Analytics')];
    $paths['/v0/analytics/sentiment'] = ['get' => oa_op('sentimentByDay', 'Sentiment by day', $win, oa_ok('Rows', $succ($arr($obj))), [403, 500], null, 'Analytics')];
    $paths['/v0/analytics/sentiment/by-tag'] = ['get' => oa_op('sentimentByTag', 'Sentiment by tag', $win, oa_ok('Rows', $succ($arr($obj))), [403, 500], null, 'Analytics')];
    $paths['/v0/analytics/engagement'] = ['get' => oa_op('engagement', 'Engagement analytics', array_merge($win, [oa_q('platforms', ['type' => 'string'])]),
        oa_ok('Engagement', $succ($obj)), [403, 500], null, 'Analytics')];
    $paths['/v0/conversations/search'] = ['get' => oa_op('searchConversations', 'Search conversations', [
        oa_q('filter', ['type' => 'string']), oa_q('page', ['type' => 'integer', 'minimum' => 1, 'maximum' => 10000, 'default' => 1]),
        oa_q('pageSize', ['type' => 'integer', 'minimum' => 1, 'maximum' => 100, 'default' => 50])],
        oa_ok('Results', ['type' => 'object', 'properties' => ['success' => ['type' => 'boolean'], 'data' => $arr($obj), 'totalRecords' => ['type' => 'number'],
            'totalRecordsCapped' => ['type' => 'boolean'], 'currentPage' => ['type' => 'number'], 'pageSize' => ['type' => 'number'], 'totalPages' => ['type' => 'number']]]),
        [400, 403, 500])];
    $paths['/v0/moderation/cases'] = ['post' => oa_op('submitModerationCase', 'Submit a moderation case', [], oa_ok('Accepted', $obj, 202), [400, 403, 409, 422, 500],
        ['$ref' => '#/components/schemas/ModerationCase'], 'Moderation')];
    $paths['/v0/moderation/cases/batch'] = ['post' => oa_op('submitModerationBatch', 'Submit 1..100 moderation cases', [], oa_ok('Accepted', $obj, 202), [400, 403],
        ['type' => 'object', 'required' => ['cases'], 'properties' => ['cases' => ['type' => 'array', 'minItems' => 1, 'maxItems' => 100,
            'items' => ['$ref' => '#/components/schemas/ModerationCase']]]], 'Moderation')];
    $paths['/v0/moderation/cases/{caseId}'] = ['get' => oa_op('getModerationCase', 'Read moderation case status', [oa_p('caseId')], oa_ok('Status', $obj), [403, 404],
        null, 'Moderation')];
    $paths['/v0/ingest/records'] = ['post' => oa_op('ingestRecords', 'Ingest normalized records', [], oa_ok('Accepted', ['type' => 'object', 'properties' => [
        'status' => ['type' => 'string', 'enum' => ['accepted']], 'accepted' => ['type' => 'number']]], 202), [403, 422, 500],
        ['type' => 'object', 'required' => ['platform', 'serverId', 'serverName', 'records'], 'properties' => [
            'platform' => ['type' => 'string', 'enum' => PLATFORMS], 'serverId' => ['type' => 'string', 'minLength' => 1], 'serverName' => ['type' => 'string', 'minLength' => 1],
            'channelId' => ['type' => 'string'], 'channelName' => ['type' => 'string'], 'processingLevel' => ['type' => 'string', 'enum' => ['INSIGHTS', 'STATS_ONLY']],
            'source' => ['type' => 'object', 'required' => ['system'], 'properties' => ['system' => ['type' => 'string', 'minLength' => 1], 'sourceId' => ['type' => 'string']]],
            'records' => ['type' => 'array', 'minItems' => 1, 'maxItems' => 500, 'items' => ['type' => 'object',
                'required' => ['externalId', 'authorId', 'authorName', 'body', 'createdAt', 'recordType'], 'properties' => [
                    'externalId' => ['type' => 'string', 'minLength' => 1], 'threadExternalId' => ['type' => 'string'], 'parentExternalId' => ['type' => 'string'],
                    'authorId' => ['type' => 'string', 'minLength' => 1], 'authorName' => ['type' => 'string', 'minLength' => 1], 'title' => ['type' => 'string'],
                    'body' => ['type' => 'string'], 'score' => ['type' => 'number', 'minimum' => 0, 'maximum' => 5], 'createdAt' => ['type' => 'string', 'minLength' => 1],
                    'url' => ['type' => 'string', 'format' => 'uri'], 'recordType' => ['type' => 'string', 'minLength' => 1], 'customFields' => ['type' => 'object']]]]]],
        'Ingestion')];
    if (dev('P16')) unset($paths['/v0/ingest/records'], $paths['/v0/moderation/cases/batch']);

    $s = fn(...$t) => count($t) === 1 ? ['type' => $t[0]] : ['type' => $t];
    $tag = ['type' => 'object', 'required' => ['value', 'group'], 'properties' => ['value' => $s('string'), 'group' => $s('string')]];
    $summaryProps = [];
    foreach (['actionId', 'actionTitle', 'actionSummary', 'status', 'platform', 'serviceURL', 'userName', 'userUsername', 'userId', 'createdAt', 'serverName', 'channelName'] as $k) $summaryProps[$k] = $s('string');
    foreach (['recordType', 'sourceURL', 'queue', 'initialQueue', 'sentiment', 'moderation', 'assigneeName', 'assigneeEmail', 'assigneeUserId', 'assigneeRole',
        'userEmail', 'updatedAt', 'initialMessageTime', 'initialResponseTime', 'closeTime', 'claimTime', 'firstResponseTime', 'handleTime', 'csatScore',
        'csatFeedback', 'rootMessageText', 'conversationJson'] as $k) $summaryProps[$k] = $s('string', 'null');
    foreach (['sentimentScore', 'userFollowerCount', 'estimatedCSAT', 'totalMessages', 'totalUserMessages', 'totalAgentMessages'] as $k) $summaryProps[$k] = $s('number', 'null');
    $summaryProps['isPublicPost'] = $s('boolean');
    $summaryProps['tags'] = ['type' => 'array', 'items' => $tag];
    $summaryProps['closingTags'] = ['type' => 'array', 'items' => $tag];
    $summaryProps['customFields'] = ['type' => 'object', 'additionalProperties' => true];

    return [
        'openapi' => '3.0.3',
        'info' => ['title' => 'Customer-Conversation Analytics Service', 'version' => 'v0',
            'description' => 'REST interface. Every /v0 request carries header X-API-Key. Error body: {success:false, error:string}.'],
        'servers' => [['url' => '/']],
        'security' => [['ApiKey' => []]],
        'paths' => $paths,
        'components' => [
            'securitySchemes' => ['ApiKey' => ['type' => 'apiKey', 'in' => 'header', 'name' => 'X-API-Key']],
            'schemas' => [
                'Error' => ['type' => 'object', 'required' => ['success', 'error'], 'properties' => ['success' => ['type' => 'boolean', 'enum' => [false]],
                    'error' => $s('string'), 'fieldErrors' => ['type' => 'object', 'additionalProperties' => $s('string')], 'message' => $s('string'),
                    'code' => ['type' => 'string', 'enum' => ['MODERATION_INPUT_INCOMPLETE', 'MODERATION_INPUT_INVALID']],
                    'missingFields' => ['type' => 'array', 'items' => $s('string')], 'invalidFields' => ['type' => 'array', 'items' => $s('string')],
                    'supported' => ['type' => 'array', 'items' => $s('string')]]],
                'ActionSummary' => ['type' => 'object', 'required' => array_keys($summaryProps), 'properties' => $summaryProps],
                'ActionDetail' => ['type' => 'object', 'required' => ['user', 'actionId', 'assignee', 'messages', 'comments', 'tags', 'closingTags', 'customFields'],
                    'additionalProperties' => true],
                'CustomFieldValue' => ['type' => 'object', 'required' => ['fieldName', 'displayName', 'fieldType', 'value'], 'properties' => [
                    'fieldName' => ['type' => 'string', 'minLength' => 1], 'displayName' => $s('string'), 'fieldType' => $s('string'), 'value' => new stdClass(),
                    'provenance' => new stdClass()]],
                'ModerationCase' => ['type' => 'object', 'required' => ['externalId', 'sourceSystem', 'sourcePlatform', 'sourceAdId', 'advertiserName', 'market',
                    'placement', 'landingPageUrl', 'title', 'media', 'attachment', 'targeting', 'copy'], 'additionalProperties' => true],
            ],
        ],
    ];
}

const SWAGGER_HTML = <<<'HTML'
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Customer-Conversation Analytics Service - API docs</title>
<link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"><noscript>The machine-readable contract is at <a href="/docs/json">/docs/json</a>.</noscript></div>
<script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>
window.onload = function () {
  if (window.SwaggerUIBundle) { window.ui = SwaggerUIBundle({ url: '/docs/json', dom_id: '#swagger-ui' }); }
  else { document.getElementById('swagger-ui').innerHTML = '<p>Swagger UI assets unavailable; OpenAPI JSON: <a href="/docs/json">/docs/json</a></p>'; }
};
</script>
</body>
</html>
HTML;

function llms_txt(bool $full): string
{
    $t = "# Customer-Conversation Analytics Service\n\n> REST API under /v0 (X-API-Key header). OpenAPI JSON: /docs/json. Swagger UI: /docs.\n\n## Pages\n\n";
    foreach (openapi_doc()['paths'] as $p => $ops) {
        foreach ($ops as $m => $op) {
            $t .= '- ' . strtoupper($m) . " $p: {$op['summary']}\n";
            if ($full) {
                foreach ($op['parameters'] as $par) $t .= "  - {$par['in']} `{$par['name']}`" . ($par['description'] ? ": {$par['description']}" : '') . "\n";
                $t .= '  - responses: ' . implode(', ', array_keys($op['responses'])) . "\n";
            }
        }
    }
    return $t;
}

function docs_route(string $path): ?array
{
    switch ($path) {
        case '/docs/json':
            return [200, ['Content-Type' => 'application/json; charset=utf-8'], json_out(openapi_doc())];
        case '/docs':
        case '/docs/':
            return [200, ['Content-Type' => 'text/html; charset=utf-8'], SWAGGER_HTML];
        case '/llms.txt':
        case '/docs/llms.txt':
            return [200, ['Content-Type' => 'text/plain; charset=utf-8'], llms_txt(false)];
        case '/llms-full.txt':
        case '/docs/llms-full.txt':
            return [200, ['Content-Type' => 'text/plain; charset=utf-8'], llms_txt(true)];
    }
    return null;
}
