/**
 * One entry of an action's `conversation` as the contract's JSON has it: the view builds them, the
 * reply overlay keeps them.
 */
export interface ConversationEntryJson {
  readonly id: string;
  readonly timestamp: string;
  readonly author: string;
  readonly authorId: string | null;
  readonly authorType: 'USER' | 'AGENT' | 'BOT';
  readonly message: string;
  readonly parentMessageId: string | null;
  readonly mediaUrls: readonly string[];
}
