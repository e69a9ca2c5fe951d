/** Which journal belongs to an engine (`../admin/attachments.ts`): the admin routes find it here. */
import { Attachments } from '../admin/attachments.ts';
import type { Journal } from './types.ts';

export const journalAttachments = new Attachments<Journal>();
