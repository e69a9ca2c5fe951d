#!/usr/bin/env ruby
# Customer-Conversation Analytics Service - independent REST implementation (stdlib only).
require 'socket'
require 'json'
require 'time'
require 'date'
require 'securerandom'
require 'digest'
require 'uri'
require 'set'
require 'io/wait'

$stdout.sync = true
Thread.report_on_exception = false

ALL_DEVIATIONS = (1..18).map { |i| format('B%02d', i) }
DEV = begin
  raw = (ENV['DEVIATIONS'] || '').strip
  if raw.downcase == 'all' then ALL_DEVIATIONS.to_set
  else raw.split(',').map(&:strip).reject(&:empty?).map(&:upcase).to_set
  end
end
def dev?(id) = DEV.include?(id)

T0 = Time.at(Time.now.to_i).utc
LOCK = Monitor.new
DAY = 86_400

# ---------------------------------------------------------------- helpers
class ApiError < StandardError
  attr_reader :status, :body
  def initialize(status, body)
    @status = status
    @body = body
    super(body[:error].to_s)
  end
end

def err!(status, message, extra = {})
  raise ApiError.new(status, { success: false, error: message }.merge(extra))
end

def ms(t) = t && Time.at(Rational((t.to_r * 1000).floor, 1000)).utc
def now_ms = ms(Time.now.utc)

def iso(t) = t&.utc&.strftime('%Y-%m-%dT%H:%M:%S.%LZ')

def fmt_dur(secs)
  return nil if secs.nil?
  s = secs.to_i
  format('%02d:%02d:%02d', s / 3600, (s % 3600) / 60, s % 60)
end

DATE_RE = /\A(\d{4})-(\d{2})-(\d{2})\z/
TS_RE = /\A(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?\z/

# returns [Time, date_only?] or nil
def parse_when(str)
  return nil unless str.is_a?(String)
  s = str.strip
  if (m = DATE_RE.match(s))
    y, mo, d = m[1].to_i, m[2].to_i, m[3].to_i
    return nil unless Date.valid_date?(y, mo, d)
    return [Time.utc(y, mo, d), true]
  end
  m = TS_RE.match(s)
  return nil unless m
  y, mo, d, h, mi = m[1].to_i, m[2].to_i, m[3].to_i, m[4].to_i, m[5].to_i
  sec = (m[6] || '0').to_i
  return nil unless Date.valid_date?(y, mo, d) && h < 24 && mi < 60 && sec < 60
  frac = m[7] ? Rational(m[7][1..].to_i, 10**(m[7].length - 1)) : 0
  t = Time.utc(y, mo, d, h, mi, sec + frac)
  z = m[8]
  if z && z.upcase != 'Z'
    sign = z[0] == '-' ? -1 : 1
    digits = z[1..].delete(':')
    hh = digits[0, 2].to_i
    mm = (digits[2, 2] || '0').to_i
    return nil if hh > 23 || mm > 59
    t -= sign * (hh * 3600 + mm * 60)
  end
  [t, false]
end

def pct_decode(s, plus_space: false)
  s = s.tr('+', ' ') if plus_space
  out = s.b.gsub(/%([0-9A-Fa-f]{2})/) { Regexp.last_match(1).hex.chr }
  out.force_encoding('UTF-8')
  out.valid_encoding? ? out : nil
end

def pct_encode(s)
  s.to_s.b.gsub(/[^A-Za-z0-9\-._~]/) { |c| format('%%%02X', c.ord) }
end

def parse_query(qs)
  h = {}
  return h if qs.nil? || qs.empty?
  qs.split('&').each do |pair|
    next if pair.empty?
    k, v = pair.split('=', 2)
    k = pct_decode(k, plus_space: true)
    v = v.nil? ? '' : pct_decode(v, plus_space: true)
    err!(400, 'Query string is not valid UTF-8') if k.nil? || v.nil?
    h[k] = v unless h.key?(k) # first occurrence wins
  end
  h
end

def round4(x) = x.nil? ? nil : (x.to_f.round(4))

def mean(arr)
  v = arr.compact
  v.empty? ? 0 : round4(v.sum.to_f / v.size)
end

def int_param(q, name, default, min, max)
  return default unless q.key?(name)
  v = q[name].strip
  err!(400, "#{name} must be an integer") unless v.match?(/\A[+-]?\d+\z/)
  i = v.to_i
  err!(400, max ? "#{name} must be between #{min} and #{max}" : "#{name} must be at least #{min}") if i < min || (max && i > max)
  i
end

def bool_param(q, name, default)
  return default unless q.key?(name)
  case q[name].strip.downcase
  when 'true', '1' then true
  when 'false', '0' then false
  else err!(400, "#{name} must be a boolean")
  end
end

# ---------------------------------------------------------------- window
# Resolves from/to into [from_time, to_time]. default_span in seconds.
def resolve_window(q, default_span, end_of_day_to: false)
  now = Time.now.utc
  from = to = nil
  if q.key?('from')
    r = parse_when(q['from'])
    err!(400, 'from must be an ISO 8601 date or timestamp') unless r
    from = r[0]
  end
  if q.key?('to')
    r = parse_when(q['to'])
    err!(400, 'to must be an ISO 8601 date or timestamp') unless r
    to = r[0]
    to += Rational(86_399_999, 1000) if r[1] && end_of_day_to
  end
  to ||= now
  from ||= to - default_span
  [from, to]
end

def in_window?(t, w) = !t.nil? && t >= w[0] && t <= w[1]

# ---------------------------------------------------------------- constants
PLATFORMS = %w[DISCORD SLACK GITHUB ZENDESK TELEGRAM FACEBOOK_GROUP TWITTER_COMMUNITY SALESFORCE FACEBOOK TWITTER
               THREADS TIKTOK INSTAGRAM LINKEDIN WHATSAPP YOUTUBE GAINSIGHT APPSTORE GOOGLE_PLAY HIGHER_LOGIC
               DISCOURSE CUSTOM_FORM MODERATION_API CHROME_WEB_STORE CANNY].freeze
PUBLIC_PLATFORMS = %w[GITHUB FACEBOOK_GROUP TWITTER_COMMUNITY FACEBOOK TWITTER THREADS TIKTOK INSTAGRAM LINKEDIN
                      YOUTUBE APPSTORE GOOGLE_PLAY HIGHER_LOGIC DISCOURSE CHROME_WEB_STORE CANNY].freeze
STATUSES = %w[OPEN ASSIGNED IN_PROGRESS CLOSED CANCELLED].freeze
WORKLOAD_OF = { 'OPEN' => :active, 'ASSIGNED' => :active, 'IN_PROGRESS' => :active,
                'CLOSED' => :closed, 'CANCELLED' => :cancelled }.freeze
SENTIMENTS = ['Very Negative', 'Negative', 'Neutral', 'Positive'].freeze
SENT_BASE = { 'Very Negative' => -0.85, 'Negative' => -0.4, 'Neutral' => 0.0, 'Positive' => 0.6 }.freeze
RECORD_TYPES = %w[post comment ticket review message].freeze
SEARCH_CAP = 300

# ---------------------------------------------------------------- organizations
def mk_org(id, name, mode)
  { id: id, name: name, mode: mode, actions: {}, tags: {}, agents: {}, queues: [], fields: {},
    cases: {}, case_by_ext: {}, ingest_index: {}, stats_only: 0 }
end

ORGS = {
  'A' => mk_org('org-acme', 'Acme Support', 'ad_policy'),
  'B' => mk_org('org-globex', 'Globex Care', 'ad_policy'),
  'C' => mk_org('org-initech', 'Initech Community', 'standard')
}.freeze

def add_tag(org, id, name, group) = org[:tags][id] = { id: id, name: name, group: group }

def add_agent(org, id, name, role, idle: false)
  org[:agents][id] = { id: id, name: name, email: "#{name.downcase.gsub(/[^a-z]+/, '.')}@#{org[:id]}.example",
                       role: role, idle: idle }
end

def add_field(org, name, display, type, options = nil)
  org[:fields][name] = { name: name, display: display, type: type, options: options }
end

A, B, C = ORGS['A'], ORGS['B'], ORGS['C']
[['t-101', 'Refund', 'Billing'], ['t-102', 'Invoice', 'Billing'], ['t-103', 'Chargeback', 'Billing'],
 ['t-201', 'Login Issue', 'Technical'], ['t-202', 'Bug Report', 'Technical'], ['t-203', 'Outage', 'Technical'],
 ['t-301', 'Refund', 'Intent'], ['t-302', 'Cancel Subscription', 'Intent'], ['t-303', 'Upgrade', 'Intent'],
 ['t-401', 'Praise', 'Feedback'], ['t-402', 'Feature Request', 'Feedback'], ['00417', 'Café ☕ & Co', 'Feedback'],
 ['t-501', 'Resolved', 'Resolution'], ['t-502', "Won't Fix", 'Resolution']].each { |t| add_tag(A, *t) }
[['t-101', 'Shipping Delay', 'Logistics'], ['b-7', 'Refund', 'Billing'], ['b-8', 'Zebra Unique Globex Tag', 'Logistics'],
 ['b-9', 'Damaged Item', 'Logistics'], ['b-501', 'Resolved', 'Resolution']].each { |t| add_tag(B, *t) }
[['c-1', 'Refund', 'Money'], ['c-2', 'Forum Spam', 'Community'], ['c-501', 'Resolved', 'Resolution']].each { |t| add_tag(C, *t) }

add_agent(A, 'u-1001', 'Alice Moreau', 'agent')
add_agent(A, '007', 'James Bond', 'supervisor')
add_agent(A, '9007199254740993123', 'Priya Raman', 'agent')
add_agent(A, 'u-1004', 'Dana Li', 'agent')
add_agent(A, 'agent ü/1', 'Jürgen Öz', 'lead')
add_agent(A, 'u-1006', 'Idle Ivan', 'agent', idle: true)
add_agent(B, 'u-1001', 'Bob Other', 'agent')
add_agent(B, 'b-2', 'Carla Globex', 'agent')
add_agent(C, 'c-9', 'Cecil Init', 'agent')

A[:queues] = [['q-billing', 'Billing'], ['q-tech', 'Technical Support'], ['q-vip', 'VIP'], ['q-social', 'Social Care']]
B[:queues] = [['q-billing', 'Returns'], ['q-b2', 'General']]
C[:queues] = [['q-c1', 'Forum']]

add_field(A, 'priority', 'Priority', 'select', %w[low medium high urgent])
add_field(A, 'churnRisk', 'Churn Risk', 'number')
add_field(A, 'vip', 'VIP Customer', 'boolean')
add_field(A, 'notes', 'Notes', 'text')
add_field(A, 'renewalDate', 'Renewal Date', 'date')
add_field(A, 'productAreas', 'Product Areas', 'multi_select', %w[billing mobile web api])
add_field(B, 'priority', 'Priority', 'select', %w[p1 p2 p3])
add_field(B, 'region', 'Region', 'text')
add_field(C, 'forumScore', 'Forum Score', 'number')

# ---------------------------------------------------------------- seed actions
AUTHOR_NAMES = ['Maya Chen', 'Tomás Ruiz', 'Olu Adeyemi', 'Zoë Kim', 'Sam Patel', 'Lena Fischer', 'Ahmed Noor',
                'Grace Ho', 'Ivan Petrov', 'Nia Brown'].freeze
SUBJECTS = ['refund not received', 'cannot log in', 'app crashes on start', 'double charge on invoice',
            'love the new update', 'feature request: dark mode', 'order arrived late', 'subscription cancel',
            'account locked', 'slow response times', 'billing address change', 'outage this morning'].freeze

def mk_users(org, rng, n)
  (0...n).map do |i|
    id = case i % 9
         when 0 then (9_007_199_254_740_993 + i * 1_000_003).to_s
         when 1 then format('%06d', i * 7)
         else "cust-#{org[:id][4, 3]}-#{1000 + i}"
         end
    name = "#{AUTHOR_NAMES[i % AUTHOR_NAMES.size]} #{i}"
    { name: name, username: "@#{name.downcase.delete(' ')}", id: id,
      email: rng.rand < 0.7 ? "#{name.downcase.delete(' ')}@mail.example" : nil,
      followers: rng.rand < 0.6 ? rng.rand(0..250_000) : nil }
  end
end

def build_action(org, rng, id, created, users, opts = {})
  agents = org[:agents].values.reject { |g| g[:idle] }
  tags = org[:tags].values.reject { |t| t[:group] == 'Resolution' }
  closing = org[:tags].values.select { |t| t[:group] == 'Resolution' }
  i = org[:actions].size
  platform = opts[:platform] || PLATFORMS[(i * 7) % PLATFORMS.size]
  status = opts[:status] || STATUSES[rng.rand(STATUSES.size)]
  responded = opts.key?(:responded) ? opts[:responded] : (%w[CLOSED IN_PROGRESS].include?(status) || rng.rand < 0.45)
  assignee = (status == 'OPEN' && rng.rand < 0.5) || rng.rand < 0.08 ? nil : agents[rng.rand(agents.size)]
  assignee = agents[0] if opts[:assigned] && assignee.nil?
  qs = org[:queues]
  queue = rng.rand < 0.15 ? nil : qs[rng.rand(qs.size)]
  queue = nil if opts[:no_queue]
  iq = rng.rand < 0.7 ? queue : qs[rng.rand(qs.size)]
  user = users[rng.rand(users.size)]
  nu = 1 + rng.rand(4)
  na = responded ? 1 + rng.rand(3) : 0
  nb = rng.rand < 0.25 ? 1 : 0
  kinds = ['USER'] + (['USER'] * (nu - 1) + ['AGENT'] * na + ['BOT'] * nb).shuffle(random: rng)
  max_span = [(T0 - created).to_f - 1, 1].max
  span = opts[:span] || [rng.rand(600..(2 * DAY)), max_span].min
  subject = SUBJECTS[rng.rand(SUBJECTS.size)]
  msgs = kinds.each_with_index.map do |k, n|
    ts = Time.at((created + span * n / kinds.size.to_f).round(3)).utc
    ag = assignee || { id: 'team', name: 'Support Team' }
    author, author_id = case k
                        when 'USER' then [user[:name], user[:id]]
                        when 'AGENT' then [ag[:name], ag[:id]]
                        else ['HelperBot', nil]
                        end
    { id: "#{id}-m#{n + 1}", ts: ts, author: author, author_id: author_id, type: k,
      text: n.zero? ? "Hi, #{subject}. Order ##{1000 + i}" : "#{k.downcase} reply #{n} about #{subject}",
      media: rng.rand < 0.1 ? ["https://cdn.example/media/#{i}-#{n}.png"] : [],
      parent: n.zero? ? nil : "#{id}-m1" }
  end
  first_agent = msgs.find { |m| m[:type] == 'AGENT' }
  updated = created + span
  updated = nil if status == 'OPEN' && !responded && rng.rand < 0.3 && !opts[:updated]
  updated = opts[:updated] if opts[:updated]
  closed = %w[CLOSED CANCELLED].include?(status) ? (updated || created + span) : nil
  sentiment = rng.rand < 0.1 ? nil : SENTIMENTS[rng.rand(4)]
  public_post = PUBLIC_PLATFORMS.include?(platform) && rng.rand < 0.85
  cf = {}
  f = org[:fields]
  f.each_value do |fd|
    next unless rng.rand < 0.5
    v = case fd[:type]
        when 'select' then fd[:options][rng.rand(fd[:options].size)]
        when 'multi_select' then fd[:options].sample(1 + rng.rand(2), random: rng)
        when 'number' then (rng.rand * 100).round(1)
        when 'boolean' then rng.rand < 0.5
        when 'date' then (T0.to_date + rng.rand(10..300)).iso8601
        else "seed note #{i}"
        end
    cf[fd[:name]] = { value: v, provenance: { source: 'seed', updatedAt: iso(created) } }
  end
  csat = status == 'CLOSED' && rng.rand < 0.6 ? (1 + rng.rand(5)).to_s : nil
  a = {
    org: org, id: id, title: subject.capitalize, summary: "Customer reports #{subject} via #{platform.downcase}.",
    status: status, platform: platform, record_type: rng.rand < 0.1 ? nil : RECORD_TYPES[rng.rand(5)],
    public: public_post, queue: queue&.last, initial_queue: iq&.last,
    sentiment: sentiment, score: sentiment ? (SENT_BASE[sentiment] + rng.rand * 0.3).round(3) : nil,
    moderation: rng.rand < 0.1 ? %w[approved flagged][rng.rand(2)] : nil,
    assignee: assignee, user: user, created: created, updated: updated,
    initial_msg: created, initial_resp: first_agent&.dig(:ts),
    close: closed, claim: assignee ? created + 30 : nil,
    frt: first_agent ? (first_agent[:ts] - created).round : nil,
    handle: closed ? (closed - created).round : nil,
    server: "#{org[:name]} #{platform.capitalize}", channel: %w[general support billing feedback][i % 4],
    csat: csat, csat_fb: csat && rng.rand < 0.5 ? "Feedback #{i}: #{csat.to_i >= 4 ? 'great help' : 'too slow'}" : nil,
    est_csat: rng.rand < 0.8 ? (1 + rng.rand * 4).round(2) : nil,
    messages: msgs, tags: tags.sample(rng.rand(4), random: rng).map { |t| t[:id] },
    closing: status == 'CLOSED' ? [closing[rng.rand(closing.size)][:id]] : [],
    cf: cf, comments: rng.rand < 0.3 ? [{ text: 'Internal note: check order history', author_id: agents[0][:id], author_name: rng.rand < 0.8 ? agents[0][:name] : nil }] : [],
    thread: "th-#{id}", easy: rng.rand < 0.9 ? "CCA-#{10_000 + i}" : nil,
    contributors: rng.rand < 0.9 ? "#{user[:name]}; #{assignee ? assignee[:name] : 'Support Team'}" : nil,
    rq: closed ? rng.rand.round(3) : nil, schange: sentiment ? (rng.rand * 2 - 1).round(3) : nil,
    rubric: rng.rand < 0.7 ? rng.rand(40..100) : nil, actionability: rng.rand.round(3), relevance: rng.rand.round(3)
  }
  a[:tags] = opts[:tags] if opts[:tags]
  %i[created updated initial_msg initial_resp close claim].each { |k| a[k] = ms(a[k]) }
  a[:messages].each { |m| m[:ts] = ms(m[:ts]) }
  a[:frt] = (a[:initial_resp] - a[:created]).round if a[:initial_resp]
  a[:handle] = (a[:close] - a[:created]).round if a[:close]
  org[:actions][id] = a
end

def seed_org(org, rng, n, base, specials, users_n)
  users = mk_users(org, rng, users_n)
  specials.each_with_index do |sid, k|
    build_action(org, rng, sid, T0 - 3600 * (k + 2) - 0.25, users, status: 'CLOSED', responded: true, assigned: true)
  end
  n.times do |k|
    recent = rng.rand < 0.4
    age = recent ? rng.rand(120..(7 * DAY - 7200)) : rng.rand((7 * DAY + 7200)..(60 * DAY - 600))
    build_action(org, rng, (base + k * 7919).to_s, T0 - age - rng.rand(1000) / 1000.0, users)
  end
  users
end

HARD_IDS = ['9007199254740993', '12345678901234567890123', '000123', '0042', 'café-Ω-42', '日本語-7', 'a+b',
            '50%off', 'why?', 'issue#9', 'a&b=c', 'path/seg', 'semi;colon', 'with space', '100001'].freeze

def seed_all
  rng = Random.new(20_240_601)
  users = seed_org(A, rng, 430, 1_700_000_000, HARD_IDS, 60)
  d = Time.utc(T0.year, T0.month, T0.day) - 3 * DAY
  build_action(A, rng, 'mid-1', d, users, status: 'CLOSED', responded: true, span: 600, tags: ['t-101'])
  build_action(A, rng, 'mid-2', d + 12 * 3600, users, status: 'CLOSED', responded: true, span: 600, tags: ['t-101'])
  build_action(A, rng, 'mid-3', d + DAY - 0.001, users, status: 'CLOSED', responded: true, span: 0.0005)
  build_action(A, rng, 'upd-1', T0 - 20 * DAY, users, status: 'IN_PROGRESS', responded: true, span: 3600,
                                                      updated: T0 - DAY)
  build_action(A, rng, 'noq-1', T0 - 5 * DAY, users, status: 'ASSIGNED', responded: true, no_queue: true, assigned: true)
  seed_org(B, rng, 120, 1_800_000_000, ['100001', '000123', 'a+b', 'b-only-1'], 30)
  B[:actions]['b-only-1'][:tags] = ['b-8', 'b-7']
  seed_org(C, rng, 40, 1_900_000_000, ['100001'], 15)
end
seed_all

# ---------------------------------------------------------------- keys
def mk_key = "cca_#{SecureRandom.alphanumeric(32)}"
KEYS = {}
KEY_NAMES = {}
[['CCA_READ_KEY', 'A', %w[read], :active], ['CCA_WRITE_KEY', 'A', %w[write], :active],
 ['CCA_INGEST_KEY', 'A', %w[ingest ingest:read], :active], ['CCA_READ_WRITE_KEY', 'A', %w[read write], :active],
 ['CCA_OTHER_ORG_READ_KEY', 'B', %w[read], :active], ['CCA_OTHER_ORG_WRITE_KEY', 'B', %w[write], :active],
 ['CCA_NO_MODERATION_WRITE_KEY', 'C', %w[write], :active], ['CCA_EXPIRED_KEY', 'A', %w[read write], :expired],
 ['CCA_REVOKED_KEY', 'A', %w[read write], :revoked]].each do |name, org, scopes, state|
  v = mk_key
  KEYS[v] = { name: name, org: ORGS[org], scopes: scopes.to_set, state: state,
              expires: state == :expired ? T0 - DAY : T0 + 90 * DAY }
  KEY_NAMES[name] = v
end

# ---------------------------------------------------------------- serialization
def tag_pairs(org, ids)
  ids.map { |tid| t = org[:tags][tid]; t && { value: t[:name], group: t[:group] } }.compact
end

def counts(a)
  [a[:messages].size, a[:messages].count { |m| m[:type] == 'USER' }, a[:messages].count { |m| m[:type] == 'AGENT' }]
end

def responded?(a) = a[:messages].any? { |m| m[:type] == 'AGENT' }

def service_url(a) = "https://app.cca.example/#{a[:org][:id]}/actions/#{pct_encode(a[:id])}"

def conversation_of(a)
  a[:messages].map do |m|
    { id: m[:id], timestamp: iso(m[:ts]), author: m[:author], authorId: m[:author_id], authorType: m[:type],
      message: m[:text], parentMessageId: m[:parent], mediaUrls: m[:media] }
  end
end

def cf_values(a) = a[:cf].transform_values { |v| v[:value] }

def summary(a, full_conv: false)
  tot, usr, agt = counts(a)
  as = a[:assignee]
  {
    actionId: a[:id], actionTitle: a[:title], actionSummary: a[:summary], status: a[:status],
    platform: a[:platform], recordType: a[:record_type], isPublicPost: a[:public], serviceURL: service_url(a),
    sourceURL: a[:public] ? a[:source_url] || "https://source.example/#{a[:platform].downcase}/#{pct_encode(a[:id])}" : nil,
    queue: a[:queue], initialQueue: a[:initial_queue], sentiment: a[:sentiment], sentimentScore: a[:score],
    moderation: a[:moderation],
    assigneeName: as&.dig(:name), assigneeEmail: as&.dig(:email), assigneeUserId: as&.dig(:id),
    assigneeRole: as&.dig(:role),
    userName: a[:user][:name], userUsername: a[:user][:username], userId: a[:user][:id],
    userEmail: a[:user][:email], userFollowerCount: a[:user][:followers],
    createdAt: iso(a[:created]), updatedAt: iso(a[:updated]), initialMessageTime: iso(a[:initial_msg]),
    initialResponseTime: iso(a[:initial_resp]), closeTime: iso(a[:close]), claimTime: iso(a[:claim]),
    firstResponseTime: fmt_dur(a[:frt]), handleTime: fmt_dur(a[:handle]),
    serverName: a[:server], channelName: a[:channel], csatScore: a[:csat], csatFeedback: a[:csat_fb],
    estimatedCSAT: a[:est_csat], totalMessages: tot, totalUserMessages: usr, totalAgentMessages: agt,
    tags: tag_pairs(a[:org], a[:tags]), closingTags: tag_pairs(a[:org], a[:closing]),
    customFields: cf_values(a), rootMessageText: a[:messages].first&.dig(:text),
    conversationJson: full_conv ? JSON.generate(conversation_of(a)) : nil
  }
end

def search_item(a)
  summary(a).merge(threadId: a[:thread], easyId: a[:easy], contributors: a[:contributors])
end

def detail(a)
  tot, usr, agt = counts(a)
  as = a[:assignee]
  {
    user: { name: a[:user][:name], username: a[:user][:username], userId: a[:user][:id],
            email: a[:user][:email], followerCount: a[:user][:followers] },
    actionId: a[:id], actionTitle: a[:title], actionSummary: a[:summary], platform: a[:platform],
    recordType: a[:record_type], isPublicPost: a[:public], sentiment: a[:sentiment], sentimentScore: a[:score],
    queue: a[:queue], initialQueue: a[:initial_queue], status: a[:status], createdAt: iso(a[:created]),
    serviceURL: service_url(a), sourceURL: summary(a)[:sourceURL], updatedAt: iso(a[:updated]),
    initialMessageTime: iso(a[:initial_msg]), initialResponseTime: iso(a[:initial_resp]),
    closeTime: iso(a[:close]), firstResponseTime: fmt_dur(a[:frt]), handleTime: fmt_dur(a[:handle]),
    claimTime: iso(a[:claim]),
    assignee: { name: as&.dig(:name), email: as&.dig(:email), userId: as&.dig(:id), role: as&.dig(:role) },
    serverName: a[:server], channelName: a[:channel],
    tags: tag_pairs(a[:org], a[:tags]), closingTags: tag_pairs(a[:org], a[:closing]), moderation: a[:moderation],
    comments: a[:comments].map { |c| { text: c[:text], authorNativeId: c[:author_id], authorNativeName: c[:author_name] } },
    messages: a[:messages].map do |m|
      h = { id: m[:id], timestamp: iso(m[:ts]), author: m[:author] }
      h[:authorId] = m[:author_id] if m[:author_id]
      h.merge(authorType: m[:type], message: m[:text], mediaUrls: m[:media])
    end,
    conversation: conversation_of(a),
    rootMessageText: a[:messages].first&.dig(:text), customFields: cf_values(a),
    csatScore: a[:csat], csatFeedback: a[:csat_fb], estimatedCSAT: a[:est_csat],
    totalMessages: tot, totalUserMessages: usr, totalAgentMessages: agt
  }
end

# ---------------------------------------------------------------- filter DSL
DSL_KEYS = {
  'platform' => ->(a) { a[:platform] }, 'source' => ->(a) { a[:platform] }, 'status' => ->(a) { a[:status] },
  'queue' => ->(a) { a[:queue] }, 'initialQueue' => ->(a) { a[:initial_queue] },
  'sentiment' => ->(a) { a[:sentiment] }, 'assigneeUserId' => ->(a) { a[:assignee]&.dig(:id) },
  'agentId' => ->(a) { a[:assignee]&.dig(:id) }, 'userId' => ->(a) { a[:user][:id] },
  'actionId' => ->(a) { a[:id] }, 'threadId' => ->(a) { a[:thread] }, 'easyId' => ->(a) { a[:easy] },
  'recordType' => ->(a) { a[:record_type] }, 'serverName' => ->(a) { a[:server] },
  'channelName' => ->(a) { a[:channel] }, 'moderation' => ->(a) { a[:moderation] },
  'tag' => ->(a) { tag_pairs(a[:org], a[:tags]).map { |t| t[:value] } },
  'tagId' => ->(a) { a[:tags] }, 'tagGroup' => ->(a) { tag_pairs(a[:org], a[:tags]).map { |t| t[:group] } },
  'responded' => ->(a) { responded?(a).to_s }, 'isPublicPost' => ->(a) { a[:public].to_s },
  'text' => nil
}
{ 'tags' => 'tag', 'assignee' => 'assigneeUserId', 'assigneeId' => 'assigneeUserId', 'agent' => 'agentId',
  'id' => 'actionId', 'server' => 'serverName', 'channel' => 'channelName', 'user' => 'userId',
  'q' => 'text' }.each { |k, v| DSL_KEYS[k] = DSL_KEYS[v] }
DSL_KEYS.freeze
CASE_INSENSITIVE = %w[platform source status sentiment responded isPublicPost recordType moderation].freeze

# Parses "key=value+key=value" into [[key, [values]]]. Raises 400 on malformed input.
def parse_dsl(str)
  s = str.to_s.strip
  return [] if s.empty?
  parts = s.split(/(?:\+|\s+)(?=\s*[A-Za-z_][A-Za-z0-9_.]*\s*=)/).map(&:strip).reject(&:empty?)
  parts.map do |p|
    k, v = p.split('=', 2)
    k = k.to_s.strip
    err!(400, "Invalid filter term '#{p}': expected key=value") if v.nil? || k.empty?
    v = v.strip
    err!(400, "Invalid filter term '#{p}': empty value") if v.empty?
    k = 'text' if k == 'q'
    err!(400, "Unknown filter key '#{k}'") unless DSL_KEYS.key?(k) || k.match?(/\AcustomFields\.[^=]+\z/)
    [k, v.split(',').map(&:strip).reject(&:empty?)]
  end
end

def dsl_match?(a, terms)
  terms.all? do |k, vals|
    if k.start_with?('customFields.')
      got = Array(a[:cf].dig(k.delete_prefix('customFields.'), :value)).map(&:to_s)
      vals.any? { |v| got.include?(v) }
    elsif k == 'text'
      hay = "#{a[:title]} #{a[:summary]} #{a[:messages].map { |m| m[:text] }.join(' ')}".downcase
      vals.any? { |v| hay.include?(v.downcase) }
    else
      got = Array(DSL_KEYS[k].call(a)).compact
      if CASE_INSENSITIVE.include?(k)
        got = got.map(&:downcase)
        vals.any? { |v| got.include?(v.downcase) }
      else
        vals.any? { |v| got.include?(v) }
      end
    end
  end
end

# ---------------------------------------------------------------- action routes
def legacy_responded(q)
  if q.key?('filterJson')
    j = begin
      JSON.parse(q['filterJson'])
    rescue JSON::ParserError
      err!(400, 'filterJson is not valid JSON')
    end
    err!(400, 'filterJson must be a JSON object') unless j.is_a?(Hash)
    if j.key?('responded')
      v = j['responded']
      v = v.downcase == 'true' if v.is_a?(String) && %w[true false].include?(v.downcase)
      err!(400, 'filterJson.responded must be a boolean') unless [true, false, nil].include?(v)
      return v unless v.nil?
    end
  end
  if q.key?('filter')
    f = q['filter'].strip
    if f.start_with?('{')
      j = (JSON.parse(f) rescue err!(400, 'filter is not valid JSON'))
      v = j.is_a?(Hash) ? j['responded'] : nil
      return v if [true, false].include?(v)
    else
      f.split(/[+&;,\s]+/).each do |term|
        k, v = term.split(/[=:]/, 2)
        next unless k&.strip == 'responded'
        case v.to_s.strip.downcase
        when 'true', '1' then return true
        when 'false', '0' then return false
        else err!(400, 'filter responded flag must be true or false')
        end
      end
    end
  end
  true
end

def get_action_list(org, q)
  full = q.key?('fullFilter')
  err!(400, 'fullFilter cannot be combined with filter or filterJson') if full && (q.key?('filter') || q.key?('filterJson'))
  err!(400, 'fullFilter exceeds 10000 characters') if full && q['fullFilter'].length > 10_000
  max = dev?('B03') ? 499 : 500
  page_size = int_param(q, 'pageSize', 50, 1, max)
  sort_by = q.key?('sortBy') ? q['sortBy'] : 'createdAt'
  err!(400, 'sortBy must be createdAt or updatedAt') unless %w[createdAt updatedAt].include?(sort_by)
  conv = bool_param(q, 'includeFullConversation', false)
  win = resolve_window(q, 7 * DAY, end_of_day_to: dev?('B01'))
  field = sort_by == 'updatedAt' ? :updated : :created
  win_field = dev?('B02') ? :created : field
  terms = full ? parse_dsl(q['fullFilter']) : []
  responded = full ? nil : legacy_responded(q)
  rows = org[:actions].values.select do |a|
    in_window?(a[win_field], win) && !a[field].nil? &&
      (responded.nil? || responded?(a) == responded) && dsl_match?(a, terms)
  end
  rows.sort_by! { |a| [-a[field].to_r, a[:id]] }
  total = rows.size
  { data: rows.first(page_size).map { |a| summary(a, full_conv: conv) }, totalRecords: total, currentPage: 1,
    pageSize: page_size, totalPages: (total + page_size - 1) / page_size }
end

def find_action(org, id)
  a = org[:actions][id]
  err!(404, "Action '#{id}' not found") unless a
  a
end

def get_conversation_search(org, q, all_orgs)
  page = int_param(q, 'page', 1, 1, 10_000)
  page_size = int_param(q, 'pageSize', 50, 1, 100)
  terms = parse_dsl(q['filter'])
  rows = org[:actions].values.select { |a| dsl_match?(a, terms) }
  rows.sort_by! { |a| [-a[:created].to_r, a[:id]] }
  n = rows.size
  n = all_orgs.sum { |o| o[:actions].values.count { |a| dsl_match?(a, terms) } } if dev?('B07')
  capped = n > SEARCH_CAP
  total = [n, SEARCH_CAP].min
  reach = rows.first(SEARCH_CAP)
  { success: true, data: reach[(page - 1) * page_size, page_size].to_a.map { |a| search_item(a) },
    totalRecords: total, totalRecordsCapped: capped, currentPage: page, pageSize: page_size,
    totalPages: (total + page_size - 1) / page_size }
end

# ---------------------------------------------------------------- custom fields
def cf_get(org, a)
  { actionId: a[:id], fields: org[:fields].values.map do |f|
    h = { fieldName: f[:name], displayName: f[:display], fieldType: f[:type], value: a[:cf].dig(f[:name], :value) }
    h[:provenance] = a[:cf][f[:name]][:provenance] if a[:cf][f[:name]]
    h
  end }
end

def cf_type_error(f, v)
  return nil if v.nil?
  case f[:type]
  when 'text' then v.is_a?(String) && v.length <= 5000 ? nil : 'must be a string of at most 5000 characters'
  when 'number' then v.is_a?(Numeric) ? nil : 'must be a number'
  when 'boolean' then [true, false].include?(v) ? nil : 'must be a boolean'
  when 'date'
    v.is_a?(String) && (r = parse_when(v)) && r[1] ? nil : 'must be a date in YYYY-MM-DD form'
  when 'select' then f[:options].include?(v) ? nil : "must be one of: #{f[:options].join(', ')}"
  when 'multi_select'
    v.is_a?(Array) && v.all? { |x| f[:options].include?(x) } && v.uniq.size == v.size ? nil :
      "must be an array of distinct values from: #{f[:options].join(', ')}"
  end
end

def cf_patch(org, a, body)
  fe = {}
  unless body.is_a?(Hash) && body['fields'].is_a?(Array) && !body['fields'].empty?
    raise ApiError.new(422, { success: false, error: 'Validation failed',
                              fieldErrors: { 'fields' => 'fields must be an array with at least 1 item' } })
  end
  seen = {}
  body['fields'].each_with_index do |it, i|
    unless it.is_a?(Hash)
      fe["fields[#{i}]"] = 'must be an object'
      next
    end
    name = it['fieldName']
    unless name.is_a?(String) && !name.empty?
      fe["fields[#{i}].fieldName"] = 'fieldName is required (string, min length 1)'
      next
    end
    f = org[:fields][name]
    if f.nil? then fe[name] = 'unknown custom field'
    elsif seen[name] then fe[name] = 'field given more than once'
    elsif !it.key?('value') then fe[name] = 'value is required'
    elsif (m = cf_type_error(f, it['value'])) then fe[name] = "value #{m}"
    elsif it.key?('confidence') && !(it['confidence'].is_a?(Numeric) && it['confidence'] >= 0 && it['confidence'] <= 1)
      fe[name] = 'confidence must be a number between 0 and 1'
    elsif it.key?('rationale') && !it['rationale'].is_a?(String)
      fe[name] = 'rationale must be a string'
    end
    seen[name] = true
  end
  raise ApiError.new(422, { success: false, error: 'Validation failed', fieldErrors: fe }) unless fe.empty?
  now = iso(Time.now.utc)
  updated = body['fields'].map do |it|
    if it['value'].nil?
      a[:cf].delete(it['fieldName'])
    else
      a[:cf][it['fieldName']] = { value: it['value'], provenance: { source: 'api', updatedAt: now } }
    end
    { fieldName: it['fieldName'], value: it['value'] }
  end
  a[:updated] = now_ms
  { actionId: a[:id], updated: updated }
end

# ---------------------------------------------------------------- agents & queues
def metrics_of(rows)
  c = rows.map { |a| counts(a) }
  { totalActions: rows.size, totalMessages: c.sum { |x| x[0] }, totalAgentMessages: c.sum { |x| x[2] },
    totalUserMessages: c.sum { |x| x[1] },
    averageCsat: mean(rows.map { |a| a[:csat]&.to_f }), averageResponseTime: mean(rows.map { |a| a[:frt] }),
    averageHandleTime: mean(rows.map { |a| a[:handle] }), averageEstimatedCsat: mean(rows.map { |a| a[:est_csat] }),
    averageResolutionQuality: mean(rows.map { |a| a[:rq] }),
    averageSentimentChange: mean(rows.map { |a| a[:schange] }), averageRubricScore: mean(rows.map { |a| a[:rubric] }) }
end

def workload_of(rows)
  w = { active: 0, closed: 0, cancelled: 0 }
  rows.each { |a| w[WORKLOAD_OF[a[:status]] || :active] += 1 }
  w
end

def window_rows(org, win, exclusive_to: false)
  org[:actions].values.select do |a|
    t = a[:created]
    t >= win[0] && (exclusive_to ? t < win[1] : t <= win[1])
  end
end

def get_agents(org, q)
  win = resolve_window(q, 30 * DAY)
  rows = window_rows(org, win, exclusive_to: dev?('B12'))
  data = org[:agents].values.map do |g|
    mine = rows.select { |a| a[:assignee]&.equal?(g) }
    with_resp = mine.count { |a| responded?(a) }
    { agentId: g[:id], agentName: g[:name], totalActionsWithResponse: with_resp,
      metrics: metrics_of(mine).merge(totalActionsWithResponse: with_resp), workload: workload_of(mine) }
  end
  { success: true, data: data }
end

def get_agent(org, id, q)
  g = org[:agents][id]
  unless g
    raise ApiError.new(404, { success: false, message: "Agent '#{id}' not found" }) if dev?('B15')
    err!(404, "Agent '#{id}' not found")
  end
  win = resolve_window(q, 30 * DAY)
  mine = window_rows(org, win).select { |a| a[:assignee]&.equal?(g) }
  daily = mine.group_by { |a| a[:created].strftime('%Y-%m-%d') }.sort.map do |day, rs|
    { date: day, totalActions: rs.size, totalAgentMessages: rs.sum { |a| counts(a)[2] },
      averageResponseTime: mean(rs.map { |a| a[:frt] }) }
  end
  queues = mine.group_by { |a| a[:queue] }.map do |name, rs|
    { queueId: org[:queues].find { |x| x[1] == name }&.first, queueName: name, totalActions: rs.size }
  end.sort_by { |h| [-h[:totalActions], h[:queueName].to_s] }
  all_mine = org[:actions].values.select { |a| a[:assignee]&.equal?(g) }
  { success: true, data: { agentId: g[:id], metrics: daily, aggregatedMetrics: metrics_of(mine),
                           currentWorkload: workload_of(all_mine), queues: queues } }
end

def get_queues(org, q)
  win = resolve_window(q, 30 * DAY)
  rows = window_rows(org, win)
  groups = rows.group_by { |a| a[:queue] }
  list = org[:queues].map { |qid, qname| [qid, qname] }
  list << [nil, nil] if groups.key?(nil) && !dev?('B13')
  data = list.map do |qid, qname|
    mine = groups[qname] || []
    scores = mine.map { |a| a[:score] }
    scores = scores.map { |s| s || 0 } if dev?('B18')
    avg = mean(scores)
    { queueId: qid, queueName: qname, averageSentimentScore: avg,
      metrics: metrics_of(mine).merge(averageSentimentScore: avg), workload: workload_of(mine) }
  end
  { success: true, data: data }
end

# ---------------------------------------------------------------- tag analytics
def tag_rows(orgs, q)
  win = resolve_window(q, 30 * DAY)
  resp = bool_param(q, 'respondedOnly', false)
  orgs.flat_map { |o| window_rows(o, win) }.select { |a| !resp || responded?(a) }
end

def get_tags(org, q)
  limit = int_param(q, 'limit', 25, 1, 1000)
  offset = int_param(q, 'offset', 0, 0, nil)
  search = q['search'].to_s.strip.downcase
  orgs = dev?('B05') && !search.empty? ? ORGS.values : [org]
  rows = tag_rows(orgs, q)
  per = Hash.new { |h, k| h[k] = [] }
  rows.each { |a| a[:tags].each { |tid| per[[a[:org], tid]] << a } }
  entries = per.map { |(o, tid), acts| [o[:tags][tid], acts] }.select do |t, _|
    t && (search.empty? || t[:name].downcase.include?(search) || t[:group].to_s.downcase.include?(search))
  end
  entries.sort_by! { |t, acts| [-acts.size, t[:name], t[:id]] }
  tagged = rows.count { |a| !a[:tags].empty? }
  page = entries[offset, limit] || []
  total = entries.size
  more = dev?('B17') ? offset + limit <= total : offset + limit < total
  { success: true, data: {
    summary: { totalTags: total, totalTagGroups: entries.map { |t, _| t[:group] }.uniq.size,
               totalTaggedRecords: tagged, totalActions: rows.size },
    tagBreakdown: page.map do |t, acts|
      { tagId: t[:id], tagName: t[:name], groupName: t[:group], count: acts.size,
        percentage: tagged.zero? ? 0 : (acts.size * 100.0 / tagged).round(2) }
    end,
    volumeByTag: page.map do |t, acts|
      r = acts.count { |a| responded?(a) }
      sc = acts.map { |a| a[:score] }.compact
      { tagId: t[:id], tagName: t[:name], total: acts.size, responded: r, notResponded: acts.size - r,
        avgSentiment: sc.empty? ? nil : round4(sc.sum / sc.size),
        avgActionability: round4(acts.sum { |a| a[:actionability] } / acts.size),
        avgRelevance: round4(acts.sum { |a| a[:relevance] } / acts.size) }
    end,
    pagination: { total: total, limit: limit, offset: offset, hasMore: more }
  } }
end

def get_tag_volume(org, q)
  top = int_param(q, 'topTagsLimit', 5, 1, 100)
  rows = tag_rows([org], q)
  ids = if q.key?('tagIds') && !q['tagIds'].strip.empty?
          q['tagIds'].split(',').map(&:strip).reject(&:empty?).uniq.select { |t| org[:tags].key?(t) }
        else
          cnt = Hash.new(0)
          rows.each { |a| a[:tags].each { |t| cnt[t] += 1 } }
          cnt.sort_by { |t, c| [-c, org[:tags][t][:name], t] }.first(top).map(&:first)
        end
  out = []
  rows.group_by { |a| a[:created].strftime('%Y-%m-%d') }.sort.each do |day, acts|
    ids.each do |tid|
      n = acts.count { |a| a[:tags].include?(tid) }
      out << { date: day, tagId: tid, tagName: org[:tags][tid][:name], count: n } if n.positive?
    end
  end
  { success: true, data: { data: out, tags: ids } }
end

def get_sentiment(org, q)
  win = resolve_window(q, 30 * DAY)
  rows = window_rows(org, win).select { |a| a[:sentiment] }
  by = rows.group_by { |a| a[:created].strftime('%Y-%m-%d') }
  first = win[0].utc.to_date
  last = win[1].utc.to_date
  days = if last - first <= 3660
           (first..last).map(&:iso8601)
         else
           by.keys.sort
         end
  data = days.map do |day|
    acts = by[day] || []
    { day: day }.merge(SENTIMENTS.to_h { |s| [s, acts.count { |a| a[:sentiment] == s }] })
  end
  { success: true, data: data }
end

def get_sentiment_by_tag(org, q)
  win = resolve_window(q, 30 * DAY)
  rows = window_rows(org, win)
  per = Hash.new { |h, k| h[k] = [] }
  rows.each { |a| a[:tags].map { |t| org[:tags][t][:name] }.uniq.each { |n| per[n] << a } }
  data = per.map do |name, acts|
    c = ->(s) { acts.count { |a| a[:sentiment] == s } }
    { tagName: name, veryNegative: c['Very Negative'], negative: c['Negative'], neutral: c['Neutral'],
      positive: c['Positive'], totalMentions: acts.size }
  end
  { success: true, data: data.sort_by { |r| [-r[:totalMentions], r[:tagName]] } }
end

def percentile(sorted, p)
  return 0 if sorted.empty?
  x = (sorted.size - 1) * p
  lo = sorted[x.floor]
  hi = sorted[x.ceil]
  round4(lo + (hi - lo) * (x - x.floor))
end

def week_start(t)
  days = t.to_i.div(DAY)
  days - (days + 3) % 7 # epoch day of the Monday starting the week
end

def get_engagement(org, q)
  win = resolve_window(q, 30 * DAY)
  plats = q.key?('platforms') ? q['platforms'].split(',').map { |p| p.strip.upcase }.reject(&:empty?) : nil
  plats = nil if plats&.empty?
  scope = org[:actions].values.select { |a| plats.nil? || plats.include?(a[:platform]) }
  rows = scope.select { |a| in_window?(a[:created], win) }
  pct = rows.group_by { |a| a[:platform] }.sort.map do |p, acts|
    per_user = acts.group_by { |a| a[:user][:id] }.map { |_, as| as.sum { |a| counts(a)[1] } }.sort
    { platform: p, p25MessagesPerUser: percentile(per_user, 0.25), medianMessagesPerUser: percentile(per_user, 0.5),
      p75MessagesPerUser: percentile(per_user, 0.75) }
  end
  trends = []
  weekly = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = Set.new } }
  scope.each { |a| weekly[week_start(a[:created])][a[:platform]] << a[:user][:id] }
  plats_in = rows.map { |a| a[:platform] }.uniq.sort
  w0 = week_start(win[0])
  w1 = week_start(win[1])
  weeks = weekly.keys.flat_map { |k| [k, k + 7] }.uniq.select { |k| k >= w0 && k <= w1 }.sort
  weeks.each do |wk|
    prev = wk - 7
    plats_in.each do |p|
      cur = weekly.key?(wk) ? weekly[wk][p].size : 0
      pre = weekly.key?(prev) ? weekly[prev][p].size : 0
      next if cur.zero? && pre.zero?
      g = pre.zero? ? 100.0 : ((cur - pre) * 100.0 / pre).round(2)
      trends << { week: iso(Time.at(wk * DAY).utc), platform: p, currentWeekUsers: cur, previousWeekUsers: pre,
                  growthPercentage: g }
    end
  end
  funnel = [['conversations', rows], ['responded', rows.select { |a| responded?(a) }],
            ['closed', rows.select { |a| a[:status] == 'CLOSED' }],
            ['csatReported', rows.select { |a| a[:csat] }]].map do |stage, rs|
    { stage: stage, actions: rs.size, users: rs.map { |a| a[:user][:id] }.uniq.size }
  end
  { success: true, data: { engagementPercentiles: pct, growthTrends: trends, conversionFunnel: funnel } }
end

# ---------------------------------------------------------------- moderation
CTA = %w[APPLY_NOW BOOK_NOW GET_NOW INSTALL_NOW MORE SHOP_NOW SIGN_UP VIEW WATCH].freeze
ATTACH_TYPES = %w[web_view deep_link app_install lens long_form_video].freeze
MEDIA_TYPES = %w[image video].freeze

def http_url?(v)
  return false unless v.is_a?(String)
  u = URI.parse(v)
  u.is_a?(URI::HTTP) && !u.host.to_s.empty?
rescue URI::Error
  false
end

def abs_uri?(v)
  v.is_a?(String) && URI.parse(v).absolute?
rescue URI::Error
  false
end

# Returns [missing, invalid, supported]
def validate_case(c)
  missing = []
  invalid = []
  supported = []
  return [[], ['body'], []] unless c.is_a?(Hash)
  # req: :nonnull (required, null = missing), true (required, null allowed),
  #      false (optional, null allowed), :optstrict (optional, null invalid)
  chk = lambda do |obj, prefix, key, req, &ok|
    name = prefix + key
    if !obj.key?(key)
      missing << name if req == :nonnull || req == true
    elsif obj[key].nil?
      missing << name if req == :nonnull
      invalid << name if req == :optstrict
    elsif !ok.call(obj[key])
      invalid << name
    end
  end
  s = ->(min, max) { ->(v) { v.is_a?(String) && v.length >= min && v.length <= max } }
  [['externalId', 256, true], ['sourceSystem', 128, true], ['sourcePlatform', 128, true], ['sourceAdId', 256, true],
   ['advertiserId', 256, false], ['advertiserName', 500, true], ['campaignId', 256, false], ['market', 128, true],
   ['placement', 128, true], ['language', 64, false], ['title', 500, true], ['headline', 500, false],
   ['brandName', 500, false]].each do |k, max, req|
    chk.call(c, '', k, req ? :nonnull : :optstrict, &s.call(1, max))
  end
  chk.call(c, '', 'providerMetadata', :optstrict) { |v| v.is_a?(Hash) }
  chk.call(c, '', 'landingPageUrl', true) { |v| v.is_a?(String) }
  if c.key?('callToAction') && !CTA.include?(c['callToAction'])
    invalid << 'callToAction'
    supported.concat(CTA)
  end
  if c.key?('publicProfile')
    pp = c['publicProfile']
    if pp.is_a?(Hash)
      chk.call(pp, 'publicProfile.', 'displayName', :optstrict, &s.call(1, 500))
      chk.call(pp, 'publicProfile.', 'logoUrl', :optstrict) { |v| abs_uri?(v) }
      chk.call(pp, 'publicProfile.', 'verified', :optstrict) { |v| [true, false].include?(v) }
    else invalid << 'publicProfile'
    end
  end
  min_pos = dev?('B10') ? 0 : 1
  if !c.key?('media') || c['media'].nil? then missing << 'media'
  elsif !c['media'].is_a?(Array) || c['media'].empty? || c['media'].size > 20 then invalid << 'media'
  else
    c['media'].each_with_index do |m, i|
      p = "media[#{i}]."
      unless m.is_a?(Hash)
        invalid << "media[#{i}]"
        next
      end
      chk.call(m, p, 'url', :nonnull) { |v| http_url?(v) }
      chk.call(m, p, 'type', :nonnull) { |v| MEDIA_TYPES.include?(v) }
      chk.call(m, p, 'position', :nonnull) { |v| v.is_a?(Integer) && v >= min_pos && v <= 20 }
    end
  end
  at = c['attachment']
  if !c.key?('attachment') || at.nil? then missing << 'attachment'
  elsif !at.is_a?(Hash) then invalid << 'attachment'
  else
    chk.call(at, 'attachment.', 'type', :nonnull) { |v| ATTACH_TYPES.include?(v) }
    chk.call(at, 'attachment.', 'destinationUrl', true) { |v| v.is_a?(String) }
    supported.concat(ATTACH_TYPES) if invalid.include?('attachment.type')
  end
  tg = c['targeting']
  if !c.key?('targeting') || tg.nil? then missing << 'targeting'
  elsif !tg.is_a?(Hash) then invalid << 'targeting'
  else
    chk.call(tg, 'targeting.', 'ageMin', true) { |v| v.is_a?(Integer) }
    chk.call(tg, 'targeting.', 'ageMax', false) { |v| v.is_a?(Integer) }
    chk.call(tg, 'targeting.', 'geos', :nonnull) { |v| v.is_a?(Array) && (1..250).cover?(v.size) && v.all?(String) }
    chk.call(tg, 'targeting.', 'languages', :optstrict) { |v| v.is_a?(Array) && (1..100).cover?(v.size) && v.all?(String) }
  end
  cp = c['copy']
  if !c.key?('copy') || cp.nil? then missing << 'copy'
  elsif !cp.is_a?(Hash) then invalid << 'copy'
  else
    %w[body caption linkDescription sourceTitle].each do |k|
      chk.call(cp, 'copy.', k, :optstrict) { |v| v.is_a?(String) && v.length <= 20_000 }
    end
  end
  %w[discoverTile partnershipAd].each { |k| chk.call(c, '', k, :optstrict) { |v| [true, false].include?(v) } }
  %w[format arLens].each { |k| chk.call(c, '', k, false) { |v| v.is_a?(String) } }
  chk.call(c, '', 'submittedAt', :optstrict) { |v| (r = parse_when(v)) && !r[1] }
  supported.concat(MEDIA_TYPES) if invalid.any? { |f| f =~ /\Amedia\[\d+\]\.type\z/ }
  [missing, invalid, supported.uniq]
end

def canon(v)
  case v
  when Hash then v.keys.sort.to_h { |k| [k, canon(v[k])] }
  when Array then v.map { |x| canon(x) }
  else v
  end
end

def mono = Process.clock_gettime(Process::CLOCK_MONOTONIC)

def mk_hit(id, slug, pol, conf, claim, field, text, word)
  idx = text.to_s.downcase.index(word) || 0
  ev = { modality: field ? 'text' : 'metadata', claim: claim }
  ev[:locator] = { textSpan: { field: field, start: idx, end: idx + word.length } } if field
  { ruleId: id, ruleSlug: slug, polarity: pol, confidence: conf, reasoning: claim, evidence: [ev] }
end

def decide(c)
  fields = { 'title' => c['title'], 'headline' => c['headline'], 'copy.body' => c.dig('copy', 'body') }
  text = [*fields.values, c['advertiserName'], c['brandName'], *c['copy'].values].compact.join(' ').downcase
  find = ->(re) { fields.find { |_, v| v.to_s.downcase =~ re } }
  disp, conf, title, reason, hits, pol = 'approve', 'high', nil, 'No policy concerns found.', [], 'POSITIVE'
  if text =~ /casino|gambl|betting/
    f, v = find.call(/casino|gambl|betting/)
    w = v.to_s.downcase[/casino|gambl|betting/] || 'casino'
    disp, conf, title, reason, pol = 'reject', 'high', 'Gambling content', 'Gambling promotion is not allowed.', 'NEGATIVE'
    hits << mk_hit('rule-gambling-01', 'gambling', 'NEGATIVE', 'high', 'Promotes gambling services', f, v, w)
  elsif text =~ /alcohol|beer|wine|whisk/
    f, v = find.call(/alcohol|beer|wine|whisk/)
    w = v.to_s.downcase[/alcohol|beer|wine|whisk/] || 'beer'
    disp, conf, title, reason, pol = 'age_gate', 'medium', 'Alcohol content', 'Alcohol ads require an age gate.', 'AMBIGUOUS'
    hits << mk_hit('rule-alcohol-02', 'alcohol', 'AMBIGUOUS', 'medium', 'Mentions alcoholic beverages', f, v, w)
  elsif text =~ /crypto|miracle|guaranteed/
    f, v = find.call(/crypto|miracle|guaranteed/)
    w = v.to_s.downcase[/crypto|miracle|guaranteed/] || 'crypto'
    disp, conf, reason, pol = 'escalate', 'low', 'Claims need human review.', 'AMBIGUOUS'
    hits << mk_hit('rule-claims-03', 'unsubstantiated-claims', 'AMBIGUOUS', 'low', 'Possibly unsubstantiated claim', f, v, w)
  end
  d = { disposition: disp, confidence: conf, title: title, reason: reason, hits: hits,
        advertiserAssessment: { polarity: pol == 'NEGATIVE' ? 'NEGATIVE' : 'POSITIVE', reasoning: "Advertiser #{c['advertiserName']} reviewed." },
        landingAssessment: { polarity: c['landingPageUrl'] ? 'POSITIVE' : 'AMBIGUOUS', reasoning: c['landingPageUrl'] ? 'Landing page reachable.' : 'No landing page supplied.' },
        decisionSource: 'model', failureCode: nil, failureMessage: nil }
  if c['landingPageUrl'].nil? && c.dig('attachment', 'type') == 'web_view'
    d.merge!(disposition: 'escalate', confidence: 'low', reason: 'Landing page could not be evaluated; failing closed.',
             decisionSource: 'fail_closed', failureCode: 'LANDING_PAGE_UNAVAILABLE',
             failureMessage: 'web_view attachment without a landing page URL')
  end
  d
end

def case_state(k)
  return 'policy_not_configured' if k[:no_policy]
  el = mono - k[:t]
  return 'pending' if el < 1.0
  return 'running' if el < 3.0
  k[:fail] ? 'failed' : 'completed'
end

def case_view(k)
  st = case_state(k)
  h = { caseId: k[:id], externalId: k[:ext], analysisStatus: st }
  h[:evaluationId] = k[:eval] unless st == 'policy_not_configured'
  h[:decision] = k[:decision] if st == 'completed' || (dev?('B09') && st == 'running' && !k[:fail])
  h[:failureCode] = 'MODEL_UNAVAILABLE' if st == 'failed'
  h
end

def new_case(org, c, hash)
  k = { id: "mc_#{SecureRandom.hex(10)}", ext: c['externalId'], hash: hash, t: mono, eval: "ev_#{SecureRandom.hex(10)}",
        no_policy: c['sourcePlatform'].to_s.downcase == 'unconfigured',
        fail: c['title'].to_s.include?('[force-failure]'), decision: decide(c),
        key: "idem_#{Digest::SHA256.hexdigest("#{org[:id]}|#{c['externalId']}|#{hash}")[0, 32]}" }
  org[:cases][k[:id]] = k
  org[:case_by_ext][k[:ext]] = k
  k
end

def ack(k, status)
  { caseId: k[:id], externalId: k[:ext], status: status, analysisStatus: 'pending', evaluationId: k[:eval],
    idempotency: { key: k[:key], replayed: status == 'duplicate' } }
end

def content_hash(c)
  c2 = c.dup
  c2['language'] ||= 'en'
  Digest::SHA256.hexdigest(JSON.generate(canon(c2)))
end

def moderation_guard(org)
  return if org[:mode] == 'ad_policy'
  err!(403, 'Moderation is not available for this organization',
       message: "Organization moderation mode is '#{org[:mode]}'; moderation intake requires ad_policy mode.",
       supported: ['ad_policy'])
end

def validation_body(missing, invalid, supported)
  code = missing.empty? ? 'MODERATION_INPUT_INVALID' : 'MODERATION_INPUT_INCOMPLETE'
  msg = [missing.empty? ? nil : "missing: #{missing.join(', ')}", invalid.empty? ? nil : "invalid: #{invalid.join(', ')}"].compact.join('; ')
  h = { code: code, message: "Moderation input #{missing.empty? ? 'invalid' : 'incomplete'} (#{msg})",
        missingFields: missing, invalidFields: invalid }
  h[:supported] = supported unless supported.empty?
  h
end

def post_case(org, body)
  moderation_guard(org)
  err!(400, 'Request body must be a JSON object') unless body.is_a?(Hash)
  missing, invalid, supported = validate_case(body)
  unless missing.empty? && invalid.empty?
    vb = validation_body(missing, invalid, supported)
    err!(422, missing.empty? ? 'Moderation input invalid' : 'Moderation input incomplete', vb)
  end
  h = content_hash(body)
  if (k = org[:case_by_ext][body['externalId']])
    return [202, ack(k, 'duplicate')] if k[:hash] == h
    err!(409, 'externalId already exists with different content',
         message: "Case #{k[:id]} already uses externalId '#{body['externalId']}' with different content; externalId is immutable.")
  end
  [202, ack(new_case(org, body, h), 'accepted')]
end

def post_case_batch(org, body)
  moderation_guard(org)
  err!(400, 'Request body must be a JSON object with a cases array') unless body.is_a?(Hash) && body['cases'].is_a?(Array)
  cs = body['cases']
  err!(400, 'cases must contain between 1 and 100 items') if cs.empty? || cs.size > 100
  results = cs.map do |c|
    ext = c.is_a?(Hash) && c['externalId'].is_a?(String) ? c['externalId'] : nil
    missing, invalid, supported = validate_case(c)
    if !missing.empty? || !invalid.empty?
      vb = validation_body(missing, invalid, supported)
      { externalId: ext, caseId: nil, status: 'rejected', errors: (missing.map { |f| "#{f} is required" } + invalid.map { |f| "#{f} is invalid" }) }.merge(vb)
    else
      h = content_hash(c)
      k = org[:case_by_ext][ext]
      if k && k[:hash] == h && !dev?('B08') then ack(k, 'duplicate')
      elsif k && k[:hash] != h
        { externalId: ext, caseId: k[:id], status: 'rejected',
          errors: ['externalId already exists with different content'],
          message: "externalId '#{ext}' is immutable and already used by case #{k[:id]} with different content" }
      else ack(new_case(org, c, h), 'accepted')
      end
    end
  end
  [202, { results: results }]
end

def get_case(org, id)
  moderation_guard(org)
  k = org[:cases][id]
  err!(404, "Moderation case '#{id}' not found") unless k
  case_view(k)
end

# ---------------------------------------------------------------- ingestion
def ingest_url_ok?(v)
  return false unless v.is_a?(String)
  if dev?('B11')
    u = (URI.parse(v) rescue nil)
    return !u.nil? && u.absolute?
  end
  http_url?(v)
end

def validate_ingest(b)
  e = []
  return ['body must be a JSON object'] unless b.is_a?(Hash)
  e << "platform must be one of #{PLATFORMS.join(', ')}" unless PLATFORMS.include?(b['platform'])
  %w[serverId serverName].each { |k| e << "#{k} is required (string, min length 1)" unless b[k].is_a?(String) && !b[k].empty? }
  %w[channelId channelName].each { |k| e << "#{k} must be a string" if b.key?(k) && !b[k].is_a?(String) }
  if b.key?('processingLevel') && !%w[INSIGHTS STATS_ONLY].include?(b['processingLevel'])
    e << 'processingLevel must be INSIGHTS or STATS_ONLY'
  end
  if b.key?('source')
    s = b['source']
    if !s.is_a?(Hash) then e << 'source must be an object'
    else
      e << 'source.system is required (string, min length 1)' unless s['system'].is_a?(String) && !s['system'].empty?
      e << 'source.sourceId must be a string' if s.key?('sourceId') && !s['sourceId'].is_a?(String)
    end
  end
  recs = b['records']
  if !recs.is_a?(Array) || recs.empty? || recs.size > 500
    e << 'records must be an array of 1..500 items'
    return e
  end
  recs.each_with_index do |r, i|
    p = "records[#{i}]"
    unless r.is_a?(Hash)
      e << "#{p} must be an object"
      next
    end
    %w[externalId authorId authorName createdAt recordType].each do |k|
      e << "#{p}.#{k} is required (string, min length 1)" unless r[k].is_a?(String) && !r[k].empty?
    end
    e << "#{p}.body is required (string)" unless r['body'].is_a?(String)
    %w[threadExternalId parentExternalId title].each { |k| e << "#{p}.#{k} must be a string" if r.key?(k) && !r[k].is_a?(String) }
    if r.key?('score') && !(r['score'].is_a?(Numeric) && r['score'] >= 0 && r['score'] <= 5)
      e << "#{p}.score must be a number between 0 and 5"
    end
    e << "#{p}.url must be an absolute HTTP or HTTPS URL" if r.key?('url') && !ingest_url_ok?(r['url'])
    e << "#{p}.customFields must be an object" if r.key?('customFields') && !r['customFields'].is_a?(Hash)
    if r['createdAt'].is_a?(String) && !r['createdAt'].empty? && parse_when(r['createdAt']).nil?
      e << "#{p}.createdAt must be an ISO 8601 timestamp"
    end
  end
  e
end

def post_ingest(org, body)
  e = validate_ingest(body)
  err!(422, "Validation failed: #{e.first(5).join('; ')}", details: e) unless e.empty?
  n = body['records'].size
  Thread.new do
    sleep 0.4
    LOCK.synchronize { apply_ingest(org, body) }
  rescue StandardError => ex
    warn "ingest apply failed: #{ex.message}"
  end
  [202, { status: 'accepted', accepted: n }]
end

def apply_ingest(org, b)
  if b['processingLevel'] == 'STATS_ONLY'
    org[:stats_only] += b['records'].size
    return
  end
  plat = b['platform']
  sid = b['serverId']
  b['records'].each do |r|
    idx = org[:ingest_index]
    rec_key = [plat, sid, r['externalId']]
    parent_thread = r['parentExternalId'] && idx[[plat, sid, r['parentExternalId']]]
    thread = r['threadExternalId'] || parent_thread || idx[rec_key] || r['externalId']
    idx[rec_key] = thread
    aid = "ing-#{Digest::SHA256.hexdigest("#{org[:id]}|#{plat}|#{sid}|#{thread}")[0, 20]}"
    t = ms(parse_when(r['createdAt'])[0])
    a = org[:actions][aid]
    user = { name: r['authorName'], username: r['authorName'], id: r['authorId'], email: nil, followers: nil }
    unless a
      a = { org: org, id: aid, title: r['title'] || r['body'][0, 80], summary: r['body'][0, 200], status: 'OPEN',
            platform: plat, record_type: r['recordType'], public: !r['url'].nil?, queue: nil, initial_queue: nil,
            sentiment: nil, score: nil, moderation: nil, assignee: nil, user: user, created: t, updated: nil,
            initial_msg: t, initial_resp: nil, close: nil, claim: nil, frt: nil, handle: nil,
            server: b['serverName'], channel: b['channelName'] || '', csat: nil, csat_fb: nil, est_csat: nil,
            messages: [], tags: [], closing: [], cf: {}, comments: [], thread: thread, easy: nil,
            contributors: nil, rq: nil, schange: nil, rubric: nil, actionability: 0.0, relevance: 0.0 }
      org[:actions][aid] = a
    end
    a[:source_url] ||= r['url'] if r['url']
    a[:public] = true if r['url']
    msg = { id: r['externalId'], ts: t, author: r['authorName'], author_id: r['authorId'], type: 'USER',
            text: r['body'], media: [], parent: r['parentExternalId'] }
    pos = a[:messages].index { |m| m[:id] == r['externalId'] }
    pos ? a[:messages][pos] = msg : a[:messages] << msg
    a[:messages].sort_by! { |m| m[:ts] }
    if r['externalId'] == thread || a[:messages].size == 1
      a[:title] = r['title'] || r['body'][0, 80]
      a[:summary] = r['body'][0, 200]
      a[:record_type] = r['recordType']
      a[:user] = user
      a[:created] = t
      a[:initial_msg] = t
    end
    a[:csat] = r['score'].to_s if r.key?('score')
    (r['customFields'] || {}).each do |k, v|
      f = org[:fields][k]
      next unless f && !v.nil? && cf_type_error(f, v).nil?
      a[:cf][k] = { value: v, provenance: { source: 'ingest', system: b.dig('source', 'system'), updatedAt: iso(Time.now.utc) } }
    end
    a[:updated] = now_ms
  end
end

# ---------------------------------------------------------------- OpenAPI
def oa_ref(n) = { '$ref' => "#/components/schemas/#{n}" }
def oa_s(type, nullable: false, **kw) = { type: type }.merge(nullable ? { nullable: true } : {}).merge(kw)
def oa_obj(props, req = props.keys) = { type: 'object', required: req.map(&:to_s), properties: props }

def openapi_doc
  str = oa_s('string'); nstr = oa_s('string', nullable: true); num = oa_s('number'); nnum = oa_s('number', nullable: true)
  tag = oa_obj({ value: str, group: str })
  summary_props = {
    actionId: str, actionTitle: str, actionSummary: str, status: str, platform: str, recordType: nstr,
    isPublicPost: oa_s('boolean'), serviceURL: str, sourceURL: nstr, queue: nstr, initialQueue: nstr,
    sentiment: nstr, sentimentScore: nnum, moderation: nstr, assigneeName: nstr, assigneeEmail: nstr,
    assigneeUserId: nstr, assigneeRole: nstr, userName: str, userUsername: str, userId: str, userEmail: nstr,
    userFollowerCount: nnum, createdAt: str, updatedAt: nstr, initialMessageTime: nstr, initialResponseTime: nstr,
    closeTime: nstr, claimTime: nstr, firstResponseTime: nstr, handleTime: nstr, serverName: str, channelName: str,
    csatScore: nstr, csatFeedback: nstr, estimatedCSAT: nnum, totalMessages: nnum, totalUserMessages: nnum,
    totalAgentMessages: nnum, tags: { type: 'array', items: tag }, closingTags: { type: 'array', items: tag },
    customFields: { type: 'object', additionalProperties: true }, rootMessageText: nstr, conversationJson: nstr
  }
  metric_keys = %i[totalActions totalMessages totalAgentMessages totalUserMessages averageCsat averageResponseTime
                   averageHandleTime averageEstimatedCsat averageResolutionQuality averageSentimentChange averageRubricScore]
  metrics = oa_obj(metric_keys.to_h { |k| [k, num] })
  workload = oa_obj({ active: num, closed: num, cancelled: num })
  err = oa_obj({ success: oa_s('boolean', enum: [false]), error: str })
  modcase = { type: 'object', required: %w[externalId sourceSystem sourcePlatform sourceAdId advertiserName market
                                           placement landingPageUrl title media attachment targeting copy],
              properties: {
                externalId: oa_s('string', minLength: 1, maxLength: 256), sourceSystem: oa_s('string', minLength: 1, maxLength: 128),
                sourcePlatform: oa_s('string', minLength: 1, maxLength: 128), sourceAdId: oa_s('string', minLength: 1, maxLength: 256),
                advertiserId: oa_s('string', minLength: 1, maxLength: 256), advertiserName: oa_s('string', minLength: 1, maxLength: 500),
                campaignId: oa_s('string', minLength: 1, maxLength: 256), market: oa_s('string', minLength: 1, maxLength: 128),
                placement: oa_s('string', minLength: 1, maxLength: 128), language: oa_s('string', minLength: 1, maxLength: 64, default: 'en'),
                providerMetadata: { type: 'object' }, landingPageUrl: nstr,
                title: oa_s('string', minLength: 1, maxLength: 500), headline: oa_s('string', minLength: 1, maxLength: 500),
                brandName: oa_s('string', minLength: 1, maxLength: 500), callToAction: oa_s('string', enum: CTA),
                publicProfile: { type: 'object', properties: { displayName: oa_s('string', minLength: 1, maxLength: 500),
                                                               logoUrl: oa_s('string', format: 'uri'), verified: oa_s('boolean') } },
                media: { type: 'array', minItems: 1, maxItems: 20, items: oa_obj({ url: oa_s('string', format: 'uri'),
                                                                                     type: oa_s('string', enum: MEDIA_TYPES),
                                                                                     position: oa_s('integer', minimum: 1, maximum: 20) }) },
                attachment: oa_obj({ type: oa_s('string', enum: ATTACH_TYPES), destinationUrl: nstr }),
                targeting: oa_obj({ ageMin: oa_s('integer', nullable: true), ageMax: oa_s('integer', nullable: true),
                                    geos: { type: 'array', minItems: 1, maxItems: 250, items: str },
                                    languages: { type: 'array', minItems: 1, maxItems: 100, items: str } }, %i[ageMin geos]),
                copy: oa_obj(%i[body caption linkDescription sourceTitle].to_h { |k| [k, oa_s('string', maxLength: 20_000)] }, []),
                discoverTile: oa_s('boolean'), partnershipAd: oa_s('boolean'), format: nstr, arLens: nstr,
                submittedAt: oa_s('string', format: 'date-time')
              } }
  ack = oa_obj({ caseId: str, externalId: str, status: oa_s('string', enum: %w[accepted duplicate]),
                 analysisStatus: oa_s('string', enum: ['pending']), evaluationId: str,
                 idempotency: oa_obj({ key: str, replayed: oa_s('boolean') }) })
  modErr = { type: 'object', required: %w[success error], properties: {
    success: oa_s('boolean'), error: str, message: str, code: oa_s('string', enum: %w[MODERATION_INPUT_INCOMPLETE MODERATION_INPUT_INVALID]),
    missingFields: { type: 'array', items: str }, invalidFields: { type: 'array', items: str }, supported: { type: 'array', items: str } } }
  schemas = {
    Error: err, ActionSummary: oa_obj(summary_props),
    SearchItem: oa_obj(summary_props.merge(threadId: str, easyId: nstr, contributors: nstr)),
    ActionDetail: { type: 'object', properties: { user: { type: 'object' }, assignee: { type: 'object' },
                                                  comments: { type: 'array', items: { type: 'object' } },
                                                  messages: { type: 'array', items: { type: 'object' } },
                                                  conversation: { type: 'array', items: { type: 'object' } } },
                    required: %w[user actionId actionTitle actionSummary platform recordType isPublicPost sentiment
                                 sentimentScore queue initialQueue status createdAt serviceURL sourceURL updatedAt
                                 initialMessageTime initialResponseTime closeTime firstResponseTime handleTime claimTime
                                 assignee serverName channelName tags closingTags moderation comments messages
                                 rootMessageText customFields csatScore csatFeedback estimatedCSAT totalMessages
                                 totalUserMessages totalAgentMessages] },
    Metrics: metrics, Workload: workload, ModerationCase: modcase, ModerationAck: ack, ModerationError: modErr
  }
  q = ->(name, schema, desc = nil) { { name: name, in: 'query', required: false, schema: schema, description: desc }.compact }
  pth = ->(name) { { name: name, in: 'path', required: true, schema: oa_s('string', minLength: 1) } }
  window = [q.call('from', str, 'ISO 8601 date or timestamp; date-only = midnight UTC'),
            q.call('to', str, 'ISO 8601 date or timestamp, inclusive; date-only = midnight UTC')]
  resp = lambda do |ok_code, ok_schema, errs, errschema = 'Error'|
    r = { ok_code.to_s => { description: 'Success', content: { 'application/json' => { schema: ok_schema } } } }
    r['401'] = { description: 'Missing or invalid key', content: { 'application/json' => { schema: oa_ref('Error') } } }
    errs.each { |c| r[c.to_s] = { description: 'Error', content: { 'application/json' => { schema: oa_ref(errschema) } } } }
    r
  end
  env = ->(data) { oa_obj({ success: oa_s('boolean'), data: data }) }
  body = ->(schema) { { required: true, content: { 'application/json' => { schema: schema } } } }
  op = ->(id, summ, params, responses, extra = {}) { { operationId: id, summary: summ, parameters: params, responses: responses }.merge(extra) }
  paths = {
    '/v0/action/list' => { get: op.call('listActions', 'List actions (newest first)', window + [
      q.call('pageSize', oa_s('integer', minimum: 1, maximum: 500, default: 50)), q.call('filter', str),
      q.call('filterJson', str), q.call('fullFilter', oa_s('string', maxLength: 10_000)),
      q.call('includeFullConversation', oa_s('boolean', default: false)),
      q.call('sortBy', oa_s('string', enum: %w[createdAt updatedAt], default: 'createdAt'))
    ], resp.call(200, oa_obj({ data: { type: 'array', items: oa_ref('ActionSummary') }, totalRecords: num, currentPage: num,
                               pageSize: num, totalPages: num }), [400, 500])) },
    '/v0/action/{id}' => { get: op.call('getAction', 'Get one action', [pth.call('id')], resp.call(200, oa_ref('ActionDetail'), [404, 500])) },
    '/v0/actions/{actionId}/custom-fields' => {
      get: op.call('getCustomFields', 'Read custom field values (read scope)', [pth.call('actionId')],
                   resp.call(200, oa_obj({ actionId: str, fields: { type: 'array', items: { type: 'object' } } }), [403, 404, 500])),
      patch: op.call('patchCustomFields', 'Write custom field values (write scope)', [pth.call('actionId')],
                     resp.call(200, oa_obj({ actionId: str, updated: { type: 'array', items: { type: 'object' } } }), [403, 404, 422, 500]),
                     requestBody: body.call(oa_obj({ fields: { type: 'array', minItems: 1, items: oa_obj({
                       fieldName: oa_s('string', minLength: 1), value: {}, confidence: oa_s('number', minimum: 0, maximum: 1),
                       rationale: str }, %i[fieldName value]) } })))
    },
    '/v0/agents' => { get: op.call('listAgents', 'Agent metrics', window,
                                   resp.call(200, env.call({ type: 'array', items: oa_obj({ agentId: str, metrics: oa_ref('Metrics'), workload: oa_ref('Workload') }) }), [403, 500])) },
    '/v0/agents/{id}' => { get: op.call('getAgent', 'One agent', [pth.call('id')] + window,
                                        resp.call(200, env.call(oa_obj({ metrics: { type: 'array', items: { type: 'object' } }, aggregatedMetrics: oa_ref('Metrics'),
                                                                         currentWorkload: oa_ref('Workload'), queues: { type: 'array', items: { type: 'object' } } })), [403, 404, 500])) },
    '/v0/queues' => { get: op.call('listQueues', 'Queue metrics', window,
                                   resp.call(200, env.call({ type: 'array', items: oa_obj({ queueId: nstr, queueName: nstr, metrics: oa_ref('Metrics'), workload: oa_ref('Workload') }) }), [403, 500])) },
    '/v0/analytics/tags' => { get: op.call('tagAnalytics', 'Tag analytics', window + [
      q.call('respondedOnly', oa_s('boolean', default: false)), q.call('limit', oa_s('integer', minimum: 1, maximum: 1000, default: 25)),
      q.call('offset', oa_s('integer', minimum: 0, default: 0)), q.call('search', str)
    ], resp.call(200, env.call(oa_obj({ summary: { type: 'object' }, tagBreakdown: { type: 'array', items: { type: 'object' } },
                                        volumeByTag: { type: 'array', items: { type: 'object' } }, pagination: { type: 'object' } })), [403, 500])) },
    '/v0/analytics/tags/volume' => { get: op.call('tagVolume', 'Tag volume per day', window + [
      q.call('respondedOnly', oa_s('boolean', default: false)), q.call('topTagsLimit', oa_s('integer', minimum: 1, maximum: 100, default: 5)),
      q.call('tagIds', str, 'comma-separated tag IDs')
    ], resp.call(200, env.call(oa_obj({ data: { type: 'array', items: { type: 'object' } }, tags: { type: 'array', items: str } })), [403, 500])) },
    '/v0/analytics/sentiment' => { get: op.call('sentimentByDay', 'Sentiment per day', window,
                                                resp.call(200, env.call({ type: 'array', items: { type: 'object' } }), [403, 500])) },
    '/v0/analytics/sentiment/by-tag' => { get: op.call('sentimentByTag', 'Sentiment per tag', window,
                                                       resp.call(200, env.call({ type: 'array', items: { type: 'object' } }), [403, 500])) },
    '/v0/analytics/engagement' => { get: op.call('engagement', 'Engagement analytics', window + [q.call('platforms', str)],
                                                 resp.call(200, env.call(oa_obj({ engagementPercentiles: { type: 'array', items: { type: 'object' } },
                                                                                  growthTrends: { type: 'array', items: { type: 'object' } },
                                                                                  conversionFunnel: { type: 'array', items: { type: 'object' } } })), [403, 500])) },
    '/v0/conversations/search' => { get: op.call('searchConversations', 'Conversation search', [
      q.call('filter', str, 'DSL: key=value terms joined with +'), q.call('page', oa_s('integer', minimum: 1, maximum: 10_000, default: 1)),
      q.call('pageSize', oa_s('integer', minimum: 1, maximum: 100, default: 50))
    ], resp.call(200, oa_obj({ success: oa_s('boolean'), data: { type: 'array', items: oa_ref('SearchItem') }, totalRecords: num,
                               totalRecordsCapped: oa_s('boolean'), currentPage: num, pageSize: num, totalPages: num }), [400, 403, 500])) },
    '/v0/moderation/cases' => { post: op.call('submitModerationCase', 'Submit one moderation case', [],
                                              resp.call(202, oa_ref('ModerationAck'), [400, 403, 409, 422, 500], 'ModerationError'),
                                              requestBody: body.call(oa_ref('ModerationCase'))) },
    '/v0/moderation/cases/batch' => { post: op.call('submitModerationBatch', 'Submit 1..100 moderation cases', [],
                                                    resp.call(202, oa_obj({ results: { type: 'array', items: { type: 'object' } } }), [400, 403], 'ModerationError'),
                                                    requestBody: body.call(oa_obj({ cases: { type: 'array', minItems: 1, maxItems: 100, items: oa_ref('ModerationCase') } }))) },
    '/v0/moderation/cases/{caseId}' => { get: op.call('getModerationCase', 'Moderation case status', [pth.call('caseId')],
                                                      resp.call(200, oa_obj({ caseId: str, externalId: str, analysisStatus: oa_s('string', enum: %w[policy_not_configured pending running completed failed]),
                                                                              evaluationId: str, decision: { type: 'object' }, failureCode: nstr }, %i[caseId externalId analysisStatus]), [403, 404])) },
    '/v0/ingest/records' => { post: op.call('ingestRecords', 'Ingest normalized records (ingest scope)', [],
                                            resp.call(202, oa_obj({ status: oa_s('string', enum: ['accepted']), accepted: num }), [403, 422, 500]),
                                            requestBody: body.call(oa_obj({ platform: oa_s('string', enum: PLATFORMS), serverId: oa_s('string', minLength: 1),
                                                                            serverName: oa_s('string', minLength: 1), channelId: str, channelName: str,
                                                                            processingLevel: oa_s('string', enum: %w[INSIGHTS STATS_ONLY]),
                                                                            source: oa_obj({ system: oa_s('string', minLength: 1), sourceId: str }, %i[system]),
                                                                            records: { type: 'array', minItems: 1, maxItems: 500, items: { type: 'object' } } },
                                                                          %i[platform serverId serverName records]))) }
  }
  paths.delete('/v0/moderation/cases/batch') if dev?('B16')
  { openapi: '3.0.3',
    info: { title: 'Customer-Conversation Analytics Service', version: 'v0',
            description: 'REST interface. Every request carries X-API-Key.' },
    servers: [{ url: '/' }],
    security: [{ ApiKey: [] }],
    paths: paths,
    components: { securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } }, schemas: schemas } }
end

DOCS_HTML = <<~HTML
  <!DOCTYPE html>
  <html><head><meta charset="utf-8"><title>CCA REST API - Swagger UI</title>
  <link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css"></head>
  <body><div id="swagger-ui"></div>
  <script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
  <script>window.ui = SwaggerUIBundle({ url: '/docs/json', dom_id: '#swagger-ui' });</script>
  </body></html>
HTML

# ---------------------------------------------------------------- dispatch
ROUTES = [
  ['GET', %w[v0 action list], :list, 'read'],
  ['GET', ['v0', 'action', :id], :detail, 'read'],
  ['GET', ['v0', 'actions', :id, 'custom-fields'], :cf_get, 'read'],
  ['PATCH', ['v0', 'actions', :id, 'custom-fields'], :cf_patch, 'write'],
  ['GET', %w[v0 agents], :agents, 'read'],
  ['GET', ['v0', 'agents', :id], :agent, 'read'],
  ['GET', %w[v0 queues], :queues, 'read'],
  ['GET', %w[v0 analytics tags], :tags, 'read'],
  ['GET', %w[v0 analytics tags volume], :tag_volume, 'read'],
  ['GET', %w[v0 analytics sentiment], :sentiment, 'read'],
  ['GET', %w[v0 analytics sentiment by-tag], :sentiment_tag, 'read'],
  ['GET', %w[v0 analytics engagement], :engagement, 'read'],
  ['GET', %w[v0 conversations search], :search, 'read'],
  ['POST', %w[v0 moderation cases], :mod_post, 'write'],
  ['POST', %w[v0 moderation cases batch], :mod_batch, 'write'],
  ['GET', ['v0', 'moderation', 'cases', :id], :mod_get, 'read'],
  ['POST', %w[v0 ingest records], :ingest, 'ingest']
].freeze

def match_route(segs)
  ROUTES.filter_map do |m, pat, name, scope|
    next unless pat.size == segs.size
    id = nil
    ok = pat.each_with_index.all? do |p, i|
      if p == :id
        id = segs[i]
        !segs[i].empty?
      else p == segs[i]
      end
    end
    ok ? [m, name, scope, id] : nil
  end
end

def parse_json_body(raw, bad_status)
  s = raw.to_s.dup.force_encoding('UTF-8')
  err!(bad_status, 'Request body is not valid UTF-8') unless s.valid_encoding?
  err!(bad_status, 'Request body must be JSON') if s.strip.empty?
  JSON.parse(s)
rescue JSON::ParserError, EncodingError
  err!(bad_status, 'Request body is not valid JSON')
end

JSON_CT = 'application/json; charset=utf-8'.freeze

def handle(method, target, headers, body)
  target = target.sub(%r{\Ahttps?://[^/]+}i, '')
  target = target.split('#', 2)[0].to_s
  path, qs = target.split('?', 2)
  err!(400, 'Invalid request target') unless path.start_with?('/')
  if %w[/docs /docs/].include?(path)
    err!(405, 'Method not allowed') unless %w[GET HEAD].include?(method)
    return [200, { 'Content-Type' => 'text/html; charset=utf-8' }, DOCS_HTML]
  end
  if path == '/docs/json'
    err!(405, 'Method not allowed') unless %w[GET HEAD].include?(method)
    return [200, { 'Content-Type' => JSON_CT }, JSON.generate(openapi_doc)]
  end
  raw = path.split('/', -1)[1..] || []
  segs = raw.map { |s| dev?('B04') && raw[1] =~ /\Aactions?\z/ ? pct_decode(s, plus_space: true) : pct_decode(s) }
  err!(404, 'Not found') if segs.any?(&:nil?) || segs[0] != 'v0'
  key = headers['x-api-key'].to_s.strip
  err!(401, 'Missing API key') if key.empty?
  k = KEYS[key]
  err!(401, 'Invalid API key') unless k
  err!(401, 'API key has expired') if k[:state] == :expired || k[:expires] < Time.now.utc
  if k[:state] == :revoked
    err!(403, 'Forbidden') if dev?('B14') && %w[POST PATCH PUT DELETE].include?(method)
    err!(401, 'API key has been revoked')
  end
  cands = match_route(segs)
  err!(404, 'Not found') if cands.empty?
  hit = cands.find { |c| c[0] == method || (method == 'HEAD' && c[0] == 'GET') }
  unless hit
    raise ApiError.new(405, { success: false, error: 'Method not allowed', allow: cands.map(&:first).uniq })
  end
  _, name, scope, id = hit
  allowed = k[:scopes].include?(scope) || (dev?('B06') && name == :search && k[:scopes].include?('ingest'))
  err!(403, "This API key lacks the '#{scope}' scope required by this route") unless allowed
  org = k[:org]
  q = parse_query(qs)
  status = 200
  out = LOCK.synchronize do
    case name
    when :list then get_action_list(org, q)
    when :detail then detail(find_action(org, id))
    when :cf_get then cf_get(org, find_action(org, id))
    when :cf_patch
      a = find_action(org, id)
      cf_patch(org, a, parse_json_body(body, 422))
    when :agents then get_agents(org, q)
    when :agent then get_agent(org, id, q)
    when :queues then get_queues(org, q)
    when :tags then get_tags(org, q)
    when :tag_volume then get_tag_volume(org, q)
    when :sentiment then get_sentiment(org, q)
    when :sentiment_tag then get_sentiment_by_tag(org, q)
    when :engagement then get_engagement(org, q)
    when :search then get_conversation_search(org, q, ORGS.values)
    when :mod_post
      moderation_guard(org)
      status, o = post_case(org, parse_json_body(body, 400))
      o
    when :mod_batch
      moderation_guard(org)
      status, o = post_case_batch(org, parse_json_body(body, 400))
      o
    when :mod_get then get_case(org, id)
    when :ingest
      status, o = post_ingest(org, parse_json_body(body, 422))
      o
    end
  end
  [status, { 'Content-Type' => JSON_CT }, JSON.generate(out)]
end

def safe_handle(method, target, headers, body)
  handle(method, target, headers, body)
rescue ApiError => e
  h = { 'Content-Type' => JSON_CT }
  b = e.body.dup
  if (allow = b.delete(:allow))
    h['Allow'] = allow.join(', ')
  end
  [e.status, h, JSON.generate(b)]
rescue StandardError, SystemStackError => e
  warn "500: #{e.class}: #{e.message}\n#{e.backtrace&.first(5)&.join("\n")}"
  [500, { 'Content-Type' => JSON_CT }, JSON.generate({ success: false, error: 'Internal server error' })]
end

# ---------------------------------------------------------------- HTTP/1.1
REASONS = { 100 => 'Continue', 200 => 'OK', 202 => 'Accepted', 400 => 'Bad Request', 401 => 'Unauthorized',
            403 => 'Forbidden', 404 => 'Not Found', 405 => 'Method Not Allowed', 409 => 'Conflict',
            411 => 'Length Required', 413 => 'Payload Too Large', 422 => 'Unprocessable Entity',
            431 => 'Request Header Fields Too Large', 500 => 'Internal Server Error', 501 => 'Not Implemented',
            505 => 'HTTP Version Not Supported' }.freeze
MAX_BODY = 16 * 1024 * 1024
class BadRequest < StandardError
  attr_reader :status
  def initialize(status = 400, msg = 'Bad request')
    @status = status
    super(msg)
  end
end

def write_response(sock, status, headers, body, keep, head_only: false)
  body = body.to_s.b
  out = +"HTTP/1.1 #{status} #{REASONS[status] || 'Status'}\r\n"
  headers.each { |k, v| out << "#{k}: #{v}\r\n" }
  out << "Content-Length: #{body.bytesize}\r\n"
  out << "Date: #{Time.now.httpdate}\r\n"
  out << "Connection: #{keep ? 'keep-alive' : 'close'}\r\n\r\n"
  out = out.b
  out << body unless head_only
  sock.write(out)
end

def read_line(sock)
  line = sock.gets("\n", 16_384)
  return nil if line.nil?
  raise BadRequest.new(431, 'Header line too long') unless line.end_with?("\n")
  line.chomp
end

def read_chunked(sock)
  body = +''.b
  loop do
    l = read_line(sock) or raise BadRequest
    size_s = l.split(';', 2)[0].strip
    raise BadRequest.new(400, 'Bad chunk size') unless size_s.match?(/\A[0-9A-Fa-f]{1,8}\z/)
    n = size_s.hex
    if n.zero?
      loop { t = read_line(sock); break if t.nil? || t.empty? }
      return body
    end
    raise BadRequest.new(413, 'Body too large') if body.bytesize + n > MAX_BODY
    chunk = sock.read(n)
    raise BadRequest if chunk.nil? || chunk.bytesize < n
    body << chunk
    crlf = read_line(sock)
    raise BadRequest.new(400, 'Bad chunk terminator') unless crlf == '' || crlf == "\r"
  end
end

def serve(sock)
  loop do
    break unless sock.wait_readable(30)
    keep = false
    begin
      line = read_line(sock)
      break if line.nil?
      line = line.delete_suffix("\r")
      next if line.empty?
      parts = line.split(' ')
      raise BadRequest.new(400, 'Malformed request line') unless parts.size == 3 && parts[0].match?(/\A[A-Z]+\z/)
      raise BadRequest.new(505, 'HTTP version not supported') unless parts[2].match?(%r{\AHTTP/1\.[01]\z})
      method, target, version = parts
      headers = {}
      count = 0
      loop do
        h = read_line(sock)
        raise BadRequest.new(400, 'Unexpected end of headers') if h.nil?
        h = h.delete_suffix("\r")
        break if h.empty?
        count += 1
        raise BadRequest.new(431, 'Too many headers') if count > 200
        name, val = h.split(':', 2)
        raise BadRequest.new(400, 'Malformed header') if val.nil? || name.empty? || name.match?(/\s/)
        n = name.downcase
        headers[n] = headers[n] ? "#{headers[n]}, #{val.strip}" : val.strip
      end
      conn = headers['connection'].to_s.downcase
      keep = version == 'HTTP/1.1' ? !conn.include?('close') : conn.include?('keep-alive')
      te = headers['transfer-encoding']
      cl = headers['content-length']
      body = ''
      if te || cl
        sock.write("HTTP/1.1 100 Continue\r\n\r\n") if headers['expect'].to_s.downcase == '100-continue'
      end
      if te
        raise BadRequest.new(501, 'Unsupported transfer encoding') unless te.downcase.split(',').map(&:strip).last == 'chunked'
        body = read_chunked(sock)
      elsif cl
        raise BadRequest.new(400, 'Bad Content-Length') unless cl.match?(/\A\d{1,12}\z/)
        n = cl.to_i
        raise BadRequest.new(413, 'Body too large') if n > MAX_BODY
        body = n.zero? ? '' : sock.read(n)
        raise BadRequest.new(400, 'Incomplete body') if body.nil? || body.bytesize < n
      end
      status, hdrs, out = safe_handle(method, target, headers, body)
      write_response(sock, status, hdrs, out, keep, head_only: method == 'HEAD')
    rescue BadRequest => e
      write_response(sock, e.status, { 'Content-Type' => JSON_CT }, JSON.generate({ success: false, error: e.message }), false)
      break
    end
    break unless keep
  end
rescue IOError, SystemCallError, EOFError
  nil
rescue StandardError => e
  warn "connection error: #{e.class}: #{e.message}"
ensure
  begin
    sock.close
  rescue StandardError
    nil
  end
end

def main
  port = ENV['PORT'].to_s.strip.empty? ? 0 : ENV['PORT'].to_i
  server = TCPServer.new('127.0.0.1', port)
  port = server.addr[1]
  kf = ENV['KEYS_FILE'].to_s
  File.write(kf, JSON.pretty_generate(KEY_NAMES)) unless kf.empty?
  trap('TERM') { exit!(0) }
  trap('INT') { exit!(0) }
  puts "listening http://127.0.0.1:#{port}"
  $stdout.flush
  loop do
    sock = server.accept
    Thread.new(sock) { |s| serve(s) }
  rescue IOError, SystemCallError
    sleep 0.05
  end
end

main if $PROGRAM_NAME == __FILE__
