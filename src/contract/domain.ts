/**
 * The domain's records that every layer names: organizations, keys, their profiles and scopes (spec
 * section 5). They live below the fixtures and the engine so that the seed generator and the engine
 * share them without the one importing the other.
 */

/** Scopes carried by an API key (spec section 5.4). */
export type Scope = 'read' | 'write' | 'ingest' | 'ingest:read';
export type KeyProfile = 'reporting' | 'write' | 'read_write' | 'import';
export type KeyStatus = 'active' | 'expired' | 'revoked';
export type ModerationMode = 'ad_policy' | 'standard';

export interface Organization {
  readonly id: string;
  readonly name: string;
  moderationMode: ModerationMode;
}

/** A key as given by value: the seeded set, a test's fixture. The engine keeps a `KeyRecord` instead. */
export interface ApiKeyRecord {
  readonly key: string;
  readonly name: string;
  readonly organizationId: string;
  readonly profile: KeyProfile;
  /** Epoch ms on the engine clock; null means the key never expires. */
  readonly expiresAt: number | null;
  revoked: boolean;
}

/**
 * A key as the engine holds it: by the SHA-256 of its value (`sha256:` and 64 hex digits), never the
 * value, so a snapshot, a log or an export of the state carries no key a client could present.
 */
export interface KeyRecord {
  readonly keyHash: string;
  readonly name: string;
  readonly organizationId: string;
  readonly profile: KeyProfile;
  /** Epoch ms on the engine clock; null means the key never expires. */
  readonly expiresAt: number | null;
  revoked: boolean;
  /** For a key the engine created: its creation counter, from which (with the seed) the value derives. */
  readonly createdAs?: number;
}
