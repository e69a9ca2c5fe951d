/**
 * What each planted deviation of the blind deployments must make the suite report: a rule of its
 * section (the deviations and the spec sentences they break are in each folder's DEVIATIONS.md).
 * `level: 'should'` deviations must at least warn; `must` ones fail the run.
 */
export interface DeviationCase {
  readonly id: string;
  readonly rule: string;
  readonly level: 'must' | 'should';
  /**
  /** Laws or rules the targeted run selects, where the rule's own selection brings in slow laws. */
  readonly only?: readonly string[];
}

export const PYTHON_CASES: readonly DeviationCase[] = [
  { id: 'D01', rule: 'LIST-PAGESIZE-RANGE', level: 'must' },
  { id: 'D02', rule: 'LIST-TO-DATE-ONLY-MIDNIGHT', level: 'must' },
  { id: 'D03', rule: 'SEARCH-PAGESIZE-DEFAULT-50', level: 'must' },
  { id: 'D04', rule: 'ID-STRING-PRESERVED', level: 'must' },
  { id: 'D05', rule: 'ID-VARIANT-NOT-RESOLVED', level: 'must' },
  { id: 'D06', rule: 'ORG-OTHER-ORG-ID-NOT-RESOLVED', level: 'must' },
  { id: 'D07', rule: 'SCOPE-ANALYTICS-403', level: 'must' },
  { id: 'D08', rule: 'MOD-CHANGED-CONTENT-409', level: 'must' },
  { id: 'D09', rule: 'MOD-MEDIA-ITEM', level: 'must' },
  { id: 'D10', rule: 'MOD-DECISION-ONLY-WHEN-COMPLETED', level: 'must', only: ['moderation.lifecycle'] },
  { id: 'D11', rule: 'MOD-BATCH-ORDER', level: 'must', only: ['moderation.batch'] },
  { id: 'D12', rule: 'ING-RECORD-URL-ABSOLUTE', level: 'must' },
  { id: 'D13', rule: 'ENG-PLATFORMS-ROWS-UNCHANGED', level: 'should' },
  { id: 'D14', rule: 'AUTH-EXPIRED-KEY-401', level: 'must' },
  { id: 'D15', rule: 'DOCS-OPENAPI-COVERS-REST', level: 'should' },
  { id: 'D16', rule: 'ORG-DATA-SCOPED', level: 'must' },
  { id: 'X01', rule: 'LIST-TO-INCLUSIVE', level: 'must' },
  { id: 'X02', rule: 'MOD-OPTIONAL-TYPES', level: 'must' },
];

export const JAVA_CASES: readonly DeviationCase[] = [
  { id: 'D01', rule: 'LIST-PAGESIZE-RANGE', level: 'must' },
  { id: 'D02', rule: 'LIST-TO-DATE-ONLY-MIDNIGHT', level: 'must' },
  { id: 'D03', rule: 'SEARCH-PAGE-RANGE', level: 'must' },
  { id: 'D04', rule: 'DETAIL-READS-AGREE', level: 'must' },
  { id: 'D05', rule: 'ID-VARIANT-NOT-RESOLVED', level: 'must' },
  { id: 'D06', rule: 'ORG-DATA-SCOPED', level: 'must' },
  { id: 'D07', rule: 'MOD-CHANGED-CONTENT-409', level: 'must' },
  { id: 'D08', rule: 'MOD-BATCH-ORDER', level: 'must', only: ['moderation.batch'] },
  { id: 'D09', rule: 'MOD-DECISION-ONLY-WHEN-COMPLETED', level: 'must', only: ['moderation.lifecycle'] },
  { id: 'D10', rule: 'AUTH-WRITE-KEY-NO-INGEST-403', level: 'must' },
  { id: 'D11', rule: 'SCHEMA-SENTIMENT-DAY-ROW', level: 'must' },
  { id: 'D12', rule: 'AUTH-EXPIRED-KEY-401', level: 'must' },
  { id: 'D13', rule: 'DOCS-OPENAPI-COVERS-REST', level: 'should' },
  { id: 'D14', rule: 'LIST-FULLFILTER-WITH-FILTER-400', level: 'must' },
  { id: 'X01', rule: 'LIST-TO-INCLUSIVE', level: 'must' },
  { id: 'X02', rule: 'ING-PLATFORM-ENUM', level: 'must' },
];

export const NODE_CASES: readonly DeviationCase[] = [
  { id: 'D01', rule: 'LIST-PAGESIZE-RANGE', level: 'must' },
  { id: 'D02', rule: 'LIST-TO-DATE-ONLY-MIDNIGHT', level: 'must' },
  { id: 'D03', rule: 'AGENT-DETAIL-ID-FROM-LIST', level: 'must' },
  { id: 'D04', rule: 'ORG-OTHER-ORG-ID-NOT-RESOLVED', level: 'must' },
  { id: 'D05', rule: 'AUTH-READ-KEY-WRITE-ROUTE-403', level: 'must' },
  { id: 'D06', rule: 'MOD-CHANGED-CONTENT-409', level: 'must' },
  { id: 'D07', rule: 'MOD-DECISION-ONLY-WHEN-COMPLETED', level: 'must', only: ['moderation.lifecycle'] },
  { id: 'D08', rule: 'ING-RECORD-SCORE-RANGE', level: 'must' },
  { id: 'D09', rule: 'ING-ACCEPTED-COUNT', level: 'must' },
  { id: 'D10', rule: 'ANALYTICS-RESPONDED-ONLY-NOT-MORE', level: 'should' },
  { id: 'D11', rule: 'ENG-PLATFORMS-FILTER', level: 'should' },
  { id: 'D12', rule: 'AUTH-EXPIRED-KEY-401', level: 'must' },
  { id: 'D13', rule: 'ERR-GENERAL-BODY', level: 'must' },
  { id: 'D14', rule: 'DOCS-OPENAPI-PARAMETERS-TRUE', level: 'must' },
  { id: 'D15', rule: 'LIST-SORTBY-WINDOW-FIELD', level: 'must' },
  { id: 'D16', rule: 'MOD-BATCH-ITEM-ISOLATION', level: 'must' },
  { id: 'D17', rule: 'ING-PROCESSING-LEVEL-ENUM', level: 'must' },
  { id: 'X01', rule: 'MOD-MEDIA-ITEM', level: 'must' },
];
