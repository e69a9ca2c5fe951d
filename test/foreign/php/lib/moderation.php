<?php
declare(strict_types=1);

const CTA = ['APPLY_NOW', 'BOOK_NOW', 'GET_NOW', 'INSTALL_NOW', 'MORE', 'SHOP_NOW', 'SIGN_UP', 'VIEW', 'WATCH'];
const ATTACH_TYPES = ['web_view', 'deep_link', 'app_install', 'lens', 'long_form_video'];
const MOD_PENDING_MS = 400;
const MOD_RUNNING_MS = 1500;

final class CaseValidator
{
    public array $missing = [];
    public array $invalid = [];
    public array $errors = [];

    private function bad(string $path, string $msg): void
    {
        $this->invalid[] = $path;
        $this->errors[] = "$path: $msg";
    }

    private function miss(string $path): void
    {
        $this->missing[] = $path;
        $this->errors[] = "$path: is required";
    }

    /** String field; returns true if present and valid. */
    public function str(stdClass $o, string $k, string $path, bool $req, int $min, int $max, bool $nullable = false): void
    {
        if (!property_exists($o, $k)) { if ($req) $this->miss($path); return; }
        $v = $o->$k;
        if ($v === null) {
            if ($nullable) return;
            if ($req) $this->miss($path); else $this->bad($path, 'must be a string');
            return;
        }
        if (!is_string($v)) { $this->bad($path, 'must be a string'); return; }
        $l = ulen($v);
        if ($l < $min || $l > $max) $this->bad($path, "length must be between $min and $max characters");
    }

    public function obj(stdClass $o, string $k, string $path, bool $req): ?stdClass
    {
        if (!property_exists($o, $k) || $o->$k === null) { if ($req) $this->miss($path); elseif (property_exists($o, $k)) $this->bad($path, 'must be an object'); return null; }
        if (!is_obj($o->$k)) { $this->bad($path, 'must be an object'); return null; }
        return $o->$k;
    }

    public function bool(stdClass $o, string $k, string $path): void
    {
        if (property_exists($o, $k) && !is_bool($o->$k)) $this->bad($path, 'must be a boolean');
    }

    public static function isInt($v): bool
    {
        return is_int($v) || (is_float($v) && is_finite($v) && floor($v) === $v && abs($v) < 9.1e15);
    }

    public function intNullable(stdClass $o, string $k, string $path, bool $req): void
    {
        if (!property_exists($o, $k)) { if ($req) $this->miss($path); return; }
        $v = $o->$k;
        if ($v !== null && !self::isInt($v)) $this->bad($path, 'must be an integer or null');
    }

    public function strArray(stdClass $o, string $k, string $path, bool $req, int $min, int $max): void
    {
        if (!property_exists($o, $k) || $o->$k === null) { if ($req) $this->miss($path); elseif (property_exists($o, $k)) $this->bad($path, 'must be an array'); return; }
        $v = $o->$k;
        if (!is_list($v)) { $this->bad($path, 'must be an array'); return; }
        if (count($v) < $min || count($v) > $max) { $this->bad($path, "must contain between $min and $max items"); return; }
        foreach ($v as $i => $x) if (!is_string($x)) { $this->bad("$path.$i", 'must be a string'); }
    }

    public function validate($c): void
    {
        if (!is_obj($c)) { $this->bad('(root)', 'case must be a JSON object'); return; }
        $this->str($c, 'externalId', 'externalId', true, 1, 256);
        $this->str($c, 'sourceSystem', 'sourceSystem', true, 1, 128);
        $this->str($c, 'sourcePlatform', 'sourcePlatform', true, 1, 128);
        $this->str($c, 'sourceAdId', 'sourceAdId', true, 1, 256);
        $this->str($c, 'advertiserId', 'advertiserId', false, 1, 256);
        $this->str($c, 'advertiserName', 'advertiserName', true, 1, 500);
        $this->str($c, 'campaignId', 'campaignId', false, 1, 256);
        $this->str($c, 'market', 'market', true, 1, 128);
        $this->str($c, 'placement', 'placement', true, 1, 128);
        $this->str($c, 'language', 'language', false, 1, 64);
        $this->obj($c, 'providerMetadata', 'providerMetadata', false);
        if (!property_exists($c, 'landingPageUrl')) $this->miss('landingPageUrl');
        elseif ($c->landingPageUrl !== null && !is_string($c->landingPageUrl)) $this->bad('landingPageUrl', 'must be a string or null');
        $this->str($c, 'title', 'title', true, 1, 500);
        $this->str($c, 'headline', 'headline', false, 1, 500);
        $this->str($c, 'brandName', 'brandName', false, 1, 500);
        if (property_exists($c, 'callToAction') && !(is_string($c->callToAction) && in_array($c->callToAction, CTA, true))) {
            $this->bad('callToAction', 'must be one of ' . implode(', ', CTA));
        }
        if ($pp = $this->obj($c, 'publicProfile', 'publicProfile', false)) {
            $this->str($pp, 'displayName', 'publicProfile.displayName', false, 1, 500);
            if (property_exists($pp, 'logoUrl')) {
                $u = $pp->logoUrl;
                $ok = is_string($u) && !preg_match('/\s/', $u) && preg_match('/^[A-Za-z][A-Za-z0-9+.-]*:.+/', $u);
                if (!$ok) $this->bad('publicProfile.logoUrl', 'must be a URI');
            }
            $this->bool($pp, 'verified', 'publicProfile.verified');
        }
        if (!property_exists($c, 'media') || $c->media === null) $this->miss('media');
        elseif (!is_list($c->media)) $this->bad('media', 'must be an array');
        elseif (count($c->media) < 1 || count($c->media) > 20) $this->bad('media', 'must contain between 1 and 20 items');
        else {
            foreach ($c->media as $i => $m) {
                $p = "media.$i";
                if (!is_obj($m)) { $this->bad($p, 'must be an object'); continue; }
                if (!property_exists($m, 'url') || $m->url === null) $this->miss("$p.url");
                elseif (!abs_http_url($m->url)) $this->bad("$p.url", 'must be an absolute http or https URL');
                if (!property_exists($m, 'type') || $m->type === null) $this->miss("$p.type");
                elseif ($m->type !== 'image' && $m->type !== 'video') $this->bad("$p.type", 'must be image or video');
                if (!property_exists($m, 'position') || $m->position === null) $this->miss("$p.position");
                elseif (!self::isInt($m->position) || $m->position < 1 || $m->position > 20) $this->bad("$p.position", 'must be an integer between 1 and 20');
            }
        }
        if ($at = $this->obj($c, 'attachment', 'attachment', true)) {
            if (!property_exists($at, 'type') || $at->type === null) $this->miss('attachment.type');
            elseif (!is_string($at->type) || !in_array($at->type, ATTACH_TYPES, true)) $this->bad('attachment.type', 'must be one of ' . implode(', ', ATTACH_TYPES));
            if (!property_exists($at, 'destinationUrl')) $this->miss('attachment.destinationUrl');
            elseif ($at->destinationUrl !== null && !is_string($at->destinationUrl)) $this->bad('attachment.destinationUrl', 'must be a string or null');
        }
        if ($tg = $this->obj($c, 'targeting', 'targeting', true)) {
            $this->intNullable($tg, 'ageMin', 'targeting.ageMin', true);
            $this->intNullable($tg, 'ageMax', 'targeting.ageMax', false);
            $this->strArray($tg, 'geos', 'targeting.geos', true, 1, 250);
            $this->strArray($tg, 'languages', 'targeting.languages', false, 1, 100);
        }
        if ($cp = $this->obj($c, 'copy', 'copy', true)) {
            foreach (['body', 'caption', 'linkDescription', 'sourceTitle'] as $k) $this->str($cp, $k, "copy.$k", false, 0, 20000);
        }
        $this->bool($c, 'discoverTile', 'discoverTile');
        $this->bool($c, 'partnershipAd', 'partnershipAd');
        foreach (['format', 'arLens'] as $k) {
            if (property_exists($c, $k) && $c->$k !== null && !is_string($c->$k)) $this->bad($k, 'must be a string or null');
        }
        if (property_exists($c, 'submittedAt')) {
            $v = $c->submittedAt;
            $ok = is_string($v) && preg_match('/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/', $v) && parse_iso($v) !== null;
            if (!$ok) $this->bad('submittedAt', 'must be an RFC 3339 date-time');
        }
    }

    public function failed(): bool { return $this->missing || $this->invalid; }

    public function errorFields(): array
    {
        $code = $this->missing ? 'MODERATION_INPUT_INCOMPLETE' : 'MODERATION_INPUT_INVALID';
        $msg = $this->missing ? 'Moderation input is incomplete: missing ' . implode(', ', $this->missing)
            : 'Moderation input is invalid: ' . implode(', ', $this->invalid);
        return ['message' => $msg, 'code' => $code, 'missingFields' => array_values(array_unique($this->missing)),
            'invalidFields' => array_values(array_unique($this->invalid))];
    }
}

const CASE_FIELDS = ['externalId', 'sourceSystem', 'sourcePlatform', 'sourceAdId', 'advertiserId', 'advertiserName', 'campaignId', 'market',
    'placement', 'language', 'providerMetadata', 'landingPageUrl', 'title', 'headline', 'brandName', 'callToAction', 'publicProfile', 'media',
    'attachment', 'targeting', 'copy', 'discoverTile', 'partnershipAd', 'format', 'arLens', 'submittedAt'];

/** Known fields only, defaults applied; canonical key order. */
function case_normalize(stdClass $c): stdClass
{
    $o = new stdClass();
    foreach (CASE_FIELDS as $k) if (property_exists($c, $k)) $o->$k = $c->$k;
    if (!property_exists($o, 'language')) $o->language = 'en';
    return canon($o);
}

function case_hashes(stdClass $n): array
{
    $full = hash('sha256', json_out($n));
    $shallow = new stdClass();
    foreach (get_object_vars($n) as $k => $v) if (!is_obj($v) && !is_array($v)) $shallow->$k = $v;
    return [$full, hash('sha256', json_out($shallow))];
}

function mod_status(array $case, int $now): string
{
    if (isset($case['fixedStatus'])) return $case['fixedStatus'];
    $el = $now - $case['submittedMs'];
    if ($el < MOD_PENDING_MS) return 'pending';
    if ($el < MOD_RUNNING_MS) return 'running';
    $meta = $case['body']->providerMetadata ?? null;
    if (is_obj($meta) && property_exists($meta, 'simulateFailure') && $meta->simulateFailure === true) return 'failed';
    return 'completed';
}

function mod_decide(stdClass $c): array
{
    $text = strtolower(implode(' ', array_filter([
        $c->title ?? '', $c->headline ?? '', $c->copy->body ?? '', $c->copy->caption ?? '', $c->copy->linkDescription ?? '',
    ], 'is_string')));
    $d = seed_decision();
    $age = $c->targeting->ageMin ?? null;
    if (preg_match('/guaranteed returns|miracle cure|get rich/', $text, $m, PREG_OFFSET_CAPTURE)) {
        $field = 'title';
        $pos = stripos((string)($c->title ?? ''), $m[0][0]);
        if ($pos === false) { $field = 'copy.body'; $pos = max(0, (int)stripos((string)($c->copy->body ?? ''), $m[0][0])); }
        $d['disposition'] = 'reject';
        $d['confidence'] = 'high';
        $d['title'] = 'Misleading claims';
        $d['reason'] = 'The ad makes unsubstantiated claims.';
        $d['hits'] = [[
            'ruleId' => 'rule_misleading_001', 'ruleSlug' => 'misleading-claims', 'polarity' => 'NEGATIVE', 'confidence' => 'high',
            'reasoning' => 'Phrase "' . $m[0][0] . '" promises an outcome that cannot be guaranteed.',
            'evidence' => [['modality' => 'text', 'claim' => 'Unsubstantiated claim: ' . $m[0][0],
                'locator' => ['textSpan' => ['field' => $field, 'start' => (int)$pos, 'end' => (int)$pos + strlen($m[0][0])]]]],
        ]];
        $d['advertiserAssessment'] = ['polarity' => 'AMBIGUOUS', 'reasoning' => 'Advertiser history is limited.'];
    } elseif (preg_match('/beer|wine|casino|gambling|betting|whisky/', $text) && ($age === null || $age < 18)) {
        $d['disposition'] = 'age_gate';
        $d['confidence'] = 'medium';
        $d['reason'] = 'Age-restricted product targeted without an adult age gate.';
        $d['hits'] = [[
            'ruleId' => 'rule_age_002', 'ruleSlug' => 'age-restricted-products', 'polarity' => 'NEGATIVE', 'confidence' => 'medium', 'reasoning' => null,
            'evidence' => [['modality' => 'metadata', 'claim' => 'targeting.ageMin is below 18 or missing']],
        ]];
    } elseif (($c->landingPageUrl ?? null) === null && ($c->attachment->destinationUrl ?? null) === null) {
        $d['disposition'] = 'escalate';
        $d['confidence'] = 'low';
        $d['reason'] = 'No landing page or destination could be assessed.';
        $d['landingAssessment'] = ['polarity' => 'AMBIGUOUS', 'reasoning' => 'No landing page was provided.'];
    }
    return $d;
}

function mod_ack(array $case, string $status, int $now): array
{
    return [
        'caseId' => $case['caseId'],
        'externalId' => $case['externalId'],
        'status' => $status,
        'analysisStatus' => ($status === 'duplicate' && dev('P10')) ? mod_status($case, $now) : 'pending',
        'evaluationId' => $case['evaluationId'],
        'idempotency' => ['key' => $case['idemKey'], 'replayed' => $status === 'duplicate'],
    ];
}

function mod_prereq(array $ctx, string $scope): void
{
    need_scope($ctx, $scope);
    $mode = $ctx['st']->orgs[$ctx['org']]['moderationMode'];
    if ($mode !== 'ad_policy') {
        throw new HttpError(403, 'Moderation is not enabled for this organization', [
            'message' => "Moderation endpoints require the ad_policy moderation mode; this organization is in '$mode' mode",
            'supported' => ['ad_policy'],
        ]);
    }
}

/** @return array{0:string,1:array|null,2:?CaseValidator} [outcome, case, validator] outcome: accepted|duplicate|conflict|invalid */
function mod_submit(array $ctx, $c): array
{
    $st = $ctx['st'];
    $org = $ctx['org'];
    $v = new CaseValidator();
    $v->validate($c);
    if ($v->failed()) return ['invalid', null, $v];
    $n = case_normalize($c);
    [$full, $shallow] = case_hashes($n);
    $ext = $n->externalId;
    if (isset($st->modByExt[$org][$ext])) {
        $case = $st->modCases[$org][$st->modByExt[$org][$ext]];
        $same = dev('P08') ? $case['shallow'] === $shallow : $case['hash'] === $full;
        return [$same ? 'duplicate' : 'conflict', $case, null];
    }
    $cid = 'case_' . rand_hex(12);
    $case = [
        'caseId' => $cid, 'externalId' => $ext, 'evaluationId' => 'eval_' . rand_hex(12),
        'idemKey' => 'idem_' . substr(hash('sha256', $org . "\n" . $ext . "\n" . $full), 0, 40),
        'submittedMs' => $ctx['now'], 'hash' => $full, 'shallow' => $shallow, 'body' => $n, 'decision' => null,
    ];
    $case['decision'] = mod_decide($n);
    $st->modCases[$org][$cid] = $case;
    $st->modByExt[$org][$ext] = $cid;
    return ['accepted', $case, null];
}

function mod_body(string $body)
{
    $j = json_decode($body, false, 128);
    if ($body === '' || json_last_error() !== JSON_ERROR_NONE) {
        throw new HttpError(400, 'Request body must be valid JSON', ['message' => 'The request body could not be parsed as JSON']);
    }
    return $j;
}

function h_mod_post(array $ctx, array $q, string $body): array
{
    mod_prereq($ctx, 'write');
    $j = mod_body($body);
    if (!is_obj($j)) throw new HttpError(400, 'Request body must be a JSON object', ['message' => 'Expected a moderation case object']);
    [$out, $case, $v] = mod_submit($ctx, $j);
    if ($out === 'invalid') {
        return err(422, $v->missing ? 'Moderation input incomplete' : 'Moderation input invalid', $v->errorFields() + ['errors' => $v->errors]);
    }
    if ($out === 'conflict') {
        return err(409, 'externalId already exists with different content', [
            'message' => "A case with externalId '{$case['externalId']}' already exists in this organization with different content; externalId is immutable",
        ]);
    }
    return ok(mod_ack($case, $out, $ctx['now']), 202);
}

function h_mod_batch(array $ctx, array $q, string $body): array
{
    mod_prereq($ctx, 'write');
    $j = mod_body($body);
    if (!is_obj($j)) throw new HttpError(400, 'Request body must be a JSON object', ['message' => 'Expected {cases: [...]}']);
    if (!property_exists($j, 'cases') || !is_list($j->cases)) throw new HttpError(400, 'cases must be an array', ['message' => 'cases must be an array of 1..100 moderation cases']);
    $n = count($j->cases);
    if ($n < 1 || $n > 100) throw new HttpError(400, 'cases must contain between 1 and 100 items', ['message' => "cases has $n items; allowed 1..100"]);
    $results = [];
    $rejected = [];
    foreach ($j->cases as $c) {
        [$out, $case, $v] = mod_submit($ctx, $c);
        if ($out === 'invalid') {
            $ext = (is_obj($c) && property_exists($c, 'externalId') && is_string($c->externalId)) ? $c->externalId : null;
            $e = $v->errorFields();
            $r = ['externalId' => $ext, 'caseId' => null, 'status' => 'rejected', 'errors' => $v->errors] + $e;
        } elseif ($out === 'conflict') {
            $r = ['externalId' => $case['externalId'], 'caseId' => $case['caseId'], 'status' => 'rejected',
                'errors' => ['externalId already exists with different content'],
                'message' => 'externalId is immutable per organization; the existing case has different content'];
        } else {
            $a = mod_ack($case, $out, $ctx['now']);
            $r = ['externalId' => $a['externalId'], 'caseId' => $a['caseId'], 'status' => $a['status'], 'analysisStatus' => $a['analysisStatus'],
                'evaluationId' => $a['evaluationId'], 'idempotency' => $a['idempotency']];
        }
        if (dev('P09') && $r['status'] === 'rejected') $rejected[] = $r;
        else $results[] = $r;
    }
    return ok(['results' => array_merge($results, $rejected)], 202);
}

function h_mod_get(array $ctx, array $q, string $body, string $caseId): array
{
    mod_prereq($ctx, 'read');
    $case = $ctx['st']->modCases[$ctx['org']][$caseId] ?? null;
    if ($case === null) throw new HttpError(404, 'Moderation case not found');
    $s = mod_status($case, $ctx['now']);
    $r = ['caseId' => $case['caseId'], 'externalId' => $case['externalId'], 'analysisStatus' => $s];
    if ($s !== 'policy_not_configured') $r['evaluationId'] = $case['evaluationId'];
    if ($s === 'completed') $r['decision'] = $case['decision'];
    if ($s === 'failed') $r['failureCode'] = 'EVALUATION_FAILED';
    return ok($r);
}
