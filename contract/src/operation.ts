/**
 * The builder for one operation: declared statuses, the spec's 401/403 on every guarded route, the
 * scope extension, and named examples on parameters, bodies and responses.
 */
import type { Json, Schema } from './schema.ts';
import { ref } from './schema.ts';

export type Scope = 'read' | 'write' | 'ingest';
type Examples = Record<string, Json>;

export interface ParameterSpec {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly description: string;
  readonly schema: Schema;
  readonly required?: boolean;
  readonly examples?: Examples;
  /** Values that violate the schema, named like the 4xx response example they produce. */
  readonly invalidExamples?: Examples;
  readonly gap?: string;
}

export interface ResponseSpec {
  readonly description: string;
  readonly schema: string;
  readonly examples: Examples;
  /** Set when the spec's per-endpoint table does not declare this status: what is unknown. */
  readonly gap?: string;
}

export interface OperationSpec {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: string;
  readonly scope: Scope;
  readonly adPolicy?: boolean;
  readonly parameters?: readonly ParameterSpec[];
  readonly body?: {
    readonly schema: string;
    readonly description: string;
    readonly examples: Examples;
    readonly invalidExamples?: Examples;
  };
  readonly success: { readonly status: 200 | 202 } & ResponseSpec;
  /** Error statuses declared by the spec for this operation, with their body schema and examples. */
  readonly errors: Readonly<Record<number, ResponseSpec>>;
  readonly gap?: string;
}

const named = (examples: Examples): Schema =>
  Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }]));

const json = (schema: string, examples: Examples): Schema => ({
  'application/json': { schema: ref(schema), examples: named(examples) },
});

const SCOPE_WORDS: Record<Scope, string> = {
  read: 'a read-scoped key (profiles Reporting, Read and write)',
  write: 'a write-scoped key (profiles Write, Read and write)',
  ingest: 'a key with ingestion permission (profile Import)',
};

export function buildOperation(spec: OperationSpec): Schema {
  const responses: { [status: string]: Json } = {
    [String(spec.success.status)]: {
      description: spec.success.description,
      content: json(spec.success.schema, spec.success.examples),
    },
  };
  const errors: Record<number, ResponseSpec> = {
    401: {
      description:
        'Missing, malformed, unknown, expired or revoked API key (section 5.1). Declared on every operation even where the per-endpoint table omits it.',
      schema: 'ErrorBody',
      examples: { missingKey: { success: false, error: 'Missing or invalid API key (header X-API-Key)' } },
    },
    403: {
      description: `The key lacks the ${spec.scope} scope (sections 5.4, 5.7, 5.8). Declared wherever a key can lack the scope, even where the per-endpoint table omits it.`,
      schema: 'ErrorBody',
      examples: {
        wrongScope: { success: false, error: `Forbidden: this API key lacks the ${spec.scope} scope` },
      },
    },
    500: {
      description: 'Uncaught server error (section 7).',
      schema: 'ErrorBody',
      examples: { serverError: { success: false, error: 'Internal server error' } },
    },
    ...spec.errors,
  };
  for (const [status, response] of Object.entries(errors).sort(([a], [b]) => Number(a) - Number(b))) {
    const declared: Schema = {
      description: response.description,
      content: json(response.schema, response.examples),
    };
    if (response.gap) declared['x-spec-gap'] = response.gap;
    responses[status] = declared;
  }

  const operation: Schema = {
    operationId: spec.operationId,
    summary: spec.summary,
    description: `${spec.description}\n\nRequires ${SCOPE_WORDS[spec.scope]}.`,
    tags: [spec.tag],
    security: [{ ApiKey: [] }],
    'x-required-scope': spec.scope,
  };
  if (spec.adPolicy) operation['x-requires-moderation-mode'] = 'ad_policy';
  if (spec.gap) operation['x-spec-gap'] = spec.gap;
  if (spec.parameters && spec.parameters.length > 0) {
    operation['parameters'] = spec.parameters.map((p) => {
      const parameter: Schema = {
        name: p.name,
        in: p.in,
        required: p.in === 'path' ? true : (p.required ?? false),
        description: p.description,
        schema: p.schema,
      };
      if (p.examples) {
        parameter['examples'] = named(p.examples);
      }
      if (p.invalidExamples) parameter['x-invalid-examples'] = named(p.invalidExamples);
      if (p.gap) parameter['x-spec-gap'] = p.gap;
      return parameter;
    });
  }
  if (spec.body) {
    const content = json(spec.body.schema, spec.body.examples);
    if (spec.body.invalidExamples) {
      (content['application/json'] as Schema)['x-invalid-examples'] = named(spec.body.invalidExamples);
    }
    operation['requestBody'] = { required: true, description: spec.body.description, content };
  }
  operation['responses'] = responses;
  return operation;
}
