/** Which chaos modes belong to an engine (`../admin/attachments.ts`): the admin routes find them here. */
import { Attachments } from '../admin/attachments.ts';
import type { Chaos } from './types.ts';

export const chaosAttachments = new Attachments<Chaos>();
