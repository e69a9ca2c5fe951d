/**
 * The keys slice: authentication of a presented key (`authenticate.ts`, spec section 5) and the
 * mock's own key management (`key-admin.ts`: creation, revocation, ids).
 */
export * from './authenticate.ts';
export * from './key-admin.ts';
