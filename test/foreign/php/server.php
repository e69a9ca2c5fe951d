<?php
// Customer-Conversation Analytics Service (independent PHP implementation).
// Single-process, non-blocking stream_select HTTP/1.1 server with an in-memory store.
declare(strict_types=1);

error_reporting(E_ALL);
ini_set('display_errors', 'stderr');
ini_set('memory_limit', '512M');
date_default_timezone_set('UTC');

require __DIR__ . '/lib/util.php';
require __DIR__ . '/lib/seed.php';
require __DIR__ . '/lib/app.php';
require __DIR__ . '/lib/openapi.php';

const MAX_HEADER_BYTES = 65536;
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const IDLE_TIMEOUT = 60;

$port = getenv('PORT');
$port = ($port === false || $port === '') ? '8080' : $port;
if (!preg_match('/^\d{1,5}$/', $port) || (int)$port > 65535) {
    fwrite(STDERR, "invalid PORT\n");
    exit(2);
}
$keysFile = getenv('KEYS_FILE');
$devs = array_filter(array_map('trim', explode(',', (string)getenv('DEVIATIONS'))), fn($x) => $x !== '');
$GLOBALS['DEV'] = array_fill_keys(array_map('strtoupper', $devs), true);

pcntl_async_signals(true);
$stop = function () { exit(0); };
pcntl_signal(SIGTERM, $stop, false);
pcntl_signal(SIGINT, $stop, false);
pcntl_signal(SIGPIPE, SIG_IGN);

$GLOBALS['START_MS'] = now_ms();
$store = new Store();
seed_store($store, $GLOBALS['START_MS']);
$GLOBALS['STORE'] = $store;

$ctx = stream_context_create(['socket' => ['backlog' => 128]]);
$server = @stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $ctx);
if (!$server) {
    fwrite(STDERR, "cannot listen: $errstr\n");
    exit(1);
}
stream_set_blocking($server, false);
$name = stream_socket_get_name($server, false);
$actualPort = (int)substr($name, strrpos($name, ':') + 1);

if ($keysFile !== false && $keysFile !== '') {
    $tmp = $keysFile . '.tmp' . getmypid();
    file_put_contents($tmp, json_encode($store->keyExport(), JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES) . "\n");
    rename($tmp, $keysFile);
}
fwrite(STDOUT, "listening http://127.0.0.1:$actualPort\n");
fflush(STDOUT);

$conns = [];   // id => state
$nextId = 1;

while (true) {
    $read = [$server];
    $write = [];
    foreach ($conns as $id => $c) {
        if (!$c['closing']) $read[$id] = $c['s'];
        if ($c['out'] !== '') $write[$id] = $c['s'];
    }
    $except = null;
    $n = @stream_select($read, $write, $except, 0, 200000);
    $now = time();
    if ($n === false) { continue; }
    if ($n > 0) {
        foreach ($read as $k => $s) {
            if ($s === $server) {
                for ($i = 0; $i < 32; $i++) {
                    $cs = @stream_socket_accept($server, 0);
                    if (!$cs) break;
                    stream_set_blocking($cs, false);
                    stream_set_write_buffer($cs, 0);
                    $conns[$nextId++] = ['s' => $cs, 'in' => '', 'out' => '', 'closing' => false, 'last' => $now, 'cont' => false];
                }
                continue;
            }
            if (!isset($conns[$k])) continue;
            $data = @fread($s, 262144);
            if ($data === false || ($data === '' && feof($s))) {
                conn_close($conns, $k);
                continue;
            }
            $conns[$k]['in'] .= $data;
            $conns[$k]['last'] = $now;
            process_buffer($conns, $k);
        }
        foreach ($write as $k => $s) {
            if (!isset($conns[$k])) continue;
            flush_out($conns, $k);
        }
    }
    foreach ($conns as $id => $c) {
        if ($c['closing'] && $c['out'] === '') { conn_close($conns, $id); continue; }
        if ($now - $c['last'] > IDLE_TIMEOUT) conn_close($conns, $id);
    }
}

function conn_close(array &$conns, int $id): void
{
    if (isset($conns[$id])) {
        @fclose($conns[$id]['s']);
        unset($conns[$id]);
    }
}

function flush_out(array &$conns, int $id): void
{
    $c = &$conns[$id];
    if ($c['out'] === '') return;
    $w = @fwrite($c['s'], $c['out']);
    if ($w === false) { $c['out'] = ''; $c['closing'] = true; return; }
    if ($w > 0) { $c['out'] = (string)substr($c['out'], $w); $c['last'] = time(); }
}

function send_raw(array &$conns, int $id, string $bytes): void
{
    $conns[$id]['out'] .= $bytes;
    flush_out($conns, $id);
}

function fail_conn(array &$conns, int $id, int $code, string $msg): void
{
    $body = json_out(['success' => false, 'error' => $msg]);
    send_raw($conns, $id, build_response($code, ['Content-Type' => 'application/json; charset=utf-8'], $body, false, false));
    $conns[$id]['closing'] = true;
    $conns[$id]['in'] = '';
}

function process_buffer(array &$conns, int $id): void
{
    while (isset($conns[$id]) && !$conns[$id]['closing']) {
        $buf = &$conns[$id]['in'];
        // skip stray CRLF between requests (RFC 9112 2.2)
        while (strncmp($buf, "\r\n", 2) === 0) $buf = (string)substr($buf, 2);
        if ($buf === '') return;
        // reject obvious garbage at once instead of waiting for a header terminator
        if (!preg_match('/^[A-Za-z]{1,20}( |$)/', substr($buf, 0, 21))) { fail_conn($conns, $id, 400, 'Malformed request line'); return; }
        $h1 = strpos($buf, "\r\n\r\n");
        $h2 = strpos($buf, "\n\n");
        if ($h1 !== false && ($h2 === false || $h1 < $h2)) { $hend = $h1; $tlen = 4; }
        elseif ($h2 !== false) { $hend = $h2; $tlen = 2; }
        else { $hend = false; $tlen = 0; }
        if ($hend === false) {
            if (strlen($buf) > MAX_HEADER_BYTES) fail_conn($conns, $id, 431, 'Request header fields too large');
            return;
        }
        if ($hend > MAX_HEADER_BYTES) { fail_conn($conns, $id, 431, 'Request header fields too large'); return; }
        $head = substr($buf, 0, $hend);
        $lines = array_map(fn($l) => rtrim($l, "\r"), explode("\n", $head));
        $reqLine = array_shift($lines);
        if (!preg_match('#^([A-Za-z]+) (\S+) HTTP/(\d)\.(\d)$#', $reqLine, $m)) {
            fail_conn($conns, $id, 400, 'Malformed request line');
            return;
        }
        $method = strtoupper($m[1]);
        $target = $m[2];
        $ver = $m[3] . '.' . $m[4];
        if ($m[3] !== '1') { fail_conn($conns, $id, 505, 'HTTP version not supported'); return; }
        $headers = [];
        foreach ($lines as $ln) {
            $p = strpos($ln, ':');
            if ($p === false || $p === 0 || preg_match('/\s/', substr($ln, 0, $p))) {
                fail_conn($conns, $id, 400, 'Malformed header line');
                return;
            }
            $hn = strtolower(substr($ln, 0, $p));
            $hv = trim(substr($ln, $p + 1), " \t");
            if (isset($headers[$hn])) {
                if ($hn === 'content-length' && $headers[$hn] !== $hv) { fail_conn($conns, $id, 400, 'Conflicting Content-Length'); return; }
                if ($hn !== 'content-length') $headers[$hn] .= ', ' . $hv;
            } else {
                $headers[$hn] = $hv;
            }
        }
        $bodyStart = $hend + $tlen;
        $body = '';
        $consumed = 0;
        if (isset($headers['transfer-encoding'])) {
            $te = strtolower($headers['transfer-encoding']);
            if ($te !== 'chunked') { fail_conn($conns, $id, 501, 'Unsupported transfer encoding'); return; }
            if (!empty($headers['expect']) && strtolower($headers['expect']) === '100-continue' && !$conns[$id]['cont']) {
                $conns[$id]['cont'] = true;
                send_raw($conns, $id, "HTTP/1.1 100 Continue\r\n\r\n");
            }
            $r = decode_chunked($buf, $bodyStart);
            if ($r === null) {
                if (strlen($buf) - $bodyStart > MAX_BODY_BYTES) { fail_conn($conns, $id, 413, 'Request body too large'); }
                return; // need more
            }
            if ($r === false) { fail_conn($conns, $id, 400, 'Malformed chunked body'); return; }
            [$body, $consumed] = $r;
            if (strlen($body) > MAX_BODY_BYTES) { fail_conn($conns, $id, 413, 'Request body too large'); return; }
        } else {
            $len = 0;
            if (isset($headers['content-length'])) {
                if (!preg_match('/^\d{1,12}$/', $headers['content-length'])) { fail_conn($conns, $id, 400, 'Invalid Content-Length'); return; }
                $len = (int)$headers['content-length'];
            }
            if ($len > MAX_BODY_BYTES) { fail_conn($conns, $id, 413, 'Request body too large'); return; }
            if ($len > 0 && !empty($headers['expect']) && strtolower($headers['expect']) === '100-continue' && !$conns[$id]['cont']) {
                $conns[$id]['cont'] = true;
                send_raw($conns, $id, "HTTP/1.1 100 Continue\r\n\r\n");
            }
            if (strlen($buf) - $bodyStart < $len) return; // need more
            $body = (string)substr($buf, $bodyStart, $len);
            $consumed = $bodyStart + $len;
        }
        $buf = (string)substr($buf, $consumed);
        $conns[$id]['cont'] = false;

        $connHdr = strtolower($headers['connection'] ?? '');
        $keep = ($ver === '1.1') ? !str_contains($connHdr, 'close') : str_contains($connHdr, 'keep-alive');

        try {
            [$code, $rh, $rb] = handle_request($method, $target, $headers, $body);
        } catch (Throwable $e) {
            fwrite(STDERR, "error: " . $e->getMessage() . ' at ' . $e->getFile() . ':' . $e->getLine() . "\n");
            [$code, $rh, $rb] = [500, ['Content-Type' => 'application/json; charset=utf-8'], json_out(['success' => false, 'error' => 'Internal server error'])];
        }
        send_raw($conns, $id, build_response($code, $rh, $rb, $keep, $method === 'HEAD'));
        if (!$keep) { $conns[$id]['closing'] = true; return; }
    }
}

/** @return array{0:string,1:int}|null|false */
function decode_chunked(string $buf, int $pos)
{
    $out = '';
    $n = strlen($buf);
    while (true) {
        $le = strpos($buf, "\r\n", $pos);
        if ($le === false) return ($n - $pos > 1024) ? false : null;
        $sizeLine = substr($buf, $pos, $le - $pos);
        $sc = strpos($sizeLine, ';');
        if ($sc !== false) $sizeLine = substr($sizeLine, 0, $sc);
        $sizeLine = trim($sizeLine);
        if (!preg_match('/^[0-9A-Fa-f]{1,8}$/', $sizeLine)) return false;
        $size = hexdec($sizeLine);
        $pos = $le + 2;
        if ($size === 0) {
            // trailers until empty line
            while (true) {
                $le = strpos($buf, "\r\n", $pos);
                if ($le === false) return null;
                if ($le === $pos) return [$out, $pos + 2];
                $pos = $le + 2;
            }
        }
        if ($n - $pos < $size + 2) return null;
        $out .= substr($buf, $pos, (int)$size);
        $pos += (int)$size;
        if (substr($buf, $pos, 2) !== "\r\n") return false;
        $pos += 2;
        if (strlen($out) > MAX_BODY_BYTES) return [$out, $pos];
    }
}

function build_response(int $code, array $headers, string $body, bool $keep, bool $head): string
{
    static $reasons = [200 => 'OK', 202 => 'Accepted', 204 => 'No Content', 400 => 'Bad Request', 401 => 'Unauthorized', 403 => 'Forbidden',
        404 => 'Not Found', 405 => 'Method Not Allowed', 409 => 'Conflict', 413 => 'Payload Too Large', 415 => 'Unsupported Media Type',
        422 => 'Unprocessable Entity', 431 => 'Request Header Fields Too Large', 500 => 'Internal Server Error', 501 => 'Not Implemented',
        505 => 'HTTP Version Not Supported'];
    $r = 'HTTP/1.1 ' . $code . ' ' . ($reasons[$code] ?? 'Status') . "\r\n";
    $headers['Content-Length'] = (string)strlen($body);
    $headers['Connection'] = $keep ? 'keep-alive' : 'close';
    if ($keep) $headers['Keep-Alive'] = 'timeout=' . IDLE_TIMEOUT;
    $headers['Date'] = gmdate('D, d M Y H:i:s') . ' GMT';
    $headers['Cache-Control'] = $headers['Cache-Control'] ?? 'no-store';
    foreach ($headers as $k => $v) $r .= $k . ': ' . $v . "\r\n";
    return $r . "\r\n" . ($head ? '' : $body);
}
