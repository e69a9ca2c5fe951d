/**
 * A valid moderation submission to start tests and examples from. Every required field of spec 2.7
 * is present and the decision engine approves it (no rule fires).
 *
 * @example
 * const submission = sampleSubmission({ externalId: 'ad-42', title: 'A miracle cream' }); // → reject
 */
export function sampleSubmission(overrides: { readonly [key: string]: unknown } = {}): {
  [key: string]: unknown;
} {
  return {
    externalId: 'ext-0001',
    sourceSystem: 'ads-manager',
    sourcePlatform: 'snapchat',
    sourceAdId: 'ad-123',
    advertiserName: 'Acme Outdoor',
    market: 'US',
    placement: 'story',
    landingPageUrl: 'https://acme.example/tents',
    title: 'Lightweight tents for every trip',
    media: [{ url: 'https://cdn.acme.example/tent.jpg', type: 'image', position: 1 }],
    attachment: { type: 'web_view', destinationUrl: 'https://acme.example/tents' },
    targeting: { ageMin: 18, geos: ['US'] },
    copy: { body: 'Pitch up in minutes.' },
    ...overrides,
  };
}
