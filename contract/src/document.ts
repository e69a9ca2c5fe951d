/**
 * Assembles the OpenAPI 3.1 document from its pieces. Pure: `build.ts` writes the result to
 * contract/openapi.json and a test fails when the checked-in file differs from this function's output.
 */
import { envelopeSchemas } from './envelopes.ts';
import { buildOperation } from './operation.ts';
import { operations } from './operations.ts';
import { recordSchemas } from './records.ts';
import type { Json, Schema } from './schema.ts';
import { withSchemaRules } from './schema-rules.ts';
import { writeSchemas } from './writes.ts';

const TAGS: { name: string; description: string }[] = [
  {
    name: 'Actions',
    description: 'Tracked work items built from customer conversations (sections 2.1, 2.2, 4.1, 4.2).',
  },
  {
    name: 'Custom fields',
    description: 'Organization-defined values on an action (sections 2.4, 4.3, 4.4).',
  },
  { name: 'Agents', description: 'Agents with metrics and workload (sections 2.5, 4.5, 4.6).' },
  { name: 'Queues', description: 'Queues with metrics and workload (sections 2.5, 4.7).' },
  { name: 'Analytics', description: 'Tag, sentiment and engagement analytics (sections 2.6, 4.8 to 4.12).' },
  { name: 'Conversations', description: 'Conversation search (section 4.13).' },
  { name: 'Moderation', description: 'Advertising-policy moderation cases (sections 2.7, 3, 4.14 to 4.16).' },
  { name: 'Ingestion', description: 'Normalized-record ingestion (sections 2.8, 4.17).' },
  { name: 'Docs', description: 'The contract itself and Swagger UI (section 1).' },
];

function docsPaths(): Record<string, Json> {
  return {
    '/docs/json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'The OpenAPI document',
        description: 'Machine-readable REST contract (section 1). Needs no key.',
        tags: ['Docs'],
        security: [],
        responses: {
          '200': {
            description: 'This OpenAPI document.',
            content: {
              'application/json': {
                // The top-level fields of an OpenAPI 3.1 document, each declared so that tools which flag
                // undeclared properties (Specmatic) accept the live document. The nested objects are left
                // as any JSON ({}): Specmatic reads a typed free-form object by the shape of its first
                // member and would fail every path item that differs from the first.
                schema: {
                  'x-rule': 'DOCS-OPENAPI-JSON',
                  type: 'object',
                  description: 'An OpenAPI 3.1 document describing this API.',
                  required: ['openapi', 'info', 'paths'],
                  properties: {
                    openapi: { type: 'string', pattern: '^3\\.\\d+\\.\\d+' },
                    info: {
                      type: 'object',
                      required: ['title', 'version'],
                      properties: {
                        title: { type: 'string' },
                        summary: { type: 'string' },
                        description: { type: 'string' },
                        termsOfService: { type: 'string' },
                        contact: { type: 'object', additionalProperties: true },
                        license: { type: 'object', additionalProperties: true },
                        version: { type: 'string' },
                      },
                      additionalProperties: true,
                    },
                    jsonSchemaDialect: { type: 'string' },
                    servers: { type: 'array', items: {} },
                    paths: {},
                    webhooks: {},
                    components: {},
                    security: { type: 'array', items: {} },
                    tags: { type: 'array', items: {} },
                    externalDocs: {},
                  },
                  patternProperties: { '^x-': {} },
                },
                examples: {
                  contract: { value: { openapi: '3.1.0', info: { title: 'CCA', version: 'v0' }, paths: {} } },
                },
              },
            },
          },
        },
      },
    },
    '/docs': {
      get: {
        operationId: 'getSwaggerUi',
        summary: 'Interactive Swagger UI',
        description: 'Interactive documentation (section 1). Needs no key.',
        tags: ['Docs'],
        security: [],
        responses: {
          '200': {
            description: 'The Swagger UI page.',
            content: {
              'text/html': {
                schema: { type: 'string', 'x-rule': 'DOCS-SWAGGER-UI' },
                examples: {
                  page: { value: '<!doctype html><html><head><title>Swagger UI</title></head></html>' },
                },
              },
            },
          },
        },
      },
    },
  };
}

export function buildDocument(): Schema {
  const paths: Record<string, Record<string, Json>> = {};
  for (const { method, path, ...spec } of operations) {
    paths[path] ??= {};
    (paths[path] as Record<string, Json>)[method] = buildOperation(spec);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Customer-Conversation Analytics Service',
      version: 'v0',
      summary: 'REST interface of the Customer-Conversation Analytics Service, as cca-kit encodes it.',
      description:
        'The REST interface under `{base_url}`: actions, agents, queues, analytics, conversation search, custom fields, moderation-case intake and record ingestion. Every request carries an API key in `X-API-Key`; every key belongs to one organization and all data returned belongs to it. Non-breaking additions can appear at any time: clients must tolerate unknown fields (section 9). Where the spec says "not shown", the contract leaves the shape open and marks it `x-spec-gap`.',
      contact: { name: 'cca-kit maintainers', url: 'https://github.com/cca-kit/cca-kit' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'The cca-kit mock on its default port' }],
    tags: TAGS,
    security: [{ ApiKey: [] }],
    paths: { ...paths, ...docsPaths() },
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            'An API key of one organization. Profiles: Reporting (read), Write (write), Read and write (read, write), Import (ingest, ingest:read). Operations name the scope they need in x-required-scope.',
        },
      },
      schemas: withSchemaRules({ ...recordSchemas, ...writeSchemas, ...envelopeSchemas }),
    },
  };
}
