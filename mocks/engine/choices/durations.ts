/**
 * Choice `durationFormat`: how `firstResponseTime` and `handleTime` are written. The spec says only
 * that they are "exported duration values, not timestamps" (2.1); the mock stores ISO 8601 durations.
 */
import type { Choices } from '../../../src/contract/choice-points.ts';

const ISO = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/;

function seconds(iso: string): number | undefined {
  const m = ISO.exec(iso);
  if (m === null) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

const two = (n: number): string => String(n).padStart(2, '0');

/** A stored duration as the chosen format writes it (null and unreadable values unchanged). */
export function durationOut(choices: Pick<Choices, 'durationFormat'>, value: unknown): unknown {
  if (choices.durationFormat === 'iso8601' || typeof value !== 'string') return value;
  const s = seconds(value);
  if (s === undefined) return value;
  if (choices.durationFormat === 'seconds') return String(s);
  return `${two(Math.floor(s / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}
