#!/usr/bin/env perl
# Customer-Conversation Analytics Service - independent REST deployment (core Perl only).
use v5.36;
use utf8;
use IO::Socket::INET;
use IO::Select;
use JSON::PP;
use Digest::SHA qw(sha256_hex);
use POSIX qw(floor ceil);
use Time::Local qw(timegm);
use Time::HiRes ();
use Encode ();
use B ();

binmode STDOUT;
binmode STDERR, ':encoding(UTF-8)';
$| = 1;

# ---------------------------------------------------------------- deviations
my @ALL_DEV = map { sprintf 'P%02d', $_ } 1 .. 16;
my %DEV;
for my $x (split /\s*,\s*/, ($ENV{DEVIATIONS} // '')) {
    next unless length $x;
    if (lc $x eq 'all') { $DEV{$_} = 1 for @ALL_DEV } else { $DEV{uc $x} = 1 }
}
sub dev($id) { $DEV{$id} ? 1 : 0 }

# ---------------------------------------------------------------- basics
my $TRUE  = JSON::PP::true;
my $FALSE = JSON::PP::false;
my $JSON_OUT  = JSON::PP->new->utf8->canonical;
my $JSON_TEXT = JSON::PP->new->canonical;            # character strings (conversationJson)
my $JSON_IN   = JSON::PP->new->utf8->max_depth(100);
my $MAX_BODY   = 20 * 1024 * 1024;
my $MAX_HEADER = 64 * 1024;
my $DAY = 86_400_000;

sub now_ms() { int(Time::HiRes::time() * 1000) }
my $T0 = now_ms();

sub iso($ms) {
    return undef unless defined $ms;
    my $s = floor($ms / 1000);
    my $frac = $ms - $s * 1000;
    my @t = gmtime($s);
    return sprintf('%04d-%02d-%02dT%02d:%02d:%02d.%03dZ',
        $t[5] + 1900, $t[4] + 1, $t[3], $t[2], $t[1], $t[0], $frac);
}
sub day_of($ms) { substr(iso($ms), 0, 10) }

# returns (ms, dateOnly) or empty list
sub parse_when($s) {
    return () unless defined $s && !ref $s;
    if ($s =~ /^(\d{4})-(\d{2})-(\d{2})$/) {
        my $t = eval { timegm(0, 0, 0, $3, $2 - 1, $1) };
        return () unless defined $t;
        return ($t * 1000, 1);
    }
    if ($s =~ /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/) {
        my ($Y, $M, $D, $h, $m, $sec, $fr, $tz) = ($1, $2, $3, $4, $5, $6 // 0, $7, $8);
        return () if $h > 23 || $m > 59 || $sec > 59;
        my $t = eval { timegm($sec, $m, $h, $D, $M - 1, $Y) };
        return () unless defined $t;
        my $ms = $t * 1000;
        $ms += int(substr($fr . '000', 0, 3)) if defined $fr;
        if (defined $tz && $tz !~ /^[Zz]$/) {
            my ($sg, $th, $tm) = $tz =~ /^([+-])(\d{2}):?(\d{2})?$/;
            $tm //= 0;
            return () if $th > 23 || $tm > 59;
            my $off = ($th * 60 + $tm) * 60_000;
            $ms -= ($sg eq '+' ? $off : -$off);
        }
        return ($ms, 0);
    }
    return ();
}

sub round2($x) { 0 + sprintf('%.2f', $x) }
sub avg($l) { return 0 unless @$l; my $s = 0; $s += $_ for @$l; round2($s / @$l) }
sub avg_or_null($l) { return undef unless @$l; avg($l) }
sub dur($sec) {
    return undef unless defined $sec;
    sprintf('%02d:%02d:%02d', int($sec / 3600), int(($sec % 3600) / 60), $sec % 60);
}
sub uri_escape_seg($s) {
    my $b = Encode::encode('UTF-8', $s);
    $b =~ s/([^A-Za-z0-9\-._~])/sprintf('%%%02X', ord $1)/ge;
    $b;
}

# JSON value kind helpers (inspect flags; never stringify numbers before checking)
# fresh string copy (POK only), so JSON::PP never emits it as a number even if the stored scalar was used numerically
sub str_or_null($v) { defined $v ? "$v" : undef }
sub is_bool($v) { JSON::PP::is_bool($v) ? 1 : 0 }
sub is_str($v) {
    return 0 if !defined $v || ref $v;
    return (B::svref_2object(\$v)->FLAGS & B::SVp_POK) ? 1 : 0;
}
sub is_num($v) {
    return 0 if !defined $v || ref $v;
    my $f = B::svref_2object(\$v)->FLAGS;
    return (($f & (B::SVp_IOK | B::SVp_NOK)) && !($f & B::SVp_POK)) ? 1 : 0;
}
sub is_finite_num($v) { is_num($v) && $v == $v && $v != 9**9**9 && $v != -9**9**9 }
sub is_int($v) { is_finite_num($v) && $v == int($v) }
sub is_obj($v) { ref $v eq 'HASH' }
sub is_arr($v) { ref $v eq 'ARRAY' }
sub is_http_url($v) { is_str($v) && $v =~ m{^https?://[^\s/?#]+[^\s]*$}i }
sub is_uri($v) { is_str($v) && $v =~ m{^[A-Za-z][A-Za-z0-9+.\-]*:[^\s]+$} }

# ---------------------------------------------------------------- deterministic PRNG
my $RS = 20240601;
sub rnd() { $RS = ($RS * 1103515245 + 12345) % 2147483648; $RS / 2147483648 }
sub ri($n) { int(rnd() * $n) }
sub pick(@l) { $l[ri(scalar @l)] }

# ---------------------------------------------------------------- organizations & seed
my %ORG;          # code => org
my @PLATFORMS = qw(DISCORD SLACK GITHUB ZENDESK TELEGRAM FACEBOOK_GROUP TWITTER_COMMUNITY SALESFORCE FACEBOOK
  TWITTER THREADS TIKTOK INSTAGRAM LINKEDIN WHATSAPP YOUTUBE GAINSIGHT APPSTORE GOOGLE_PLAY HIGHER_LOGIC
  DISCOURSE CUSTOM_FORM MODERATION_API CHROME_WEB_STORE CANNY);
my %PLATFORM_OK = map { $_ => 1 } @PLATFORMS;
my %PUBLIC_PLATFORM = map { $_ => 1 } qw(TWITTER INSTAGRAM GITHUB APPSTORE YOUTUBE DISCOURSE);
my %RECORD_TYPE = (DISCORD => 'MESSAGE', SLACK => 'MESSAGE', GITHUB => 'ISSUE', ZENDESK => 'TICKET',
    TWITTER => 'TWEET', INSTAGRAM => 'COMMENT', APPSTORE => 'REVIEW', WHATSAPP => 'CHAT', YOUTUBE => 'COMMENT',
    DISCOURSE => 'TOPIC');
my @SENTIMENTS = ('Very Negative', 'Negative', 'Neutral', 'Positive');
my %SENT_KEY = ('Very Negative' => 'veryNegative', 'Negative' => 'negative', 'Neutral' => 'neutral', 'Positive' => 'positive');

sub bucket($status) {
    return 'closed' if $status eq 'CLOSED';
    return 'cancelled' if $status eq 'CANCELLED';
    return 'active';
}

my @TITLES = (
    ['Cannot log in after password reset', 'Customer is locked out after resetting the password.'],
    ['Refund not received', 'Customer asks why the refund has not arrived yet.'],
    ['App crashes on startup', 'Mobile app closes immediately after launch.'],
    ['Love the new dashboard', 'Customer praises the redesigned dashboard.'],
    ['Feature request: dark mode', 'Customer asks for a dark theme.'],
    ['Order arrived late', 'Package delivered a week after the promised date.'],
    ['Billing charged twice', 'Customer sees a duplicate charge on the card.'],
    ['Slow page loads', 'Pages take more than ten seconds to load.'],
    ["Problème de connexion \x{e0} l'application", "Le client ne peut pas se connecter depuis hier."],
    ["\x{652f}\x{6255}\x{3044}\x{306b}\x{3064}\x{3044}\x{3066}", "\x{652f}\x{6255}\x{3044}\x{65b9}\x{6cd5}\x{306e}\x{8cea}\x{554f}\x{3002}"],
    ['API returns 500 on export', 'Export endpoint fails intermittently.'],
    ['Thanks for the quick help!', 'Customer thanks the agent for a fast resolution.'],
);
my %SERVER = (DISCORD => ['Acme Community', '#support'], SLACK => ['acme-customers', 'help-desk'],
    GITHUB => ['acme/sdk', 'issues'], ZENDESK => ['acme.zendesk.com', 'Email'], TWITTER => ['@AcmeHelp', 'mentions'],
    INSTAGRAM => ['acme.official', 'comments'], APPSTORE => ['Acme iOS', 'reviews'], WHATSAPP => ['Acme WhatsApp', 'direct'],
    YOUTUBE => ['Acme Channel', 'comments'], DISCOURSE => ['forum.acme.example', 'General']);

sub make_org(%o) {
    my $org = {
        code => $o{code}, orgId => $o{orgId}, name => $o{name}, mode => $o{mode},
        actions => [], by_id => {}, agents => $o{agents}, agent_by_id => {}, queues => $o{queues},
        tags => $o{tags}, tag_by_id => {}, fields => $o{fields}, field_by_name => {},
        cases => {}, cases_by_ext => {}, ingested => {}, pending_ingest => [],
    };
    $org->{agent_by_id}{$_->{userId}} = $_ for @{$o{agents}};
    $org->{tag_by_id}{$_->{id}} = $_ for @{$o{tags}};
    $org->{field_by_name}{$_->{name}} = $_ for @{$o{fields}};
    $ORG{$o{code}} = $org;
    my @customers;
    for my $i (0 .. $o{customers} - 1) {
        my $uid = $i % 9 == 0 ? sprintf('00%d', 4000 + $i) : ($o{custBase} . sprintf('%06d', 100000 + $i * 37));
        my $nm = pick('Maria', 'John', 'Søren', 'Aiko', 'Luis', 'Fatima', 'Олег', 'Chen', 'Amara', 'Noah') . ' '
          . pick('Garcia', 'Smith', 'Ødegaard', 'Tanaka', 'Silva', 'Khan', 'Иванов', 'Wei', 'Okafor', 'Brown');
        (my $un = lc $nm) =~ s/[^a-z]+/_/g;
        push @customers, { userId => $uid, name => $nm, username => $un . $i,
            email => (rnd() < 0.5 ? "customer$i\@mail.example" : undef) };
    }
    my @plats = @{$o{platforms}};
    my @special = @{$o{special}};
    for my $i (0 .. $o{n} - 1) {
        my $id = $i < @special ? $special[$i] : ($o{idBase} . sprintf('%015d', 100000000 + $i * 7919));
        my $age;
        if ($i < @special) { $age = 3_600_000 + ri(3 * $DAY) }
        elsif (rnd() < 0.45) { $age = 600_000 + ri(7 * $DAY - 1_200_000) }
        else { $age = 7 * $DAY + ri(53 * $DAY) }
        my $created = $T0 - $age - ri(1000);
        my $pl = pick(@plats);
        my $public = $PUBLIC_PLATFORM{$pl} ? 1 : 0;
        my $r = rnd();
        my $status = $r < 0.25 ? 'OPEN' : $r < 0.40 ? 'IN_PROGRESS' : $r < 0.50 ? 'WAITING' : $r < 0.90 ? 'CLOSED' : 'CANCELLED';
        my $asg = (rnd() < 0.85 || $i < @special) ? pick(@{$o{agents}}) : undef;
        my $cust = pick(@customers);
        my $imt = $created - ri(600_000);
        my $responded = $asg && ($i < @special || rnd() < 0.8);
        my ($frt, $irt, $claim, $close, $handle);
        if ($responded) {
            $frt = 30 + ri(7200);
            my $maxf = int(($T0 - $imt) / 1000) - 2;
            $frt = $maxf if $frt > $maxf;
            $frt = 1 if $frt < 1;
            $irt = $imt + $frt * 1000;
        }
        $claim = $created + 30_000 + ri(60_000) if $asg;
        $claim = $T0 - 1000 if defined $claim && $claim > $T0;
        if ($status eq 'CLOSED' || $status eq 'CANCELLED') {
            $handle = ($frt // 60) + ri(86_400);
            my $maxh = int(($T0 - $created) / 1000) - 1;
            $handle = $maxh if $handle > $maxh;
            $handle = 1 if $handle < 1;
            $close = $created + $handle * 1000;
        }
        my $updated = $created;
        for ($irt, $claim, $close) { $updated = $_ if defined $_ && $_ > $updated }
        $updated += ri(120_000);
        $updated = $T0 - 500 if $updated > $T0;
        $updated = undef if $i >= @special && rnd() < 0.05;
        my $sent = rnd() < 0.08 ? undef : pick(@SENTIMENTS);
        my $score;
        if (defined $sent) {
            my %rg = ('Very Negative' => [-0.95, -0.6], 'Negative' => [-0.6, -0.2], 'Neutral' => [-0.2, 0.2], 'Positive' => [0.2, 0.95]);
            my ($lo, $hi) = @{$rg{$sent}};
            $score = round2($lo + rnd() * ($hi - $lo));
        }
        my $tt = pick(@TITLES);
        # tags
        my @tags;
        if (rnd() > 0.2) {
            my %seen;
            for (1 .. 1 + ri(3)) { my $t = pick(@{$o{tags}}); push @tags, $t unless $seen{$t->{id}}++ }
        }
        my @closing = ($status eq 'CLOSED' && rnd() < 0.5) ? (pick(@{$o{tags}})) : ();
        # messages
        my @msgs;
        my $nm = $responded ? 2 + ri(6) : 1 + ri(7);
        my $t = $imt;
        my ($um, $am) = (0, 0);
        for my $k (0 .. $nm - 1) {
            my $type;
            if ($k == 0) { $type = 'USER' }
            elsif ($responded && $k % 2 == 1) { $type = 'AGENT' }
            elsif (rnd() < 0.15) { $type = 'BOT' }
            else { $type = 'USER' }
            $t = ($k == 1 && $responded) ? $irt : $t + 1000 + ri(900_000);
            $t = $T0 - 100 if $t > $T0;
            my ($author, $aid) = $type eq 'USER' ? ($cust->{name}, $cust->{userId})
              : $type eq 'AGENT' ? ($asg->{name}, $asg->{userId}) : ('AcmeBot', 'bot-1');
            if ($type eq 'USER') { $um++ } elsif ($type eq 'AGENT') { $am++ }
            push @msgs, { id => "msg-$o{code}-$i-$k", timestamp => $t, author => $author, authorId => $aid,
                authorType => $type,
                message => $k == 0 ? $tt->[1] : ($type eq 'AGENT' ? 'Thanks for reaching out, looking into it.' : 'Any update on this?'),
                mediaUrls => (rnd() < 0.1 ? ["https://cdn.acme.example/media/$o{code}/$i/$k.png"] : []) };
        }
        my %cf;
        my %prov;
        for my $f (@{$o{fields}}) {
            next unless rnd() < 0.35;
            my $v;
            if ($f->{type} eq 'SELECT') { $v = pick(@{$f->{options}}) }
            elsif ($f->{type} eq 'MULTI_SELECT') { $v = [ $f->{options}[0], $f->{options}[1 + ri(scalar(@{$f->{options}}) - 1)] ] }
            elsif ($f->{type} eq 'NUMBER') { $v = round2(rnd()) }
            elsif ($f->{type} eq 'BOOLEAN') { $v = rnd() < 0.5 ? $TRUE : $FALSE }
            elsif ($f->{type} eq 'DATE') { $v = day_of($T0 + ri(365) * $DAY) }
            else { $v = pick('Called twice', "Prefers email \x{2709}", 'Key account') }
            $cf{$f->{name}} = $v;
            $prov{$f->{name}} = { source => 'seed', updatedAt => iso($created) };
        }
        my %contrib;
        my @cnames = grep { !$contrib{$_}++ } map { $_->{author} } @msgs;
        my $a = {
            idx => $i, actionId => $id, title => $tt->[0], summary => $tt->[1], status => $status, platform => $pl,
            recordType => (rnd() < 0.1 ? undef : ($RECORD_TYPE{$pl} // 'POST')), isPublic => $public,
            sourceURL => $public ? "https://" . lc($pl) . ".example/post/" . uri_escape_seg($id) : undef,
            queue => undef, initialQueue => undef, sentiment => $sent, sentimentScore => $score,
            moderation => (rnd() < 0.1 ? pick('SAFE', 'FLAGGED') : undef), assignee => $asg, user => $cust,
            followerCount => ($public ? ri(50_000) : undef),
            createdAt => $created, updatedAt => $updated, initialMessageTime => $imt, initialResponseTime => $irt,
            closeTime => $close, claimTime => $claim, frt => $frt, handle => $handle,
            serverName => ($SERVER{$pl} // ['Acme', 'general'])->[0], channelName => ($SERVER{$pl} // ['Acme', 'general'])->[1],
            csatScore => (defined $close && rnd() < 0.5 ? '' . (1 + ri(5)) : undef),
            estimatedCSAT => (rnd() < 0.1 ? undef : round2(1 + rnd() * 4)),
            tm => scalar @msgs, tum => $um, tam => $am, tags => \@tags, closingTags => \@closing,
            cf => \%cf, prov => \%prov, messages => \@msgs,
            comments => ($asg && rnd() < 0.3 ? [ { text => 'Escalated to tier 2', authorNativeId => $asg->{userId}, authorNativeName => $asg->{name} } ] : []),
            threadId => "thr-$o{code}-" . sprintf('%05d', $i), easyId => (rnd() < 0.1 ? undef : "$o{code}-" . (1000 + $i)),
            contributors => (@cnames ? join(', ', @cnames) : undef),
            actionability => round2(rnd()), relevance => round2(rnd()), resolutionQuality => round2(1 + rnd() * 4),
            sentimentChange => round2(rnd() * 2 - 1), rubricScore => round2(rnd() * 100),
        };
        $a->{csatFeedback} = defined $a->{csatScore} && rnd() < 0.6 ? pick('Great support', 'Too slow', "Tr\x{e8}s bien") : undef;
        if (rnd() > 0.1) {
            my $q = pick(@{$o{queues}});
            $a->{queue} = $q->{name};
            $a->{initialQueue} = rnd() < 0.7 ? $q->{name} : pick(@{$o{queues}})->{name};
        } elsif (rnd() < 0.5) {
            $a->{initialQueue} = pick(@{$o{queues}})->{name};
        }
        push @{$org->{actions}}, $a;
        $org->{by_id}{$id} = $a;
    }
    @{$org->{actions}} = sort { $b->{createdAt} <=> $a->{createdAt} || $a->{actionId} cmp $b->{actionId} } @{$org->{actions}};
    return $org;
}

sub seed() {
    my @fieldsA = (
        { name => 'priority', display => 'Priority', type => 'SELECT', options => [qw(low medium high critical)] },
        { name => 'churnRisk', display => 'Churn Risk', type => 'NUMBER' },
        { name => 'vipCustomer', display => 'VIP Customer', type => 'BOOLEAN' },
        { name => 'notes', display => 'Notes', type => 'TEXT' },
        { name => 'renewalDate', display => 'Renewal Date', type => 'DATE' },
        { name => 'components', display => 'Components', type => 'MULTI_SELECT', options => [qw(api dashboard mobile billing)] },
    );
    my $tg = sub ($p, @l) { my $n = 0; [ map { { id => sprintf('%s-%02d', $p, ++$n), name => $_->[0], group => $_->[1] } } @l ] };
    make_org(code => 'A', orgId => 'org_acme', name => 'Acme Corp', mode => 'ad_policy', n => 420, customers => 120,
        custBase => '1600000000', idBase => '1790',
        platforms => [qw(DISCORD SLACK GITHUB ZENDESK TWITTER INSTAGRAM APPSTORE WHATSAPP)],
        special => ['000123', '0042', '9007199254740993', '18446744073709551617', '12345678901234567890123',
            "caf\x{e9}-\x{fc}n\x{ef}c\x{f8}d\x{e9}-\x{2713}", 'id with spaces', 'a/b/c', '100%pure', 'q?x=1#frag&y=2',
            "\x{65e5}\x{672c}\x{8a9e}-ID", "emoji-\x{1F600}", 'plus+sign', '1001', '1002', 'semi;colon'],
        agents => [
            { userId => 'agent-001', name => 'Alice Moreau', email => 'alice@acme.example', role => 'AGENT' },
            { userId => 'U0123456789', name => 'Bob Li', email => 'bob@acme.example', role => 'SUPERVISOR' },
            { userId => '90071992547409931', name => "Chlo\x{e9} Dubois", email => 'chloe@acme.example', role => 'AGENT' },
            { userId => '007', name => 'James Bond', email => undef, role => 'AGENT' },
            { userId => 'agent/with/slash', name => 'Dana Scully', email => 'dana@acme.example', role => 'ADMIN' },
            { userId => 'agent-006', name => 'Eve Park', email => 'eve@acme.example', role => undef },
            { userId => 'agent-007', name => 'Farid Haddad', email => 'farid@acme.example', role => 'AGENT' },
            { userId => 'agent-008', name => 'Greta Jensen', email => 'greta@acme.example', role => 'AGENT' },
        ],
        queues => [ { id => 'q-billing', name => 'Billing' }, { id => 'q-tech', name => 'Technical Support' },
            { id => 'q-sales', name => 'Sales' }, { id => 'q-esc', name => 'Escalations' }, { id => 'q-vip', name => "VIP \x{dc}n\x{ef}code" } ],
        tags => $tg->('tg-a', ['Login Issue', 'Product'], ['Payments', 'Product'], ['Mobile App', 'Product'], ['Performance', 'Product'],
            ['Bug Report', 'Intent'], ['Feature Request', 'Intent'], ['Complaint', 'Intent'], ['Praise', 'Intent'],
            ['Urgent', 'Priority'], ['Refund', 'Billing'], ['Shipping Delay', 'Logistics'], ["Caf\x{e9} Cr\x{e8}me", 'Misc']),
        fields => \@fieldsA);
    make_org(code => 'B', orgId => 'org_globex', name => 'Globex', mode => 'ad_policy', n => 80, customers => 30,
        custBase => '2600000000', idBase => '2790', platforms => [qw(DISCORD TWITTER ZENDESK)],
        special => ['1001', '1002', '000123', '9007199254740993', "B-\x{fc}n\x{ef}/2"],
        agents => [ { userId => 'agent-001', name => 'Zed Other', email => 'zed@globex.example', role => 'AGENT' },
            { userId => 'b-agent-2', name => 'Yara Other', email => undef, role => 'AGENT' } ],
        queues => [ { id => 'q-billing', name => 'Billing' }, { id => 'q-b-general', name => 'General' } ],
        tags => $tg->('tg-b', ['Login Issue', 'Product'], ['Bug Report', 'Intent'], ['Urgent', 'Priority']),
        fields => [ { name => 'priority', display => 'Priority', type => 'SELECT', options => [qw(p1 p2 p3)] },
            { name => 'notes', display => 'Notes', type => 'TEXT' } ]);
    make_org(code => 'C', orgId => 'org_initech', name => 'Initech', mode => 'standard', n => 40, customers => 15,
        custBase => '3600000000', idBase => '3790', platforms => [qw(SLACK GITHUB)],
        special => ['1001', 'C-0001'],
        agents => [ { userId => 'c-agent-1', name => 'Peter Gibbons', email => 'peter@initech.example', role => 'AGENT' } ],
        queues => [ { id => 'q-c-tps', name => 'TPS Reports' } ],
        tags => $tg->('tg-c', ['Login Issue', 'Product'], ['Printer', 'Hardware']),
        fields => [ { name => 'notes', display => 'Notes', type => 'TEXT' } ]);
}
seed();

# ---------------------------------------------------------------- keys
my %KEYS;   # value => key record
my %KEYFILE;
sub mk_key($name, $org, $scopes, %f) {
    my $v = 'cca_' . lc($org) . '_' . substr(sha256_hex("$name:$T0:$$:" . rand()), 0, 40);
    $KEYS{$v} = { name => $name, org => $org, scopes => { map { $_ => 1 } @$scopes }, expired => $f{expired} ? 1 : 0, revoked => $f{revoked} ? 1 : 0 };
    $KEYFILE{$name} = $v;
}
mk_key('CCA_READ_KEY', 'A', ['read']);
mk_key('CCA_WRITE_KEY', 'A', ['write']);
mk_key('CCA_INGEST_KEY', 'A', ['ingest', 'ingest:read']);
mk_key('CCA_OTHER_ORG_READ_KEY', 'B', ['read']);
mk_key('CCA_OTHER_ORG_WRITE_KEY', 'B', ['write']);
mk_key('CCA_NO_MODERATION_WRITE_KEY', 'C', ['write']);
mk_key('CCA_EXPIRED_KEY', 'A', ['read', 'write'], expired => 1);
mk_key('CCA_REVOKED_KEY', 'A', ['read', 'write'], revoked => 1);
mk_key('CCA_READ_WRITE_KEY', 'A', ['read', 'write']);

# ---------------------------------------------------------------- record shapes
sub tags_json($l) { [ map { { value => $_->{name}, group => $_->{group} } } @$l ] }
sub service_url($a) { 'https://app.cca.example/actions/' . uri_escape_seg($a->{actionId}) }
sub msg_json($m) {
    { id => $m->{id}, timestamp => iso($m->{timestamp}), author => $m->{author}, authorId => $m->{authorId},
      authorType => $m->{authorType}, message => $m->{message}, mediaUrls => [ @{$m->{mediaUrls}} ] }
}
sub conv_json($a) {
    my @c; my $prev;
    for my $m (@{$a->{messages}}) {
        push @c, { id => $m->{id}, timestamp => iso($m->{timestamp}), author => $m->{author},
            authorId => ($m->{authorType} eq 'BOT' ? undef : $m->{authorId}), authorType => $m->{authorType},
            message => $m->{message}, parentMessageId => $prev, mediaUrls => [ @{$m->{mediaUrls}} ] };
        $prev = $m->{id};
    }
    \@c;
}
sub cf_copy($a) { my %h = %{$a->{cf}}; \%h }

sub summary_json($a, $full = 0) {
    my $as = $a->{assignee};
    my $u = $a->{user};
    return {
        actionId => $a->{actionId}, actionTitle => $a->{title}, actionSummary => $a->{summary}, status => $a->{status},
        platform => $a->{platform}, recordType => $a->{recordType}, isPublicPost => ($a->{isPublic} ? $TRUE : $FALSE),
        serviceURL => service_url($a), sourceURL => $a->{sourceURL}, queue => $a->{queue}, initialQueue => $a->{initialQueue},
        sentiment => $a->{sentiment}, sentimentScore => $a->{sentimentScore}, moderation => $a->{moderation},
        assigneeName => ($as ? $as->{name} : undef), assigneeEmail => ($as ? $as->{email} : undef),
        assigneeUserId => ($as ? $as->{userId} : undef), assigneeRole => ($as ? $as->{role} : undef),
        userName => $u->{name}, userUsername => $u->{username}, userId => $u->{userId}, userEmail => $u->{email},
        userFollowerCount => $a->{followerCount},
        createdAt => iso($a->{createdAt}), updatedAt => iso($a->{updatedAt}), initialMessageTime => iso($a->{initialMessageTime}),
        initialResponseTime => iso($a->{initialResponseTime}), closeTime => iso($a->{closeTime}), claimTime => iso($a->{claimTime}),
        firstResponseTime => dur($a->{frt}), handleTime => dur($a->{handle}),
        serverName => $a->{serverName}, channelName => $a->{channelName},
        csatScore => str_or_null($a->{csatScore}), csatFeedback => $a->{csatFeedback}, estimatedCSAT => $a->{estimatedCSAT},
        totalMessages => $a->{tm}, totalUserMessages => $a->{tum}, totalAgentMessages => $a->{tam},
        tags => tags_json($a->{tags}), closingTags => tags_json($a->{closingTags}), customFields => cf_copy($a),
        rootMessageText => (@{$a->{messages}} ? $a->{messages}[0]{message} : undef),
        conversationJson => ($full ? $JSON_TEXT->encode(conv_json($a)) : undef),
    };
}

sub detail_json($a) {
    my $as = $a->{assignee};
    my $u = $a->{user};
    return {
        user => { name => $u->{name}, username => $u->{username}, userId => $u->{userId}, email => $u->{email}, followerCount => $a->{followerCount} },
        actionId => $a->{actionId}, actionTitle => $a->{title}, actionSummary => $a->{summary}, platform => $a->{platform},
        recordType => $a->{recordType}, isPublicPost => ($a->{isPublic} ? $TRUE : $FALSE), sentiment => $a->{sentiment},
        sentimentScore => $a->{sentimentScore}, queue => $a->{queue}, initialQueue => $a->{initialQueue}, status => $a->{status},
        createdAt => iso($a->{createdAt}), serviceURL => service_url($a), sourceURL => $a->{sourceURL},
        updatedAt => iso($a->{updatedAt}), initialMessageTime => iso($a->{initialMessageTime}),
        initialResponseTime => iso($a->{initialResponseTime}), closeTime => iso($a->{closeTime}),
        firstResponseTime => dur($a->{frt}), handleTime => dur($a->{handle}), claimTime => iso($a->{claimTime}),
        assignee => { name => ($as ? $as->{name} : undef), email => ($as ? $as->{email} : undef),
            userId => ($as ? $as->{userId} : undef), role => ($as ? $as->{role} : undef) },
        serverName => $a->{serverName}, channelName => $a->{channelName},
        tags => tags_json($a->{tags}), closingTags => tags_json($a->{closingTags}), moderation => $a->{moderation},
        comments => [ map { { %$_ } } @{$a->{comments}} ], messages => [ map { msg_json($_) } @{$a->{messages}} ],
        conversation => conv_json($a),
        rootMessageText => (@{$a->{messages}} ? $a->{messages}[0]{message} : undef), customFields => cf_copy($a),
        csatScore => str_or_null($a->{csatScore}), csatFeedback => $a->{csatFeedback}, estimatedCSAT => $a->{estimatedCSAT},
        totalMessages => $a->{tm}, totalUserMessages => $a->{tum}, totalAgentMessages => $a->{tam},
    };
}

# ---------------------------------------------------------------- responses
sub err($status, $msg, %extra) { [ $status, { success => $FALSE, error => $msg, %extra } ] }
sub ok($data, $status = 200) { [ $status, $data ] }

# ---------------------------------------------------------------- query helpers
sub q_bool($q, $name, $default) {
    return ($default) unless defined $q->{$name};
    my $v = lc $q->{$name};
    return (1) if $v eq 'true' || $v eq '1';
    return (0) if $v eq 'false' || $v eq '0';
    return (undef, "Invalid '$name': expected true or false");
}
sub q_int($q, $name, $default, $min, $max) {
    return ($default) unless defined $q->{$name};
    my $v = $q->{$name};
    return (undef, "Invalid '$name': expected an integer") unless $v =~ /^\s*[+-]?\d{1,12}\s*$/;
    $v = 0 + $v;
    return (undef, "Invalid '$name': must be between $min and $max") if $v < $min || (defined $max && $v > $max);
    return ($v);
}
sub get_window($q, $default_days, $route = '') {
    my ($from, $to, $fd, $td);
    if (defined $q->{to}) {
        ($to, $td) = parse_when($q->{to});
        return (undef, undef, "Invalid 'to': expected an ISO 8601 date or timestamp") unless defined $to;
        $to += $DAY - 1 if $td && $route eq 'list' && dev('P02');
    }
    if (defined $q->{from}) {
        ($from, $fd) = parse_when($q->{from});
        return (undef, undef, "Invalid 'from': expected an ISO 8601 date or timestamp") unless defined $from;
    }
    $to //= now_ms();
    $from //= $to - $default_days * $DAY;
    return (undef, undef, "'from' must not be later than 'to'") if $from > $to;
    return ($from, $to, undef);
}
sub in_window($org, $from, $to, $field = 'createdAt') {
    grep { defined $_->{$field} && $_->{$field} >= $from && $_->{$field} <= $to } @{$org->{actions}};
}

# ---------------------------------------------------------------- filter DSL
my %DSL_KEYS = map { $_ => 1 } qw(platform status queue initialQueue sentiment assigneeUserId agentId userId tag tagGroup
  responded recordType isPublicPost actionId serverName channelName threadId easyId);
sub parse_dsl($s) {
    my @terms;
    return (\@terms) if !defined $s || $s =~ /^\s*$/;
    for my $t (split /\+/, $s, -1) {
        return (undef, 'Invalid filter: empty term') if $t eq '';
        my ($k, $v) = $t =~ /^\s*([A-Za-z][A-Za-z0-9_]*)\s*=(.*)$/s;
        return (undef, "Invalid filter term '$t': expected key=value") unless defined $k;
        return (undef, "Unknown filter key '$k'") unless $DSL_KEYS{$k};
        return (undef, "Empty value for filter key '$k'") if $v eq '';
        if ($k eq 'responded' || $k eq 'isPublicPost') {
            my $lv = lc $v;
            return (undef, "Filter key '$k' must be true or false") unless $lv eq 'true' || $lv eq 'false';
            $v = $lv eq 'true' ? 1 : 0;
        }
        push @terms, [ $k, $v ];
    }
    return (\@terms);
}
sub dsl_match($a, $terms) {
    for my $t (@$terms) {
        my ($k, $v) = @$t;
        if ($k eq 'platform' || $k eq 'status' || $k eq 'sentiment') {
            my %w = map { lc($_) => 1 } split /,/, $v;
            return 0 unless defined $a->{$k} && $w{lc $a->{$k}};
        } elsif ($k eq 'queue' || $k eq 'initialQueue') {
            my %w = map { $_ => 1 } split /,/, $v;
            return 0 unless defined $a->{$k} && $w{$a->{$k}};
        } elsif ($k eq 'assigneeUserId' || $k eq 'agentId') {
            return 0 unless $a->{assignee} && $a->{assignee}{userId} eq $v;
        } elsif ($k eq 'userId') {
            return 0 unless $a->{user}{userId} eq $v;
        } elsif ($k eq 'tag') {
            my %w = map { lc($_) => 1 } split /,/, $v;
            return 0 unless grep { $w{lc $_->{name}} || $w{lc $_->{id}} } @{$a->{tags}};
        } elsif ($k eq 'tagGroup') {
            return 0 unless grep { lc $_->{group} eq lc $v } @{$a->{tags}};
        } elsif ($k eq 'responded') {
            return 0 unless (defined $a->{initialResponseTime} ? 1 : 0) == $v;
        } elsif ($k eq 'isPublicPost') {
            return 0 unless $a->{isPublic} == $v;
        } elsif ($k eq 'recordType' || $k eq 'actionId' || $k eq 'serverName' || $k eq 'channelName' || $k eq 'threadId' || $k eq 'easyId') {
            return 0 unless defined $a->{$k} && $a->{$k} eq $v;
        }
    }
    return 1;
}
sub legacy_responded_str($s) {
    {
        if ($s =~ /(?:^|[^A-Za-z0-9_])responded["']?\s*[=:]\s*["']?([^\s"'+&,;}]*)/i) {
            my $v = lc $1;
            return ('yes') if $v eq 'true' || $v eq '1';
            return ('no') if $v eq 'false' || $v eq '0';
            return ('any') if $v eq 'any' || $v eq 'all';
            return (undef, "Invalid responded flag in 'filter': expected true, false or any");
        }
    }
    return ('default');
}

# ---------------------------------------------------------------- handlers: actions
sub h_action_list($c) {
    my ($org, $q) = ($c->{org}, $c->{query});
    if (defined $q->{fullFilter} && (defined $q->{filter} || defined $q->{filterJson})) {
        return err(400, "'fullFilter' cannot be combined with 'filter' or 'filterJson'");
    }
    return err(400, "'fullFilter' exceeds the maximum length of 10000 characters") if defined $q->{fullFilter} && length($q->{fullFilter}) > 10000;
    my ($ps, $e) = q_int($q, 'pageSize', 50, 1, dev('P01') ? 499 : 500);
    return err(400, $e) if $e;
    my $sortBy = $q->{sortBy} // 'createdAt';
    return err(400, "Invalid 'sortBy': expected createdAt or updatedAt") unless $sortBy eq 'createdAt' || $sortBy eq 'updatedAt';
    my ($full, $e2) = q_bool($q, 'includeFullConversation', 0);
    return err(400, $e2) if $e2;
    my ($from, $to, $e3) = get_window($q, 7, 'list');
    return err(400, $e3) if $e3;
    my $terms = [];
    my $responded = 'yes';
    if (defined $q->{fullFilter}) {
        my ($t, $e4) = parse_dsl($q->{fullFilter});
        return err(400, $e4) if $e4;
        $terms = $t;
        $responded = 'any';
    } else {
        if (defined $q->{filter}) {
            my ($r, $e5) = legacy_responded_str($q->{filter});
            return err(400, $e5) if $e5;
            $responded = $r unless $r eq 'default';
        }
        if (defined $q->{filterJson}) {
            my $j = eval { $JSON_IN->decode(Encode::encode('UTF-8', $q->{filterJson})) };
            return err(400, "Invalid 'filterJson': not valid JSON") unless defined $j || !$@;
            return err(400, "Invalid 'filterJson': expected a JSON object") unless is_obj($j);
            if (exists $j->{responded}) {
                my $v = $j->{responded};
                if (!defined $v) { $responded = 'any' }
                elsif (is_bool($v)) { $responded = $v ? 'yes' : 'no' }
                else { return err(400, "Invalid 'filterJson': responded must be a boolean") }
            }
        }
    }
    my @rows = grep {
        ($responded eq 'any' || ($responded eq 'yes') == (defined $_->{initialResponseTime} ? 1 : 0)) && dsl_match($_, $terms)
    } in_window($org, $from, $to, $sortBy);
    @rows = sort { $b->{$sortBy} <=> $a->{$sortBy} || $a->{actionId} cmp $b->{actionId} } @rows;
    my $total = @rows;
    my @page = @rows > $ps ? @rows[0 .. $ps - 1] : @rows;
    return ok({ data => [ map { summary_json($_, $full) } @page ], totalRecords => $total, currentPage => 1,
        pageSize => $ps, totalPages => ($total ? ceil($total / $ps) : 0) });
}

sub h_action_get($c) {
    my $a = $c->{org}{by_id}{$c->{params}[0]};
    return err(404, 'Action not found') unless $a;
    return ok(detail_json($a));
}

sub field_value_json($org, $a) {
    [ map {
        my $f = $_;
        my $r = { fieldName => $f->{name}, displayName => $f->{display}, fieldType => $f->{type},
            value => (exists $a->{cf}{$f->{name}} ? $a->{cf}{$f->{name}} : undef) };
        $r->{provenance} = { %{$a->{prov}{$f->{name}}} } if $a->{prov}{$f->{name}};
        $r;
    } @{$org->{fields}} ];
}
sub h_cf_get($c) {
    my $id = $c->{params}[0];
    return err(404, 'Action not found') if $id eq '';
    my $a = $c->{org}{by_id}{$id};
    return err(404, 'Action not found') unless $a;
    return ok({ actionId => $a->{actionId}, fields => field_value_json($c->{org}, $a) });
}
sub check_field_value($f, $v) {
    return undef unless defined $v;   # null clears the value
    my $t = $f->{type};
    if ($t eq 'TEXT') { return is_str($v) ? undef : 'Expected a string' }
    if ($t eq 'NUMBER') { return is_finite_num($v) ? undef : 'Expected a number' }
    if ($t eq 'BOOLEAN') { return is_bool($v) ? undef : 'Expected a boolean' }
    if ($t eq 'DATE') {
        return 'Expected a date string (YYYY-MM-DD)' unless is_str($v) && $v =~ /^\d{4}-\d{2}-\d{2}$/;
        my @r = parse_when($v);
        return @r ? undef : 'Expected a valid calendar date';
    }
    if ($t eq 'SELECT') {
        return 'Expected one of: ' . join(', ', @{$f->{options}}) unless is_str($v) && grep { $_ eq $v } @{$f->{options}};
        return undef;
    }
    if ($t eq 'MULTI_SELECT') {
        return 'Expected an array of options' unless is_arr($v);
        my %seen;
        for my $x (@$v) {
            return 'Expected each item to be one of: ' . join(', ', @{$f->{options}}) unless is_str($x) && grep { $_ eq $x } @{$f->{options}};
            return 'Duplicate option' if $seen{$x}++;
        }
        return undef;
    }
    return 'Unsupported field type';
}
sub h_cf_patch($c) {
    my $org = $c->{org};
    my $id = $c->{params}[0];
    my $a = $id eq '' ? undef : $org->{by_id}{$id};
    return err(404, 'Action not found') unless $a;
    return $c->{body_error} if $c->{body_error};
    my $body = $c->{json};
    return err(400, 'Request body must be a JSON object') unless is_obj($body);
    my %fe;
    my $f = $body->{fields};
    if (!is_arr($f) || !@$f) {
        return err(422, 'Validation failed', fieldErrors => { fields => 'fields must be a non-empty array' });
    }
    my @upd;
    my %seen;
    my $type_err = 0;
    for my $i (0 .. $#$f) {
        my $it = $f->[$i];
        if (!is_obj($it)) { $fe{"fields[$i]"} = 'Expected an object'; next }
        my $name = $it->{fieldName};
        if (!is_str($name) || $name eq '') { $fe{"fields[$i].fieldName"} = 'fieldName must be a non-empty string'; next }
        my $def = $org->{field_by_name}{$name};
        if (!$def) { $fe{$name} = 'Unknown custom field'; next }
        if ($seen{$name}++) { $fe{$name} = 'Field specified more than once'; next }
        if (!exists $it->{value}) { $fe{$name} = 'value is required'; next }
        if (exists $it->{confidence} && !(is_finite_num($it->{confidence}) && $it->{confidence} >= 0 && $it->{confidence} <= 1)) {
            $fe{$name} = 'confidence must be a number between 0 and 1'; next;
        }
        if (exists $it->{rationale} && !is_str($it->{rationale})) { $fe{$name} = 'rationale must be a string'; next }
        my $m = check_field_value($def, $it->{value});
        if ($m) { $fe{$name} = $m; $type_err++; next }
        push @upd, [ $name, $it->{value} ];
    }
    if (%fe) {
        my $st = (dev('P12') && $type_err && $type_err == keys %fe) ? 400 : 422;
        return err($st, 'Validation failed', fieldErrors => \%fe);
    }
    my $now = iso(now_ms());
    for my $u (@upd) {
        my ($n, $v) = @$u;
        if (defined $v) {
            $a->{cf}{$n} = $v;
            $a->{prov}{$n} = { source => 'api', apiKeyName => $c->{key}{name}, updatedAt => $now };
        } else {
            delete $a->{cf}{$n};
            delete $a->{prov}{$n};
        }
    }
    return ok({ actionId => $a->{actionId}, updated => [ map { { fieldName => $_->[0], value => $_->[1] } } @upd ] });
}

# ---------------------------------------------------------------- analytics
sub metrics_of($list) {
    my %m = (totalActions => scalar(@$list), totalMessages => 0, totalAgentMessages => 0, totalUserMessages => 0);
    my (@csat, @rt, @ht, @ec, @rq, @sc, @rb);
    for my $a (@$list) {
        $m{totalMessages} += $a->{tm};
        $m{totalAgentMessages} += $a->{tam};
        $m{totalUserMessages} += $a->{tum};
        push @csat, 0 + "$a->{csatScore}" if defined $a->{csatScore};   # numify a copy, never the stored string
        push @rt, $a->{frt} if defined $a->{frt};
        push @ht, $a->{handle} if defined $a->{handle};
        push @ec, $a->{estimatedCSAT} if defined $a->{estimatedCSAT};
        push @rq, $a->{resolutionQuality};
        push @sc, $a->{sentimentChange};
        push @rb, $a->{rubricScore};
    }
    $m{averageCsat} = avg(\@csat);
    $m{averageResponseTime} = avg(\@rt);
    $m{averageHandleTime} = avg(\@ht);
    $m{averageEstimatedCsat} = avg(\@ec);
    $m{averageResolutionQuality} = avg(\@rq);
    $m{averageSentimentChange} = avg(\@sc);
    $m{averageRubricScore} = avg(\@rb);
    return \%m;
}
sub workload_of($list) {
    my %w = (active => 0, closed => 0, cancelled => 0);
    $w{bucket($_->{status})}++ for @$list;
    \%w;
}
sub h_agents($c) {
    my ($from, $to, $e) = get_window($c->{query}, 30);
    return err(400, $e) if $e;
    my @acts = in_window($c->{org}, $from, $to);
    my %by;
    for (@acts) { push @{$by{$_->{assignee}{userId}}}, $_ if $_->{assignee} }
    my @out;
    for my $ag (sort { $a->{userId} cmp $b->{userId} } @{$c->{org}{agents}}) {
        my $l = $by{$ag->{userId}} // [];
        my $m = metrics_of($l);
        $m->{totalActionsWithResponse} = scalar grep { defined $_->{initialResponseTime} } @$l;
        push @out, { agentId => $ag->{userId}, metrics => $m, workload => workload_of($l) };
    }
    return ok({ success => $TRUE, data => \@out });
}
sub h_agent_get($c) {
    my $org = $c->{org};
    my $id = $c->{params}[0];
    my $ag = $org->{agent_by_id}{$id};
    return err(404, 'Agent not found') unless $ag;
    my ($from, $to, $e) = get_window($c->{query}, 30);
    return err(400, $e) if $e;
    my @l = grep { $_->{assignee} && $_->{assignee}{userId} eq $id } in_window($org, $from, $to);
    my %day;
    push @{$day{day_of($_->{createdAt})}}, $_ for @l;
    my @daily = map {
        my $m = metrics_of($day{$_});
        { date => $_, totalActions => $m->{totalActions}, totalMessages => $m->{totalMessages},
          averageResponseTime => $m->{averageResponseTime}, averageHandleTime => $m->{averageHandleTime}, averageCsat => $m->{averageCsat} }
    } sort keys %day;
    my %qc;
    $qc{$_->{queue} // "\0"}++ for @l;
    my %qid = map { $_->{name} => $_->{id} } @{$org->{queues}};
    my @queues = map { { queueId => ($_ eq "\0" ? undef : $qid{$_}), queueName => ($_ eq "\0" ? undef : $_), totalActions => $qc{$_} } }
      sort keys %qc;
    return ok({ success => $TRUE, data => { metrics => \@daily, aggregatedMetrics => metrics_of(\@l),
        currentWorkload => workload_of(\@l), queues => \@queues } });
}
sub h_queues($c) {
    my $org = $c->{org};
    my ($from, $to, $e) = get_window($c->{query}, 30);
    return err(400, $e) if $e;
    my @acts = in_window($org, $from, $to);
    my %by;
    push @{$by{$_->{queue} // "\0"}}, $_ for @acts;
    my @out;
    my @qs = (@{$org->{queues}});
    push @qs, { id => undef, name => undef } if $by{"\0"} && !dev('P15');
    for my $q (@qs) {
        my $l = $by{$q->{name} // "\0"} // [];
        my $m = metrics_of($l);
        $m->{averageSentimentScore} = avg([ map { $_->{sentimentScore} } grep { defined $_->{sentimentScore} } @$l ]);
        push @out, { queueId => $q->{id}, queueName => $q->{name}, metrics => $m, workload => workload_of($l) };
    }
    return ok({ success => $TRUE, data => \@out });
}

sub tag_counts($acts) {
    my %by;
    for my $a (@$acts) { push @{$by{$_->{id}}}, $a for @{$a->{tags}} }
    \%by;
}
sub h_tags($c) {
    my ($org, $q) = ($c->{org}, $c->{query});
    my ($from, $to, $e) = get_window($q, 30);
    return err(400, $e) if $e;
    my ($ro, $e1) = q_bool($q, 'respondedOnly', 0);
    return err(400, $e1) if $e1;
    my ($limit, $e2) = q_int($q, 'limit', 20, 1, 100);
    return err(400, $e2) if $e2;
    my ($offset, $e3) = q_int($q, 'offset', 0, 0, undef);
    return err(400, $e3) if $e3;
    my @acts = in_window($org, $from, $to);
    @acts = grep { defined $_->{initialResponseTime} } @acts if $ro;
    my $by = tag_counts(\@acts);
    my @tags = grep { $by->{$_->{id}} } @{$org->{tags}};
    if (defined $q->{search} && length $q->{search}) {
        my $s = lc $q->{search};
        @tags = grep { index(lc $_->{name}, $s) >= 0 || index(lc $_->{group}, $s) >= 0 } @tags;
    }
    @tags = sort { @{$by->{$b->{id}}} <=> @{$by->{$a->{id}}} || $a->{name} cmp $b->{name} } @tags;
    my %in = map { $_->{id} => 1 } @tags;
    my %groups = map { $_->{group} => 1 } @tags;
    my $tagged = grep { my $x = $_; grep { $in{$_->{id}} } @{$x->{tags}} } @acts;
    my $total = @tags;
    my @page = grep { defined } @tags[$offset .. $offset + $limit - 1];
    my $n = @acts;
    my @bd = map {
        my $cnt = scalar @{$by->{$_->{id}}};
        { tagId => $_->{id}, tagName => $_->{name}, groupName => $_->{group}, count => $cnt, percentage => ($n ? round2($cnt / $n * 100) : 0) }
    } @page;
    my @vol = map {
        my $l = $by->{$_->{id}};
        my $resp = grep { defined $_->{initialResponseTime} } @$l;
        { tagId => $_->{id}, tagName => $_->{name}, total => scalar(@$l), responded => $resp, notResponded => @$l - $resp,
          avgSentiment => avg_or_null([ map { $_->{sentimentScore} } grep { defined $_->{sentimentScore} } @$l ]),
          avgActionability => avg_or_null([ map { $_->{actionability} } @$l ]),
          avgRelevance => avg_or_null([ map { $_->{relevance} } @$l ]) }
    } @page;
    my $hasMore = dev('P14') ? ($offset + $limit <= $total) : ($offset + @page < $total);
    return ok({ success => $TRUE, data => {
        summary => { totalTags => $total, totalTagGroups => scalar(keys %groups), totalTaggedRecords => $tagged, totalActions => $n },
        tagBreakdown => \@bd, volumeByTag => \@vol,
        pagination => { total => $total, limit => $limit, offset => $offset, hasMore => ($hasMore ? $TRUE : $FALSE) } } });
}
sub h_tags_volume($c) {
    my ($org, $q) = ($c->{org}, $c->{query});
    my ($from, $to, $e) = get_window($q, 30);
    return err(400, $e) if $e;
    my ($ro, $e1) = q_bool($q, 'respondedOnly', 0);
    return err(400, $e1) if $e1;
    my ($top, $e2) = q_int($q, 'topTagsLimit', 5, 1, 100);
    return err(400, $e2) if $e2;
    my @acts = in_window($org, $from, $to);
    @acts = grep { defined $_->{initialResponseTime} } @acts if $ro;
    my $by = tag_counts(\@acts);
    my @sel;
    if (defined $q->{tagIds} && length $q->{tagIds}) {
        my %seen;
        @sel = grep { defined } map { $org->{tag_by_id}{$_} } grep { length && !$seen{$_}++ } map { s/^\s+|\s+$//gr } split /,/, $q->{tagIds};
    } else {
        @sel = sort { @{$by->{$b->{id}}} <=> @{$by->{$a->{id}}} || $a->{name} cmp $b->{name} } grep { $by->{$_->{id}} } @{$org->{tags}};
        splice(@sel, $top) if @sel > $top;
    }
    my %rows;
    for my $a (@acts) {
        my $d = day_of($a->{createdAt});
        $rows{$d} //= { date => $d, map { $_->{name} => 0 } @sel };
        for my $t (@{$a->{tags}}) { $rows{$d}{$t->{name}}++ if grep { $_->{id} eq $t->{id} } @sel }
    }
    return ok({ success => $TRUE, data => { data => [ map { $rows{$_} } sort keys %rows ], tags => [ map { $_->{name} } @sel ] } });
}
sub h_sentiment($c) {
    my ($from, $to, $e) = get_window($c->{query}, 30);
    return err(400, $e) if $e;
    my %rows;
    for my $a (in_window($c->{org}, $from, $to)) {
        next unless defined $a->{sentiment};
        my $d = day_of($a->{createdAt});
        $rows{$d} //= { day => $d, map { $_ => 0 } @SENTIMENTS };
        $rows{$d}{$a->{sentiment}}++;
    }
    return ok({ success => $TRUE, data => [ map { $rows{$_} } sort keys %rows ] });
}
sub h_sentiment_tag($c) {
    my $org = $c->{org};
    my ($from, $to, $e) = get_window($c->{query}, 30);
    return err(400, $e) if $e;
    my %rows;
    my @src = ($org);
    push @src, grep { $_ != $org } map { $ORG{$_} } sort keys %ORG if dev('P05');
    my %own = map { $_->{name} => 1 } @{$org->{tags}};
    for my $o (@src) {
        for my $a (in_window($o, $from, $to)) {
            for my $t (@{$a->{tags}}) {
                next unless $own{$t->{name}};
                my $r = $rows{$t->{name}} //= { tagName => $t->{name}, veryNegative => 0, negative => 0, neutral => 0, positive => 0, totalMentions => 0 };
                $r->{totalMentions}++;
                $r->{$SENT_KEY{$a->{sentiment}}}++ if defined $a->{sentiment};
            }
        }
    }
    my @out = sort { $b->{totalMentions} <=> $a->{totalMentions} || $a->{tagName} cmp $b->{tagName} } values %rows;
    return ok({ success => $TRUE, data => \@out });
}
sub pctl($s, $p) {
    my $n = @$s;
    return 0 unless $n;
    my $r = ($n - 1) * $p;
    my ($lo, $hi) = (floor($r), ceil($r));
    return round2($s->[$lo] + ($s->[$hi] - $s->[$lo]) * ($r - $lo));
}
sub week_start($ms) { my $d = floor($ms / $DAY); ($d - ($d + 3) % 7) * $DAY }
sub h_engagement($c) {
    my ($org, $q) = ($c->{org}, $c->{query});
    my ($from, $to, $e) = get_window($q, 30);
    return err(400, $e) if $e;
    my %pf;
    if (defined $q->{platforms} && length $q->{platforms}) {
        for my $p (map { uc(s/^\s+|\s+$//gr) } split /,/, $q->{platforms}) {
            next unless length $p;
            return err(400, "Unknown platform '$p'") unless $PLATFORM_OK{$p};
            $pf{$p} = 1;
        }
    }
    my $pok = sub ($x) { !%pf || $pf{$x->{platform}} };
    my @acts = grep { $pok->($_) } in_window($org, $from, $to);
    my (%per, %plat);
    for my $a (@acts) { $per{$a->{platform}}{$a->{user}{userId}} += $a->{tum}; $plat{$a->{platform}} = 1 }
    my @pct = map {
        my @v = sort { $a <=> $b } values %{$per{$_}};
        { platform => $_, p25MessagesPerUser => pctl(\@v, 0.25), medianMessagesPerUser => pctl(\@v, 0.5), p75MessagesPerUser => pctl(\@v, 0.75) }
    } sort keys %per;
    my %wk;   # platform => weekStart => {users}
    for my $a (grep { $pok->($_) } @{$org->{actions}}) { $wk{$a->{platform}}{week_start($a->{createdAt})}{$a->{user}{userId}} = 1 }
    my %weeks;
    $weeks{$_->{platform}}{week_start($_->{createdAt})} = 1 for @acts;
    my @gt;
    for my $p (sort keys %weeks) {
        for my $w (sort { $a <=> $b } keys %{$weeks{$p}}) {
            my $cur = scalar keys %{$wk{$p}{$w} // {}};
            my $prev = scalar keys %{$wk{$p}{$w - 7 * $DAY} // {}};
            push @gt, { week => iso($w), platform => $p, currentWeekUsers => $cur, previousWeekUsers => $prev,
                growthPercentage => ($prev ? round2(($cur - $prev) / $prev * 100) : ($cur ? 100 : 0)) };
        }
    }
    my $n = @acts;
    my $resp = grep { defined $_->{initialResponseTime} } @acts;
    my $closed = grep { $_->{status} eq 'CLOSED' } @acts;
    my $csat = grep { defined $_->{csatScore} } @acts;
    my @funnel = map { { stage => $_->[0], count => $_->[1], percentage => ($n ? round2($_->[1] / $n * 100) : 0) } }
      ([ 'conversations', $n ], [ 'responded', $resp ], [ 'closed', $closed ], [ 'csatReported', $csat ]);
    return ok({ success => $TRUE, data => { engagementPercentiles => \@pct, growthTrends => \@gt, conversionFunnel => \@funnel } });
}

# ---------------------------------------------------------------- conversation search
my $SEARCH_CAP = 10000;
sub h_search($c) {
    my ($org, $q) = ($c->{org}, $c->{query});
    my ($page, $e1) = q_int($q, 'page', 1, 1, 10000);
    return err(400, $e1) if $e1;
    my ($ps, $e2) = q_int($q, 'pageSize', dev('P03') ? 25 : 50, 1, 100);
    return err(400, $e2) if $e2;
    my ($terms, $e3) = parse_dsl($q->{filter});
    return err(400, $e3) if $e3;
    my @rows = grep { dsl_match($_, $terms) } @{$org->{actions}};
    my $total = @rows;
    my $capped = $total > $SEARCH_CAP ? 1 : 0;
    $total = $SEARCH_CAP if $capped;
    my $start = ($page - 1) * $ps;
    my @sl = $start < @rows ? @rows[$start .. ($start + $ps - 1 < $#rows ? $start + $ps - 1 : $#rows)] : ();
    my @data = map {
        my $s = summary_json($_, 0);
        $s->{actionId} =~ s/^0+(?=\d)// if dev('P04') && $s->{actionId} =~ /^\d+$/;
        $s->{threadId} = $_->{threadId};
        $s->{easyId} = $_->{easyId};
        $s->{contributors} = $_->{contributors};
        $s;
    } @sl;
    return ok({ success => $TRUE, data => \@data, totalRecords => $total, totalRecordsCapped => ($capped ? $TRUE : $FALSE),
        currentPage => $page, pageSize => $ps, totalPages => ($total ? ceil($total / $ps) : 0) });
}

# ---------------------------------------------------------------- moderation
my @CTA = qw(APPLY_NOW BOOK_NOW GET_NOW INSTALL_NOW MORE SHOP_NOW SIGN_UP VIEW WATCH);
my @ATTACH = qw(web_view deep_link app_install lens long_form_video);
my $CASE_SEQ = 0;

# RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM); 'T' and 'Z' may be lower case
sub is_rfc3339($v) {
    return 0 unless is_str($v);
    my ($Y, $M, $D, $h, $m, $s, $oh, $om) =
      $v =~ /\A(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))\z/a or return 0;
    return 0 if $M < 1 || $M > 12 || $D < 1 || $h > 23 || $m > 59 || $s > 59;
    return 0 if defined $oh && ($oh > 23 || $om > 59);
    my $leap = ($Y % 4 == 0 && $Y % 100 != 0) || $Y % 400 == 0;
    my $mdays = (31, ($leap ? 29 : 28), 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[$M - 1];
    return $D <= $mdays ? 1 : 0;
}
sub validate_case($c) {
    my (@M, @I);
    return ([], ['(case)']) unless is_obj($c);
    my $str = sub ($o, $k, $path, $min, $max, $req, $nullable = 0) {
        if (!exists $o->{$k}) { push @M, $path if $req; return }
        my $v = $o->{$k};
        return if !defined $v && $nullable;
        if (!is_str($v)) { push @I, $path; return }
        my $l = length $v;
        push @I, $path if $l < $min || (defined $max && $l > $max);
    };
    $str->($c, 'externalId', 'externalId', 1, 256, 1);
    $str->($c, 'sourceSystem', 'sourceSystem', 1, 128, 1);
    $str->($c, 'sourcePlatform', 'sourcePlatform', 1, 128, 1);
    $str->($c, 'sourceAdId', 'sourceAdId', 1, 256, 1);
    $str->($c, 'advertiserId', 'advertiserId', 1, 256, 0);
    $str->($c, 'advertiserName', 'advertiserName', 1, 500, 1);
    $str->($c, 'campaignId', 'campaignId', 1, 256, 0);
    $str->($c, 'market', 'market', 1, 128, 1);
    $str->($c, 'placement', 'placement', 1, 128, 1);
    $str->($c, 'language', 'language', 1, 64, 0);
    $str->($c, 'landingPageUrl', 'landingPageUrl', 0, undef, 1, 1);
    $str->($c, 'title', 'title', 1, 500, 1);
    $str->($c, 'headline', 'headline', 1, 500, 0);
    $str->($c, 'brandName', 'brandName', 1, 500, 0);
    $str->($c, 'format', 'format', 0, undef, 0, 1);
    $str->($c, 'arLens', 'arLens', 0, undef, 0, 1);
    push @I, 'providerMetadata' if exists $c->{providerMetadata} && !is_obj($c->{providerMetadata});
    if (exists $c->{callToAction}) {
        my $v = $c->{callToAction};
        push @I, 'callToAction' unless is_str($v) && grep { $_ eq $v } @CTA;
    }
    for my $b (qw(discoverTile partnershipAd)) { push @I, $b if exists $c->{$b} && !is_bool($c->{$b}) }
    if (exists $c->{submittedAt}) {
        my $v = $c->{submittedAt};
        push @I, 'submittedAt' unless is_rfc3339($v);
    }
    if (exists $c->{publicProfile}) {
        my $p = $c->{publicProfile};
        if (!is_obj($p)) { push @I, 'publicProfile' }
        else {
            $str->($p, 'displayName', 'publicProfile.displayName', 1, 500, 0);
            push @I, 'publicProfile.logoUrl' if exists $p->{logoUrl} && !is_uri($p->{logoUrl});
            push @I, 'publicProfile.verified' if exists $p->{verified} && !is_bool($p->{verified});
        }
    }
    if (!exists $c->{media}) { push @M, 'media' }
    elsif (!is_arr($c->{media}) || @{$c->{media}} < 1 || @{$c->{media}} > 20) { push @I, 'media' }
    else {
        my $pmin = dev('P08') ? 0 : 1;
        for my $i (0 .. $#{$c->{media}}) {
            my $m = $c->{media}[$i];
            if (!is_obj($m)) { push @I, "media[$i]"; next }
            for my $k (qw(url type position)) { push @M, "media[$i].$k" unless exists $m->{$k} }
            push @I, "media[$i].url" if exists $m->{url} && !is_http_url($m->{url});
            push @I, "media[$i].type" if exists $m->{type} && !(is_str($m->{type}) && ($m->{type} eq 'image' || $m->{type} eq 'video'));
            push @I, "media[$i].position" if exists $m->{position} && !(is_int($m->{position}) && $m->{position} >= $pmin && $m->{position} <= 20);
        }
    }
    if (!exists $c->{attachment}) { push @M, 'attachment' }
    elsif (!is_obj($c->{attachment})) { push @I, 'attachment' }
    else {
        my $at = $c->{attachment};
        if (!exists $at->{type}) { push @M, 'attachment.type' }
        elsif (!(is_str($at->{type}) && grep { $_ eq $at->{type} } @ATTACH)) { push @I, 'attachment.type' }
        $str->($at, 'destinationUrl', 'attachment.destinationUrl', 0, undef, 1, 1);
    }
    if (!exists $c->{targeting}) { push @M, 'targeting' }
    elsif (!is_obj($c->{targeting})) { push @I, 'targeting' }
    else {
        my $t = $c->{targeting};
        if (!exists $t->{ageMin}) { push @M, 'targeting.ageMin' }
        elsif (defined $t->{ageMin} && !is_int($t->{ageMin})) { push @I, 'targeting.ageMin' }
        push @I, 'targeting.ageMax' if exists $t->{ageMax} && defined $t->{ageMax} && !is_int($t->{ageMax});
        if (!exists $t->{geos}) { push @M, 'targeting.geos' }
        elsif (!is_arr($t->{geos}) || @{$t->{geos}} < 1 || @{$t->{geos}} > 250 || grep { !is_str($_) } @{$t->{geos}}) { push @I, 'targeting.geos' }
        if (exists $t->{languages}) {
            push @I, 'targeting.languages' if !is_arr($t->{languages}) || @{$t->{languages}} < 1 || @{$t->{languages}} > 100 || grep { !is_str($_) } @{$t->{languages}};
        }
    }
    if (!exists $c->{copy}) { push @M, 'copy' }
    elsif (!is_obj($c->{copy})) { push @I, 'copy' }
    else { $str->($c->{copy}, $_, "copy.$_", 0, 20000, 0) for qw(body caption linkDescription sourceTitle) }
    return (\@M, \@I);
}
sub validation_error_fields($M, $I) {
    my $code = @$M ? 'MODERATION_INPUT_INCOMPLETE' : 'MODERATION_INPUT_INVALID';
    my @msg;
    push @msg, 'missing required fields: ' . join(', ', @$M) if @$M;
    push @msg, 'invalid fields: ' . join(', ', @$I) if @$I;
    my $m = 'Moderation input ' . (@$M ? 'incomplete' : 'invalid') . ': ' . join('; ', @msg);
    return (code => $code, message => $m, missingFields => [@$M], invalidFields => [@$I], errors => [@msg]);
}
sub decide($case) {
    my $text = join(' ', grep { defined($_) && !ref($_) } $case->{title}, $case->{headline}, map { $case->{copy}{$_} } qw(body caption linkDescription sourceTitle));
    my $ageMin = $case->{targeting}{ageMin};
    my $fail = is_obj($case->{providerMetadata}) && $case->{providerMetadata}{simulateFailure} ? 1 : 0;
    my ($disp, $conf, $reason, @hits);
    my $hit = sub ($rid, $slug, $pol, $re) {
        my ($field, $start, $end) = ('title', 0, 0);
        for my $f (qw(title headline)) {
            if (defined $case->{$f} && $case->{$f} =~ $re) { ($field, $start, $end) = ($f, $-[0], $+[0]); last }
        }
        push @hits, { ruleId => $rid, ruleSlug => $slug, polarity => $pol, confidence => 'high', reasoning => "Matched policy rule $slug",
            evidence => [ { modality => 'text', claim => "Text matches $slug", locator => { textSpan => { field => $field, start => $start, end => $end } } } ] };
    };
    if ($text =~ /(guaranteed|miracle|risk[- ]free|get rich)/i) {
        $hit->('rule-001', 'misleading-claims', 'NEGATIVE', qr/(guaranteed|miracle|risk[- ]free|get rich)/i);
        ($disp, $conf, $reason) = ('reject', 'high', 'Ad makes misleading or unrealistic claims.');
    } elsif ($text =~ /(casino|betting|alcohol|beer|wine|vape)/i && (!defined $ageMin || $ageMin < 18)) {
        $hit->('rule-002', 'age-restricted-content', 'NEGATIVE', qr/(casino|betting|alcohol|beer|wine|vape)/i);
        ($disp, $conf, $reason) = ('age_gate', 'medium', 'Age-restricted product requires an 18+ audience.');
    } elsif (!defined $case->{landingPageUrl} && !defined $case->{attachment}{destinationUrl}) {
        ($disp, $conf, $reason) = ('escalate', 'low', 'No landing page is available to assess.');
    } else {
        ($disp, $conf, $reason) = ('approve', 'medium', 'No policy concerns found.');
    }
    return ($fail, {
        disposition => $disp, confidence => $conf, title => undef, reason => $reason, hits => \@hits,
        advertiserAssessment => { polarity => ($disp eq 'reject' ? 'NEGATIVE' : 'POSITIVE'), reasoning => 'Advertiser assessed from submitted profile.' },
        landingAssessment => { polarity => (defined $case->{landingPageUrl} ? 'POSITIVE' : 'AMBIGUOUS'), reasoning => 'Landing page assessed from submitted URL.' },
        decisionSource => 'model', failureCode => undef, failureMessage => undef,
    });
}
# Digest::SHA works on bytes and dies on wide characters: hash the UTF-8 encoding of character strings
sub sha256_hex_utf8($s) { sha256_hex(Encode::encode('UTF-8', $s)) }
# returns ('accepted'|'duplicate'|'conflict', record)
sub mod_submit($org, $case) {
    my %c = %$case;
    $c{language} //= 'en';
    my $hash = sha256_hex($JSON_OUT->encode(\%c));   # $JSON_OUT is ->utf8, so this is already UTF-8 bytes
    my $ext = $c{externalId};
    if (my $ex = $org->{cases_by_ext}{$ext}) {
        return ($ex->{hash} eq $hash ? 'duplicate' : 'conflict', $ex);
    }
    $CASE_SEQ++;
    my ($fail, $decision) = decide(\%c);
    my $rec = { caseId => 'mc_' . substr(sha256_hex_utf8("$org->{orgId}:$ext:$CASE_SEQ:$T0"), 0, 24),
        evaluationId => 'ev_' . substr(sha256_hex_utf8("eval:$org->{orgId}:$ext:$CASE_SEQ:$T0"), 0, 24),
        externalId => $ext, hash => $hash, at => now_ms(), case => \%c, fail => $fail, decision => $decision,
        idemKey => sha256_hex_utf8("$org->{orgId}\0$ext\0$hash") };
    $org->{cases_by_ext}{$ext} = $rec;
    $org->{cases}{$rec->{caseId}} = $rec;
    return ('accepted', $rec);
}
sub ack_json($st, $rec, $replayed) {
    { caseId => $rec->{caseId}, externalId => $rec->{externalId}, status => $st, analysisStatus => 'pending',
      evaluationId => $rec->{evaluationId}, idempotency => { key => $rec->{idemKey}, replayed => ($replayed ? $TRUE : $FALSE) } }
}
sub mod_prereq($c, $allow_read = 0) {
    my $s = $c->{key}{scopes};
    return err(403, 'This API key does not have the write scope', message => 'Write scope required')
      unless $s->{write} || ($allow_read && $s->{read});
    return err(403, 'Moderation is not enabled for this organization', message => "Organization is not configured for the ad_policy moderation mode",
        supported => ['ad_policy']) unless $c->{org}{mode} eq 'ad_policy';
    return undef;
}
sub h_mod_case($c) {
    return $c->{body_error} if $c->{body_error};
    return err(400, 'Request body must be a JSON object', message => 'Malformed request body') unless is_obj($c->{json});
    my ($M, $I) = validate_case($c->{json});
    if (@$M || @$I) {
        my %f = validation_error_fields($M, $I);
        delete $f{errors};
        return err(422, $f{message}, %f);
    }
    my ($st, $rec) = mod_submit($c->{org}, $c->{json});
    return err(409, 'externalId already exists with different content', message => 'Immutable identifier conflict: externalId was already submitted with different content',
        invalidFields => ['externalId']) if $st eq 'conflict';
    return ok(ack_json($st, $rec, $st eq 'duplicate' && !dev('P16')), 202);
}
sub h_mod_batch($c) {
    return $c->{body_error} if $c->{body_error};
    my $b = $c->{json};
    return err(400, 'Request body must be a JSON object', message => 'Malformed request body') unless is_obj($b);
    return err(400, "'cases' must be an array of 1 to 100 moderation cases", message => 'Invalid batch size')
      unless is_arr($b->{cases}) && @{$b->{cases}} >= 1 && @{$b->{cases}} <= 100;
    my @res;
    for my $case (@{$b->{cases}}) {
        my $ext = is_obj($case) && is_str($case->{externalId}) ? $case->{externalId} : undef;
        my ($M, $I) = validate_case($case);
        if (@$M || @$I) {
            push @res, { externalId => $ext, caseId => undef, status => 'rejected', validation_error_fields($M, $I) };
            next;
        }
        my ($st, $rec) = mod_submit($c->{org}, $case);
        if ($st eq 'conflict') {
            if (dev('P07')) { push @res, ack_json('duplicate', $rec, 1); next }
            push @res, { externalId => $ext, caseId => $rec->{caseId}, status => 'rejected',
                errors => ['externalId already exists with different content'], message => 'Immutable identifier conflict' };
            next;
        }
        push @res, ack_json($st, $rec, $st eq 'duplicate');
    }
    return ok({ results => \@res }, 202);
}
sub h_mod_get($c) {
    my $id = $c->{params}[0];
    my $rec = $id eq '' ? undef : $c->{org}{cases}{$id};
    return err(404, 'Moderation case not found') unless $rec;
    my $el = now_ms() - $rec->{at};
    my $st = $el < 300 ? 'pending' : $el < 1200 ? 'running' : $rec->{fail} ? 'failed' : 'completed';
    my $r = { caseId => $rec->{caseId}, externalId => $rec->{externalId}, analysisStatus => $st, evaluationId => $rec->{evaluationId} };
    $r->{decision} = $rec->{decision} if $st eq 'completed';
    $r->{failureCode} = 'EVALUATION_FAILED' if $st eq 'failed';
    return ok($r);
}

# ---------------------------------------------------------------- ingestion
sub h_ingest($c) {
    return $c->{body_error} if $c->{body_error};
    my $b = $c->{json};
    return err(422, 'Request body must be a JSON object') unless is_obj($b);
    my @e;
    my $s = sub ($o, $k, $path, $req, $min) {
        if (!exists $o->{$k}) { push @e, "$path is required" if $req; return }
        push @e, "$path must be a string" . ($min ? " of at least $min character(s)" : '') unless is_str($o->{$k}) && length($o->{$k}) >= $min;
    };
    if (!exists $b->{platform}) { push @e, 'platform is required' }
    elsif (!(is_str($b->{platform}) && $PLATFORM_OK{$b->{platform}})) { push @e, 'platform must be one of: ' . join(', ', @PLATFORMS) }
    $s->($b, 'serverId', 'serverId', 1, 1);
    $s->($b, 'serverName', 'serverName', 1, 1);
    $s->($b, 'channelId', 'channelId', 0, 0);
    $s->($b, 'channelName', 'channelName', 0, 0);
    push @e, 'processingLevel must be INSIGHTS or STATS_ONLY'
      if exists $b->{processingLevel} && !(is_str($b->{processingLevel}) && $b->{processingLevel} =~ /^(INSIGHTS|STATS_ONLY)$/);
    if (exists $b->{source}) {
        if (!is_obj($b->{source})) { push @e, 'source must be an object' }
        else { $s->($b->{source}, 'system', 'source.system', 1, 1); $s->($b->{source}, 'sourceId', 'source.sourceId', 0, 0) }
    }
    my $max = dev('P09') ? 501 : 500;
    my $recs = $b->{records};
    if (!exists $b->{records}) { push @e, 'records is required' }
    elsif (!is_arr($recs) || @$recs < 1 || @$recs > $max) { push @e, 'records must be an array of 1 to 500 items' }
    else {
        for my $i (0 .. $#$recs) {
            last if @e >= 20;
            my $r = $recs->[$i];
            if (!is_obj($r)) { push @e, "records[$i] must be an object"; next }
            $s->($r, 'externalId', "records[$i].externalId", 1, 1);
            $s->($r, 'threadExternalId', "records[$i].threadExternalId", 0, 0);
            $s->($r, 'parentExternalId', "records[$i].parentExternalId", 0, 0);
            $s->($r, 'authorId', "records[$i].authorId", 1, 1);
            $s->($r, 'authorName', "records[$i].authorName", 1, 1);
            $s->($r, 'title', "records[$i].title", 0, 0);
            $s->($r, 'body', "records[$i].body", 1, 0);
            $s->($r, 'createdAt', "records[$i].createdAt", 1, 1);
            $s->($r, 'recordType', "records[$i].recordType", 1, 1);
            if (exists $r->{score}) {
                my $v = $r->{score};
                my $okv = is_finite_num($v) && $v >= 0 && (dev('P10') ? $v < 5 : $v <= 5);
                push @e, "records[$i].score must be a number between 0 and 5" unless $okv;
            }
            push @e, "records[$i].url must be an absolute HTTP or HTTPS URL" if exists $r->{url} && !is_http_url($r->{url});
            push @e, "records[$i].customFields must be an object" if exists $r->{customFields} && !is_obj($r->{customFields});
        }
    }
    return err(422, 'Validation failed: ' . join('; ', @e), details => \@e) if @e;
    my $org = $c->{org};
    push @{$org->{pending_ingest}}, { at => now_ms(), platform => $b->{platform}, serverId => $b->{serverId}, records => $recs,
        level => $b->{processingLevel} // 'INSIGHTS' };
    return ok({ status => 'accepted', accepted => scalar @$recs }, 202);
}
sub process_ingest() {
    my $now = now_ms();
    for my $org (values %ORG) {
        my $p = $org->{pending_ingest};
        while (@$p && $now - $p->[0]{at} > 1000) {
            my $job = shift @$p;
            $org->{ingested}{join "\0", $job->{platform}, $job->{serverId}, $_->{externalId}} = { %$_, level => $job->{level} } for @{$job->{records}};
        }
    }
}

# ---------------------------------------------------------------- docs
sub openapi_doc() {
    my $str = { type => 'string' };
    my $date = { type => 'string', description => 'ISO 8601 date or timestamp; date-only means midnight UTC' };
    my $P = sub ($n, $in, $schema, $req = 0, $d = undef) {
        my $p = { name => $n, in => $in, required => ($req ? $TRUE : $FALSE), schema => $schema };
        $p->{description} = $d if $d;
        $p;
    };
    my $E = sub (@codes) { map { ($_ => { description => "Error $_", content => { 'application/json' => { schema => { '$ref' => '#/components/schemas/Error' } } } }) } @codes };
    my $R = sub ($d, $ref = undef) { { description => $d, content => { 'application/json' => { schema => ($ref ? { '$ref' => "#/components/schemas/$ref" } : { type => 'object' }) } } } };
    my @win = ($P->('from', 'query', $date), $P->('to', 'query', $date));
    my $sec = [ { ApiKeyAuth => [] } ];
    my %paths = (
        '/v0/action/list' => { get => { operationId => 'listActions', summary => 'List actions', security => $sec,
            parameters => [ @win, $P->('pageSize', 'query', { type => 'integer', minimum => 1, maximum => 500, default => 50 }),
                $P->('filter', 'query', $str, 0, 'legacy; only the responded flag is read'),
                $P->('filterJson', 'query', $str, 0, 'legacy JSON; only the responded flag is read'),
                $P->('fullFilter', 'query', { type => 'string', maxLength => 10000 }),
                $P->('includeFullConversation', 'query', { type => 'boolean', default => $FALSE }),
                $P->('sortBy', 'query', { type => 'string', enum => [ 'createdAt', 'updatedAt' ], default => 'createdAt' }) ],
            responses => { 200 => $R->('Action page', 'ActionList'), $E->(400, 401, 500) } } },
        '/v0/action/{id}' => { get => { operationId => 'getAction', summary => 'Get action detail', security => $sec,
            parameters => [ $P->('id', 'path', $str, 1) ], responses => { 200 => $R->('Action detail'), $E->(401, 404, 500) } } },
        '/v0/actions/{actionId}/custom-fields' => {
            get => { operationId => 'getCustomFields', summary => 'Read custom field values', security => $sec,
                parameters => [ $P->('actionId', 'path', { type => 'string', minLength => 1 }, 1) ], responses => { 200 => $R->('Custom fields'), $E->(401, 403, 404, 500) } },
            patch => { operationId => 'patchCustomFields', summary => 'Write custom field values', security => $sec,
                parameters => [ $P->('actionId', 'path', { type => 'string', minLength => 1 }, 1) ],
                requestBody => { required => $TRUE, content => { 'application/json' => { schema => { type => 'object', required => ['fields'],
                    properties => { fields => { type => 'array', minItems => 1, items => { type => 'object', required => [ 'fieldName', 'value' ],
                        properties => { fieldName => { type => 'string', minLength => 1 }, value => {}, confidence => { type => 'number', minimum => 0, maximum => 1 },
                            rationale => { type => 'string' } } } } } } } } },
                responses => { 200 => $R->('Updated'), $E->(400, 401, 403, 404, 422, 500) } } },
        '/v0/agents' => { get => { operationId => 'listAgents', summary => 'Agent metrics', security => $sec, parameters => [@win], responses => { 200 => $R->('Agents'), $E->(401, 403, 500) } } },
        '/v0/agents/{id}' => { get => { operationId => 'getAgent', summary => 'Agent detail', security => $sec, parameters => [ @win, $P->('id', 'path', $str, 1) ], responses => { 200 => $R->('Agent'), $E->(401, 403, 404, 500) } } },
        '/v0/queues' => { get => { operationId => 'listQueues', summary => 'Queue metrics', security => $sec, parameters => [@win], responses => { 200 => $R->('Queues'), $E->(401, 403, 500) } } },
        '/v0/analytics/tags' => { get => { operationId => 'tagAnalytics', summary => 'Tag analytics', security => $sec,
            parameters => [ @win, $P->('respondedOnly', 'query', { type => 'boolean' }), $P->('limit', 'query', { type => 'number', default => 20 }),
                $P->('offset', 'query', { type => 'number', default => 0 }), $P->('search', 'query', $str) ], responses => { 200 => $R->('Tags'), $E->(401, 403, 500) } } },
        '/v0/analytics/tags/volume' => { get => { operationId => 'tagVolume', summary => 'Tag volume by day', security => $sec,
            parameters => [ @win, $P->('respondedOnly', 'query', { type => 'boolean' }), $P->('topTagsLimit', 'query', { type => 'number', default => 5 }),
                $P->('tagIds', 'query', $str) ], responses => { 200 => $R->('Volume'), $E->(401, 403, 500) } } },
        '/v0/analytics/sentiment' => { get => { operationId => 'sentimentByDay', summary => 'Sentiment by day', security => $sec, parameters => [@win], responses => { 200 => $R->('Sentiment'), $E->(401, 403, 500) } } },
        '/v0/analytics/sentiment/by-tag' => { get => { operationId => 'sentimentByTag', summary => 'Sentiment by tag', security => $sec, parameters => [@win], responses => { 200 => $R->('Sentiment by tag'), $E->(401, 403, 500) } } },
        '/v0/analytics/engagement' => { get => { operationId => 'engagement', summary => 'Engagement analytics', security => $sec,
            parameters => [ @win, $P->('platforms', 'query', $str) ], responses => { 200 => $R->('Engagement'), $E->(401, 403, 500) } } },
        '/v0/conversations/search' => { get => { operationId => 'searchConversations', summary => 'Conversation search', security => $sec,
            parameters => [ $P->('filter', 'query', $str), $P->('page', 'query', { type => 'integer', minimum => 1, maximum => 10000, default => 1 }),
                $P->('pageSize', 'query', { type => 'integer', minimum => 1, maximum => 100, default => 50 }) ],
            responses => { 200 => $R->('Search results'), $E->(400, 401, 403, 500) } } },
        '/v0/moderation/cases' => { post => { operationId => 'submitModerationCase', summary => 'Submit a moderation case', security => $sec,
            requestBody => { required => $TRUE, content => { 'application/json' => { schema => { '$ref' => '#/components/schemas/ModerationCase' } } } },
            responses => { 202 => $R->('Accepted'), $E->(400, 401, 403, 409, 422, 500) } } },
        '/v0/moderation/cases/batch' => { post => { operationId => 'submitModerationBatch', summary => 'Submit moderation cases in batch', security => $sec,
            requestBody => { required => $TRUE, content => { 'application/json' => { schema => { type => 'object', required => ['cases'],
                properties => { cases => { type => 'array', minItems => 1, maxItems => 100, items => { '$ref' => '#/components/schemas/ModerationCase' } } } } } } },
            responses => { 202 => $R->('Per-item results'), $E->(400, 401, 403) } } },
        '/v0/moderation/cases/{caseId}' => { get => { operationId => 'getModerationCase', summary => 'Moderation case status', security => $sec,
            parameters => [ $P->('caseId', 'path', { type => 'string', minLength => 1 }, 1) ], responses => { 200 => $R->('Case status'), $E->(401, 403, 404) } } },
        '/v0/ingest/records' => { post => { operationId => 'ingestRecords', summary => 'Ingest normalized records', security => $sec,
            requestBody => { required => $TRUE, content => { 'application/json' => { schema => { type => 'object', required => [ 'platform', 'serverId', 'serverName', 'records' ],
                properties => { platform => { type => 'string', enum => [@PLATFORMS] }, serverId => { type => 'string', minLength => 1 }, serverName => { type => 'string', minLength => 1 },
                    channelId => $str, channelName => $str, processingLevel => { type => 'string', enum => [ 'INSIGHTS', 'STATS_ONLY' ] },
                    source => { type => 'object', required => ['system'], properties => { system => { type => 'string', minLength => 1 }, sourceId => $str } },
                    records => { type => 'array', minItems => 1, maxItems => 500, items => { type => 'object',
                        required => [ 'externalId', 'authorId', 'authorName', 'body', 'createdAt', 'recordType' ],
                        properties => { externalId => { type => 'string', minLength => 1 }, threadExternalId => $str, parentExternalId => $str,
                            authorId => { type => 'string', minLength => 1 }, authorName => { type => 'string', minLength => 1 }, title => $str, body => $str,
                            score => { type => 'number', minimum => 0, maximum => 5 }, createdAt => { type => 'string', minLength => 1 },
                            url => { type => 'string', format => 'uri' }, recordType => { type => 'string', minLength => 1 }, customFields => { type => 'object' } } } } } } } } },
            responses => { 202 => $R->('Accepted'), $E->(401, 403, 422, 500) } } },
    );
    delete $paths{'/v0/moderation/cases/batch'} if dev('P13');
    return {
        openapi => '3.0.3',
        info => { title => 'Customer-Conversation Analytics Service', version => 'v0' },
        servers => [ { url => '/' } ],
        paths => \%paths,
        components => {
            securitySchemes => { ApiKeyAuth => { type => 'apiKey', in => 'header', name => 'X-API-Key' } },
            schemas => {
                Error => { type => 'object', required => [ 'success', 'error' ], properties => { success => { type => 'boolean' }, error => { type => 'string' } } },
                ActionList => { type => 'object', required => [ 'data', 'totalRecords', 'currentPage', 'pageSize', 'totalPages' ],
                    properties => { data => { type => 'array', items => { type => 'object' } }, totalRecords => { type => 'number' }, currentPage => { type => 'number' },
                        pageSize => { type => 'number' }, totalPages => { type => 'number' } } },
                ModerationCase => { type => 'object',
                    required => [qw(externalId sourceSystem sourcePlatform sourceAdId advertiserName market placement landingPageUrl title media attachment targeting copy)],
                    properties => {
                        externalId => { type => 'string', minLength => 1, maxLength => 256 }, sourceSystem => { type => 'string', minLength => 1, maxLength => 128 },
                        sourcePlatform => { type => 'string', minLength => 1, maxLength => 128 }, sourceAdId => { type => 'string', minLength => 1, maxLength => 256 },
                        advertiserId => { type => 'string', minLength => 1, maxLength => 256 }, advertiserName => { type => 'string', minLength => 1, maxLength => 500 },
                        campaignId => { type => 'string', minLength => 1, maxLength => 256 }, market => { type => 'string', minLength => 1, maxLength => 128 },
                        placement => { type => 'string', minLength => 1, maxLength => 128 }, language => { type => 'string', minLength => 1, maxLength => 64, default => 'en' },
                        providerMetadata => { type => 'object' }, landingPageUrl => { type => 'string', nullable => $TRUE },
                        title => { type => 'string', minLength => 1, maxLength => 500 }, headline => { type => 'string', minLength => 1, maxLength => 500 },
                        brandName => { type => 'string', minLength => 1, maxLength => 500 }, callToAction => { type => 'string', enum => [@CTA] },
                        media => { type => 'array', minItems => 1, maxItems => 20, items => { type => 'object', required => [qw(url type position)],
                            properties => { url => { type => 'string', format => 'uri' }, type => { type => 'string', enum => [qw(image video)] }, position => { type => 'integer', minimum => 1, maximum => 20 } } } },
                        attachment => { type => 'object', required => [qw(type destinationUrl)], properties => { type => { type => 'string', enum => [@ATTACH] }, destinationUrl => { type => 'string', nullable => $TRUE } } },
                        targeting => { type => 'object', required => [qw(ageMin geos)], properties => { ageMin => { type => 'integer', nullable => $TRUE }, ageMax => { type => 'integer', nullable => $TRUE },
                            geos => { type => 'array', minItems => 1, maxItems => 250, items => $str }, languages => { type => 'array', minItems => 1, maxItems => 100, items => $str } } },
                        copy => { type => 'object', properties => { map { $_ => { type => 'string', maxLength => 20000 } } qw(body caption linkDescription sourceTitle) } },
                        discoverTile => { type => 'boolean' }, partnershipAd => { type => 'boolean' }, format => { type => 'string', nullable => $TRUE },
                        arLens => { type => 'string', nullable => $TRUE }, submittedAt => { type => 'string', format => 'date-time' } } },
            },
        },
    };
}
my $SWAGGER_HTML = <<'HTML';
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>CCA REST API</title>
<link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: "/docs/json", dom_id: "#swagger-ui" });</script>
<noscript>OpenAPI JSON: <a href="/docs/json">/docs/json</a></noscript>
</body></html>
HTML
my $LLMS = "# Customer-Conversation Analytics Service\n\n- [REST API (OpenAPI JSON)](/docs/json)\n- [Swagger UI](/docs)\n";

# ---------------------------------------------------------------- routing
# [method, pattern(list of literal or undef for param), handler, scope]
my @ROUTES = (
    [ 'GET', [qw(v0 action list)], \&h_action_list, 'read' ],
    [ 'GET', [ 'v0', 'action', undef ], \&h_action_get, 'read' ],
    [ 'GET', [ 'v0', 'actions', undef, 'custom-fields' ], \&h_cf_get, 'read' ],
    [ 'PATCH', [ 'v0', 'actions', undef, 'custom-fields' ], \&h_cf_patch, 'write' ],
    [ 'GET', [qw(v0 agents)], \&h_agents, 'read' ],
    [ 'GET', [ 'v0', 'agents', undef ], \&h_agent_get, 'read' ],
    [ 'GET', [qw(v0 queues)], \&h_queues, 'read' ],
    [ 'GET', [qw(v0 analytics tags)], \&h_tags, 'read' ],
    [ 'GET', [qw(v0 analytics tags volume)], \&h_tags_volume, 'read' ],
    [ 'GET', [qw(v0 analytics sentiment)], \&h_sentiment, 'read' ],
    [ 'GET', [qw(v0 analytics sentiment by-tag)], \&h_sentiment_tag, 'read' ],
    [ 'GET', [qw(v0 analytics engagement)], \&h_engagement, 'read' ],
    [ 'GET', [qw(v0 conversations search)], \&h_search, 'read' ],
    [ 'POST', [qw(v0 moderation cases)], \&h_mod_case, 'moderation' ],
    [ 'POST', [qw(v0 moderation cases batch)], \&h_mod_batch, 'moderation' ],
    [ 'GET', [ 'v0', 'moderation', 'cases', undef ], \&h_mod_get, 'read' ],
    [ 'POST', [qw(v0 ingest records)], \&h_ingest, 'ingest' ],
);
sub match_route($segs) {
    my (@cands);
    for my $r (@ROUTES) {
        my $p = $r->[1];
        next unless @$p == @$segs;
        my @params;
        my $okm = 1;
        for my $i (0 .. $#$p) {
            if (defined $p->[$i]) { if ($p->[$i] ne $segs->[$i]) { $okm = 0; last } }
            else { push @params, $segs->[$i] }
        }
        push @cands, [ $r, \@params ] if $okm;
    }
    return @cands;
}

sub dispatch($req) {
    my ($method, $segs, $q) = @{$req}{qw(method segs query)};
    my $path = '/' . join('/', @$segs);
    if ($method eq 'GET' || $method eq 'HEAD') {
        return [ 200, $JSON_OUT->encode(openapi_doc()), 'application/json; charset=utf-8' ] if $path eq '/docs/json' || $path eq '/v0/docs/json';
        return [ 200, Encode::encode('UTF-8', $SWAGGER_HTML), 'text/html; charset=utf-8' ] if $path eq '/docs' || $path eq '/docs/' || $path eq '/v0/docs';
        return [ 200, $LLMS, 'text/plain; charset=utf-8' ] if $path eq '/llms.txt' || $path eq '/llms-full.txt';
    }
    my @cands = match_route($segs);
    # literal routes win over parameter routes
    @cands = sort { (grep { !defined } @{$a->[0][1]}) <=> (grep { !defined } @{$b->[0][1]}) } @cands;
    return err(404, 'Not found') unless @cands;
    my ($hit) = grep { $_->[0][0] eq $method || ($method eq 'HEAD' && $_->[0][0] eq 'GET') } @cands;
    if (!$hit) {
        my %allow = map { $_->[0][0] => 1 } @cands;
        return [ @{ err(405, "Method $method not allowed") }, { Allow => join(', ', sort keys %allow) } ];
    }
    my ($route, $params) = @$hit;
    # authentication
    my $kv = $req->{headers}{'x-api-key'};
    return err(401, 'Missing API key') unless defined $kv && length $kv;
    my $key = $KEYS{$kv};
    return err(401, 'Invalid API key') unless $key;
    return err(401, 'API key has expired') if $key->{expired};
    return err(401, 'API key has been revoked') if $key->{revoked} && !(dev('P11') && $method eq 'GET');
    my $scope = $route->[3];
    my $s = $key->{scopes};
    if ($scope eq 'read') { return err(403, 'This API key does not have the read scope') unless $s->{read} }
    elsif ($scope eq 'write') { return err(403, 'This API key does not have the write scope') unless $s->{write} }
    elsif ($scope eq 'ingest') { return err(403, 'This API key does not have ingestion permission') unless $s->{ingest} }
    my $ctx = { org => $ORG{$key->{org}}, key => $key, query => $q, params => $params, method => $method };
    if ($scope eq 'moderation') {
        my $e = mod_prereq($ctx, ($route->[2] == \&h_mod_batch && dev('P06')) ? 1 : 0);
        return $e if $e;
    }
    if ($method eq 'POST' || $method eq 'PATCH') {
        my $body = $req->{body} // '';
        if ($body =~ /^\s*$/) { $ctx->{json} = undef }
        else {
            my $j = eval { $JSON_IN->decode($body) };
            if ($@) {
                $ctx->{body_error} = $scope eq 'ingest' ? err(422, 'Malformed JSON body')
                  : err(400, 'Malformed JSON body', ($scope eq 'moderation' ? (message => 'Request body is not valid JSON') : ()));
            }
            $ctx->{json} = $j;
        }
    }
    return $route->[2]->($ctx);
}

# ---------------------------------------------------------------- HTTP layer
my %REASON = (100 => 'Continue', 200 => 'OK', 202 => 'Accepted', 400 => 'Bad Request', 401 => 'Unauthorized', 403 => 'Forbidden',
    404 => 'Not Found', 405 => 'Method Not Allowed', 409 => 'Conflict', 411 => 'Length Required', 413 => 'Payload Too Large',
    422 => 'Unprocessable Entity', 431 => 'Request Header Fields Too Large', 500 => 'Internal Server Error', 501 => 'Not Implemented',
    505 => 'HTTP Version Not Supported');

sub pct_decode($s, $plus) {
    $s =~ tr/+/ / if $plus;
    $s =~ s/%([0-9A-Fa-f]{2})/chr(hex $1)/ge;
    return $s;
}
sub utf8_dec($b) {
    my $copy = $b;
    my $r = eval { Encode::decode('UTF-8', $copy, Encode::FB_CROAK) };
    return $r;
}
sub parse_target($t) {
    # absolute-form
    if ($t =~ m{^[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*(.*)$}) { $t = $1; $t = "/$t" unless $t =~ m{^/}; }
    return (undef, undef, 'Invalid request target') unless $t =~ m{^/};
    $t =~ s/#.*//s;
    my ($p, $qs) = split /\?/, $t, 2;
    return (undef, undef, 'Invalid percent-encoding in path') if $p =~ /%(?![0-9A-Fa-f]{2})/;
    my @raw = split m{/}, $p, -1;
    shift @raw;
    my @segs;
    for my $r (@raw) {
        my $d = utf8_dec(pct_decode($r, 0));
        return (undef, undef, 'Invalid UTF-8 in path') unless defined $d;
        push @segs, $d;
    }
    my %q;
    if (defined $qs && length $qs) {
        for my $pair (split /&/, $qs) {
            next unless length $pair;
            my ($k, $v) = split /=/, $pair, 2;
            $v //= '';
            my $kd = utf8_dec(pct_decode($k, 1));
            my $raw_dsl = ($kd // '') =~ /^(filter|fullFilter)$/;
            my $vd = utf8_dec(pct_decode($v, !$raw_dsl));
            return (undef, undef, 'Invalid UTF-8 in query string') unless defined $kd && defined $vd;
            $q{$kd} = $vd;
        }
    }
    return (\@segs, \%q, undef);
}

my %CONN;
my $LISTEN;
my $RSEL = IO::Select->new;
my $WSEL = IO::Select->new;
my $STOP = 0;

sub close_conn($c) {
    my $s = $c->{sock};
    $RSEL->remove($s);
    $WSEL->remove($s);
    delete $CONN{fileno($s) // -1};
    delete $CONN{$c->{fd}};
    close $s;
    $c->{closed} = 1;
}
sub flush_conn($c) {
    return if $c->{closed};
    while (length $c->{out}) {
        my $n = syswrite($c->{sock}, $c->{out});
        if (!defined $n) {
            if ($!{EAGAIN} || $!{EWOULDBLOCK} || $!{EINTR}) { $WSEL->add($c->{sock}) unless $WSEL->exists($c->{sock}); return }
            close_conn($c);
            return;
        }
        substr($c->{out}, 0, $n, '');
    }
    $WSEL->remove($c->{sock});
    close_conn($c) if $c->{close_after};
}
sub send_response($c, $status, $body, $ctype, $extra, $close, $head = 0) {
    my $h = "HTTP/1.1 $status " . ($REASON{$status} // 'Status') . "\r\n";
    $h .= "Content-Type: $ctype\r\n";
    $h .= "Content-Length: " . length($body) . "\r\n";
    $h .= "Cache-Control: no-store\r\n";
    $h .= "$_: $extra->{$_}\r\n" for sort keys %{$extra // {}};
    $h .= "Connection: " . ($close ? 'close' : 'keep-alive') . "\r\n\r\n";
    $c->{out} .= $h . ($head ? '' : $body);
    $c->{close_after} = 1 if $close;
    flush_conn($c);
}
sub fatal_response($c, $status, $msg) {
    send_response($c, $status, $JSON_OUT->encode({ success => $FALSE, error => $msg }), 'application/json; charset=utf-8', undef, 1);
    $c->{dead} = 1;
}
sub run_request($c) {
    my $r = $c->{req};
    my $res;
    my ($segs, $q, $perr) = parse_target($r->{target});
    if ($perr) { $res = err(400, $perr) }
    else {
        $r->{segs} = $segs;
        $r->{query} = $q;
        $res = eval { dispatch($r) };
        if (!$res) { warn "handler error: $@"; $res = err(500, 'Internal server error') }
    }
    my ($status, $data, $x3, $x4) = @$res;
    my ($body, $ctype, $extra);
    if (ref $data) { $body = $JSON_OUT->encode($data); $ctype = 'application/json; charset=utf-8'; $extra = $x3 }
    else { $body = $data; $ctype = $x3; $extra = $x4 }
    my $conn_hdr = lc($r->{headers}{connection} // '');
    my $close = $r->{version} eq 'HTTP/1.0' ? ($conn_hdr !~ /keep-alive/) : ($conn_hdr =~ /\bclose\b/);
    $close = 1 if $STOP;
    send_response($c, $status, $body, $ctype, $extra, $close, $r->{method} eq 'HEAD');
    $c->{req} = undef;
    $c->{st} = 'head';
}
sub process_conn($c) {
    while (!$c->{closed} && !$c->{dead} && !$c->{close_after}) {
        if ($c->{st} eq 'head') {
            $c->{in} =~ s/^(?:\r?\n)+//;
            my $idx = index($c->{in}, "\r\n\r\n");
            my $sep = 4;
            if ($idx < 0) { my $i2 = index($c->{in}, "\n\n"); if ($i2 >= 0) { $idx = $i2; $sep = 2 } }
            if ($idx < 0) {
                fatal_response($c, 431, 'Request headers too large') if length($c->{in}) > $MAX_HEADER;
                return;
            }
            return fatal_response($c, 431, 'Request headers too large') if $idx > $MAX_HEADER;
            my $head = substr($c->{in}, 0, $idx + $sep, '');
            my @lines = split /\r?\n/, $head;
            my $rl = shift @lines;
            my ($m, $t, $v) = $rl =~ /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/;
            return fatal_response($c, 400, 'Malformed request line') unless $m;
            my %h;
            for my $l (@lines) {
                my ($k, $val) = $l =~ /^([^:\s]+):\s*(.*?)\s*$/;
                return fatal_response($c, 400, 'Malformed header line') unless defined $k;
                $k = lc $k;
                if (exists $h{$k}) {
                    return fatal_response($c, 400, 'Conflicting Content-Length headers') if $k eq 'content-length' && $h{$k} ne $val;
                    $h{$k} .= ", $val" unless $k eq 'content-length';
                } else { $h{$k} = $val }
            }
            my $req = { method => $m, target => $t, version => $v, headers => \%h, body => '' };
            $c->{req} = $req;
            my $te = lc($h{'transfer-encoding'} // '');
            my $expect = lc($h{expect} // '') eq '100-continue';
            if (length $te) {
                return fatal_response($c, 501, 'Unsupported transfer encoding') unless $te =~ /(^|,)\s*chunked\s*$/;
                $c->{st} = 'chunk-size';
                $c->{out} .= "HTTP/1.1 100 Continue\r\n\r\n" if $expect && !length $c->{in};
                flush_conn($c);
            } elsif (defined $h{'content-length'}) {
                return fatal_response($c, 400, 'Invalid Content-Length') unless $h{'content-length'} =~ /^\d{1,12}$/;
                my $n = 0 + $h{'content-length'};
                return fatal_response($c, 413, 'Request body too large') if $n > $MAX_BODY;
                if ($n > 0) {
                    $c->{st} = 'body';
                    $c->{need} = $n;
                    if ($expect && !length $c->{in}) { $c->{out} .= "HTTP/1.1 100 Continue\r\n\r\n"; flush_conn($c) }
                } else { run_request($c) }
            } else { run_request($c) }
        } elsif ($c->{st} eq 'body') {
            return if length($c->{in}) < $c->{need};
            $c->{req}{body} = substr($c->{in}, 0, $c->{need}, '');
            run_request($c);
        } elsif ($c->{st} eq 'chunk-size') {
            my $idx = index($c->{in}, "\n");
            if ($idx < 0) { fatal_response($c, 400, 'Malformed chunk') if length($c->{in}) > 4096; return }
            my $line = substr($c->{in}, 0, $idx + 1, '');
            $line =~ s/\r?\n$//;
            $line =~ s/;.*//;
            $line =~ s/^\s+|\s+$//g;
            return fatal_response($c, 400, 'Malformed chunk size') unless $line =~ /^[0-9A-Fa-f]{1,8}$/;
            my $n = hex $line;
            if ($n == 0) { $c->{st} = 'chunk-trailer' }
            else {
                return fatal_response($c, 413, 'Request body too large') if length($c->{req}{body}) + $n > $MAX_BODY;
                $c->{st} = 'chunk-data';
                $c->{need} = $n;
            }
        } elsif ($c->{st} eq 'chunk-data') {
            return if length($c->{in}) < $c->{need} + 1;
            $c->{req}{body} .= substr($c->{in}, 0, $c->{need}, '');
            if (substr($c->{in}, 0, 2) eq "\r\n") { substr($c->{in}, 0, 2, '') }
            elsif (substr($c->{in}, 0, 1) eq "\n") { substr($c->{in}, 0, 1, '') }
            elsif (length($c->{in}) < 2) { $c->{st} = 'chunk-crlf'; return }
            else { return fatal_response($c, 400, 'Malformed chunk terminator') }
            $c->{st} = 'chunk-size';
        } elsif ($c->{st} eq 'chunk-crlf') {
            return if length($c->{in}) < 2;
            return fatal_response($c, 400, 'Malformed chunk terminator') unless substr($c->{in}, 0, 2, '') eq "\r\n";
            $c->{st} = 'chunk-size';
        } elsif ($c->{st} eq 'chunk-trailer') {
            my $idx = index($c->{in}, "\n");
            if ($idx < 0) { fatal_response($c, 400, 'Malformed trailer') if length($c->{in}) > $MAX_HEADER; return }
            my $line = substr($c->{in}, 0, $idx + 1, '');
            run_request($c) if $line =~ /^\r?\n$/;
        }
    }
}

$SIG{PIPE} = 'IGNORE';
$SIG{TERM} = sub { $STOP = 1 };
$SIG{INT} = sub { $STOP = 1 };

my $port = $ENV{PORT} // 0;
$port = 0 unless $port =~ /^\d+$/;
$LISTEN = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => $port, Listen => 256, ReuseAddr => 1, Proto => 'tcp')
  or die "cannot listen on 127.0.0.1:$port: $!\n";
$LISTEN->blocking(0);
$RSEL->add($LISTEN);
my $actual = $LISTEN->sockport;
if (defined $ENV{KEYS_FILE} && length $ENV{KEYS_FILE}) {
    open my $kf, '>', "$ENV{KEYS_FILE}.tmp$$" or die "cannot write KEYS_FILE: $!\n";
    print $kf JSON::PP->new->canonical->pretty->encode(\%KEYFILE);
    close $kf or die "cannot write KEYS_FILE: $!\n";
    rename "$ENV{KEYS_FILE}.tmp$$", $ENV{KEYS_FILE} or die "cannot write KEYS_FILE: $!\n";
}
print "listening http://127.0.0.1:$actual\n";
print STDERR "deviations active: " . join(',', sort keys %DEV) . "\n" if %DEV;

while (!$STOP) {
    my ($r, $w) = IO::Select->select($RSEL, ($WSEL->count ? $WSEL : undef), undef, 0.25);
    last if $STOP;
    for my $fh (@{$w // []}) {
        my $c = $CONN{fileno($fh) // -1};
        flush_conn($c) if $c;
    }
    for my $fh (@{$r // []}) {
        if ($fh == $LISTEN) {
            for (1 .. 64) {
                my $s = $LISTEN->accept or last;
                $s->blocking(0);
                my $c = { sock => $s, fd => fileno($s), in => '', out => '', st => 'head', last => time };
                $CONN{$c->{fd}} = $c;
                $RSEL->add($s);
            }
            next;
        }
        my $c = $CONN{fileno($fh) // -1};
        next unless $c && !$c->{closed};
        my $n = sysread($fh, my $buf, 262144);
        if (!defined $n) {
            next if $!{EAGAIN} || $!{EWOULDBLOCK} || $!{EINTR};
            close_conn($c);
            next;
        }
        if ($n == 0) {
            $RSEL->remove($fh);
            process_conn($c) unless $c->{dead};
            $c->{close_after} = 1;
            if (!length $c->{out}) { close_conn($c) }
            next;
        }
        $c->{in} .= $buf;
        $c->{last} = time;
        process_conn($c) unless $c->{dead};
    }
    process_ingest();
    my $t = time;
    for my $c (values %CONN) { close_conn($c) if !$c->{closed} && $t - $c->{last} > 120 && !length $c->{out} }
}
close_conn($_) for values %CONN;
close $LISTEN;
exit 0;
