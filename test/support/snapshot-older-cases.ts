/**
 * An engine image whose moderation cases have the shape snapshots of formats 1 and 2 held (kept frozen
 * here, never used by the mock): the submission as an object tree in `submission`, no `submissionJson`.
 * The engine's own state is left as it is: the image holds copies of the moderation maps and cases.
 * Tests capture it to prove a snapshot written before format 3 still loads and answers as before.
 */
import type { ModerationCase } from '../../mocks/engine/moderation/types.ts';
import type { EngineImage } from '../../mocks/engine/store/types.ts';

/** `image` with every moderation case as formats 1 and 2 kept it. */
export function withSubmissionObjects(image: EngineImage): EngineImage {
  const moderation = image.state.moderation;
  const older = new Map<ModerationCase, object>();
  const byCaseId = new Map<string, object>();
  for (const [caseId, found] of moderation.byCaseId) {
    const { submissionJson, ...rest } = found;
    const made = {
      caseId: rest.caseId,
      organizationId: rest.organizationId,
      externalId: rest.externalId,
      submission: JSON.parse(submissionJson) as unknown,
      canonical: rest.canonical,
      fingerprint: rest.fingerprint,
      acceptedAt: rest.acceptedAt,
      evaluations: rest.evaluations,
    };
    older.set(found, made);
    byCaseId.set(caseId, made);
  }
  const organizations = new Map(
    [...moderation.organizations].map(([id, slot]) => [
      id,
      {
        ...slot,
        byExternalId: new Map([...slot.byExternalId].map(([externalId, c]) => [externalId, older.get(c)])),
      },
    ]),
  );
  const state = { ...image.state, moderation: { ...moderation, byCaseId, organizations } };
  return { ...image, state: state as unknown as EngineImage['state'] };
}
