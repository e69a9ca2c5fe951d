/** Picking a seeded key from a running engine's admin API, by organization, profile and status. */
import type { AdminApi } from '../../mocks/engine/index.ts';

export function keyOf(
  admin: Pick<AdminApi, 'listKeys'>,
  organizationId: string,
  profile: string,
  status = 'active',
): string {
  const found = admin.listKeys(organizationId).find((k) => k.profile === profile && k.status === status);
  if (found === undefined) throw new Error(`no ${status} ${profile} key in ${organizationId}`);
  return found.key ?? '';
}
