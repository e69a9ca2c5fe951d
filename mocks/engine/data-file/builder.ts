/**
 * A typed builder of data files for tests: state only what a test is about, defaults fill the rest.
 * It produces the same format `cca-kit mock --data` reads (docs/data-format.md).
 *
 * @example
 * const data = scenario()
 *   .organization('org_demo', { moderationMode: 'ad_policy' })
 *   .agent({ userId: '9007199254740993123', name: 'Ada' })
 *   .queue({ id: 'q_vip', name: 'VIP' })
 *   .action({
 *     status: 'ESCALATED',
 *     queue: 'q_vip',
 *     assignee: '9007199254740993123',
 *     messages: [userSays('It broke', '-2h'), agentSays('Looking', '-90m'), agentSays('Fixed?', '-1h')],
 *   })
 *   .build();
 * const engine = createEngine({ data });
 */
import type {
  DataFile,
  DataFileAction,
  DataFileAgent,
  DataFileCustomField,
  DataFileKey,
  DataFileMessage,
  DataFileModerationCase,
  DataFileOrganization,
  DataFileQueue,
  DataFileReplyRequest,
  DataFileTag,
  Timestamp,
} from './types.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A customer message; its id is filled by the builder when not given. */
export function userSays(message: string, at: Timestamp, extra: Partial<DataFileMessage> = {}): MessageDraft {
  return { message, timestamp: at, authorType: 'USER', ...extra };
}

/** An agent message (an action with one is "responded"). */
export function agentSays(
  message: string,
  at: Timestamp,
  extra: Partial<DataFileMessage> = {},
): MessageDraft {
  return { message, timestamp: at, authorType: 'AGENT', author: 'Agent', ...extra };
}

export type MessageDraft = Partial<DataFileMessage> &
  Pick<DataFileMessage, 'message' | 'timestamp' | 'authorType'>;

export type ActionDraft = Partial<Omit<DataFileAction, 'messages' | 'user'>> & {
  readonly messages?: readonly MessageDraft[];
  readonly user?: Partial<DataFileAction['user']>;
};

export type ModerationCaseDraft = Partial<
  Pick<DataFileModerationCase, 'organizationId' | 'caseId' | 'acceptedAt'>
> & {
  readonly submission?: Readonly<Record<string, unknown>>;
} & (
    | { readonly analysisStatus: 'pending' | 'running' }
    | { readonly analysisStatus: 'completed'; readonly decision?: Readonly<Record<string, unknown>> }
    | { readonly analysisStatus: 'failed'; readonly failureCode?: string }
  );

type OrgDraft = Mutable<DataFileOrganization> & {
  agents: DataFileAgent[];
  queues: DataFileQueue[];
  tagGroups: string[];
  tags: DataFileTag[];
  closingTags: DataFileTag[];
  customFields: DataFileCustomField[];
};

/** A submission the contract accepts, for cases a test states only the status of. */
function defaultSubmission(externalId: string): Record<string, unknown> {
  return {
    externalId,
    sourceSystem: 'tests',
    sourcePlatform: 'meta',
    sourceAdId: `ad_${externalId}`,
    advertiserName: 'Example Advertiser',
    market: 'US',
    placement: 'feed',
    landingPageUrl: 'https://example.com/',
    title: 'An ordinary ad',
    media: [{ url: 'https://example.com/ad.png', type: 'image', position: 1 }],
    attachment: { type: 'web_view', destinationUrl: 'https://example.com/' },
    targeting: { ageMin: 18, geos: ['US'] },
    copy: { body: 'Buy our ordinary product.' },
  };
}

const DEFAULT_DECISION = {
  disposition: 'approve',
  confidence: 'high',
  title: null,
  reason: 'Nothing in the ad breaks the policy.',
  hits: [],
  advertiserAssessment: { polarity: 'POSITIVE', reasoning: 'Known advertiser.' },
  landingAssessment: { polarity: 'POSITIVE', reasoning: 'The landing page matches the ad.' },
  decisionSource: 'model',
  failureCode: null,
  failureMessage: null,
};

/** A reply request: everything but `state` has a default (the last action of the organization, a fresh UUID). */
export type ReplyRequestDraft = Partial<DataFileReplyRequest> & Pick<DataFileReplyRequest, 'state'>;

export class ScenarioBuilder {
  readonly #orgs: OrgDraft[] = [];
  readonly #keys: DataFileKey[] = [];
  readonly #actions: DataFileAction[] = [];
  readonly #cases: DataFileModerationCase[] = [];
  readonly #replies: DataFileReplyRequest[] = [];
  #counter = 0;

  #current(what: string): OrgDraft {
    const org = this.#orgs[this.#orgs.length - 1];
    if (org === undefined) throw new Error(`scenario(): call .organization(id) before .${what}()`);
    return org;
  }

  #next(): number {
    this.#counter += 1;
    return this.#counter;
  }

  /** Starts an organization; the calls that follow add to it. */
  organization(id: string, options: Pick<DataFileOrganization, 'name' | 'moderationMode'> = {}): this {
    this.#orgs.push({
      id,
      name: options.name ?? id,
      moderationMode: options.moderationMode ?? 'standard',
      agents: [],
      queues: [],
      tagGroups: [],
      tags: [],
      closingTags: [],
      customFields: [],
    });
    return this;
  }

  agent(agent: Partial<DataFileAgent> & Pick<DataFileAgent, 'userId'>): this {
    const org = this.#current('agent');
    const name = agent.name ?? `Agent ${agent.userId}`;
    org.agents.push({
      userId: agent.userId,
      name,
      email: agent.email ?? `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`,
      role: agent.role ?? 'agent',
    });
    return this;
  }

  queue(queue: DataFileQueue): this {
    this.#current('queue').queues.push({ ...queue });
    return this;
  }

  /** A tag (its group is declared on the way); `closing: true` for a closing tag. */
  tag(tag: DataFileTag & { readonly closing?: boolean }): this {
    const org = this.#current('tag');
    if (!org.tagGroups.includes(tag.group)) org.tagGroups.push(tag.group);
    const { closing, ...plain } = tag;
    (closing === true ? org.closingTags : org.tags).push(plain);
    return this;
  }

  customField(field: Partial<DataFileCustomField> & Pick<DataFileCustomField, 'name' | 'type'>): this {
    this.#current('customField').customFields.push({
      name: field.name,
      displayName: field.displayName ?? field.name,
      type: field.type,
      ...(field.options === undefined ? {} : { options: field.options }),
    });
    return this;
  }

  /** A key of the current organization (default: active, reporting). Organizations without keys get one of each profile. */
  key(key: Partial<DataFileKey> & Pick<DataFileKey, 'key'>): this {
    const org = this.#current('key');
    this.#keys.push({ organizationId: org.id, profile: 'reporting', ...key });
    return this;
  }

  /** An action of the current organization; every field has a default (one customer message an hour ago). */
  action(draft: ActionDraft = {}): this {
    const org = this.#current('action');
    const n = this.#next();
    const actionId = draft.actionId ?? `act_${n}`;
    const title = draft.title ?? `Action ${n}`;
    const createdAt = draft.createdAt ?? draft.messages?.[0]?.timestamp ?? '-1h';
    const user = {
      userId: draft.user?.userId ?? `U${String(n).padStart(4, '0')}`,
      name: draft.user?.name ?? `Customer ${n}`,
      username: draft.user?.username ?? `customer${n}`,
      email: draft.user?.email ?? null,
      followerCount: draft.user?.followerCount ?? null,
    };
    const drafts = draft.messages ?? [{ message: title, timestamp: createdAt, authorType: 'USER' as const }];
    const messages: DataFileMessage[] = drafts.map((m, k) => ({
      id: m.id ?? `${actionId}_m${k + 1}`,
      timestamp: m.timestamp,
      author: m.author ?? (m.authorType === 'USER' ? user.name : m.authorType === 'BOT' ? 'Bot' : 'Agent'),
      authorId: m.authorId ?? (m.authorType === 'USER' ? user.userId : null),
      authorType: m.authorType,
      message: m.message,
      mediaUrls: m.mediaUrls ?? [],
      ...(m.parentMessageId === undefined ? {} : { parentMessageId: m.parentMessageId }),
    }));
    const { messages: _m, user: _u, ...rest } = draft;
    this.#actions.push({
      organizationId: org.id,
      platform: 'SLACK',
      serverName: `${org.name ?? org.id} Slack`,
      channelName: 'support',
      recordType: 'message',
      ...rest,
      actionId,
      title,
      createdAt,
      user,
      messages,
    });
    return this;
  }

  /** A moderation case in any analysis state; the submission and decision have valid defaults. */
  moderationCase(draft: ModerationCaseDraft): this {
    const org = this.#current('moderationCase');
    const n = this.#next();
    const submission = draft.submission ?? defaultSubmission(`ext_${n}`);
    const base = {
      organizationId: draft.organizationId ?? org.id,
      caseId: draft.caseId ?? `mc_${String(n).padStart(16, '0')}`,
      submission,
      ...(draft.acceptedAt === undefined ? {} : { acceptedAt: draft.acceptedAt }),
    };
    if (draft.analysisStatus === 'completed')
      this.#cases.push({
        ...base,
        analysisStatus: 'completed',
        decision: draft.decision ?? DEFAULT_DECISION,
      });
    else if (draft.analysisStatus === 'failed')
      this.#cases.push({
        ...base,
        analysisStatus: 'failed',
        failureCode: draft.failureCode ?? 'EVALUATION_TIMEOUT',
      });
    else this.#cases.push({ ...base, analysisStatus: draft.analysisStatus });
    return this;
  }

  /**
   * A reply request of the agent interface in any state, to the last action of the current
   * organization unless `actionId` is given (docs/data-format.md, "Reply requests").
   *
   * @example
   * scenario().organization('org_a').action({ actionId: 'a1' }).replyRequest({ state: 'delivered', text: 'Fixed' })
   */
  replyRequest(draft: ReplyRequestDraft): this {
    const org = this.#current('replyRequest');
    const n = this.#next();
    const organizationId = draft.organizationId ?? org.id;
    const actionId =
      draft.actionId ?? this.#actions.findLast((a) => a.organizationId === organizationId)?.actionId;
    if (actionId === undefined)
      throw new Error(
        'scenario(): .replyRequest() needs an actionId or an .action() of the organization before it',
      );
    this.#replies.push({
      ...draft,
      organizationId,
      requestId: draft.requestId ?? `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
      actionId,
      text: draft.text ?? `Reply ${n}`,
    });
    return this;
  }

  /** The data file (a fresh copy each call). */
  build(): DataFile {
    return structuredClone({
      version: 1,
      organizations: this.#orgs,
      keys: this.#keys,
      actions: this.#actions,
      moderationCases: this.#cases,
      ...(this.#replies.length === 0 ? {} : { replyRequests: this.#replies }),
    });
  }
}

/** Starts a scenario. See `ScenarioBuilder`. */
export function scenario(): ScenarioBuilder {
  return new ScenarioBuilder();
}
