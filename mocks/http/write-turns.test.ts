/**
 * Reads first: a read starts at once, writes start in the check phase of the turn, at most `perTurn`
 * a turn and in the order they came; 0 starts everything at once; a bad count is refused by name.
 */
import { describe, expect, it } from 'vitest';
import { writeTurns } from './write-turns.ts';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('writes per turn', () => {
  it('starts reads at once and writes at most perTurn a turn, in order, after the reads of their turn', async () => {
    const start = writeTurns(2);
    const started: string[] = [];
    for (const [method, name] of [
      ['POST', 'w1'],
      ['PATCH', 'w2'],
      ['GET', 'r1'],
      ['DELETE', 'w3'],
      ['head', 'r2'],
      ['PUT', 'w4'],
      ['OPTIONS', 'r3'],
      ['POST', 'w5'],
    ] as const)
      start(method, () => started.push(name));
    expect(started).toEqual(['r1', 'r2', 'r3']);
    await nextTurn();
    expect(started).toEqual(['r1', 'r2', 'r3', 'w1', 'w2']);
    start('GET', () => started.push('r4'));
    expect(started.at(-1)).toBe('r4');
    await nextTurn();
    expect(started.slice(-2)).toEqual(['w3', 'w4']);
    await nextTurn();
    expect(started.at(-1)).toBe('w5');
    await nextTurn();
    expect(started).toHaveLength(9);
  });

  it('a write alone starts within the turn it came in', async () => {
    const start = writeTurns(4);
    let done = false;
    start('POST', () => {
      done = true;
    });
    await nextTurn();
    expect(done).toBe(true);
  });

  it('0 starts every request at once', () => {
    const start = writeTurns(0);
    const started: string[] = [];
    start('POST', () => started.push('w'));
    start(undefined, () => started.push('r'));
    expect(started).toEqual(['w', 'r']);
  });

  it('refuses a count that is not a whole number >= 0, naming it', () => {
    expect(() => writeTurns(-1)).toThrow(/writes per turn must be a whole number >= 0, got -1/);
    expect(() => writeTurns(1.5)).toThrow(/got 1.5/);
  });
});
