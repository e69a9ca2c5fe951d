// Moderation submission validation and the (simulated) ad-policy evaluator.
import { createHash } from 'node:crypto';

export const CTA = ['APPLY_NOW', 'BOOK_NOW', 'GET_NOW', 'INSTALL_NOW', 'MORE', 'SHOP_NOW', 'SIGN_UP', 'VIEW', 'WATCH'];
const ATTACH = ['web_view', 'deep_link', 'app_install', 'lens', 'long_form_video'];
const isObj = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
// X01 (found by the suite): the WHATWG parser alone repairs what is not a URI (a space becomes %20).
const X01 = (process.env.DEVIATIONS || '').split(',').map((s) => s.trim()).includes('X01');
const uriChars = (s) => X01 || /^[\x21-\x7e]+$/.test(s);
const isUri = (s) => { try { const u = new URL(s); return uriChars(s) && !!u.protocol && u.protocol.length > 1; } catch { return false; } };
const isHttp = (s) => { try { const u = new URL(s); return uriChars(s) && (X01 || /^https?:\/\/[^/]/i.test(s)) && (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname; } catch { return false; } };
const DT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function validateSubmission(b) {
  const missing = [], invalid = [], errors = [];
  const miss = (p) => { missing.push(p); errors.push(`${p} is required`); };
  const bad = (p, why) => { invalid.push(p); errors.push(`${p} ${why}`); };
  const str = (obj, key, path, req, max, min = 1) => {
    const v = obj[key];
    if (v === undefined) { if (req) miss(path); return; }
    if (typeof v !== 'string') return bad(path, 'must be a string');
    if (v.length < min) return bad(path, `must be at least ${min} character${min === 1 ? '' : 's'}`);
    if (max != null && v.length > max) bad(path, `must be at most ${max} characters`);
  };
  const bool = (obj, key, path) => { if (obj[key] !== undefined && typeof obj[key] !== 'boolean') bad(path, 'must be a boolean'); };
  const nullableStr = (obj, key, path, req) => {
    if (!(key in obj) || obj[key] === undefined) { if (req) miss(path); return; }
    if (obj[key] !== null && typeof obj[key] !== 'string') bad(path, 'must be a string or null');
  };

  str(b, 'externalId', 'externalId', true, 256);
  str(b, 'sourceSystem', 'sourceSystem', true, 128);
  str(b, 'sourcePlatform', 'sourcePlatform', true, 128);
  str(b, 'sourceAdId', 'sourceAdId', true, 256);
  str(b, 'advertiserId', 'advertiserId', false, 256);
  str(b, 'advertiserName', 'advertiserName', true, 500);
  str(b, 'campaignId', 'campaignId', false, 256);
  str(b, 'market', 'market', true, 128);
  str(b, 'placement', 'placement', true, 128);
  str(b, 'language', 'language', false, 64);
  if (b.providerMetadata !== undefined && !isObj(b.providerMetadata)) bad('providerMetadata', 'must be an object');
  nullableStr(b, 'landingPageUrl', 'landingPageUrl', true);
  str(b, 'title', 'title', true, 500);
  str(b, 'headline', 'headline', false, 500);
  str(b, 'brandName', 'brandName', false, 500);
  if (b.callToAction !== undefined && !CTA.includes(b.callToAction)) bad('callToAction', `must be one of ${CTA.join(', ')}`);
  if (b.publicProfile !== undefined) {
    if (!isObj(b.publicProfile)) bad('publicProfile', 'must be an object');
    else {
      str(b.publicProfile, 'displayName', 'publicProfile.displayName', false, 500);
      const l = b.publicProfile.logoUrl;
      if (l !== undefined && (typeof l !== 'string' || !isUri(l))) bad('publicProfile.logoUrl', 'must be a URI');
      bool(b.publicProfile, 'verified', 'publicProfile.verified');
    }
  }
  if (b.media === undefined) miss('media');
  else if (!Array.isArray(b.media)) bad('media', 'must be an array');
  else if (b.media.length < 1 || b.media.length > 20) bad('media', 'must contain between 1 and 20 items');
  else b.media.forEach((m, i) => {
    const p = `media[${i}]`;
    if (!isObj(m)) return bad(p, 'must be an object');
    if (m.url === undefined) miss(`${p}.url`); else if (typeof m.url !== 'string' || !isHttp(m.url)) bad(`${p}.url`, 'must be an absolute HTTP or HTTPS URL');
    if (m.type === undefined) miss(`${p}.type`); else if (m.type !== 'image' && m.type !== 'video') bad(`${p}.type`, 'must be image or video');
    if (m.position === undefined) miss(`${p}.position`); else if (!Number.isInteger(m.position) || m.position < 1 || m.position > 20) bad(`${p}.position`, 'must be an integer between 1 and 20');
  });
  if (b.attachment === undefined) miss('attachment');
  else if (!isObj(b.attachment)) bad('attachment', 'must be an object');
  else {
    if (b.attachment.type === undefined) miss('attachment.type'); else if (!ATTACH.includes(b.attachment.type)) bad('attachment.type', `must be one of ${ATTACH.join(', ')}`);
    nullableStr(b.attachment, 'destinationUrl', 'attachment.destinationUrl', true);
  }
  if (b.targeting === undefined) miss('targeting');
  else if (!isObj(b.targeting)) bad('targeting', 'must be an object');
  else {
    const t = b.targeting;
    const nInt = (k, req) => {
      if (!(k in t) || t[k] === undefined) { if (req) miss(`targeting.${k}`); return; }
      if (t[k] !== null && !Number.isInteger(t[k])) bad(`targeting.${k}`, 'must be an integer or null');
    };
    nInt('ageMin', true); nInt('ageMax', false);
    const arr = (k, req, max) => {
      if (t[k] === undefined) { if (req) miss(`targeting.${k}`); return; }
      if (!Array.isArray(t[k]) || t[k].some((x) => typeof x !== 'string')) return bad(`targeting.${k}`, 'must be an array of strings');
      if (t[k].length < 1 || t[k].length > max) bad(`targeting.${k}`, `must contain between 1 and ${max} items`);
    };
    arr('geos', true, 250); arr('languages', false, 100);
  }
  if (b.copy === undefined) miss('copy');
  else if (!isObj(b.copy)) bad('copy', 'must be an object');
  else for (const k of ['body', 'caption', 'linkDescription', 'sourceTitle']) str(b.copy, k, `copy.${k}`, false, 20000, 0);
  bool(b, 'discoverTile', 'discoverTile'); bool(b, 'partnershipAd', 'partnershipAd');
  for (const k of ['format', 'arLens']) if (b[k] !== undefined && b[k] !== null && typeof b[k] !== 'string') bad(k, 'must be a string or null');
  if (b.submittedAt !== undefined && (typeof b.submittedAt !== 'string' || !DT.test(b.submittedAt) || Number.isNaN(Date.parse(b.submittedAt)))) bad('submittedAt', 'must be an RFC 3339 date-time');

  if (missing.length || invalid.length) {
    const code = missing.length ? 'MODERATION_INPUT_INCOMPLETE' : 'MODERATION_INPUT_INVALID';
    const message = missing.length ? `Submission is missing required fields: ${missing.join(', ')}` : `Submission has invalid fields: ${invalid.join(', ')}`;
    return { ok: false, code, message, errors, missingFields: missing, invalidFields: invalid };
  }
  return { ok: true, value: { ...b, language: b.language ?? 'en' } };
}

function sortKeys(x) {
  if (Array.isArray(x)) return x.map(sortKeys);
  if (isObj(x)) return Object.fromEntries(Object.keys(x).sort().map((k) => [k, sortKeys(x[k])]));
  return x;
}
// Content that identifies a submission for idempotency. submittedAt is transport metadata and is excluded.
export function canonicalContent(sub) {
  const { submittedAt, ...rest } = sub;
  return sortKeys(rest);
}
export function conflictView(sub) {
  return sortKeys({ externalId: sub.externalId, title: sub.title, media: sub.media, copy: sub.copy, landingPageUrl: sub.landingPageUrl });
}

const AGE_WORDS = ['alcohol', 'beer', 'wine', 'vodka', 'whisky', 'casino', 'betting', 'gambling', 'poker', 'vape'];
const REJECT_WORDS = ['miracle cure', 'guaranteed results', 'lose weight fast', 'get rich quick', 'risk-free investment'];

function findText(sub, words) {
  const fields = [['title', sub.title], ['headline', sub.headline], ['copy.body', sub.copy?.body], ['copy.caption', sub.copy?.caption], ['copy.linkDescription', sub.copy?.linkDescription]];
  for (const [field, text] of fields) {
    if (typeof text !== 'string') continue;
    const low = text.toLowerCase();
    for (const w of words) { const i = low.indexOf(w); if (i >= 0) return { field, start: i, end: i + w.length, word: w }; }
  }
  return null;
}

export function evaluateSubmission(sub) {
  const sim = sub.providerMetadata?.simulate;
  if (sim === 'failure') return { failed: 'EVALUATOR_UNAVAILABLE' };
  const hits = [];
  let disposition = 'approve', confidence = 'high', reason = 'No policy concerns detected in creative, copy or landing page.', title = null;
  let decisionSource = 'model', failureCode = null, failureMessage = null;
  const rej = findText(sub, REJECT_WORDS);
  const age = findText(sub, AGE_WORDS);
  if (sim === 'fail_closed') {
    disposition = 'escalate'; confidence = 'low'; decisionSource = 'fail_closed'; failureCode = 'MODEL_TIMEOUT';
    failureMessage = 'Policy model did not answer in time; case escalated for human review.';
    reason = 'Evaluation could not complete; failing closed to human review.'; title = 'Needs human review';
  } else if (rej) {
    disposition = 'reject'; confidence = 'high'; title = 'Misleading claims'; reason = `Copy makes a prohibited claim ("${rej.word}").`;
    hits.push({ ruleId: 'rule_7f21', ruleSlug: 'misleading-health-financial-claims', polarity: 'NEGATIVE', confidence: 'high', reasoning: 'Absolute outcome claims are not allowed.', evidence: [{ modality: 'text', claim: `Contains "${rej.word}"`, locator: { textSpan: { field: rej.field, start: rej.start, end: rej.end } } }] });
  } else if (age && (sub.targeting.ageMin == null || sub.targeting.ageMin < 21)) {
    disposition = 'age_gate'; confidence = 'medium'; title = 'Age-restricted product';
    reason = `Ad promotes an age-restricted product ("${age.word}") without an age floor of 21.`;
    hits.push({ ruleId: 'rule_2a09', ruleSlug: 'age-restricted-products', polarity: 'NEGATIVE', confidence: 'medium', reasoning: null, evidence: [{ modality: 'text', claim: `Mentions "${age.word}"`, locator: { textSpan: { field: age.field, start: age.start, end: age.end } } }, { modality: 'metadata', claim: `targeting.ageMin is ${sub.targeting.ageMin ?? 'not set'}` }] });
  } else if (sub.landingPageUrl == null && sub.attachment.type === 'web_view') {
    disposition = 'escalate'; confidence = 'medium'; title = 'Missing landing page';
    reason = 'Web view attachment without a landing page cannot be verified.';
    hits.push({ ruleId: 'rule_0c3e', ruleSlug: 'destination-verifiable', polarity: 'AMBIGUOUS', confidence: 'medium', reasoning: 'Destination could not be inspected.', evidence: [{ modality: 'metadata', claim: 'landingPageUrl is null for a web_view attachment' }] });
  } else {
    if (age) hits.push({ ruleId: 'rule_2a09', ruleSlug: 'age-restricted-products', polarity: 'POSITIVE', confidence: 'high', reasoning: 'Age floor satisfies policy.', evidence: [{ modality: 'metadata', claim: `targeting.ageMin is ${sub.targeting.ageMin}` }] });
    hits.push({ ruleId: 'rule_9b11', ruleSlug: 'creative-quality', polarity: 'POSITIVE', confidence: 'medium', reasoning: null, evidence: [{ modality: sub.media[0].type, claim: 'Primary creative is legible and on-brand', locator: { mediaIndex: 0 } }] });
  }
  const verified = sub.publicProfile?.verified === true;
  const h = createHash('md5').update(sub.advertiserName).digest()[0];
  return {
    decision: {
      disposition, confidence, title, reason, hits,
      advertiserAssessment: { polarity: verified ? 'POSITIVE' : h % 3 === 0 ? 'AMBIGUOUS' : 'POSITIVE', reasoning: verified ? 'Advertiser profile is verified.' : `Advertiser "${sub.advertiserName}" has no verification badge; history shows no prior violations.` },
      landingAssessment: sub.landingPageUrl == null
        ? { polarity: 'AMBIGUOUS', reasoning: 'No landing page supplied.' }
        : { polarity: /^https:/i.test(sub.landingPageUrl) ? 'POSITIVE' : 'NEGATIVE', reasoning: /^https:/i.test(sub.landingPageUrl) ? 'Landing page uses HTTPS and matches the advertiser domain.' : 'Landing page is not served over HTTPS.' },
      decisionSource, failureCode, failureMessage,
    },
  };
}
