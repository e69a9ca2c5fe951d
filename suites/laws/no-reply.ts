/**
 * Section 1, negative statements: "The REST API cannot send or post a reply to a customer. No
 * endpoint does so." and "It writes only three things". Checked on the live document and on the
 * routes a client looking for a reply endpoint would try.
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { sampleActionIds } from './discover.ts';
import { call, callPath, expectConforming, obj, str } from './support.ts';

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'];
const METHODS = ['get', 'head', 'options', 'trace', ...WRITE_METHODS];

/** Words that name a reply to a customer in a path, an operationId or a summary. */
const REPLY_WORDS =
  /\brepl(?:y|ies|ying)\b|\brespond\b|\bsend[-_ ]?(?:message|reply)|\bpost[-_ ]?reply|Repl(?:y|ies)\b/;

/** Where the three things the REST API writes live (custom fields, moderation, ingestion). */
const WRITE_AREAS = [/^\/v0\/actions\/\{[^}]+\}\/custom-fields$/, /^\/v0\/moderation\//, /^\/v0\/ingest\//];

/** The reply routes a client would try; `{id}` is a real action id when one can be read. */
export const REPLY_ROUTES: readonly string[] = [
  '/v0/action/{id}/reply',
  '/v0/actions/{id}/reply',
  '/v0/actions/{id}/replies',
  '/v0/actions/{id}/respond',
  '/v0/actions/{id}/messages',
  '/v0/reply',
  '/v0/replies',
  '/v0/messages',
];

export const noReplyOperation: Law = {
  id: 'docs.no-reply-operation',
  group: 'docs',
  title:
    'the live OpenAPI document describes no reply operation, and writes only custom fields, moderation and ingestion',
  ruleIds: ['DOCS-NO-REPLY-OPERATION', 'DOCS-WRITES-ONLY-THREE'],
  needs: { keys: [] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const res = await call(ctx, 'getOpenApiDocument', { auth: 'none' });
      const ok = expectConforming(ctx, 'getOpenApiDocument', res, {
        status: 200,
        statusRule: 'DOCS-OPENAPI-JSON',
      });
      let checks = 0;
      for (const [path, item] of Object.entries(obj(obj(ok.parsed)['paths']))) {
        // The REST API is what lives under /v0/; other paths (docs, an agent endpoint) are not REST.
        if (!path.startsWith('/v0/')) continue;
        for (const method of METHODS) {
          const operation = obj(obj(item)[method]);
          if (!(method in obj(item))) continue;
          checks += 1;
          const words = [path, str(operation['operationId']), str(operation['summary'])].join(' ');
          if (REPLY_WORDS.test(words))
            violate(
              'DOCS-NO-REPLY-OPERATION',
              `reply-operation:${method}`,
              `/docs/json describes ${method.toUpperCase()} ${path} (${str(operation['operationId']) ?? 'no operationId'}), an operation that replies to a customer`,
              { path, method, operationId: operation['operationId'], summary: operation['summary'] },
            );
          if (WRITE_METHODS.includes(method) && !WRITE_AREAS.some((area) => area.test(path)))
            violate(
              'DOCS-WRITES-ONLY-THREE',
              `write-outside:${method}`,
              `/docs/json describes ${method.toUpperCase()} ${path}: a write outside custom fields, moderation cases and ingestion`,
              { path, method, operationId: operation['operationId'] },
            );
        }
      }
      return checks;
    }),
};

export const noReplyRoute: Law = {
  id: 'docs.no-reply-route',
  group: 'docs',
  title:
    'no route a client would try for sending a reply answers 2xx, to a key that may write, import or read',
  ruleIds: ['DOCS-NO-REPLY-ROUTE'],
  // A faulty deployment would send the reply: this only runs where writes are allowed.
  needs: { keys: ['write'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const actionId = ctx.client.hasKey('read') ? (await sampleActionIds(ctx))[0] : undefined;
      const id = encodeURIComponent(actionId ?? `${ctx.prefix}no-reply`);
      const text = `cca-kit conform ${ctx.runId}: a probe that must never reach a customer`;
      // The write key first; the import key too (section 5: it "cannot ... send replies").
      const roles = (['write', 'ingest', 'read'] as const).filter((role) => ctx.client.hasKey(role));
      let checks = 0;
      for (const template of REPLY_ROUTES) {
        const path = template.replace('{id}', id);
        for (const auth of roles) {
          const res = await callPath(ctx, 'POST', path, {
            auth,
            json: { actionId: actionId ?? id, text, message: text, isPublicReply: false },
          });
          checks += 1;
          if (res.kind === 'http' && res.status >= 200 && res.status < 300)
            violate(
              'DOCS-NO-REPLY-ROUTE',
              `reply-route:${template}`,
              `POST ${path} with the ${auth} key answered ${res.status}: the REST API must not send or post a reply`,
              { path, key: auth, status: res.status, body: res.raw.slice(0, 300) },
            );
        }
      }
      return checks;
    }),
};
