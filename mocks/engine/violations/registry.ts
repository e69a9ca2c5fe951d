/**
 * Which violation log and which chaos alias resolver belong to an engine (`../admin/attachments.ts`),
 * apart from the log itself so chaos and the admin routes reach them without carrying the log.
 */
import type { AdminApi } from '../admin/api.ts';
import { Attachments } from '../admin/attachments.ts';
import type { ViolationLog } from './types.ts';

const logs = new Attachments<ViolationLog>();

/** Chaos registers its alias resolver here so the log can name a mangled served id (no import cycle). */
const aliasResolvers = new Attachments<(servedId: string) => string | undefined>();

export const registerViolationLog = (admin: AdminApi, log: ViolationLog): void => logs.set(admin, log);

/** The violation log installed in the engine owning `admin`, if any (the admin routes find it here). */
export const violationLogOf = (admin: AdminApi): ViolationLog | undefined => logs.of(admin);

export const registerAliasResolver = (
  admin: AdminApi,
  resolve: (servedId: string) => string | undefined,
): void => aliasResolvers.set(admin, resolve);

/** The alias resolver chaos registered for the engine owning `admin`, if any. */
export const aliasResolverOf = (admin: AdminApi): ((servedId: string) => string | undefined) | undefined =>
  aliasResolvers.of(admin);
