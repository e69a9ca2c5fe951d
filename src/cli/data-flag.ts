/**
 * Reading `--data FILE` arguments: each file bounded in size, parsed, checked against the data file
 * schema. References (between files, into the generated set) are checked when the engine loads them.
 */
import { readFile, stat } from 'node:fs/promises';
import { schemaProblems } from '../../mocks/engine/data-file/schema.ts';
import type { DataFile } from '../../mocks/engine/data-file/types.ts';
import { DataFileError, MAX_DATA_FILE_BYTES } from '../../mocks/engine/data-file/validate.ts';

/** Reads one data file; throws a `DataFileError` naming the file and every problem. */
export async function readDataFile(path: string): Promise<DataFile> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (cause) {
    throw new DataFileError([{ pointer: '', message: `cannot read: ${(cause as Error).message}` }], path);
  }
  if (size > MAX_DATA_FILE_BYTES)
    throw new DataFileError(
      [{ pointer: '', message: `${size} bytes is larger than the limit of ${MAX_DATA_FILE_BYTES}` }],
      path,
    );
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (cause) {
    throw new DataFileError([{ pointer: '', message: `not JSON: ${(cause as Error).message}` }], path);
  }
  const problems = schemaProblems(value);
  if (problems.length > 0) throw new DataFileError(problems, path);
  return value as DataFile;
}

/** Reads every file, in order. */
export async function readDataFiles(paths: readonly string[]): Promise<DataFile[]> {
  const files: DataFile[] = [];
  for (const path of paths) files.push(await readDataFile(path));
  return files;
}
