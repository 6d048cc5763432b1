import { readFile } from 'node:fs/promises';

/**
 * Reads a UTF-8 file, answering undefined when it (or its directory) does not exist: every reference dataset
 * is optional. Other failures, such as a permission error, still throw so a broken deployment is noticed.
 */
export async function readOptionalFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
