<?php
declare(strict_types=1);

function ingest_url_ok($v): bool
{
    if (dev('P11')) return is_string($v) && str_contains($v, '://');
    return abs_http_url($v);
}

function ingest_fail(string $msg, array $details): array
{
    return err(422, $msg, ['details' => $details]);
}

function h_ingest(array $ctx, array $q, string $body): array
{
    if (!in_array('ingest', $ctx['scopes'], true) && !(dev('P12') && in_array('write', $ctx['scopes'], true))) {
        throw new HttpError(403, "This API key lacks the 'ingest' scope required for ingestion");
    }
    $st = $ctx['st'];
    $j = json_decode($body, false, 128);
    if ($body === '' || json_last_error() !== JSON_ERROR_NONE) return ingest_fail('Request body must be valid JSON', ['body: invalid JSON']);
    if (!is_obj($j)) return ingest_fail('Request body must be a JSON object', ['body: expected an object']);
    $e = [];
    $nonEmpty = fn($o, $k) => property_exists($o, $k) && is_string($o->$k) && $o->$k !== '';
    if (!property_exists($j, 'platform')) $e[] = 'platform: is required';
    elseif (!is_string($j->platform) || !in_array($j->platform, PLATFORMS, true)) $e[] = 'platform: must be one of ' . implode(', ', PLATFORMS);
    foreach (['serverId', 'serverName'] as $k) if (!$nonEmpty($j, $k)) $e[] = "$k: must be a non-empty string";
    foreach (['channelId', 'channelName'] as $k) if (property_exists($j, $k) && !is_string($j->$k)) $e[] = "$k: must be a string";
    if (property_exists($j, 'processingLevel') && !in_array($j->processingLevel, ['INSIGHTS', 'STATS_ONLY'], true)) {
        $e[] = 'processingLevel: must be INSIGHTS or STATS_ONLY';
    }
    if (property_exists($j, 'source')) {
        if (!is_obj($j->source)) $e[] = 'source: must be an object';
        else {
            if (!$nonEmpty($j->source, 'system')) $e[] = 'source.system: must be a non-empty string';
            if (property_exists($j->source, 'sourceId') && !is_string($j->source->sourceId)) $e[] = 'source.sourceId: must be a string';
        }
    }
    if (!property_exists($j, 'records')) $e[] = 'records: is required';
    elseif (!is_list($j->records)) $e[] = 'records: must be an array';
    elseif (count($j->records) < 1 || count($j->records) > 500) $e[] = 'records: must contain between 1 and 500 items (got ' . count($j->records) . ')';
    if ($e) return ingest_fail('Validation failed: ' . implode('; ', $e), $e);

    $accepted = 0;
    $rejected = [];
    $org = $ctx['org'];
    foreach ($j->records as $i => $r) {
        $re = [];
        if (!is_obj($r)) {
            $rejected[] = ['index' => $i, 'externalId' => null, 'errors' => ['record: must be an object']];
            continue;
        }
        foreach (['externalId', 'authorId', 'authorName', 'createdAt', 'recordType'] as $k) {
            if (!$nonEmpty($r, $k)) $re[] = "$k: must be a non-empty string";
        }
        if (!property_exists($r, 'body') || !is_string($r->body)) $re[] = 'body: must be a string';
        foreach (['threadExternalId', 'parentExternalId', 'title'] as $k) {
            if (property_exists($r, $k) && !is_string($r->$k)) $re[] = "$k: must be a string";
        }
        if (property_exists($r, 'score')) {
            $s = $r->score;
            if (!(is_int($s) || is_float($s)) || $s < 0 || $s > 5) $re[] = 'score: must be a number between 0 and 5';
        }
        if (property_exists($r, 'url') && !ingest_url_ok($r->url)) $re[] = 'url: must be an absolute http or https URL';
        if (property_exists($r, 'customFields') && !is_obj($r->customFields)) $re[] = 'customFields: must be an object';
        if ($re) {
            $rejected[] = ['index' => $i, 'externalId' => (property_exists($r, 'externalId') && is_string($r->externalId)) ? $r->externalId : null,
                'errors' => array_map(fn($x) => "records[$i].$x", $re)];
            continue;
        }
        $idKey = $j->platform . "\x1f" . $j->serverId . "\x1f" . $r->externalId;
        $st->ingested[$org][$idKey] = ['platform' => $j->platform, 'serverId' => $j->serverId, 'serverName' => $j->serverName,
            'channelId' => $j->channelId ?? null, 'processingLevel' => $j->processingLevel ?? 'INSIGHTS', 'record' => $r, 'receivedMs' => $ctx['now']];
        $accepted++;
    }
    if ($accepted === 0) {
        $d = [];
        foreach ($rejected as $x) foreach ($x['errors'] as $m) $d[] = $m;
        return err(422, 'Validation failed: no record in the batch is valid', ['details' => $d, 'rejected' => $rejected]);
    }
    $st->ingestCount += $accepted;
    return ok(['status' => 'accepted', 'accepted' => dev('P13') ? count($j->records) : $accepted, 'rejected' => $rejected], 202);
}
