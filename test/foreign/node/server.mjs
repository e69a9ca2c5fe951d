// Customer-Conversation Analytics Service: single-process Node 22 implementation.
// Standard library only; data lives in an in-memory node:sqlite database.
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { SCHEMA } from './schema.mjs';
import { seed, newKey, ORG_A, ORG_B, sentimentLabel } from './seed.mjs';
import { buildOpenApi, swaggerHtml } from './openapi.mjs';
import { validateSubmission, evaluateSubmission, canonicalContent, conflictView } from './moderation.mjs';

const DEV = new Set((process.env.DEVIATIONS || '').split(',').map((s) => s.trim()).filter(Boolean));
const dev = (id) => DEV.has(id);

const DAY = 86400e3;
const START = Date.now();
const db = new DatabaseSync(':memory:');
db.exec(SCHEMA);
seed(db, START);

// ---------------------------------------------------------------- keys
const PROFILES = {
  reporting: ['read'],
  write: ['write', 'moderation:write'],
  read_write: ['read', 'write', 'moderation:write'],
  import: ['ingest', 'ingest:read'],
};
const keys = {};
{
  const ins = db.prepare('INSERT INTO api_keys VALUES (?,?,?,?,?,?,?,?)');
  const now = new Date(START).toISOString();
  const in90 = new Date(START + 90 * DAY).toISOString();
  const mk = (env, prefix, org, name, profile, scopes, expires, revoked) => {
    const k = newKey(prefix);
    ins.run(k, org, name, profile, scopes.join(' '), now, expires, revoked);
    keys[env] = k;
  };
  mk('CCA_READ_KEY', 'cca_rd', ORG_A, 'Looker export', 'reporting', PROFILES.reporting, in90, null);
  mk('CCA_WRITE_KEY', 'cca_wr', ORG_A, 'CRM sync', 'write', PROFILES.write, null, null);
  mk('CCA_INGEST_KEY', 'cca_im', ORG_A, 'Forum importer', 'import', PROFILES.import, in90, null);
  mk('CCA_OTHER_ORG_READ_KEY', 'cca_rd', ORG_B, 'Northbeam BI', 'reporting', PROFILES.reporting, in90, null);
  mk('CCA_NO_MODERATION_WRITE_KEY', 'cca_wr', ORG_A, 'Field tagger', 'write', ['write'], in90, null);
  mk('CCA_EXPIRED_KEY', 'cca_rd', ORG_A, 'Old dashboard', 'reporting', PROFILES.reporting, new Date(START - 3 * DAY).toISOString(), null);
  mk('CCA_REVOKED_KEY', 'cca_rd', ORG_A, 'Leaked laptop key', 'reporting', PROFILES.reporting, in90, new Date(START - DAY).toISOString());
  mk('CCA_READ_WRITE_KEY', 'cca_rw', ORG_A, 'Ops automation', 'read_write', PROFILES.read_write, in90, null);
}

// ---------------------------------------------------------------- helpers
class HttpError extends Error {
  constructor(status, message, extra) { super(message); this.status = status; this.extra = extra; }
}
const iso = (ms) => new Date(ms).toISOString();
const round2 = (x) => Math.round(x * 100) / 100;
const avg = (xs) => { const v = xs.filter((x) => x != null && Number.isFinite(Number(x))).map(Number); return v.length ? round2(v.reduce((s, x) => s + x, 0) / v.length) : 0; };
const avgOrNull = (xs) => { const v = xs.filter((x) => x != null); return v.length ? round2(v.reduce((s, x) => s + x, 0) / v.length) : null; };

function send(res, status, body, headers = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' && headers['content-type'] ? headers['content-type'] : 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(text);
}
function fail(res, status, message, extra = {}) { send(res, status, { success: false, error: message, ...extra }); }

function readBody(req, limit = 12 * 1024 * 1024) {
  return new Promise((resolve, reject) => {
    const chunks = []; let size = 0;
    req.on('data', (c) => { size += c.length; if (size > limit) { reject(new HttpError(413, 'Request body too large')); req.destroy(); } else chunks.push(c); });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
async function readJson(req, badStatus) {
  const text = await readBody(req);
  if (!text.trim()) throw new HttpError(badStatus, 'Request body must be a JSON object');
  try { return JSON.parse(text); } catch { throw new HttpError(badStatus, 'Request body is not valid JSON'); }
}

// Raw query parsing: `filter`/`fullFilter` keep a literal '+' (the DSL term separator).
function parseQuery(rawQs) {
  const q = {};
  if (!rawQs) return q;
  for (const part of rawQs.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rk = eq < 0 ? part : part.slice(0, eq);
    const rv = eq < 0 ? '' : part.slice(eq + 1);
    let k, v;
    try { k = decodeURIComponent(rk.replace(/\+/g, ' ')); } catch { throw new HttpError(400, 'Malformed query string'); }
    try { v = (k === 'filter' || k === 'fullFilter') ? decodeURIComponent(rv) : decodeURIComponent(rv.replace(/\+/g, ' ')); } catch { throw new HttpError(400, 'Malformed query string'); }
    if (!(k in q)) q[k] = v;
  }
  return q;
}

function parseDateParam(v, name, isTo) {
  if (v == null || v === '') return null;
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (d) {
    const ms = Date.UTC(+d[1], +d[2] - 1, +d[3]);
    if (new Date(ms).toISOString().slice(0, 10) !== v) throw new HttpError(400, `Invalid ${name}: not a calendar date`);
    if (isTo && dev('D02')) return ms + DAY - 1;
    return ms;
  }
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|z|[+-]\d{2}(?::?\d{2})?)?$/.exec(v);
  if (m) {
    let tz = m[3] || 'Z';
    if (/^[+-]\d{2}$/.test(tz)) tz += ':00';
    else if (/^[+-]\d{4}$/.test(tz)) tz = tz.slice(0, 3) + ':' + tz.slice(3);
    const time = m[2].replace(/(\.\d{3})\d+$/, '$1');
    const ms = Date.parse(`${m[1]}T${time}${tz.toUpperCase()}`);
    if (Number.isFinite(ms)) return ms;
  }
  throw new HttpError(400, `Invalid ${name}: expected an ISO 8601 date or timestamp`);
}
function resolveWindow(q, defaultDays) {
  let from = parseDateParam(q.from, 'from', false);
  let to = parseDateParam(q.to, 'to', true);
  if (from == null && to == null) { to = Date.now(); from = to - defaultDays * DAY; }
  else if (from == null) from = to - defaultDays * DAY;
  else if (to == null) to = Date.now();
  return { from: iso(from), to: iso(to), fromMs: from, toMs: to };
}
function parseBool(v, name, strict) {
  if (v == null || v === '') return undefined;
  const s = String(v).toLowerCase();
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  if (strict) throw new HttpError(400, `Invalid ${name}: expected true or false`);
  return undefined;
}
function parseIntParam(v, name, min, max, def) {
  if (v == null || v === '') return def;
  if (!/^-?\d+$/.test(String(v).trim())) throw new HttpError(400, `Invalid ${name}: expected an integer`);
  const n = Number(v);
  if (n < min || n > max) throw new HttpError(400, `Invalid ${name}: must be between ${min} and ${max}`);
  return n;
}
function lenientInt(v, min, max, def) {
  const n = Number.parseInt(v, 10);
  if (!Number.isFinite(n)) return def;
  return Math.min(max, Math.max(min, n));
}
function duration(secs) {
  if (secs == null) return null;
  const h = Math.floor(secs / 3600), m = Math.floor((secs % 3600) / 60), s = secs % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

// ---------------------------------------------------------------- auth
const keyStmt = db.prepare('SELECT k.*, o.moderation_mode, o.slug, o.policy_workflow FROM api_keys k JOIN orgs o ON o.org_id = k.org_id WHERE k.key_value = ?');
function authenticate(req) {
  const raw = req.headers['x-api-key'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !String(value).trim()) throw new HttpError(401, 'Missing API key');
  const k = keyStmt.get(String(value).trim());
  if (!k) throw new HttpError(401, 'Invalid API key');
  if (k.revoked_at && Date.parse(k.revoked_at) <= Date.now()) throw new HttpError(401, 'API key has been revoked');
  if (k.expires_at && Date.parse(k.expires_at) <= Date.now()) throw new HttpError(dev('D12') ? 403 : 401, 'API key has expired');
  return { orgId: k.org_id, slug: k.slug, keyName: k.name, scopes: new Set(k.scopes.split(' ')), moderationMode: k.moderation_mode, policyWorkflow: k.policy_workflow };
}
function requireScope(ctx, scope, what) {
  if (!ctx.scopes.has(scope)) throw new HttpError(403, `This API key does not have the '${scope}' scope required to ${what}`);
}

// ---------------------------------------------------------------- record building
const S = {
  agent: db.prepare('SELECT * FROM agents WHERE org_id = ? AND agent_id = ?'),
  customer: db.prepare('SELECT * FROM customers WHERE org_id = ? AND user_id = ?'),
  queue: db.prepare('SELECT * FROM queues WHERE org_id = ? AND queue_id = ?'),
  tags: db.prepare('SELECT t.tag_id, t.name, t.group_name, at.closing FROM action_tags at JOIN tags t ON t.org_id = at.org_id AND t.tag_id = at.tag_id WHERE at.org_id = ? AND at.action_id = ? ORDER BY at.closing, t.group_name, t.name'),
  cfValues: db.prepare('SELECT v.field_name, v.value_json FROM custom_field_values v JOIN custom_field_defs d ON d.org_id = v.org_id AND d.field_name = v.field_name WHERE v.org_id = ? AND v.action_id = ? ORDER BY d.pos'),
  messages: db.prepare('SELECT * FROM messages WHERE org_id = ? AND action_id = ? ORDER BY pos'),
  comments: db.prepare('SELECT * FROM comments WHERE org_id = ? AND action_id = ? ORDER BY pos'),
  action: db.prepare('SELECT * FROM actions WHERE org_id = ? AND action_id = ?'),
  actionAnyOrg: db.prepare('SELECT * FROM actions WHERE action_id = ? ORDER BY seq LIMIT 1'),
};
const queueName = (org, id) => (id == null ? null : (S.queue.get(org, id)?.name ?? id));
const serviceUrl = (a) => `https://app.cca.example/${a.org_slug || a.org_id}/inbox/actions/${encodeURIComponent(a.action_id)}`;
function tagLists(a) {
  const rows = S.tags.all(a.org_id, a.action_id);
  return {
    tags: rows.filter((r) => !r.closing).map((r) => ({ value: r.name, group: r.group_name ?? 'Ungrouped' })),
    closingTags: rows.filter((r) => r.closing).map((r) => ({ value: r.name, group: r.group_name ?? 'Ungrouped' })),
  };
}
function customFieldMap(a) {
  const o = {};
  for (const r of S.cfValues.all(a.org_id, a.action_id)) o[r.field_name] = JSON.parse(r.value_json);
  return o;
}
function conversationOf(a) {
  return S.messages.all(a.org_id, a.action_id).map((m) => ({
    id: m.message_id, timestamp: m.ts, author: m.author, authorId: m.author_id ?? null,
    authorType: m.author_type, message: m.body, parentMessageId: m.parent_id ?? null, mediaUrls: JSON.parse(m.media_urls),
  }));
}
function messagesOf(a) {
  return S.messages.all(a.org_id, a.action_id).map((m) => {
    const o = { id: m.message_id, timestamp: m.ts, author: m.author };
    if (m.author_id != null) o.authorId = m.author_id;
    o.authorType = m.author_type; o.message = m.body; o.mediaUrls = JSON.parse(m.media_urls);
    return o;
  });
}
function summaryRecord(a, includeConv) {
  const ag = a.assignee_id ? S.agent.get(a.org_id, a.assignee_id) : null;
  const cu = S.customer.get(a.org_id, a.user_id) || {};
  const t = tagLists(a);
  return {
    actionId: a.action_id, actionTitle: a.title, actionSummary: a.summary, status: a.status, platform: a.platform,
    recordType: a.record_type, isPublicPost: !!a.is_public, serviceURL: serviceUrl(a), sourceURL: a.is_public ? a.source_url : null,
    queue: queueName(a.org_id, a.queue_id), initialQueue: queueName(a.org_id, a.initial_queue_id),
    sentiment: a.sentiment, sentimentScore: a.sentiment_score, moderation: a.moderation,
    assigneeName: ag?.name ?? null, assigneeEmail: ag?.email ?? null, assigneeUserId: a.assignee_id ?? null, assigneeRole: ag?.role ?? null,
    userName: cu.name ?? '', userUsername: cu.username ?? '', userId: a.user_id, userEmail: cu.email ?? null, userFollowerCount: cu.follower_count ?? null,
    createdAt: a.created_at, updatedAt: a.updated_at, initialMessageTime: a.initial_message_time, initialResponseTime: a.initial_response_time,
    closeTime: a.close_time, claimTime: a.claim_time, firstResponseTime: duration(a.first_response_secs), handleTime: duration(a.handle_secs),
    serverName: a.server_name, channelName: a.channel_name, csatScore: a.csat_score, csatFeedback: a.csat_feedback, estimatedCSAT: a.estimated_csat,
    totalMessages: a.total_messages, totalUserMessages: a.total_user_messages, totalAgentMessages: a.total_agent_messages,
    tags: t.tags, closingTags: t.closingTags, customFields: customFieldMap(a), rootMessageText: a.root_message_text,
    conversationJson: includeConv ? JSON.stringify(conversationOf(a)) : null,
  };
}
function detailRecord(a) {
  const ag = a.assignee_id ? S.agent.get(a.org_id, a.assignee_id) : null;
  const cu = S.customer.get(a.org_id, a.user_id) || {};
  const t = tagLists(a);
  return {
    actionId: a.action_id, actionTitle: a.title, actionSummary: a.summary, platform: a.platform, recordType: a.record_type,
    isPublicPost: !!a.is_public, sentiment: a.sentiment, sentimentScore: a.sentiment_score,
    queue: queueName(a.org_id, a.queue_id), initialQueue: queueName(a.org_id, a.initial_queue_id), status: a.status,
    createdAt: a.created_at, serviceURL: serviceUrl(a), sourceURL: a.is_public ? a.source_url : null,
    updatedAt: a.updated_at, initialMessageTime: a.initial_message_time, initialResponseTime: a.initial_response_time, closeTime: a.close_time,
    firstResponseTime: duration(a.first_response_secs), handleTime: duration(a.handle_secs), claimTime: a.claim_time,
    user: { name: cu.name ?? '', username: cu.username ?? '', userId: a.user_id, email: cu.email ?? null, followerCount: cu.follower_count ?? null },
    assignee: { name: ag?.name ?? null, email: ag?.email ?? null, userId: a.assignee_id ?? null, role: ag?.role ?? null },
    serverName: a.server_name, channelName: a.channel_name, tags: t.tags, closingTags: t.closingTags, moderation: a.moderation,
    comments: S.comments.all(a.org_id, a.action_id).map((c) => ({ text: c.body, authorNativeId: c.author_native_id, authorNativeName: c.author_native_name ?? null })),
    messages: messagesOf(a), conversation: conversationOf(a), rootMessageText: a.root_message_text, customFields: customFieldMap(a),
    csatScore: a.csat_score, csatFeedback: a.csat_feedback, estimatedCSAT: a.estimated_csat,
    totalMessages: a.total_messages, totalUserMessages: a.total_user_messages, totalAgentMessages: a.total_agent_messages,
  };
}

// ---------------------------------------------------------------- filter DSL
const SENTIMENTS = ['Very Negative', 'Negative', 'Neutral', 'Positive'];
const DSL_KEYS = ['platform', 'status', 'queue', 'sentiment', 'tag', 'assignee', 'responded', 'recordType', 'userId', 'channel', 'text'];
function parseDsl(text) {
  const where = [], params = [];
  if (text == null || text.trim() === '') return { where, params };
  for (const rawTerm of text.split('+')) {
    const term = rawTerm.trim();
    if (!term) throw new HttpError(400, 'Invalid filter: empty term');
    const eq = term.indexOf('=');
    if (eq <= 0) throw new HttpError(400, `Invalid filter term '${term}': expected key=value`);
    const key = term.slice(0, eq).trim();
    const values = term.slice(eq + 1).split(',').map((v) => v.trim()).filter(Boolean);
    if (!DSL_KEYS.includes(key)) throw new HttpError(400, `Invalid filter: unknown key '${key}' (supported: ${DSL_KEYS.join(', ')})`);
    if (!values.length) throw new HttpError(400, `Invalid filter term '${term}': missing value`);
    const ph = values.map(() => '?').join(',');
    switch (key) {
      case 'platform': where.push(`a.platform IN (${ph})`); params.push(...values.map((v) => v.toUpperCase())); break;
      case 'status': where.push(`a.status IN (${ph})`); params.push(...values.map((v) => v.toUpperCase())); break;
      case 'recordType': where.push(`a.record_type IN (${ph})`); params.push(...values); break;
      case 'userId': where.push(`a.user_id IN (${ph})`); params.push(...values); break;
      case 'assignee': where.push(`a.assignee_id IN (${ph})`); params.push(...values); break;
      case 'channel': where.push(`a.channel_name IN (${ph})`); params.push(...values); break;
      case 'queue': {
        const none = values.some((v) => v.toLowerCase() === 'none');
        const named = values.filter((v) => v.toLowerCase() !== 'none');
        const parts = [];
        if (named.length) { parts.push(`a.queue_id IN (SELECT queue_id FROM queues WHERE org_id = a.org_id AND (queue_id IN (${named.map(() => '?').join(',')}) OR lower(name) IN (${named.map(() => '?').join(',')})))`); params.push(...named, ...named.map((v) => v.toLowerCase())); }
        if (none) parts.push('a.queue_id IS NULL');
        where.push(`(${parts.join(' OR ')})`);
        break;
      }
      case 'sentiment': {
        const norm = values.map((v) => { const s = v.replace(/[_-]/g, ' ').toLowerCase(); const hit = SENTIMENTS.find((x) => x.toLowerCase() === s); if (!hit) throw new HttpError(400, `Invalid filter: unknown sentiment '${v}'`); return hit; });
        where.push(`a.sentiment IN (${ph})`); params.push(...norm); break;
      }
      case 'tag': where.push(`EXISTS (SELECT 1 FROM action_tags at JOIN tags t ON t.org_id = at.org_id AND t.tag_id = at.tag_id WHERE at.org_id = a.org_id AND at.action_id = a.action_id AND (t.tag_id IN (${ph}) OR lower(t.name) IN (${ph})))`); params.push(...values, ...values.map((v) => v.toLowerCase())); break;
      case 'responded': {
        if (values.length !== 1 || !['true', 'false'].includes(values[0].toLowerCase())) throw new HttpError(400, "Invalid filter: responded must be 'true' or 'false'");
        where.push(values[0].toLowerCase() === 'true' ? 'a.initial_response_time IS NOT NULL' : 'a.initial_response_time IS NULL'); break;
      }
      case 'text': { where.push(`(${values.map(() => '(a.title LIKE ? OR a.summary LIKE ? OR a.root_message_text LIKE ?)').join(' OR ')})`); for (const v of values) params.push(`%${v}%`, `%${v}%`, `%${v}%`); break; }
    }
  }
  return { where, params };
}

function legacyResponded(q) {
  let responded;
  if (q.filter != null && q.filter !== '') {
    const m = /(?:^|[\s+&;,])responded\s*[=:]\s*(true|false)/i.exec(q.filter);
    if (m) responded = m[1].toLowerCase() === 'true';
  }
  if (q.filterJson != null && q.filterJson !== '') {
    let j;
    try { j = JSON.parse(q.filterJson); } catch { throw new HttpError(400, 'Invalid filterJson: not valid JSON'); }
    if (j === null || typeof j !== 'object' || Array.isArray(j)) throw new HttpError(400, 'Invalid filterJson: expected a JSON object');
    if (typeof j.responded === 'boolean') responded = j.responded;
    else if (j.responded === 'true' || j.responded === 'false') responded = j.responded === 'true';
  }
  return responded ?? true;
}

// ---------------------------------------------------------------- handlers: actions
function listActions(ctx, q) {
  const pageSize = parseIntParam(q.pageSize, 'pageSize', 1, dev('D01') ? 100 : 500, 50);
  const sortBy = q.sortBy ?? 'createdAt';
  if (sortBy !== 'createdAt' && sortBy !== 'updatedAt') throw new HttpError(400, "Invalid sortBy: expected 'createdAt' or 'updatedAt'");
  const includeConv = parseBool(q.includeFullConversation, 'includeFullConversation', true) ?? false;
  const hasFull = q.fullFilter != null && q.fullFilter !== '';
  if (hasFull && ((q.filter != null && q.filter !== '') || (q.filterJson != null && q.filterJson !== ''))) throw new HttpError(400, 'fullFilter cannot be combined with filter or filterJson');
  if (hasFull && q.fullFilter.length > 10000) throw new HttpError(400, 'fullFilter exceeds the maximum length of 10000 characters');
  const win = resolveWindow(q, 7);
  const orderCol = sortBy === 'updatedAt' ? 'a.updated_at' : 'a.created_at';
  const windowCol = sortBy === 'updatedAt' && !dev('D15') ? 'a.updated_at' : 'a.created_at';
  const where = ['a.org_id = ?', `${windowCol} >= ?`, `${windowCol} <= ?`];
  const params = [ctx.orgId, win.from, win.to];
  if (hasFull) { const d = parseDsl(q.fullFilter); where.push(...d.where); params.push(...d.params); }
  else where.push(legacyResponded(q) ? 'a.initial_response_time IS NOT NULL' : 'a.initial_response_time IS NULL');
  const whereSql = where.join(' AND ');
  const total = db.prepare(`SELECT count(*) AS n FROM actions a WHERE ${whereSql}`).get(...params).n;
  const rows = db.prepare(`SELECT a.*, o.slug AS org_slug FROM actions a JOIN orgs o ON o.org_id = a.org_id WHERE ${whereSql} ORDER BY ${orderCol} DESC, a.seq DESC LIMIT ?`).all(...params, pageSize);
  return { data: rows.map((r) => summaryRecord(r, includeConv)), totalRecords: total, currentPage: 1, pageSize, totalPages: Math.ceil(total / pageSize) };
}

function getAction(ctx, id) {
  let a = S.action.get(ctx.orgId, id);
  if (!a && dev('D04')) a = S.actionAnyOrg.get(id);
  if (!a) throw new HttpError(404, `Action '${id}' not found`);
  a.org_slug = db.prepare('SELECT slug FROM orgs WHERE org_id = ?').get(a.org_id).slug;
  return detailRecord(a);
}

function searchConversations(ctx, q) {
  const page = parseIntParam(q.page, 'page', 1, 10000, 1);
  const pageSize = parseIntParam(q.pageSize, 'pageSize', 1, 100, 50);
  const d = parseDsl(q.filter);
  const whereSql = ['a.org_id = ?', ...d.where].join(' AND ');
  const params = [ctx.orgId, ...d.params];
  const CAP = 1000;
  const counted = db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM actions a WHERE ${whereSql} LIMIT ${CAP + 1})`).get(...params).n;
  const capped = counted > CAP;
  const total = capped ? CAP : counted;
  const rows = db.prepare(`SELECT a.*, o.slug AS org_slug FROM actions a JOIN orgs o ON o.org_id = a.org_id WHERE ${whereSql} ORDER BY a.created_at DESC, a.seq DESC LIMIT ? OFFSET ?`).all(...params, pageSize, (page - 1) * pageSize);
  const data = rows.map((r) => {
    const s = summaryRecord(r, false);
    const names = [...new Set(S.messages.all(r.org_id, r.action_id).filter((m) => m.author_type !== 'BOT').map((m) => m.author))];
    return { ...s, threadId: r.thread_id, easyId: r.easy_id ?? null, contributors: names.length ? `${names.length} contributor${names.length > 1 ? 's' : ''}: ${names.join(', ')}` : null };
  });
  return { success: true, data, totalRecords: total, totalRecordsCapped: capped, currentPage: page, pageSize, totalPages: Math.ceil(total / pageSize) };
}

// ---------------------------------------------------------------- custom fields
const cfDefs = db.prepare('SELECT * FROM custom_field_defs WHERE org_id = ? ORDER BY pos');
function getCustomFields(ctx, actionId) {
  requireScope(ctx, 'read', 'read custom fields');
  if (!S.action.get(ctx.orgId, actionId)) throw new HttpError(404, `Action '${actionId}' not found`);
  const vals = new Map(db.prepare('SELECT * FROM custom_field_values WHERE org_id = ? AND action_id = ?').all(ctx.orgId, actionId).map((r) => [r.field_name, r]));
  return {
    actionId,
    fields: cfDefs.all(ctx.orgId).map((d) => {
      const v = vals.get(d.field_name);
      const o = { fieldName: d.field_name, displayName: d.display_name, fieldType: d.field_type, value: v ? JSON.parse(v.value_json) : null };
      if (v?.provenance_json) o.provenance = JSON.parse(v.provenance_json);
      return o;
    }),
  };
}
function checkFieldValue(def, value) {
  if (value === null) return null; // null clears the stored value
  const opts = def.options ? JSON.parse(def.options) : [];
  switch (def.field_type) {
    case 'text': return typeof value === 'string' ? (value.length > 5000 ? 'must be at most 5000 characters' : null) : 'must be a string';
    case 'number': return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'boolean': return typeof value === 'boolean' ? null : 'must be a boolean';
    case 'date': return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value + 'T00:00:00Z')) && new Date(value + 'T00:00:00Z').toISOString().startsWith(value) ? null : 'must be a date in YYYY-MM-DD format';
    case 'select': return typeof value === 'string' && opts.includes(value) ? null : `must be one of: ${opts.join(', ')}`;
    case 'multi_select':
      if (!Array.isArray(value) || value.some((x) => typeof x !== 'string' || !opts.includes(x))) return `must be an array of: ${opts.join(', ')}`;
      return new Set(value).size === value.length ? null : 'must not contain duplicates';
    default: return 'field type is not writable';
  }
}
async function patchCustomFields(ctx, actionId, req) {
  if (!dev('D05')) requireScope(ctx, 'write', 'update custom fields');
  if (!S.action.get(ctx.orgId, actionId)) throw new HttpError(404, `Action '${actionId}' not found`);
  let body;
  try { body = await readJson(req, 422); } catch (e) { if (e.status === 422) throw new HttpError(422, e.message, { fieldErrors: { body: 'must be a JSON object' } }); throw e; }
  const fieldErrors = {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(422, 'Validation failed', { fieldErrors: { body: 'must be a JSON object' } });
  if (!Array.isArray(body.fields)) throw new HttpError(422, 'Validation failed', { fieldErrors: { fields: 'is required and must be an array' } });
  if (body.fields.length < 1) throw new HttpError(422, 'Validation failed', { fieldErrors: { fields: 'must contain at least 1 item' } });
  const defs = new Map(cfDefs.all(ctx.orgId).map((d) => [d.field_name, d]));
  const seen = new Set();
  body.fields.forEach((f, i) => {
    if (f === null || typeof f !== 'object' || Array.isArray(f)) { fieldErrors[`fields[${i}]`] = 'must be an object'; return; }
    const name = f.fieldName;
    if (typeof name !== 'string' || name.length < 1) { fieldErrors[`fields[${i}].fieldName`] = 'is required and must be a non-empty string'; return; }
    if (seen.has(name)) { fieldErrors[name] = 'is listed more than once'; return; }
    seen.add(name);
    const def = defs.get(name);
    if (!def) { fieldErrors[name] = 'is not a registered custom field'; return; }
    if (!('value' in f)) { fieldErrors[name] = 'value is required'; return; }
    const e = checkFieldValue(def, f.value);
    if (e) { fieldErrors[name] = `value ${e}`; return; }
    if ('confidence' in f && (typeof f.confidence !== 'number' || !(f.confidence >= 0 && f.confidence <= 1))) { fieldErrors[name] = 'confidence must be a number between 0 and 1'; return; }
    if ('rationale' in f && typeof f.rationale !== 'string') { fieldErrors[name] = 'rationale must be a string'; }
  });
  if (Object.keys(fieldErrors).length) throw new HttpError(422, 'Validation failed', { fieldErrors });
  if (dev('D05')) requireScope(ctx, 'write', 'update custom fields');
  const up = db.prepare('INSERT INTO custom_field_values VALUES (?,?,?,?,?) ON CONFLICT(org_id, action_id, field_name) DO UPDATE SET value_json = excluded.value_json, provenance_json = excluded.provenance_json');
  const del = db.prepare('DELETE FROM custom_field_values WHERE org_id = ? AND action_id = ? AND field_name = ?');
  const now = new Date().toISOString();
  db.exec('BEGIN');
  try {
    for (const f of body.fields) {
      if (f.value === null) del.run(ctx.orgId, actionId, f.fieldName);
      else up.run(ctx.orgId, actionId, f.fieldName, JSON.stringify(f.value), JSON.stringify({ source: 'api', apiKeyName: ctx.keyName, recordedAt: now }));
    }
    db.prepare('UPDATE actions SET updated_at = ? WHERE org_id = ? AND action_id = ?').run(now, ctx.orgId, actionId);
    db.exec('COMMIT');
  } catch (e) { db.exec('ROLLBACK'); throw e; }
  return { actionId, updated: body.fields.map((f) => ({ fieldName: f.fieldName, value: f.value })) };
}

// ---------------------------------------------------------------- agents / queues
const ACTIVE = new Set(['OPEN', 'ASSIGNED', 'PENDING_CUSTOMER']);
function workloadOf(rows) {
  const w = { active: 0, closed: 0, cancelled: 0 };
  for (const r of rows) { if (ACTIVE.has(r.status)) w.active++; else if (r.status === 'CLOSED') w.closed++; else if (r.status === 'CANCELLED') w.cancelled++; }
  return w;
}
function metricsOf(rows) {
  return {
    totalActions: rows.length,
    totalMessages: rows.reduce((s, r) => s + (r.total_messages ?? 0), 0),
    totalAgentMessages: rows.reduce((s, r) => s + (r.total_agent_messages ?? 0), 0),
    totalUserMessages: rows.reduce((s, r) => s + (r.total_user_messages ?? 0), 0),
    averageCsat: avg(rows.map((r) => (r.csat_score == null ? null : Number(r.csat_score)))),
    averageResponseTime: avg(rows.map((r) => r.first_response_secs)),
    averageHandleTime: avg(rows.map((r) => r.handle_secs)),
    averageEstimatedCsat: avg(rows.map((r) => r.estimated_csat)),
    averageResolutionQuality: avg(rows.map((r) => r.resolution_quality)),
    averageSentimentChange: avg(rows.map((r) => r.sentiment_change)),
    averageRubricScore: avg(rows.map((r) => r.rubric_score)),
  };
}
function actionsInWindow(ctx, win, extra = '', extraParams = []) {
  return db.prepare(`SELECT * FROM actions a WHERE a.org_id = ? AND a.created_at >= ? AND a.created_at <= ? ${extra}`).all(ctx.orgId, win.from, win.to, ...extraParams);
}
function requireReporting(ctx) { requireScope(ctx, 'read', 'read reporting data'); }
function listAgents(ctx, q) {
  requireReporting(ctx);
  const win = resolveWindow(q, 30);
  const rows = actionsInWindow(ctx, win, 'AND a.assignee_id IS NOT NULL');
  const by = new Map();
  for (const r of rows) { if (!by.has(r.assignee_id)) by.set(r.assignee_id, []); by.get(r.assignee_id).push(r); }
  const agents = db.prepare('SELECT agent_id FROM agents WHERE org_id = ?').all(ctx.orgId).map((x) => x.agent_id);
  const data = agents.map((id) => {
    const rs = by.get(id) ?? [];
    const agentId = dev('D03') && /^\d+$/.test(id) ? String(Number(id)) : id;
    return { agentId, metrics: { ...metricsOf(rs), totalActionsWithResponse: rs.filter((r) => r.initial_response_time != null).length }, workload: workloadOf(rs) };
  });
  data.sort((x, y) => y.metrics.totalActions - x.metrics.totalActions || (x.agentId < y.agentId ? -1 : 1));
  return { success: true, data };
}
function getAgent(ctx, id, q) {
  requireReporting(ctx);
  const win = resolveWindow(q, 30);
  if (!S.agent.get(ctx.orgId, id)) throw new HttpError(404, `Agent '${id}' not found`);
  const rows = actionsInWindow(ctx, win, 'AND a.assignee_id = ?', [id]);
  const days = new Map();
  for (const r of rows) { const d = r.created_at.slice(0, 10); if (!days.has(d)) days.set(d, []); days.get(d).push(r); }
  const metrics = [...days.keys()].sort().map((d) => {
    const rs = days.get(d); const m = metricsOf(rs);
    return { date: d, totalActions: m.totalActions, totalMessages: m.totalMessages, totalAgentMessages: m.totalAgentMessages, averageResponseTime: m.averageResponseTime, averageHandleTime: m.averageHandleTime, averageCsat: m.averageCsat };
  });
  const current = db.prepare('SELECT status FROM actions WHERE org_id = ? AND assignee_id = ?').all(ctx.orgId, id);
  const qs = new Map();
  for (const r of rows) { const k = r.queue_id ?? ''; if (!qs.has(k)) qs.set(k, []); qs.get(k).push(r); }
  const queues = [...qs.entries()].map(([k, rs]) => ({ queueId: k || null, queueName: k ? queueName(ctx.orgId, k) : null, totalActions: rs.length, ...workloadOf(rs) })).sort((a, b) => b.totalActions - a.totalActions);
  return { success: true, data: { metrics, aggregatedMetrics: metricsOf(rows), currentWorkload: workloadOf(current), queues } };
}
function listQueues(ctx, q) {
  requireReporting(ctx);
  const win = resolveWindow(q, 30);
  const rows = actionsInWindow(ctx, win);
  const by = new Map();
  for (const r of rows) { const k = r.queue_id ?? null; if (!by.has(k)) by.set(k, []); by.get(k).push(r); }
  const data = db.prepare('SELECT * FROM queues WHERE org_id = ? ORDER BY name').all(ctx.orgId).map((qq) => {
    const rs = by.get(qq.queue_id) ?? [];
    return { queueId: qq.queue_id, queueName: qq.name, metrics: { ...metricsOf(rs), averageSentimentScore: avg(rs.map((r) => r.sentiment_score)) }, workload: workloadOf(rs) };
  });
  if (by.has(null)) { const rs = by.get(null); data.push({ queueId: null, queueName: null, metrics: { ...metricsOf(rs), averageSentimentScore: avg(rs.map((r) => r.sentiment_score)) }, workload: workloadOf(rs) }); }
  return { success: true, data };
}

// ---------------------------------------------------------------- analytics
const tagRowsStmt = db.prepare(`SELECT a.action_id, a.initial_response_time, a.sentiment, a.sentiment_score, a.created_at, t.tag_id, t.name, t.group_name
  FROM actions a JOIN action_tags at ON at.org_id = a.org_id AND at.action_id = a.action_id AND at.closing = 0
  JOIN tags t ON t.org_id = at.org_id AND t.tag_id = at.tag_id
  WHERE a.org_id = ? AND a.created_at >= ? AND a.created_at <= ?`);
function tagAnalytics(ctx, q) {
  requireReporting(ctx);
  const win = resolveWindow(q, 30);
  const respondedOnly = parseBool(q.respondedOnly) ?? false;
  const limit = lenientInt(q.limit, 1, 200, 25);
  const offset = lenientInt(q.offset, 0, 1e9, 0);
  const search = (q.search ?? '').trim().toLowerCase();
  const allActions = actionsInWindow(ctx, win);
  const allTagRows = tagRowsStmt.all(ctx.orgId, win.from, win.to);
  const actions = respondedOnly ? allActions.filter((a) => a.initial_response_time != null) : allActions;
  const tagRows = respondedOnly ? allTagRows.filter((r) => r.initial_response_time != null) : allTagRows;
  const sumActions = dev('D10') ? allActions : actions;
  const sumTagRows = dev('D10') ? allTagRows : tagRows;
  const tagged = new Set(sumTagRows.map((r) => r.action_id));
  const summary = {
    totalTags: new Set(sumTagRows.map((r) => r.tag_id)).size,
    totalTagGroups: new Set(sumTagRows.map((r) => r.group_name).filter((g) => g != null)).size,
    totalTaggedRecords: tagged.size,
    totalActions: sumActions.length,
  };
  const taggedForPct = new Set(tagRows.map((r) => r.action_id)).size;
  const by = new Map();
  for (const r of tagRows) {
    if (!by.has(r.tag_id)) by.set(r.tag_id, { tagId: r.tag_id, tagName: r.name, groupName: r.group_name ?? null, rows: [] });
    by.get(r.tag_id).rows.push(r);
  }
  let list = [...by.values()].sort((a, b) => b.rows.length - a.rows.length || a.tagName.localeCompare(b.tagName));
  if (search) list = list.filter((t) => t.tagName.toLowerCase().includes(search) || (t.groupName ?? '').toLowerCase().includes(search));
  const page = list.slice(offset, offset + limit);
  return {
    success: true,
    data: {
      summary,
      tagBreakdown: page.map((t) => ({ tagId: t.tagId, tagName: t.tagName, groupName: t.groupName, count: t.rows.length, percentage: taggedForPct ? round2((t.rows.length / taggedForPct) * 100) : 0 })),
      volumeByTag: page.map((t) => {
        const resp = t.rows.filter((r) => r.initial_response_time != null).length;
        return { tagId: t.tagId, tagName: t.tagName, total: t.rows.length, responded: resp, notResponded: t.rows.length - resp, avgSentiment: avgOrNull(t.rows.map((r) => r.sentiment_score)), avgActionability: null, avgRelevance: null };
      }),
      pagination: { total: list.length, limit, offset, hasMore: offset + limit < list.length },
    },
  };
}
function daysOf(win) {
  const out = [];
  let d = Date.UTC(new Date(win.fromMs).getUTCFullYear(), new Date(win.fromMs).getUTCMonth(), new Date(win.fromMs).getUTCDate());
  while (d <= win.toMs && out.length < 400) { out.push(iso(d).slice(0, 10)); d += DAY; }
  return out;
}
function tagVolume(ctx, q) {
  requireReporting(ctx);
  const win = resolveWindow(q, 30);
  const respondedOnly = parseBool(q.respondedOnly) ?? false;
  const topN = lenientInt(q.topTagsLimit, 1, 50, 5);
  let rows = tagRowsStmt.all(ctx.orgId, win.from, win.to);
  if (respondedOnly) rows = rows.filter((r) => r.initial_response_time != null);
  const counts = new Map();
  for (const r of rows) { const c = counts.get(r.tag_id) ?? { name: r.name, n: 0 }; c.n++; counts.set(r.tag_id, c); }
  let chosen;
  if (q.tagIds && q.tagIds.trim()) {
    const ids = q.tagIds.split(',').map((s) => s.trim()).filter(Boolean);
    const known = new Map(db.prepare('SELECT tag_id, name FROM tags WHERE org_id = ?').all(ctx.orgId).map((t) => [t.tag_id, t.name]));
    chosen = ids.filter((id) => known.has(id)).map((id) => ({ id, name: known.get(id) }));
  } else {
    chosen = [...counts.entries()].sort((a, b) => b[1].n - a[1].n || a[1].name.localeCompare(b[1].name)).slice(0, topN).map(([id, c]) => ({ id, name: c.name }));
  }
  const ids = new Set(chosen.map((c) => c.id));
  const data = daysOf(win).map((d) => { const o = { date: d }; for (const c of chosen) o[c.name] = 0; return o; });
  const idx = new Map(data.map((o, i) => [o.date, i]));
  for (const r of rows) { if (!ids.has(r.tag_id)) continue; const i = idx.get(r.created_at.slice(0, 10)); if (i != null) data[i][r.name]++; }
  return { success: true, data: { data, tags: chosen.map((c) => c.name) } };
}
function sentimentDaily(ctx, q) {
  requireReporting(ctx);
  const win = resolveWindow(q, 30);
  const rows = actionsInWindow(ctx, win, 'AND a.sentiment IS NOT NULL');
  const data = daysOf(win).map((d) => ({ day: d, 'Very Negative': 0, Negative: 0, Neutral: 0, Positive: 0 }));
  const idx = new Map(data.map((o, i) => [o.day, i]));
  for (const r of rows) { const i = idx.get(r.created_at.slice(0, 10)); if (i != null && r.sentiment in data[i]) data[i][r.sentiment]++; }
  return { success: true, data };
}
function sentimentByTag(ctx, q) {
  requireReporting(ctx);
  const win = resolveWindow(q, 30);
  const rows = tagRowsStmt.all(ctx.orgId, win.from, win.to);
  const by = new Map();
  const key = { 'Very Negative': 'veryNegative', Negative: 'negative', Neutral: 'neutral', Positive: 'positive' };
  for (const r of rows) {
    if (!by.has(r.name)) by.set(r.name, { tagName: r.name, veryNegative: 0, negative: 0, neutral: 0, positive: 0, totalMentions: 0 });
    const o = by.get(r.name);
    if (r.sentiment && key[r.sentiment]) { o[key[r.sentiment]]++; o.totalMentions++; }
  }
  return { success: true, data: [...by.values()].filter((o) => o.totalMentions > 0).sort((a, b) => b.totalMentions - a.totalMentions || a.tagName.localeCompare(b.tagName)) };
}
function percentile(sorted, p) {
  if (!sorted.length) return 0;
  const pos = (sorted.length - 1) * p, lo = Math.floor(pos), hi = Math.ceil(pos);
  return round2(sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo));
}
function mondayOf(ms) { const d = new Date(ms); const day = (d.getUTCDay() + 6) % 7; return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - day * DAY; }
function engagement(ctx, q) {
  requireReporting(ctx);
  const win = resolveWindow(q, 30);
  const platforms = (q.platforms ?? '').split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
  const all = actionsInWindow(ctx, win);
  const pf = (r) => !platforms.length || platforms.includes(r.platform);
  const rows = all.filter(pf);
  // percentiles of user messages per distinct customer
  const perPlat = new Map();
  for (const r of rows) {
    if (!perPlat.has(r.platform)) perPlat.set(r.platform, new Map());
    const m = perPlat.get(r.platform); m.set(r.user_id, (m.get(r.user_id) ?? 0) + (r.total_user_messages ?? 0));
  }
  const engagementPercentiles = [...perPlat.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([platform, m]) => {
    const v = [...m.values()].sort((a, b) => a - b);
    return { platform, p25MessagesPerUser: percentile(v, 0.25), medianMessagesPerUser: percentile(v, 0.5), p75MessagesPerUser: percentile(v, 0.75) };
  });
  // weekly distinct users per platform (weeks start Monday 00:00 UTC)
  const trendRows = dev('D11') ? all : rows;
  const firstWeek = mondayOf(win.fromMs), lastWeek = mondayOf(win.toMs);
  const weekRows = db.prepare('SELECT platform, user_id, created_at FROM actions WHERE org_id = ? AND created_at >= ? AND created_at < ?').all(ctx.orgId, iso(firstWeek - 7 * DAY), iso(lastWeek + 7 * DAY)).filter((r) => dev('D11') || pf(r));
  const weekUsers = new Map();
  for (const r of weekRows) {
    const w = mondayOf(Date.parse(r.created_at));
    const k = `${w}|${r.platform}`;
    if (!weekUsers.has(k)) weekUsers.set(k, new Set());
    weekUsers.get(k).add(r.user_id);
  }
  const plats = [...new Set(trendRows.map((r) => r.platform))].sort();
  const growthTrends = [];
  for (let w = firstWeek; w <= lastWeek; w += 7 * DAY) {
    for (const p of plats) {
      const cur = weekUsers.get(`${w}|${p}`)?.size ?? 0, prev = weekUsers.get(`${w - 7 * DAY}|${p}`)?.size ?? 0;
      growthTrends.push({ week: iso(w), platform: p, currentWeekUsers: cur, previousWeekUsers: prev, growthPercentage: prev ? round2(((cur - prev) / prev) * 100) : (cur ? 100 : 0) });
    }
  }
  const n = rows.length;
  const stage = (name, c) => ({ stage: name, count: c, percentageOfTotal: n ? round2((c / n) * 100) : 0 });
  const conversionFunnel = [
    stage('conversations', n),
    stage('responded', rows.filter((r) => r.initial_response_time != null).length),
    stage('resolved', rows.filter((r) => r.status === 'CLOSED').length),
    stage('rated', rows.filter((r) => r.csat_score != null).length),
  ];
  return { success: true, data: { engagementPercentiles, growthTrends, conversionFunnel } };
}

// ---------------------------------------------------------------- moderation
const M = {
  byExternal: db.prepare('SELECT * FROM moderation_cases WHERE org_id = ? AND external_id = ?'),
  byId: db.prepare('SELECT * FROM moderation_cases WHERE org_id = ? AND case_id = ?'),
  insCase: db.prepare('INSERT INTO moderation_cases VALUES (?,?,?,?,?,?,?)'),
  insEval: db.prepare('INSERT INTO moderation_evaluations VALUES (?,?,?,?,?,?,?,?)'),
  evalFor: db.prepare('SELECT * FROM moderation_evaluations WHERE case_id = ? AND policy_workflow = ? ORDER BY created_at DESC LIMIT 1'),
  setStatus: db.prepare('UPDATE moderation_evaluations SET analysis_status = ?, decision_json = ?, failure_code = ?, updated_at = ? WHERE evaluation_id = ?'),
};
const timers = new Set();
function later(ms, fn) { const t = setTimeout(() => { timers.delete(t); try { fn(); } catch (e) { console.error(e); } }, ms); t.unref(); timers.add(t); }
function scheduleEvaluation(evaluationId, submission) {
  const startDelay = 350 + Math.floor(Math.random() * 300);
  const runFor = 1200 + Math.floor(Math.random() * 900);
  later(startDelay, () => {
    const { decision, failed } = evaluateSubmission(submission);
    M.setStatus.run('running', dev('D07') && decision ? JSON.stringify(decision) : null, null, new Date().toISOString(), evaluationId);
    later(runFor, () => {
      if (failed) M.setStatus.run('failed', null, failed, new Date().toISOString(), evaluationId);
      else M.setStatus.run('completed', JSON.stringify(decision), decision.failureCode ?? null, new Date().toISOString(), evaluationId);
    });
  });
}
function moderationPrereq(ctx) {
  requireScope(ctx, 'write', 'submit moderation cases');
  requireScope(ctx, 'moderation:write', 'submit moderation cases');
  if (ctx.moderationMode !== 'ad_policy') throw new HttpError(403, 'Moderation intake is not enabled for this organization', { message: `Organization moderation mode is '${ctx.moderationMode}'; moderation cases require 'ad_policy'`, supported: ['ad_policy'] });
}
const idemKey = (orgId, externalId) => 'idk_' + createHash('sha256').update(`${orgId}\u0000${externalId}`).digest('hex').slice(0, 32);
function contentHash(sub) {
  return createHash('sha256').update(JSON.stringify(dev('D06') ? conflictView(sub) : canonicalContent(sub))).digest('hex');
}
// Returns {kind: 'accepted'|'duplicate'|'conflict', ack}
function intakeOne(ctx, sub, pendingInBatch) {
  const hash = contentHash(sub);
  const existing = M.byExternal.get(ctx.orgId, sub.externalId);
  if (existing) {
    if (existing.content_hash !== hash) return { kind: 'conflict', existing };
    const ev = M.evalFor.get(existing.case_id, ctx.policyWorkflow);
    return { kind: 'duplicate', ack: { caseId: existing.case_id, externalId: existing.external_id, status: 'duplicate', analysisStatus: 'pending', evaluationId: ev?.evaluation_id ?? null, idempotency: { key: existing.idempotency_key, replayed: true } } };
  }
  const caseId = 'mc_' + randomUUID().replace(/-/g, '').slice(0, 24);
  const evaluationId = 'ev_' + randomBytes(12).toString('hex');
  const now = new Date().toISOString();
  const key = idemKey(ctx.orgId, sub.externalId);
  M.insCase.run(ctx.orgId, caseId, sub.externalId, hash, JSON.stringify(sub), key, now);
  M.insEval.run(evaluationId, caseId, ctx.policyWorkflow, 'pending', null, null, now, now);
  pendingInBatch.push([evaluationId, sub]);
  return { kind: 'accepted', ack: { caseId, externalId: sub.externalId, status: 'accepted', analysisStatus: 'pending', evaluationId, idempotency: { key, replayed: false } } };
}
async function postModerationCase(ctx, req) {
  moderationPrereq(ctx);
  const body = await readJson(req, 400);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'Request body must be a JSON object');
  const v = validateSubmission(body);
  if (!v.ok) throw new HttpError(422, v.message, { message: v.message, code: v.code, missingFields: v.missingFields, invalidFields: v.invalidFields });
  const pend = [];
  const r = intakeOne(ctx, v.value, pend);
  if (r.kind === 'conflict') throw new HttpError(409, `externalId '${v.value.externalId}' already exists with different content`, { message: 'externalId is immutable per organization; submit changed content under a new externalId', caseId: r.existing.case_id });
  for (const [id, s] of pend) scheduleEvaluation(id, s);
  return r.ack;
}
async function postModerationBatch(ctx, req) {
  moderationPrereq(ctx);
  const body = await readJson(req, 400);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'Request body must be a JSON object');
  if (!Array.isArray(body.cases)) throw new HttpError(400, "'cases' is required and must be an array");
  if (body.cases.length < 1 || body.cases.length > 100) throw new HttpError(400, "'cases' must contain between 1 and 100 submissions");
  const validated = body.cases.map((c) => (c !== null && typeof c === 'object' && !Array.isArray(c) ? validateSubmission(c) : { ok: false, code: 'MODERATION_INPUT_INVALID', message: 'Case must be an object', errors: ['Case must be an object'], missingFields: [], invalidFields: ['(root)'] }));
  if (dev('D16')) {
    const bad = validated.findIndex((v) => !v.ok);
    if (bad >= 0) throw new HttpError(400, `cases[${bad}]: ${validated[bad].message}`);
  }
  const pend = [];
  const results = [];
  db.exec('BEGIN');
  try {
    body.cases.forEach((c, i) => {
      const v = validated[i];
      const externalId = typeof c?.externalId === 'string' ? c.externalId : null;
      if (!v.ok) { results.push({ externalId, caseId: null, status: 'rejected', errors: v.errors, message: v.message, code: v.code, missingFields: v.missingFields, invalidFields: v.invalidFields }); return; }
      const r = intakeOne(ctx, v.value, pend);
      if (r.kind === 'conflict') results.push({ externalId, caseId: r.existing.case_id, status: 'rejected', errors: [`externalId '${externalId}' already exists with different content`], message: 'externalId is immutable per organization' });
      else results.push(r.ack);
    });
    db.exec('COMMIT');
  } catch (e) { db.exec('ROLLBACK'); throw e; }
  for (const [id, s] of pend) scheduleEvaluation(id, s);
  return { results };
}
function getModerationCase(ctx, caseId) {
  requireScope(ctx, 'read', 'read moderation cases');
  const c = M.byId.get(ctx.orgId, caseId);
  if (!c) throw new HttpError(404, `Moderation case '${caseId}' not found`);
  if (!ctx.policyWorkflow) return { caseId: c.case_id, externalId: c.external_id, analysisStatus: 'policy_not_configured' };
  const ev = M.evalFor.get(c.case_id, ctx.policyWorkflow);
  if (!ev) return { caseId: c.case_id, externalId: c.external_id, analysisStatus: 'pending' };
  const out = { caseId: c.case_id, externalId: c.external_id, analysisStatus: ev.analysis_status, evaluationId: ev.evaluation_id };
  if (ev.decision_json && (ev.analysis_status === 'completed' || dev('D07'))) out.decision = JSON.parse(ev.decision_json);
  if (ev.analysis_status === 'failed') out.failureCode = ev.failure_code;
  return out;
}

// ---------------------------------------------------------------- ingestion
const PLATFORMS = ['DISCORD', 'SLACK', 'GITHUB', 'ZENDESK', 'TELEGRAM', 'FACEBOOK_GROUP', 'TWITTER_COMMUNITY', 'SALESFORCE', 'FACEBOOK', 'TWITTER', 'THREADS', 'TIKTOK', 'INSTAGRAM', 'LINKEDIN', 'WHATSAPP', 'YOUTUBE', 'GAINSIGHT', 'APPSTORE', 'GOOGLE_PLAY', 'HIGHER_LOGIC', 'DISCOURSE', 'CUSTOM_FORM', 'MODERATION_API', 'CHROME_WEB_STORE', 'CANNY'];
const isObj = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const isHttpUrl = (s) => { try { const u = new URL(s); return (dev('X01') || (/^[\x21-\x7e]+$/.test(s) && /^https?:\/\/[^/]/i.test(s))) && (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname; } catch { return false; } };
function validateIngest(b) {
  const errs = [];
  const str = (v, path, req, min = 0) => {
    if (v === undefined) { if (req) errs.push(`${path} is required`); return; }
    if (typeof v !== 'string') errs.push(`${path} must be a string`);
    else if (v.length < min) errs.push(`${path} must be at least ${min} character${min > 1 ? 's' : ''}`);
  };
  if (!isObj(b)) return ['body must be a JSON object'];
  if (b.platform === undefined) errs.push('platform is required');
  else if (!PLATFORMS.includes(b.platform)) errs.push(`platform must be one of ${PLATFORMS.join(', ')}`);
  str(b.serverId, 'serverId', true, 1); str(b.serverName, 'serverName', true, 1);
  str(b.channelId, 'channelId', false); str(b.channelName, 'channelName', false);
  if (b.processingLevel !== undefined) {
    const ok = dev('D17') ? ['INSIGHTS'] : ['INSIGHTS', 'STATS_ONLY'];
    if (!ok.includes(b.processingLevel)) errs.push('processingLevel must be INSIGHTS or STATS_ONLY');
  }
  if (b.source !== undefined) {
    if (!isObj(b.source)) errs.push('source must be an object');
    else { str(b.source.system, 'source.system', true, 1); str(b.source.sourceId, 'source.sourceId', false); }
  }
  if (!Array.isArray(b.records)) errs.push('records is required and must be an array');
  else if (b.records.length < 1 || b.records.length > 500) errs.push('records must contain between 1 and 500 items');
  else b.records.forEach((r, i) => {
    const p = `records[${i}]`;
    if (!isObj(r)) { errs.push(`${p} must be an object`); return; }
    str(r.externalId, `${p}.externalId`, true, 1); str(r.threadExternalId, `${p}.threadExternalId`, false); str(r.parentExternalId, `${p}.parentExternalId`, false);
    str(r.authorId, `${p}.authorId`, true, 1); str(r.authorName, `${p}.authorName`, true, 1); str(r.title, `${p}.title`, false);
    str(r.body, `${p}.body`, true); str(r.createdAt, `${p}.createdAt`, true, 1); str(r.recordType, `${p}.recordType`, true, 1);
    if (r.score !== undefined) {
      const max = 5;
      if (typeof r.score !== 'number' || !Number.isFinite(r.score) || r.score < 0 || (dev('D08') ? r.score >= max : r.score > max)) errs.push(`${p}.score must be a number between 0 and 5`);
    }
    if (r.url !== undefined && (typeof r.url !== 'string' || !isHttpUrl(r.url))) errs.push(`${p}.url must be an absolute HTTP or HTTPS URL`);
    if (r.customFields !== undefined && !isObj(r.customFields)) errs.push(`${p}.customFields must be an object`);
  });
  return errs;
}
async function ingestRecords(ctx, req) {
  requireScope(ctx, 'ingest', 'import records');
  const body = await readJson(req, 422);
  const errs = validateIngest(body);
  if (errs.length) throw new HttpError(422, `Validation failed: ${errs.slice(0, 10).join('; ')}${errs.length > 10 ? ` (and ${errs.length - 10} more)` : ''}`);
  const batchId = 'ib_' + randomBytes(10).toString('hex');
  const level = body.processingLevel ?? 'INSIGHTS';
  db.prepare('INSERT INTO ingest_batches VALUES (?,?,?,?,?,?,?,?,?,?,?)').run(batchId, ctx.orgId, body.platform, body.serverId, body.serverName, body.channelId ?? null, body.channelName ?? null, level, body.source ? JSON.stringify(body.source) : null, new Date().toISOString(), null);
  const up = db.prepare(`INSERT INTO ingested_records VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
    ON CONFLICT(org_id, platform, server_id, external_id) DO UPDATE SET batch_id = excluded.batch_id, thread_external_id = excluded.thread_external_id, parent_external_id = excluded.parent_external_id,
    author_id = excluded.author_id, author_name = excluded.author_name, title = excluded.title, body = excluded.body, score = excluded.score, created_at = excluded.created_at, url = excluded.url,
    record_type = excluded.record_type, custom_fields_json = excluded.custom_fields_json, state = 'queued'`);
  db.exec('BEGIN');
  for (const r of body.records) up.run(ctx.orgId, body.platform, body.serverId, r.externalId, batchId, r.threadExternalId ?? null, r.parentExternalId ?? null, r.authorId, r.authorName, r.title ?? null, r.body, r.score ?? null, r.createdAt, r.url ?? null, r.recordType, r.customFields ? JSON.stringify(r.customFields) : null, 'queued');
  db.exec('COMMIT');
  later(800 + Math.floor(Math.random() * 700), () => processBatch(batchId));
  const accepted = dev('D09') ? new Set(body.records.map((r) => r.threadExternalId ?? r.externalId)).size : body.records.length;
  return { status: 'accepted', accepted };
}
function processBatch(batchId) {
  const b = db.prepare('SELECT * FROM ingest_batches WHERE batch_id = ?').get(batchId);
  if (!b) return;
  const recs = db.prepare('SELECT * FROM ingested_records WHERE batch_id = ? ORDER BY created_at').all(batchId);
  const now = new Date().toISOString();
  db.exec('BEGIN');
  try {
    if (b.processing_level === 'INSIGHTS') {
      const threads = new Map();
      for (const r of recs) { const t = r.thread_external_id ?? r.external_id; if (!threads.has(t)) threads.set(t, []); threads.get(t).push(r); }
      const slug = db.prepare('SELECT slug FROM orgs WHERE org_id = ?').get(b.org_id).slug;
      const seq = () => db.prepare('SELECT coalesce(max(seq), 0) + 1 AS s FROM actions WHERE org_id = ?').get(b.org_id).s;
      for (const [thread, rs] of threads) {
        const actionId = 'ing_' + createHash('sha1').update(`${b.org_id}|${b.platform}|${b.server_id}|${thread}`).digest('hex').slice(0, 20);
        const root = rs.find((r) => r.external_id === thread) ?? rs[0];
        const ts = (s) => { const ms = Date.parse(s); return Number.isFinite(ms) ? iso(ms) : now; };
        db.prepare('INSERT OR IGNORE INTO customers VALUES (?,?,?,?,?,?)').run(b.org_id, root.author_id, root.author_name, root.author_name.toLowerCase().replace(/\s+/g, '.'), null, null);
        const existing = S.action.get(b.org_id, actionId);
        if (!existing) {
          db.prepare(`INSERT INTO actions (org_id, action_id, seq, title, summary, status, platform, record_type, is_public, source_url, user_id, created_at, updated_at, initial_message_time, server_name, channel_name, root_message_text, thread_id, easy_id, total_messages, total_user_messages, total_agent_messages, origin)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0,0,0,'ingest')`).run(b.org_id, actionId, seq(), root.title ?? root.body.slice(0, 80), `Imported ${root.record_type} from ${b.server_name}.`, 'OPEN', b.platform, root.record_type, root.url ? 1 : 0, root.url ?? null, root.author_id, ts(root.created_at), now, ts(root.created_at), b.server_name, b.channel_name ?? '', root.body, thread, null);
        }
        const pos = () => db.prepare('SELECT coalesce(max(pos), -1) + 1 AS p FROM messages WHERE org_id = ? AND action_id = ?').get(b.org_id, actionId).p;
        for (const r of rs) {
          db.prepare(`INSERT INTO messages VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(org_id, action_id, message_id) DO UPDATE SET body = excluded.body, ts = excluded.ts, author = excluded.author`).run(b.org_id, actionId, r.external_id, pos(), ts(r.created_at), r.author_name, r.author_id, 'USER', r.body, r.parent_external_id ?? (r.external_id === thread ? null : thread), '[]');
        }
        const c = db.prepare("SELECT count(*) AS n, sum(author_type = 'USER') AS u, sum(author_type = 'AGENT') AS g FROM messages WHERE org_id = ? AND action_id = ?").get(b.org_id, actionId);
        db.prepare('UPDATE actions SET total_messages = ?, total_user_messages = ?, total_agent_messages = ?, updated_at = ? WHERE org_id = ? AND action_id = ?').run(c.n, c.u ?? 0, c.g ?? 0, now, b.org_id, actionId);
        void slug;
      }
    }
    db.prepare("UPDATE ingested_records SET state = 'processed' WHERE batch_id = ?").run(batchId);
    db.prepare('UPDATE ingest_batches SET processed_at = ? WHERE batch_id = ?').run(now, batchId);
    db.exec('COMMIT');
  } catch (e) { db.exec('ROLLBACK'); throw e; }
}

// ---------------------------------------------------------------- routing
const openapiDoc = () => buildOpenApi({ dev });
const routes = [
  ['GET', /^\/v0\/action\/list$/, (ctx, q) => { requireReporting(ctx); return listActions(ctx, q); }],
  ['GET', /^\/v0\/action\/([^/]+)$/, (ctx, q, m) => { requireReporting(ctx); return getAction(ctx, m[1]); }],
  ['GET', /^\/v0\/actions\/([^/]+)\/custom-fields$/, (ctx, q, m) => getCustomFields(ctx, m[1])],
  ['PATCH', /^\/v0\/actions\/([^/]+)\/custom-fields$/, (ctx, q, m, req) => patchCustomFields(ctx, m[1], req)],
  ['GET', /^\/v0\/agents$/, (ctx, q) => listAgents(ctx, q)],
  ['GET', /^\/v0\/agents\/([^/]+)$/, (ctx, q, m) => getAgent(ctx, m[1], q)],
  ['GET', /^\/v0\/queues$/, (ctx, q) => listQueues(ctx, q)],
  ['GET', /^\/v0\/analytics\/tags$/, (ctx, q) => tagAnalytics(ctx, q)],
  ['GET', /^\/v0\/analytics\/tags\/volume$/, (ctx, q) => tagVolume(ctx, q)],
  ['GET', /^\/v0\/analytics\/sentiment$/, (ctx, q) => sentimentDaily(ctx, q)],
  ['GET', /^\/v0\/analytics\/sentiment\/by-tag$/, (ctx, q) => sentimentByTag(ctx, q)],
  ['GET', /^\/v0\/analytics\/engagement$/, (ctx, q) => engagement(ctx, q)],
  ['GET', /^\/v0\/conversations\/search$/, (ctx, q) => { requireReporting(ctx); return searchConversations(ctx, q); }],
  ['POST', /^\/v0\/moderation\/cases$/, (ctx, q, m, req) => postModerationCase(ctx, req), 202],
  ['POST', /^\/v0\/moderation\/cases\/batch$/, (ctx, q, m, req) => postModerationBatch(ctx, req), 202],
  ['GET', /^\/v0\/moderation\/cases\/([^/]+)$/, (ctx, q, m) => getModerationCase(ctx, m[1])],
  ['POST', /^\/v0\/ingest\/records$/, (ctx, q, m, req) => ingestRecords(ctx, req), 202],
];

async function handle(req, res) {
  const url = req.url || '/';
  const qi = url.indexOf('?');
  let path = qi < 0 ? url : url.slice(0, qi);
  const rawQs = qi < 0 ? '' : url.slice(qi + 1);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (req.method === 'GET' && (path === '/docs/json' || path === '/docs/openapi.json')) return send(res, 200, openapiDoc());
  if (req.method === 'GET' && (path === '/docs' || path === '/docs/index.html')) return send(res, 200, swaggerHtml(), { 'content-type': 'text/html; charset=utf-8' });
  if (req.method === 'GET' && path === '/') return send(res, 200, { service: 'customer-conversation-analytics', version: 'v0', docs: '/docs', openapi: '/docs/json' });
  if (req.method === 'GET' && path === '/healthz') return send(res, 200, { ok: true });
  if (!path.startsWith('/v0/')) return fail(res, 404, 'Not found');
  let ctx;
  try { ctx = authenticate(req); } catch (e) { return fail(res, e.status, e.message); }
  const candidates = routes.filter(([, re]) => re.test(path));
  if (!candidates.length) return fail(res, 404, `No route for ${req.method} ${path}`);
  const route = candidates.find(([m]) => m === req.method);
  if (!route) { res.setHeader('allow', candidates.map(([m]) => m).join(', ')); return fail(res, 405, `Method ${req.method} not allowed on ${path}`); }
  const [, re, fn, okStatus = 200] = route;
  let m = re.exec(path);
  try {
    m = m.map((x, i) => (i === 0 ? x : decodeURIComponent(x)));
  } catch { return fail(res, 400, 'Malformed path'); }
  const q = parseQuery(rawQs);
  const out = await fn(ctx, q, m, req);
  send(res, okStatus, out);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((e) => {
    if (res.headersSent) { res.end(); return; }
    if (e instanceof HttpError) {
      if (dev('D13') && e.status === 404 && /^Action '/.test(e.message) && /^\/v0\/action\//.test(req.url)) return send(res, 404, { success: false, message: e.message });
      return fail(res, e.status, e.message, e.extra || {});
    }
    console.error(e);
    fail(res, 500, 'Internal server error');
  });
});
server.keepAliveTimeout = 2000;
server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  const { port } = server.address();
  if (process.env.KEYS_FILE) writeFileSync(process.env.KEYS_FILE, JSON.stringify(keys, null, 2));
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
});
function shutdown() {
  for (const t of timers) clearTimeout(t);
  server.close();
  server.closeAllConnections?.();
  setTimeout(() => process.exit(0), 50).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
export { sentimentLabel, ORG_B };
