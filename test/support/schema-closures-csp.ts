/**
 * Run by test/schema-closures.test.ts in a child `node --disallow-code-generation-from-strings --import tsx`:
 * compiles every component schema of the contract and contract/data.schema.json with `ClosureAjv` (or,
 * with argument `ajv`, with ajv itself, which must fail there) and validates a value. Prints a JSON verdict.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import dataSchema from '../../contract/data.schema.json' with { type: 'json' };
import { contractDocument } from '../../src/contract/load.ts';
import { addFormats, ClosureAjv } from '../../src/contract/schema-closures/index.ts';
import {
  annotationKeywords,
  componentSchemas,
  rewriteRefs,
  SCHEMA_ID_PREFIX,
} from '../../src/contract/validator-schemas.ts';

const engine = process.argv[2] ?? 'closures';
try {
  const options = { strict: true, allErrors: true, allowUnionTypes: true, validateSchema: false } as const;
  const make = () => (engine === 'ajv' ? new Ajv2020(options) : new ClosureAjv(options));
  const ajv = make();
  if (ajv instanceof ClosureAjv) addFormats(ajv);
  else ajv.addFormat('date-time', true).addFormat('uri', true);
  // The contract's own annotation keywords, as the package's validators accept them.
  for (const keyword of annotationKeywords(contractDocument))
    if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  const names = Object.keys(componentSchemas(contractDocument));
  for (const name of names)
    ajv.addSchema(
      rewriteRefs(componentSchemas(contractDocument)[name]) as object,
      `${SCHEMA_ID_PREFIX}${name}`,
    );
  let invalid = 0;
  for (const name of names) if (ajv.getSchema(`${SCHEMA_ID_PREFIX}${name}`)?.({ id: 1 }) === false) invalid++;
  const data = new ClosureAjv({ ...options, strictRequired: false });
  const validData = engine === 'ajv' ? make().compile(dataSchema) : data.compile(dataSchema);
  const ok = validData({ version: 1, organizations: [] });
  console.log(JSON.stringify({ ok: true, compiled: names.length + 1, invalid, dataValid: ok }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, error: String(error) }));
}
