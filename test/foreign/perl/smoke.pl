#!/usr/bin/env perl
# Self-check: starts server.pl on an ephemeral port, exercises every route with the
# clean build, then verifies that each planted deviation is observable on its own.
use v5.36;
use utf8;
use IO::Socket::INET;
use JSON::PP;
use POSIX qw(ceil :sys_wait_h);
use Time::HiRes qw(time sleep);
use File::Temp qw(tempdir);
use File::Basename qw(dirname);
use Encode ();

binmode STDOUT, ':encoding(UTF-8)';
$| = 1;
use File::Spec;
my $DIR = File::Spec->rel2abs(dirname(__FILE__));
my $TMP = tempdir('.smoke-XXXXXX', DIR => $DIR, CLEANUP => 1);
my $J = JSON::PP->new->utf8->canonical;
my $DAY = 86400;

# ---------------------------------------------------------------- server control
sub start_server($devs) {
    my $kf = "$TMP/keys-" . int(rand(1e9)) . '.json';
    pipe(my $r, my $w) or die "pipe: $!";
    my $pid = fork // die "fork: $!";
    if (!$pid) {
        close $r;
        open STDOUT, '>&', $w or die;
        open STDERR, '>', '/dev/null' or die;
        $ENV{PORT} = 0;
        $ENV{KEYS_FILE} = $kf;
        $ENV{DEVIATIONS} = $devs;
        exec $^X, "$DIR/server.pl" or die "exec: $!";
    }
    close $w;
    my $line = <$r>;
    die "server did not start\n" unless defined $line && $line =~ m{^listening http://127\.0\.0\.1:(\d+)$};
    my $port = $1;
    open my $fh, '<', $kf or die "no keys file: $!";
    local $/;
    my $keys = $J->decode(<$fh>);
    return { pid => $pid, port => $port, keys => $keys, pipe => $r };
}
sub stop_server($s) {
    my $t = time;
    kill 'TERM', $s->{pid};
    while (time - $t < 5) { last if waitpid($s->{pid}, WNOHANG) == $s->{pid}; sleep 0.02 }
    my $el = time - $t;
    if (kill 0, $s->{pid}) { kill 'KILL', $s->{pid}; waitpid($s->{pid}, 0) }
    return $el;
}

# ---------------------------------------------------------------- HTTP client
sub enc_seg($s) { my $b = Encode::encode('UTF-8', $s); $b =~ s/([^A-Za-z0-9\-._~])/sprintf('%%%02X', ord $1)/ge; $b }
sub qs(%q) { join '&', map { enc_seg($_) . '=' . enc_seg($q{$_}) } sort keys %q }
sub read_response($sock) {
    my $buf = '';
    while (index($buf, "\r\n\r\n") < 0) { my $n = sysread($sock, $buf, 65536, length $buf); return undef unless $n }
    my $i = index($buf, "\r\n\r\n");
    my $head = substr($buf, 0, $i + 4, '');
    my ($st) = $head =~ m{^HTTP/1\.[01] (\d{3})};
    if ($st == 100) { return read_response_rest($sock, $buf) }
    my %h = map { my ($k, $v) = /^([^:]+):\s*(.*)$/; (lc $k => $v) } grep { /:/ } split /\r\n/, $head;
    my $cl = $h{'content-length'} // 0;
    while (length($buf) < $cl) { my $n = sysread($sock, $buf, 65536, length $buf); last unless $n }
    my $body = substr($buf, 0, $cl);
    my $json = eval { $J->decode($body) };
    return { status => 0 + $st, headers => \%h, raw => $body, json => $json };
}
sub read_response_rest($sock, $buf) {
    # after a 100 Continue: re-enter with leftover buffer
    while (index($buf, "\r\n\r\n") < 0) { my $n = sysread($sock, $buf, 65536, length $buf); return undef unless $n }
    my $i = index($buf, "\r\n\r\n");
    my $head = substr($buf, 0, $i + 4, '');
    my ($st) = $head =~ m{^HTTP/1\.[01] (\d{3})};
    my %h = map { my ($k, $v) = /^([^:]+):\s*(.*)$/; (lc $k => $v) } grep { /:/ } split /\r\n/, $head;
    my $cl = $h{'content-length'} // 0;
    while (length($buf) < $cl) { my $n = sysread($sock, $buf, 65536, length $buf); last unless $n }
    my $body = substr($buf, 0, $cl);
    return { status => 0 + $st, headers => \%h, raw => $body, json => scalar eval { $J->decode($body) } };
}
my $SRV;
sub req($method, $path, $key = undef, $body = undef, %o) {
    my $sock = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $SRV->{port}, Proto => 'tcp', Timeout => 10) or die "connect: $!";
    my $b = defined $body ? (ref $body ? $J->encode($body) : $body) : undef;
    my $r = "$method $path HTTP/1.1\r\nHost: 127.0.0.1:$SRV->{port}\r\nConnection: close\r\n";
    $r .= "X-API-Key: $key\r\n" if defined $key;
    if (defined $b) {
        if ($o{chunked}) {
            $r .= "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
            my $s = $b;
            while (length $s) { my $c = substr($s, 0, 7, ''); $r .= sprintf("%x\r\n%s\r\n", length $c, $c) }
            $r .= "0\r\n\r\n";
        } else {
            $r .= "Content-Type: application/json\r\nContent-Length: " . length($b) . "\r\n\r\n$b";
        }
    } else { $r .= "\r\n" }
    print $sock $r;
    my $res = read_response($sock);
    close $sock;
    die "no response for $method $path\n" unless $res;
    return $res;
}
sub K($name) { $SRV->{keys}{$name} // die "no key $name" }
sub get($path, $key = 'CCA_READ_KEY', %q) { req('GET', $path . (%q ? '?' . qs(%q) : ''), K($key)) }

# ---------------------------------------------------------------- fixtures
sub iso_ms($t) { my @g = gmtime(int $t); sprintf('%04d-%02d-%02dT%02d:%02d:%02d.%03dZ', $g[5] + 1900, $g[4] + 1, $g[3], $g[2], $g[1], $g[0], int(($t - int $t) * 1000)) }
sub date_of($t) { my @g = gmtime(int $t); sprintf('%04d-%02d-%02d', $g[5] + 1900, $g[4] + 1, $g[3]) }
my $NOW = time;
my %WIN = (from => iso_ms($NOW - 30 * $DAY), to => iso_ms($NOW));
my $CASE_N = 0;
sub mcase(%over) {
    my %c = (externalId => 'ext-' . $$ . '-' . (++$CASE_N) . '-' . int(rand(1e6)), sourceSystem => 'smoke', sourcePlatform => 'SNAPCHAT',
        sourceAdId => 'ad-1', advertiserName => 'Acme Ads', market => 'US', placement => 'feed', landingPageUrl => 'https://acme.example/landing',
        title => 'Summer sale', media => [ { url => 'https://cdn.example/a.png', type => 'image', position => 1 } ],
        attachment => { type => 'web_view', destinationUrl => 'https://acme.example' },
        targeting => { ageMin => 18, geos => ['US'] }, copy => { body => 'Great deals' }, %over);
    return \%c;
}
sub irec($i, %over) { { externalId => "rec-$i", authorId => 'u1', authorName => 'User One', body => "hello $i", createdAt => iso_ms($NOW), recordType => 'MESSAGE', %over } }
sub ibatch(%over) { { platform => 'DISCORD', serverId => 'srv-1', serverName => 'Server One', records => [ irec(1) ], %over } }
sub is_err_body($r) { $r->{json} && ref $r->{json} eq 'HASH' && JSON::PP::is_bool($r->{json}{success}) && !$r->{json}{success} && defined $r->{json}{error} && !ref $r->{json}{error} }

# ---------------------------------------------------------------- clean-build checks
my @FAILS;
my $NCHK = 0;
sub check($name, $cond, $detail = '') {
    $NCHK++;
    if ($cond) { return 1 }
    push @FAILS, "$name" . ($detail ? " ($detail)" : '');
    say "  FAIL $name" . ($detail ? " ($detail)" : '');
    return 0;
}

my @SPECIAL_A = ('000123', '0042', '9007199254740993', '18446744073709551617', '12345678901234567890123',
    "caf\x{e9}-\x{fc}n\x{ef}c\x{f8}d\x{e9}-\x{2713}", 'id with spaces', 'a/b/c', '100%pure', 'q?x=1#frag&y=2',
    "\x{65e5}\x{672c}\x{8a9e}-ID", "emoji-\x{1F600}", 'plus+sign', '1001', '1002', 'semi;colon');

sub general_checks() {
    # auth
    my $r = req('GET', '/v0/action/list');
    check('missing key 401', $r->{status} == 401 && is_err_body($r));
    check('invalid key 401', req('GET', '/v0/action/list', 'nope')->{status} == 401);
    check('expired key 401', get('/v0/action/list', 'CCA_EXPIRED_KEY')->{status} == 401);
    check('revoked key 401 on write', req('PATCH', '/v0/actions/0042/custom-fields', K('CCA_REVOKED_KEY'), { fields => [ { fieldName => 'notes', value => 'x' } ] })->{status} == 401);
    check('ingest key cannot read reporting 403', get('/v0/action/list', 'CCA_INGEST_KEY')->{status} == 403);
    check('write-only key cannot read reporting 403', get('/v0/agents', 'CCA_WRITE_KEY')->{status} == 403);
    check('unknown route 404', req('GET', '/v0/nope', K('CCA_READ_KEY'))->{status} == 404);
    check('wrong method 405', req('DELETE', '/v0/action/list', K('CCA_READ_KEY'))->{status} == 405);

    # action list
    $r = get('/v0/action/list');
    my $d = $r->{json};
    check('list 200', $r->{status} == 200 && ref $d->{data} eq 'ARRAY', $r->{status});
    check('list default pageSize 50', $d->{pageSize} == 50 && @{$d->{data}} == ($d->{totalRecords} < 50 ? $d->{totalRecords} : 50));
    check('list totalPages', $d->{totalPages} == ceil($d->{totalRecords} / 50));
    check('list default responded', !grep { !defined $_->{initialResponseTime} } @{$d->{data}});
    my $lim = iso_ms(time - 7 * $DAY - 5);
    check('list default 7 days', !grep { $_->{createdAt} lt $lim } @{$d->{data}});
    my @c = map { $_->{createdAt} } @{$d->{data}};
    check('list newest first', join(',', @c) eq join(',', sort { $b cmp $a } @c));
    check('list conversationJson null by default', !grep { defined $_->{conversationJson} } @{$d->{data}});
    my @keys = qw(actionId actionTitle actionSummary status platform recordType isPublicPost serviceURL sourceURL queue initialQueue sentiment
      sentimentScore moderation assigneeName assigneeEmail assigneeUserId assigneeRole userName userUsername userId userEmail userFollowerCount
      createdAt updatedAt initialMessageTime initialResponseTime closeTime claimTime firstResponseTime handleTime serverName channelName csatScore
      csatFeedback estimatedCSAT totalMessages totalUserMessages totalAgentMessages tags closingTags customFields rootMessageText conversationJson);
    check('list item has all keys', !grep { my $x = $_; grep { !exists $x->{$_} } @keys } @{$d->{data}});
    check('private records have null sourceURL', !grep { !$_->{isPublicPost} && defined $_->{sourceURL} } @{$d->{data}});
    $r = get('/v0/action/list', 'CCA_READ_KEY', includeFullConversation => 'true', pageSize => 3);
    check('includeFullConversation fills conversationJson', $r->{status} == 200 && @{$r->{json}{data}} == 3
        && !grep { !defined $_->{conversationJson} || ref(eval { JSON::PP->new->decode($_->{conversationJson}) }) ne 'ARRAY' } @{$r->{json}{data}});
    $r = get('/v0/action/list', 'CCA_READ_KEY', filter => 'responded=false', pageSize => 500);
    check('legacy filter responded=false', $r->{status} == 200 && !grep { defined $_->{initialResponseTime} } @{$r->{json}{data}});
    $r = get('/v0/action/list', 'CCA_READ_KEY', filterJson => '{"responded":false}', pageSize => 500);
    check('filterJson responded=false', $r->{status} == 200 && !grep { defined $_->{initialResponseTime} } @{$r->{json}{data}});
    $r = req('GET', '/v0/action/list?pageSize=500&fullFilter=platform=TWITTER%2Bstatus=OPEN', K('CCA_READ_KEY'));
    check('fullFilter DSL', $r->{status} == 200 && !grep { $_->{platform} ne 'TWITTER' || $_->{status} ne 'OPEN' } @{$r->{json}{data}});
    $r = get('/v0/action/list', 'CCA_READ_KEY', sortBy => 'updatedAt', pageSize => 20);
    my @u = map { $_->{updatedAt} } @{$r->{json}{data}};
    check('sortBy updatedAt', $r->{status} == 200 && join(',', @u) eq join(',', sort { $b cmp $a } @u));
    for my $bad ([ pageSize => 0 ], [ pageSize => 501 ], [ pageSize => 'abc' ], [ from => 'yesterday' ], [ sortBy => 'title' ],
        [ includeFullConversation => 'maybe' ], [ fullFilter => 'bogus=1' ], [ fullFilter => 'x' x 10001 ]) {
        my $rr = get('/v0/action/list', 'CCA_READ_KEY', @$bad);
        check("list 400 for @$bad[0]=" . substr($bad->[1], 0, 10), $rr->{status} == 400 && is_err_body($rr), $rr->{status});
    }
    $r = get('/v0/action/list', 'CCA_READ_KEY', fullFilter => 'status=OPEN', filter => 'responded=true');
    check('fullFilter with filter 400', $r->{status} == 400);
    $r = get('/v0/action/list', 'CCA_READ_KEY', from => iso_ms($NOW - 2 * $DAY), to => iso_ms($NOW - $DAY), pageSize => 500, filter => 'responded=any');
    check('explicit timestamp window', $r->{status} == 200 && @{$r->{json}{data}} > 0
        && !grep { $_->{createdAt} lt iso_ms($NOW - 2 * $DAY) || $_->{createdAt} gt iso_ms($NOW - $DAY) } @{$r->{json}{data}});

    # detail + identifiers
    for my $id (@SPECIAL_A) {
        my $rr = req('GET', '/v0/action/' . enc_seg($id), K('CCA_READ_KEY'));
        check("detail for id '$id'", $rr->{status} == 200 && $rr->{json}{actionId} eq $id, $rr->{status});
    }
    $r = req('GET', '/v0/action/9007199254740993', K('CCA_READ_KEY'));
    my $det = $r->{json};
    check('detail shape', $r->{status} == 200 && ref $det->{user} eq 'HASH' && ref $det->{assignee} eq 'HASH' && ref $det->{messages} eq 'ARRAY'
        && ref $det->{comments} eq 'ARRAY' && !grep { !defined $_->{authorType} || $_->{authorType} !~ /^(USER|AGENT|BOT)$/ } @{$det->{messages}});
    check('big id exact in raw JSON', $r->{raw} =~ /"actionId":"9007199254740993"/);
    $r = req('GET', '/v0/action/does-not-exist', K('CCA_READ_KEY'));
    check('detail 404', $r->{status} == 404 && is_err_body($r));
    my $a1 = req('GET', '/v0/action/1001', K('CCA_READ_KEY'))->{json};
    my $b1 = req('GET', '/v0/action/1001', K('CCA_OTHER_ORG_READ_KEY'))->{json};
    check('colliding id is a different record per org', $a1 && $b1 && $a1->{actionId} eq '1001' && $b1->{actionId} eq '1001'
        && ($a1->{createdAt} ne $b1->{createdAt} || $a1->{user}{userId} ne $b1->{user}{userId}));
    check('org B cannot see org A only id', req('GET', '/v0/action/0042', K('CCA_OTHER_ORG_READ_KEY'))->{status} == 404);
    $r = req('GET', "http://127.0.0.1:$SRV->{port}/v0/action/0042", K('CCA_READ_KEY'));
    check('absolute-form target', $r->{status} == 200 && $r->{json}{actionId} eq '0042');

    # custom fields
    $r = req('GET', '/v0/actions/0042/custom-fields', K('CCA_READ_KEY'));
    check('custom fields GET', $r->{status} == 200 && $r->{json}{actionId} eq '0042' && @{$r->{json}{fields}} == 6);
    check('custom fields GET write key 403', req('GET', '/v0/actions/0042/custom-fields', K('CCA_WRITE_KEY'))->{status} == 403);
    $r = req('PATCH', '/v0/actions/0042/custom-fields', K('CCA_WRITE_KEY'),
        { fields => [ { fieldName => 'priority', value => 'high', confidence => 0.9, rationale => 'smoke' }, { fieldName => 'churnRisk', value => 0.5 },
            { fieldName => 'components', value => [ 'api', 'mobile' ] } ] });
    check('custom fields PATCH', $r->{status} == 200 && @{$r->{json}{updated}} == 3 && $r->{json}{updated}[0]{value} eq 'high', $r->{status});
    $r = req('GET', '/v0/actions/0042/custom-fields', K('CCA_READ_KEY'));
    my ($pf) = grep { $_->{fieldName} eq 'priority' } @{$r->{json}{fields}};
    check('custom fields persisted', $pf && $pf->{value} eq 'high' && ref $pf->{provenance} eq 'HASH');
    check('custom field PATCH read key 403', req('PATCH', '/v0/actions/0042/custom-fields', K('CCA_READ_KEY'), { fields => [ { fieldName => 'notes', value => 'x' } ] })->{status} == 403);
    $r = req('PATCH', '/v0/actions/0042/custom-fields', K('CCA_WRITE_KEY'), { fields => [ { fieldName => 'nope', value => 1 } ] });
    check('custom field unknown 422', $r->{status} == 422 && ref $r->{json}{fieldErrors} eq 'HASH' && is_err_body($r));
    check('custom field confidence 422', req('PATCH', '/v0/actions/0042/custom-fields', K('CCA_WRITE_KEY'), { fields => [ { fieldName => 'notes', value => 'x', confidence => 1.5 } ] })->{status} == 422);
    check('custom field empty 422', req('PATCH', '/v0/actions/0042/custom-fields', K('CCA_WRITE_KEY'), { fields => [] })->{status} == 422);
    check('custom field 404', req('PATCH', '/v0/actions/nope/custom-fields', K('CCA_WRITE_KEY'), { fields => [ { fieldName => 'notes', value => 'x' } ] })->{status} == 404);
    check('custom field cross-org 404', req('PATCH', '/v0/actions/0042/custom-fields', K('CCA_OTHER_ORG_WRITE_KEY'), { fields => [ { fieldName => 'notes', value => 'x' } ] })->{status} == 404);
    $r = req('PATCH', '/v0/actions/' . enc_seg('a/b/c') . '/custom-fields', K('CCA_READ_WRITE_KEY'), { fields => [ { fieldName => 'notes', value => "n\x{f6}te" } ] }, chunked => 1);
    check('custom field PATCH chunked + encoded id', $r->{status} == 200 && $r->{json}{actionId} eq 'a/b/c');

    # agents / queues
    $r = get('/v0/agents', 'CCA_READ_KEY', %WIN);
    check('agents 200', $r->{status} == 200 && $r->{json}{success} && @{$r->{json}{data}} == 8);
    check('agents workload sums', !grep { my $w = $_->{workload}; $w->{active} + $w->{closed} + $w->{cancelled} != $_->{metrics}{totalActions} } @{$r->{json}{data}});
    my ($ag) = grep { $_->{agentId} eq 'agent/with/slash' } @{$r->{json}{data}};
    my $ad = req('GET', '/v0/agents/' . enc_seg('agent/with/slash') . '?' . qs(%WIN), K('CCA_READ_KEY'));
    check('agent detail', $ad->{status} == 200 && $ad->{json}{data}{aggregatedMetrics}{totalActions} == $ag->{metrics}{totalActions}
        && ref $ad->{json}{data}{metrics} eq 'ARRAY' && ref $ad->{json}{data}{queues} eq 'ARRAY');
    check('agent detail big id', req('GET', '/v0/agents/90071992547409931', K('CCA_READ_KEY'))->{status} == 200);
    check('agent 404', req('GET', '/v0/agents/nobody', K('CCA_READ_KEY'))->{status} == 404);
    check('agent cross-org 404', req('GET', '/v0/agents/U0123456789', K('CCA_OTHER_ORG_READ_KEY'))->{status} == 404);
    $r = get('/v0/queues', 'CCA_READ_KEY', %WIN);
    check('queues 200', $r->{status} == 200 && @{$r->{json}{data}} >= 5 && !grep { !exists $_->{metrics}{averageSentimentScore} } @{$r->{json}{data}});
    check('bad date 400', get('/v0/queues', 'CCA_READ_KEY', from => '2024-13-45')->{status} == 400);

    # analytics
    $r = get('/v0/analytics/tags', 'CCA_READ_KEY', %WIN);
    my $t = $r->{json}{data};
    check('tags 200', $r->{status} == 200 && $t->{summary}{totalActions} > 0 && @{$t->{tagBreakdown}} > 0 && @{$t->{volumeByTag}} == @{$t->{tagBreakdown}});
    check('tags volume totals', !grep { $_->{responded} + $_->{notResponded} != $_->{total} } @{$t->{volumeByTag}});
    $r = get('/v0/analytics/tags', 'CCA_READ_KEY', %WIN, search => 'login');
    check('tags search', $r->{status} == 200 && @{$r->{json}{data}{tagBreakdown}} == 1 && $r->{json}{data}{tagBreakdown}[0]{tagName} eq 'Login Issue');
    check('tags bad limit 400', get('/v0/analytics/tags', 'CCA_READ_KEY', limit => 'x')->{status} == 400);
    $r = get('/v0/analytics/tags/volume', 'CCA_READ_KEY', %WIN, topTagsLimit => 3);
    check('tags volume', $r->{status} == 200 && @{$r->{json}{data}{tags}} == 3 && ref $r->{json}{data}{data} eq 'ARRAY');
    $r = get('/v0/analytics/tags/volume', 'CCA_READ_KEY', %WIN, tagIds => 'tg-a-01,tg-a-02');
    check('tags volume by ids', $r->{status} == 200 && join(',', @{$r->{json}{data}{tags}}) eq 'Login Issue,Payments');
    $r = get('/v0/analytics/sentiment', 'CCA_READ_KEY', %WIN);
    check('sentiment by day', $r->{status} == 200 && @{$r->{json}{data}} > 0 && !grep { !defined $_->{day} || !exists $_->{'Very Negative'} } @{$r->{json}{data}});
    $r = get('/v0/analytics/sentiment/by-tag', 'CCA_READ_KEY', %WIN);
    check('sentiment by tag', $r->{status} == 200 && @{$r->{json}{data}} > 0 && !grep { $_->{veryNegative} + $_->{negative} + $_->{neutral} + $_->{positive} > $_->{totalMentions} } @{$r->{json}{data}});
    $r = get('/v0/analytics/engagement', 'CCA_READ_KEY', %WIN, platforms => 'TWITTER,DISCORD');
    my $e = $r->{json}{data};
    check('engagement', $r->{status} == 200 && @{$e->{engagementPercentiles}} == 2 && !grep { $_->{platform} !~ /^(TWITTER|DISCORD)$/ } @{$e->{growthTrends}});
    check('engagement bad platform 400', get('/v0/analytics/engagement', 'CCA_READ_KEY', platforms => 'MYSPACE')->{status} == 400);
    check('analytics ingest key 403', get('/v0/analytics/sentiment', 'CCA_INGEST_KEY')->{status} == 403);

    # search
    $r = get('/v0/conversations/search', 'CCA_READ_KEY', pageSize => 10, page => 2);
    check('search 200', $r->{status} == 200 && @{$r->{json}{data}} == 10 && $r->{json}{currentPage} == 2 && exists $r->{json}{data}[0]{threadId}
        && JSON::PP::is_bool($r->{json}{totalRecordsCapped}));
    $r = req('GET', '/v0/conversations/search?filter=platform=DISCORD%2Bresponded=true&pageSize=100', K('CCA_READ_KEY'));
    check('search filter', $r->{status} == 200 && @{$r->{json}{data}} > 0 && !grep { $_->{platform} ne 'DISCORD' || !defined $_->{initialResponseTime} } @{$r->{json}{data}});
    for my $bad ([ page => 0 ], [ page => 10001 ], [ pageSize => 101 ], [ pageSize => 0 ], [ filter => 'nokey' ]) {
        check("search 400 @$bad", get('/v0/conversations/search', 'CCA_READ_KEY', @$bad)->{status} == 400);
    }
    $r = get('/v0/conversations/search', 'CCA_OTHER_ORG_READ_KEY', pageSize => 100);
    check('search org isolation', $r->{status} == 200 && $r->{json}{totalRecords} == 80);

    # csatScore is string/null on every route, also after the analytics routes averaged it (spec 2.1/2.2)
    {
        get('/v0/agents', 'CCA_READ_KEY', from => iso_ms($NOW - 61 * $DAY));
        get('/v0/queues', 'CCA_READ_KEY', from => iso_ms($NOW - 61 * $DAY));
        my $num_csat = sub ($raw) { $raw =~ /"csatScore":(?!null\b|")/ ? 1 : 0 };
        my $lr = get('/v0/action/list', 'CCA_READ_KEY', from => iso_ms($NOW - 61 * $DAY), pageSize => 500, filter => 'responded=any');
        my @with = grep { defined $_->{csatScore} } @{$lr->{json}{data} // []};
        check('csatScore string in action list', $lr->{status} == 200 && @with > 0 && !$num_csat->($lr->{raw}));
        my ($bad_detail, $mismatch) = (0, 0);
        for my $it (@with[0 .. (@with > 8 ? 7 : $#with)]) {
            my $dr = req('GET', '/v0/action/' . enc_seg($it->{actionId}), K('CCA_READ_KEY'));
            $bad_detail++ if $dr->{status} != 200 || $num_csat->($dr->{raw}) || $dr->{raw} !~ /"csatScore":"/;
            $mismatch++ unless defined $dr->{json}{csatScore} && $dr->{json}{csatScore} eq $it->{csatScore};
        }
        check('csatScore string in action detail', !$bad_detail, "$bad_detail numeric");
        check('csatScore list and detail agree', !$mismatch, "$mismatch differ");
        my $sr = get('/v0/conversations/search', 'CCA_READ_KEY', pageSize => 100);
        check('csatScore string in search items', $sr->{status} == 200 && $sr->{raw} =~ /"csatScore":"/ && !$num_csat->($sr->{raw}));
    }

    # moderation
    my $mc = mcase();
    $r = req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), $mc);
    my $ack = $r->{json};
    check('moderation accepted', $r->{status} == 202 && $ack->{status} eq 'accepted' && $ack->{analysisStatus} eq 'pending' && $ack->{caseId}
        && !$ack->{idempotency}{replayed}, $r->{status});
    $r = req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), $mc);
    check('moderation duplicate', $r->{status} == 202 && $r->{json}{status} eq 'duplicate' && $r->{json}{caseId} eq $ack->{caseId});
    $r = req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), { %$mc, title => 'Different' });
    check('moderation conflict 409', $r->{status} == 409 && is_err_body($r));
    my $st = req('GET', '/v0/moderation/cases/' . $ack->{caseId}, K('CCA_READ_KEY'))->{json};
    check('moderation status no decision before completed', $st && (($st->{analysisStatus} eq 'completed') xor !exists $st->{decision}));
    my $done;
    for (1 .. 50) {
        $st = req('GET', '/v0/moderation/cases/' . $ack->{caseId}, K('CCA_READ_KEY'))->{json};
        if ($st->{analysisStatus} eq 'completed') { $done = $st; last }
        sleep 0.1;
    }
    check('moderation completes with decision', $done && $done->{decision}{disposition} =~ /^(age_gate|approve|escalate|reject)$/);
    check('moderation case cross-org 404', req('GET', '/v0/moderation/cases/' . $ack->{caseId}, K('CCA_OTHER_ORG_READ_KEY'))->{status} == 404);
    $r = req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), { externalId => 'x' });
    check('moderation incomplete 422', $r->{status} == 422 && $r->{json}{code} eq 'MODERATION_INPUT_INCOMPLETE' && @{$r->{json}{missingFields}} > 0);
    $r = req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), mcase(callToAction => 'CLICK'));
    check('moderation invalid 422', $r->{status} == 422 && $r->{json}{code} eq 'MODERATION_INPUT_INVALID' && grep { $_ eq 'callToAction' } @{$r->{json}{invalidFields}});
    check('moderation media position 21 422', req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), mcase(media => [ { url => 'https://x.example/a.png', type => 'image', position => 21 } ]))->{status} == 422);
    check('moderation malformed 400', req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), '{bad')->{status} == 400);
    check('moderation read key 403', req('POST', '/v0/moderation/cases', K('CCA_READ_KEY'), mcase())->{status} == 403);
    $r = req('POST', '/v0/moderation/cases', K('CCA_NO_MODERATION_WRITE_KEY'), mcase());
    check('moderation non ad_policy org 403', $r->{status} == 403 && is_err_body($r));
    check('moderation org B accepted', req('POST', '/v0/moderation/cases', K('CCA_OTHER_ORG_WRITE_KEY'), $mc)->{json}{status} eq 'accepted');
    my $c2 = mcase();
    $r = req('POST', '/v0/moderation/cases/batch', K('CCA_WRITE_KEY'), { cases => [ $c2, { externalId => 'bad' }, $c2, { %$c2, title => 'changed' } ] });
    my $res = $r->{json}{results};
    check('moderation batch', $r->{status} == 202 && @$res == 4 && $res->[0]{status} eq 'accepted' && $res->[1]{status} eq 'rejected'
        && $res->[1]{code} eq 'MODERATION_INPUT_INCOMPLETE' && $res->[2]{status} eq 'duplicate' && $res->[3]{status} eq 'rejected');
    check('moderation batch empty 400', req('POST', '/v0/moderation/cases/batch', K('CCA_WRITE_KEY'), { cases => [] })->{status} == 400);
    check('moderation batch 101 400', req('POST', '/v0/moderation/cases/batch', K('CCA_WRITE_KEY'), { cases => [ map { mcase() } 1 .. 101 ] })->{status} == 400);
    check('moderation get 404', req('GET', '/v0/moderation/cases/nope', K('CCA_READ_KEY'))->{status} == 404);

    # non-ASCII moderation strings: accepted, echoed byte for byte, readable, idempotent
    {
        my $ext = "cca-smoke-x-echo-202-\x{65e5}\x{672c}-\x{fc}-$$-" . int(rand(1e6));
        my $uc = mcase(externalId => $ext, title => "Sch\x{f6}ne Gr\x{fc}\x{df}e \x{2713}", advertiserName => "\x{65e5}\x{672c} Ads \x{1F600}",
            copy => { body => "Caf\x{e9} cr\x{e8}me" });
        my $want = Encode::encode('UTF-8', '"externalId":' . JSON::PP->new->encode([$ext]) =~ s/^\[|\]$//gr);
        $r = req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), $uc);
        my $uack = $r->{json};
        check('moderation non-ASCII accepted', $r->{status} == 202 && $uack && $uack->{status} eq 'accepted', $r->{status});
        check('moderation non-ASCII externalId echoed byte for byte', index($r->{raw}, $want) >= 0 && ($uack->{externalId} // '') eq $ext);
        my $g = req('GET', '/v0/moderation/cases/' . enc_seg($uack->{caseId} // 'none'), K('CCA_READ_KEY'));
        check('moderation non-ASCII case readable', $g->{status} == 200 && $g->{json}{externalId} eq $ext && index($g->{raw}, $want) >= 0, $g->{status});
        $r = req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), $uc);
        check('moderation non-ASCII resubmission duplicate', $r->{status} == 202 && $r->{json}{status} eq 'duplicate'
            && $r->{json}{caseId} eq ($uack->{caseId} // '') && $r->{json}{idempotency}{key} eq $uack->{idempotency}{key}, $r->{status});
        check('moderation non-ASCII changed content 409', req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), { %$uc, title => "Andere \x{fc}" })->{status} == 409);
        my $bx = "u-312-\x{dc}n\x{ef}c\x{f8}d\x{e9}-\x{65e5}\x{672c}-$$-" . int(rand(1e6));
        my $bc = mcase(externalId => $bx, title => "T\x{ed}tulo \x{65e5}");
        my $bwant = Encode::encode('UTF-8', '"externalId":' . JSON::PP->new->encode([$bx]) =~ s/^\[|\]$//gr);
        $r = req('POST', '/v0/moderation/cases/batch', K('CCA_WRITE_KEY'), { cases => [ $bc, $bc ] });
        my $br = $r->{json}{results} // [];
        check('moderation batch non-ASCII accepted then duplicate', $r->{status} == 202 && @$br == 2 && $br->[0]{status} eq 'accepted'
            && $br->[1]{status} eq 'duplicate' && $br->[0]{externalId} eq $bx && $br->[1]{caseId} eq $br->[0]{caseId} && index($r->{raw}, $bwant) >= 0, $r->{status});
        check('moderation batch non-ASCII case readable', $br->[0]{caseId} && req('GET', '/v0/moderation/cases/' . enc_seg($br->[0]{caseId}), K('CCA_READ_KEY'))->{status} == 200);
    }

    # submittedAt must be an RFC 3339 date-time (spec 2.7)
    for my $good ('2024-01-01T10:00:00Z', '2024-01-01t10:00:00.123z', '2024-02-29T23:59:59.5+05:30', '2024-01-01T10:00:00-00:00') {
        my $rr = req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), mcase(submittedAt => $good));
        check("moderation submittedAt '$good' accepted", $rr->{status} == 202 && $rr->{json}{status} eq 'accepted', $rr->{status});
    }
    for my $bad ('2024-01-01 10:00', '2024-01-01 10:00:00Z', '2024-01-01T10:00Z', '2024-01-01T10:00:00', '2024-01-01', '2024-01-01T10:00:00+0530',
        '2024-01-01T10:00:00+05', '2024-13-01T10:00:00Z', '2023-02-29T10:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T10:00:00.Z', 'yesterday') {
        my $rr = req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), mcase(submittedAt => $bad));
        check("moderation submittedAt '$bad' 422", $rr->{status} == 422 && is_err_body($rr) && $rr->{json}{code} eq 'MODERATION_INPUT_INVALID'
            && (grep { $_ eq 'submittedAt' } @{$rr->{json}{invalidFields} // []}), $rr->{status});
    }
    check('moderation submittedAt number 422', req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), mcase(submittedAt => 1704103200))->{status} == 422);
    {
        my $ok = mcase(submittedAt => '2024-01-01T10:00:00Z');
        my $near = mcase(submittedAt => '2024-01-01 10:00');
        $r = req('POST', '/v0/moderation/cases/batch', K('CCA_WRITE_KEY'), { cases => [ $ok, $near ] });
        my $br = $r->{json}{results} // [];
        check('moderation batch rejects near-miss submittedAt', $r->{status} == 202 && @$br == 2 && $br->[0]{status} eq 'accepted'
            && $br->[1]{status} eq 'rejected' && $br->[1]{code} eq 'MODERATION_INPUT_INVALID' && $br->[1]{externalId} eq $near->{externalId}
            && (grep { $_ eq 'submittedAt' } @{$br->[1]{invalidFields} // []}), $r->{status});
    }

    # ingestion
    $r = req('POST', '/v0/ingest/records', K('CCA_INGEST_KEY'), ibatch(records => [ map { irec($_) } 1 .. 3 ]));
    check('ingest 202', $r->{status} == 202 && $r->{json}{status} eq 'accepted' && $r->{json}{accepted} == 3);
    $r = req('POST', '/v0/ingest/records', K('CCA_INGEST_KEY'), ibatch(records => [ map { irec($_) } 1 .. 40 ]), chunked => 1);
    check('ingest chunked 202', $r->{status} == 202 && $r->{json}{accepted} == 40);
    check('ingest write key 403', req('POST', '/v0/ingest/records', K('CCA_WRITE_KEY'), ibatch())->{status} == 403);
    check('ingest read key 403', req('POST', '/v0/ingest/records', K('CCA_READ_KEY'), ibatch())->{status} == 403);
    for my $bad ([ platform => 'MYSPACE' ], [ records => [] ], [ serverId => '' ], [ records => [ irec(1, url => 'ftp://x') ] ],
        [ records => [ irec(1, score => 5.5) ] ], [ records => [ irec(1, authorId => '') ] ]) {
        my $rr = req('POST', '/v0/ingest/records', K('CCA_INGEST_KEY'), ibatch(@$bad));
        check("ingest 422 $bad->[0]", $rr->{status} == 422 && is_err_body($rr), $rr->{status});
    }
    check('ingest malformed 422', req('POST', '/v0/ingest/records', K('CCA_INGEST_KEY'), '[not json')->{status} == 422);

    # docs
    $r = req('GET', '/docs/json');
    check('openapi json', $r->{status} == 200 && $r->{json}{openapi} && ref $r->{json}{paths} eq 'HASH' && exists $r->{json}{paths}{'/v0/action/list'});
    $r = req('GET', '/docs');
    check('swagger ui', $r->{status} == 200 && $r->{raw} =~ /swagger/i);

    # transport: keep-alive, pipelining-free sequential reuse, concurrency
    {
        my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $SRV->{port}) or die;
        my $okc = 0;
        for my $i (1 .. 3) {
            print $s "GET /v0/action/0042 HTTP/1.1\r\nHost: x\r\nX-API-Key: " . K('CCA_READ_KEY') . "\r\n\r\n";
            my $rr = read_response($s);
            $okc++ if $rr && $rr->{status} == 200;
        }
        close $s;
        check('keep-alive reuse', $okc == 3);
        my @socks = map { IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $SRV->{port}) or die } 1 .. 6;
        print $_ "GET /v0/queues HTTP/1.1\r\nHost: x\r\n" for @socks;       # partial headers everywhere
        print $_ "X-API-Key: " . K('CCA_READ_KEY') . "\r\n\r\n" for reverse @socks;
        my $n = grep { my $rr = read_response($_); $rr && $rr->{status} == 200 } reverse @socks;
        close $_ for @socks;
        check('concurrent partial requests', $n == 6);
    }
}

# ---------------------------------------------------------------- deviation checks (true = conformant)
my %DEVCHK = (
    P01 => sub { get('/v0/action/list', 'CCA_READ_KEY', pageSize => 500)->{status} == 200 },
    P02 => sub {
        my $D = date_of($NOW - $DAY);
        my $r = get('/v0/action/list', 'CCA_READ_KEY', from => date_of($NOW - 4 * $DAY), to => $D, pageSize => 400, filter => 'responded=any');
        $r->{status} == 200 && @{$r->{json}{data}} > 0 && !grep { $_->{createdAt} gt "${D}T00:00:00.000Z" } @{$r->{json}{data}};
    },
    P03 => sub { my $r = get('/v0/conversations/search'); $r->{status} == 200 && $r->{json}{pageSize} == 50 && @{$r->{json}{data}} == 50 },
    P04 => sub {
        my $r = req('GET', '/v0/conversations/search?filter=actionId=000123', K('CCA_READ_KEY'));
        $r->{status} == 200 && @{$r->{json}{data}} == 1 && $r->{json}{data}[0]{actionId} eq '000123';
    },
    P05 => sub {
        my $bt = get('/v0/analytics/sentiment/by-tag', 'CCA_READ_KEY', %WIN)->{json}{data};
        my $tg = get('/v0/analytics/tags', 'CCA_READ_KEY', %WIN, limit => 100)->{json}{data}{tagBreakdown};
        my %c = map { $_->{tagName} => $_->{count} } @$tg;
        @$bt > 0 && !grep { ($c{$_->{tagName}} // -1) != $_->{totalMentions} } @$bt;
    },
    P06 => sub { req('POST', '/v0/moderation/cases/batch', K('CCA_READ_KEY'), { cases => [ mcase() ] })->{status} == 403 },
    P07 => sub {
        my $c = mcase();
        req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), $c)->{status} == 202 or return 0;
        my $r = req('POST', '/v0/moderation/cases/batch', K('CCA_WRITE_KEY'), { cases => [ { %$c, title => 'Other title' } ] });
        $r->{status} == 202 && $r->{json}{results}[0]{status} eq 'rejected';
    },
    P08 => sub { req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), mcase(media => [ { url => 'https://x.example/a.png', type => 'image', position => 0 } ]))->{status} == 422 },
    P09 => sub { req('POST', '/v0/ingest/records', K('CCA_INGEST_KEY'), ibatch(records => [ map { irec($_) } 1 .. 501 ]))->{status} == 422 },
    P10 => sub { req('POST', '/v0/ingest/records', K('CCA_INGEST_KEY'), ibatch(records => [ irec(1, score => 5) ]))->{status} == 202 },
    P11 => sub { get('/v0/action/list', 'CCA_REVOKED_KEY')->{status} == 401 },
    P12 => sub {
        my $r = req('PATCH', '/v0/actions/0042/custom-fields', K('CCA_WRITE_KEY'), { fields => [ { fieldName => 'churnRisk', value => 'high' } ] });
        $r->{status} == 422 && exists $r->{json}{fieldErrors}{churnRisk};
    },
    P13 => sub { my $r = req('GET', '/docs/json'); $r->{status} == 200 && exists $r->{json}{paths}{'/v0/moderation/cases/batch'} },
    P14 => sub {
        my $t = get('/v0/analytics/tags', 'CCA_READ_KEY', %WIN, limit => 100)->{json}{data}{pagination}{total};
        my $r = get('/v0/analytics/tags', 'CCA_READ_KEY', %WIN, limit => 2, offset => $t - 2);
        $t > 2 && $r->{status} == 200 && @{$r->{json}{data}{tagBreakdown}} == 2 && !$r->{json}{data}{pagination}{hasMore};
    },
    P15 => sub {
        my $q = get('/v0/queues', 'CCA_READ_KEY', %WIN)->{json}{data};
        my $n = get('/v0/analytics/tags', 'CCA_READ_KEY', %WIN)->{json}{data}{summary}{totalActions};
        my $s = 0;
        $s += $_->{metrics}{totalActions} for @$q;
        $n > 0 && $s == $n;
    },
    P16 => sub {
        my $c = mcase();
        req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), $c);
        my $r = req('POST', '/v0/moderation/cases', K('CCA_WRITE_KEY'), $c);
        $r->{status} == 202 && $r->{json}{status} eq 'duplicate' && $r->{json}{idempotency}{replayed};
    },
);

# ---------------------------------------------------------------- main
open my $idf, '<', "$DIR/IDS.txt" or die "IDS.txt: $!";
my @IDS = map { (split ' ')[0] } grep { /\S/ } <$idf>;
close $idf;
die "IDS.txt and smoke checks disagree\n" unless join(',', sort @IDS) eq join(',', sort keys %DEVCHK);

say "== clean build";
$SRV = start_server('');
general_checks();
for my $id (@IDS) { check("$id conformant on clean build", eval { $DEVCHK{$id}->() } ? 1 : 0, $@) }
my $el = stop_server($SRV);
check('SIGTERM stops within 2s', $el < 2, sprintf('%.2fs', $el));
say "  $NCHK checks, " . scalar(@FAILS) . " failures";

say "== deviations, one at a time";
for my $id (@IDS) {
    $SRV = start_server($id);
    my $conf = eval { $DEVCHK{$id}->() } ? 1 : 0;
    check("$id observable when enabled", !$conf);
    my @others = grep { $_ ne $id && !(eval { $DEVCHK{$_}->() } ? 1 : 0) } @IDS;
    check("$id switches alone", !@others, "also breaks: @others");
    stop_server($SRV);
    say "  $id " . ($conf ? 'NOT observable' : 'observable') . (@others ? " (leaks: @others)" : '');
}
say "== DEVIATIONS=all";
$SRV = start_server('all');
my @still = grep { eval { $DEVCHK{$_}->() } ? 1 : 0 } @IDS;
check('all deviations observable together', !@still, "@still");
stop_server($SRV);

say '';
if (@FAILS) { say "SMOKE FAILED: " . scalar(@FAILS) . " of $NCHK checks"; say "  - $_" for @FAILS; exit 1 }
say "SMOKE PASSED: $NCHK checks";
exit 0;
