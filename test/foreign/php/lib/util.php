<?php
declare(strict_types=1);

function dev(string $id): bool { return isset($GLOBALS['DEV'][$id]); }

function now_ms(): int { return (int)floor(microtime(true) * 1000); }

function fmt_ts(?int $ms): ?string
{
    if ($ms === null) return null;
    $s = intdiv($ms, 1000);
    $frac = $ms % 1000;
    if ($frac < 0) { $frac += 1000; $s -= 1; }
    return gmdate('Y-m-d\TH:i:s', $s) . sprintf('.%03dZ', $frac);
}

function fmt_day(int $ms): string { return gmdate('Y-m-d', intdiv($ms, 1000)); }

function day_start(int $ms): int { return intdiv($ms, 86400000) * 86400000 - ($ms < 0 && $ms % 86400000 ? 86400000 : 0); }

/** ISO 8601 duration of whole seconds, e.g. PT1H2M3S */
function fmt_dur(?int $sec): ?string
{
    if ($sec === null) return null;
    $h = intdiv($sec, 3600); $m = intdiv($sec % 3600, 60); $s = $sec % 60;
    $r = 'PT';
    if ($h) $r .= $h . 'H';
    if ($m) $r .= $m . 'M';
    if ($s || $r === 'PT') $r .= $s . 'S';
    return $r;
}

/**
 * Parse an ISO 8601 date or timestamp into epoch milliseconds.
 * Returns [ms, dateOnly] or null when invalid.
 */
function parse_iso(string $v): ?array
{
    if (preg_match('/^(\d{4})-(\d{2})-(\d{2})$/', $v, $m)) {
        if (!checkdate((int)$m[2], (int)$m[3], (int)$m[1])) return null;
        return [gmmktime(0, 0, 0, (int)$m[2], (int)$m[3], (int)$m[1]) * 1000, true];
    }
    if (preg_match('/^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})?$/', $v, $m)) {
        [$y, $mo, $d, $h, $mi] = [(int)$m[1], (int)$m[2], (int)$m[3], (int)$m[4], (int)$m[5]];
        $s = isset($m[6]) && $m[6] !== '' ? (int)$m[6] : 0;
        if (!checkdate($mo, $d, $y) || $h > 23 || $mi > 59 || $s > 59) return null;
        $ms = gmmktime($h, $mi, $s, $mo, $d, $y) * 1000;
        if (isset($m[7]) && $m[7] !== '') $ms += (int)substr(str_pad($m[7], 3, '0'), 0, 3);
        $tz = $m[8] ?? '';
        if ($tz !== '' && strtoupper($tz) !== 'Z') {
            $sign = $tz[0] === '-' ? -1 : 1;
            $t = str_replace(':', '', substr($tz, 1));
            $oh = (int)substr($t, 0, 2); $om = (int)substr($t, 2, 2);
            if ($oh > 23 || $om > 59) return null;
            $ms -= $sign * ($oh * 3600 + $om * 60) * 1000;
        }
        return [$ms, false];
    }
    return null;
}

function json_out($v): string
{
    $s = json_encode($v, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRESERVE_ZERO_FRACTION);
    if ($s === false) throw new RuntimeException('json encode failed: ' . json_last_error_msg());
    return $s;
}

/** Count Unicode code points (no mbstring available). */
function ulen(string $s): int
{
    if ($s === '') return 0;
    $n = preg_match_all('/./us', $s);
    return $n === false ? strlen($s) : $n;
}

function valid_utf8(string $s): bool { return preg_match('//u', $s) === 1; }

/** Recursively sort object keys for a canonical representation. */
function canon($v)
{
    if ($v instanceof stdClass) {
        $a = get_object_vars($v);
        ksort($a, SORT_STRING);
        $o = new stdClass();
        foreach ($a as $k => $x) $o->$k = canon($x);
        return $o;
    }
    if (is_array($v)) return array_map('canon', $v);
    // 1 and 1.0 are the same JSON number
    if (is_float($v) && is_finite($v) && floor($v) === $v && abs($v) < 9.0e15) return (int)$v;
    return $v;
}

function is_obj($v): bool { return $v instanceof stdClass; }
function is_list($v): bool { return is_array($v) && array_is_list($v); }

function abs_http_url($v): bool
{
    if (!is_string($v) || $v === '' || preg_match('/\s/', $v)) return false;
    $p = parse_url($v);
    if ($p === false || !isset($p['scheme'], $p['host']) || $p['host'] === '') return false;
    $sc = strtolower($p['scheme']);
    return $sc === 'http' || $sc === 'https';
}

function percentile(array $vals, float $p): float
{
    $n = count($vals);
    if ($n === 0) return 0;
    sort($vals);
    $pos = ($n - 1) * $p;
    $lo = (int)floor($pos); $hi = (int)ceil($pos);
    $v = $vals[$lo] + ($vals[$hi] - $vals[$lo]) * ($pos - $lo);
    return round((float)$v, 4);
}

function avg(array $vals): float
{
    return count($vals) ? round(array_sum($vals) / count($vals), 4) : 0;
}

function avg_or_null(array $vals): ?float
{
    return count($vals) ? round(array_sum($vals) / count($vals), 4) : null;
}

function rand_hex(int $bytes): string { return bin2hex(random_bytes($bytes)); }
