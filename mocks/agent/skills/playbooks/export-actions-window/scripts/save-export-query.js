// Keep the export's query as a saved search. Safe to re-run: an existing search of that name is
// read first, and after a failed create the list is read again before anything else (a create that
// timed out may have been stored).
const NAME = 'export: last 30 days';
const QUERY = {
  dateRange: { relative: { unit: 'day', count: 30 } },
  filter: { filterType: 'and', filters: [] },
  limit: 100,
};

const findByName = async () => (await call('config.savedSearch.list', {})).items.find((s) => s.name === NAME);

const existing = await findByName();
if (existing !== undefined) return { savedSearch: existing, created: false };
try {
  return { savedSearch: await call('config.savedSearch.create', { name: NAME, query: QUERY }), created: true };
} catch (error) {
  const stored = await findByName();
  if (stored !== undefined) return { savedSearch: stored, created: false };
  throw error;
}
