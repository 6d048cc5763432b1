import { join } from 'node:path';

import { readOptionalFile } from './read-optional-file.js';

/** A FedACH participant as the Fed's directory names it. */
export interface RoutingBank {
  /** The Fed's abbreviated, upper-case institution name, trimmed ("JPMORGAN CHASE"). */
  readonly bankName: string;
  readonly city: string;
  readonly state: string;
  /** Present when the record says items now go to another routing number (merger or renumbering). */
  readonly newRoutingNumber?: string;
}

/** Routing number lookup, built once at start. */
export interface RoutingDirectory {
  /** Answers undefined for anything but a routing number in the directory (surrounding spaces are ignored). */
  lookup(routing: string): RoutingBank | undefined;
  readonly size: number;
  /** `fedach` when the directory file was read, `none` when there is no directory (every lookup misses). */
  readonly source: 'fedach' | 'none';
}

/** The FedACH directory's path inside the reference data directory. */
export const FEDACH_FILE = join('fedach', 'FedACHdir.txt');

const ROUTING_PATTERN = /^\d{9}$/;
const NO_NEW_ROUTING_NUMBER = '000000000';
const RECORD_LENGTH = 155;

/** Loads the FedACH participant directory from `dir`; without `dir` or the file, an empty directory. */
export async function loadRoutingDirectory(dir?: string): Promise<RoutingDirectory> {
  const text = dir === undefined ? undefined : await readOptionalFile(join(dir, FEDACH_FILE));
  const banks = text === undefined ? new Map<string, RoutingBank>() : parseFedAchDirectory(text);
  return {
    lookup: (routing) => {
      const key = routing.trim();
      return ROUTING_PATTERN.test(key) ? banks.get(key) : undefined;
    },
    size: banks.size,
    source: text === undefined ? 'none' : 'fedach',
  };
}

/**
 * Parses the Fed's fixed-width FedACHdir.txt (155-character records; positions in the data directory's
 * SOURCES.md). Names, cities and states are kept as the file spells them, only trimmed. Records too short or
 * without a 9-digit routing number are skipped; a repeated routing number keeps its first record.
 */
export function parseFedAchDirectory(text: string): Map<string, RoutingBank> {
  const banks = new Map<string, RoutingBank>();
  for (const rawLine of text.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    // The filler after the status codes may be trimmed by an editor; the fields up to the ZIP must be there.
    if (line.length < 134 || line.length > RECORD_LENGTH) continue;
    const routing = line.slice(0, 9);
    if (!ROUTING_PATTERN.test(routing) || banks.has(routing)) continue;
    const recordType = line.slice(19, 20);
    const newRouting = line.slice(26, 35);
    const bank: RoutingBank = {
      bankName: line.slice(35, 71).trim(),
      city: line.slice(107, 127).trim(),
      state: line.slice(127, 129).trim(),
      ...(recordType === '2' && ROUTING_PATTERN.test(newRouting) && newRouting !== NO_NEW_ROUTING_NUMBER
        ? { newRoutingNumber: newRouting }
        : {}),
    };
    banks.set(routing, bank);
  }
  return banks;
}
