import { describe, expect, it } from 'vitest';

import { parseCsv, parseCsvRecords } from './csv.js';

describe('parseCsv', () => {
  it('splits plain rows and keeps empty fields', () => {
    expect(parseCsv('a,b,c\n1,,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '', '3'],
    ]);
  });

  it('reads quoted fields holding commas, doubled quotes and line breaks', () => {
    const text = '1,"Meta Platforms, Inc.",x\n2,"5\'10"" ""Tall"" Co","line one\nline two"\n';
    expect(parseCsv(text)).toEqual([
      ['1', 'Meta Platforms, Inc.', 'x'],
      ['2', '5\'10" "Tall" Co', 'line one\nline two'],
    ]);
  });

  it('treats a quote inside an unquoted field as a literal character', () => {
    expect(parseCsv('Nurses\' Aide,6" Pipe Fitter\n')).toEqual([["Nurses' Aide", '6" Pipe Fitter']]);
  });

  it('accepts CRLF line ends, a byte-order mark and a missing final line break', () => {
    expect(parseCsv('\ufeffa,b\r\n"x",y')).toEqual([
      ['a', 'b'],
      ['x', 'y'],
    ]);
  });

  it('keeps a lone carriage return inside a field', () => {
    expect(parseCsv('a\rb,c\n')).toEqual([['a\rb', 'c']]);
  });

  it('reads an empty quoted field and a quoted field at the end of the file', () => {
    expect(parseCsv('"",""""\n"last"')).toEqual([['', '"'], ['last']]);
  });

  it('keeps a trailing empty field', () => {
    expect(parseCsv('a,\n')).toEqual([['a', '']]);
  });

  it('throws on an unterminated quoted field', () => {
    expect(() => parseCsv('a,"never closed\n')).toThrow(/unterminated/);
  });
});

describe('parseCsvRecords', () => {
  it('maps rows to the requested columns, skipping blank lines and padding short rows', () => {
    const text = 'title,soc_codes,sources\n"Teacher, 3rd Grade",25-2021,bls_dmtf\n\nNurse\n';
    expect(parseCsvRecords(text, ['title', 'sources'])).toEqual([
      { title: 'Teacher, 3rd Grade', sources: 'bls_dmtf' },
      { title: 'Nurse', sources: '' },
    ]);
  });

  it('throws when a required column is missing', () => {
    expect(() => parseCsvRecords('name,count\nMary,1\n', ['name', 'rank'])).toThrow(/missing column "rank"/);
  });

  it('answers no records for an empty file', () => {
    expect(parseCsvRecords('', ['name'])).toEqual([]);
  });
});
