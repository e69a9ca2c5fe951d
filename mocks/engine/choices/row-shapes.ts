/**
 * Choice `rowShapes`: the items the spec shows only as "arrays of objects" (2.5): agent-detail
 * `metrics` and `queues`, tag volume `data` rows, engagement `conversionFunnel`. The alternate shapes
 * carry the same figures under other names, as another deployment might.
 */
type Row = Record<string, unknown>;

const rows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((r): r is Row => typeof r === 'object' && r !== null) : [];

export function agentDetailRows(data: Row): Row {
  return {
    ...data,
    metrics: rows(data['metrics']).map(({ day, ...values }) => ({ date: day, values })),
    queues: rows(data['queues']).map((q) => ({
      queue: { id: q['queueId'], name: q['queueName'] },
      actions: q['totalActions'],
      workload: q['workload'],
    })),
  };
}

export function tagVolumeRows(data: Row): Row {
  return {
    ...data,
    data: rows(data['data']).map((r) => ({
      period: r['day'],
      tag: { id: r['tagId'], name: r['tagName'] },
      total: r['count'],
      responded: r['responded'],
    })),
  };
}

export function engagementRows(data: Row): Row {
  return {
    ...data,
    conversionFunnel: rows(data['conversionFunnel']).map((r) => ({
      name: r['stage'],
      value: r['count'],
      rate: r['percentage'],
    })),
  };
}
