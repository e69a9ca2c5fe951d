import type { OpenAPIV3_1 } from 'openapi-types';

/**
 * A small OpenAPI 3.1 document with the features the validation layer must handle (referenced
 * components, extension keys, `example`, integer/number/boolean/array query parameters, string ids,
 * literal-versus-template paths, nullable unions, formats, a batch envelope). Tests only.
 */
export const miniDocument = {
  openapi: '3.1.0',
  info: { title: 'mini', version: '0.0.0' },
  paths: {
    '/v0/items': {
      get: {
        operationId: 'listItems',
        tags: ['Items'],
        'x-required-scope': 'read',
        parameters: [
          {
            name: 'pageSize',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
          },
          { name: 'ratio', in: 'query', schema: { type: 'number', minimum: 0, maximum: 5 } },
          { name: 'respondedOnly', in: 'query', schema: { type: 'boolean' } },
          { name: 'filter', in: 'query', schema: { type: 'string', maxLength: 20 } },
          { name: 'from', in: 'query', schema: { type: 'string', format: 'date-time' } },
          { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'integer' } } },
        ],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ItemList' } } },
          },
          '400': { $ref: '#/components/responses/Error' },
        },
      },
      post: {
        operationId: 'createItem',
        tags: ['Items'],
        'x-required-scope': 'write',
        'x-requires-moderation-mode': 'ad_policy',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
        },
        responses: {
          '202': {
            description: 'accepted',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
          },
          '4XX': { $ref: '#/components/responses/Error' },
        },
      },
    },
    '/v0/items/batch': {
      post: {
        operationId: 'createItems',
        'x-required-scope': 'write',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ItemBatch' } } },
        },
        responses: { '202': { description: 'accepted' } },
      },
    },
    '/v0/items/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
      get: {
        operationId: 'getItem',
        'x-required-scope': 'read',
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
          },
          default: { $ref: '#/components/responses/Error' },
        },
      },
    },
    '/docs': {
      get: {
        operationId: 'getDocs',
        responses: {
          '200': { description: 'html', content: { 'text/html': { schema: { type: 'string' } } } },
        },
      },
    },
  },
  components: {
    responses: {
      Error: {
        description: 'error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      },
    },
    schemas: {
      ErrorBody: {
        type: 'object',
        required: ['success', 'error'],
        properties: { success: { const: false }, error: { type: 'string' } },
      },
      Media: {
        type: 'object',
        required: ['url', 'type', 'position'],
        properties: {
          url: { type: 'string', format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' },
          type: { type: 'string', enum: ['image', 'video'] },
          position: { type: 'integer', minimum: 1, maximum: 20 },
        },
        additionalProperties: false,
        example: { url: 'https://example.com/a.png', type: 'image', position: 1 },
      },
      Item: {
        type: 'object',
        'x-spec-gap': 'tests only',
        required: ['id', 'title', 'createdAt', 'media', 'score'],
        properties: {
          id: { type: 'string', description: 'an id, never a number' },
          title: { type: 'string', minLength: 1, maxLength: 10 },
          createdAt: { type: 'string', format: 'date-time' },
          note: { type: ['string', 'null'] },
          score: { type: ['number', 'null'], minimum: 0, maximum: 5 },
          media: { type: 'array', minItems: 1, maxItems: 3, items: { $ref: '#/components/schemas/Media' } },
          'odd key': { type: 'integer' },
        },
        examples: [{ id: '007', title: 't', createdAt: '2026-01-01T00:00:00Z', media: [], score: null }],
        discriminator: { propertyName: 'id' },
        externalDocs: { url: 'https://example.com' },
      },
      ItemBatch: {
        type: 'object',
        required: ['items'],
        properties: {
          items: { type: 'array', minItems: 1, maxItems: 3, items: { $ref: '#/components/schemas/Item' } },
        },
      },
      ItemList: {
        type: 'object',
        required: ['data'],
        properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Item' } } },
      },
    },
  },
} as unknown as OpenAPIV3_1.Document;
