/**
 * The data of a tool result as the tests read it: a success's structuredContent, or a failure's JSON
 * (a failure is an isError result whose text is the failure JSON, with no structuredContent).
 */
export function answerData<T = unknown>(result: {
  structuredContent?: unknown;
  content?: unknown;
}): T | undefined {
  if (result.structuredContent !== undefined) return result.structuredContent as T;
  const blocks = Array.isArray(result.content)
    ? (result.content as { type?: unknown; text?: unknown }[])
    : [];
  const text = blocks.find((b) => b.type === 'text')?.text;
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
