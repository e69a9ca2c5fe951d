/**
 * Choice `docsPathParams`: the names of path parameters in `/docs/json`. An OpenAPI path template
 * matches whatever its parameter is called, so `{id}` instead of `{actionId}` describes the same URL.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Choices } from '../../../src/contract/choice-points.ts';

type Parameter = OpenAPIV3_1.ParameterObject | OpenAPIV3_1.ReferenceObject;

const renamed = (parameters: readonly Parameter[] | undefined): Parameter[] | undefined =>
  parameters?.map((p) => ('in' in p && p.in === 'path' ? { ...p, name: 'id' } : p));

/** The document as served: unchanged, or every path parameter named `id`. */
export function renameDocsPathParams(
  document: OpenAPIV3_1.Document,
  choices: Pick<Choices, 'docsPathParams'>,
): OpenAPIV3_1.Document {
  if (choices.docsPathParams === 'contract') return document;
  const paths: OpenAPIV3_1.PathsObject = {};
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    if (item === undefined) continue;
    const next: Record<string, unknown> = { ...item };
    for (const [key, value] of Object.entries(item)) {
      if (key === 'parameters') next[key] = renamed(value as Parameter[]);
      else if (typeof value === 'object' && value !== null && 'responses' in value) {
        const op = value as OpenAPIV3_1.OperationObject;
        next[key] = { ...op, parameters: renamed(op.parameters) };
      }
    }
    paths[template.replace(/\{[^}]+\}/g, '{id}')] = next as OpenAPIV3_1.PathItemObject;
  }
  return { ...document, paths };
}
