/**
 * A path segment may carry the sub-delimiters and `:` `@` as they are (RFC 3986 section 3.3, pchar),
 * and there they stand for themselves: `+` is a plus sign in a path (reading it as a space is the
 * form encoding of query strings only). A client that encodes only what a path must encode sends
 * `GET /v0/action/a+b` for the action `a+b`; section 2 keeps identifiers "exactly", so that request
 * reads the same action as the fully percent-encoded one.
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { sampleActionIds } from './discover.ts';
import { callPath, obj, str } from './support.ts';

const RULE = 'ID-PATH-SUB-DELIMS-RAW';
/** What encodeURIComponent encodes that a path segment may carry raw. */
const RAW_IN_PATH = /[$&+,;=:@]/;
const MAX_IDS = 3;

/** The id with only what a path segment cannot carry percent-encoded. */
export function minimallyEncoded(id: string): string {
  return encodeURIComponent(id).replace(/%(24|26|2B|2C|3B|3D|3A|40)/g, (m) => decodeURIComponent(m));
}

export const rawPathCharacters: Law = {
  id: 'identity.raw-path-characters',
  group: 'identity',
  title: 'an action id with + & = ; , $ : @ written raw in the path reads the same action as percent-encoded',
  ruleIds: [RULE],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const ids = (await sampleActionIds(ctx)).filter((id) => RAW_IN_PATH.test(id)).slice(0, MAX_IDS);
      let checks = 0;
      for (const id of ids) {
        const read = async (segment: string) => {
          const res = await callPath(ctx, 'GET', `/v0/action/${segment}`, { auth: 'read' });
          // The detail record is the body itself (4.2).
          const body = res.kind === 'http' && res.ok && res.status === 200 ? obj(res.body) : {};
          return { status: res.status, actionId: str(body['actionId']) };
        };
        const encoded = await read(encodeURIComponent(id));
        // The id as listed is not readable even fully encoded: another law's finding.
        if (encoded.status !== 200 || encoded.actionId !== id) continue;
        const raw = minimallyEncoded(id);
        const got = await read(raw);
        checks += 1;
        if (got.status !== 200 || got.actionId !== id)
          violate(
            RULE,
            'raw-sub-delims',
            `GET /v0/action/${raw} answers ${got.status}${got.actionId === undefined ? '' : ` reading ${JSON.stringify(got.actionId)}`}, while GET /v0/action/${encodeURIComponent(id)} reads ${JSON.stringify(id)}: a path keeps + & = ; , $ : @ as themselves`,
            { id, raw },
          );
      }
      return checks;
    }),
};
