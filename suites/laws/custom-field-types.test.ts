import { describe, expect, it } from 'vitest';
import { typeKind, valueFor, wrongValueFor, wrongValuesFor } from './custom-fields.ts';

describe('custom-field types read by kind (the spec names no fieldType values)', () => {
  it('one kind whatever the case or separators, none for a name it does not know', () => {
    expect(['number', 'NUMBER', 'Number', 'integer'].map(typeKind)).toEqual(Array(4).fill('number'));
    expect(['single_select', 'singleSelect', 'SINGLE-SELECT'].map(typeKind)).toEqual(Array(3).fill('select'));
    expect(['multi_select', 'MultiSelect'].map(typeKind)).toEqual(['multiselect', 'multiselect']);
    expect(typeKind('geo_point')).toBeUndefined();
  });

  it('a wrong value for every kind but json, a generated value for the kinds that can be written blind', () => {
    expect(wrongValueFor('NUMBER')).toBe('not a number');
    expect(wrongValueFor('Boolean')).toBe('yes');
    expect(wrongValueFor('json')).toBeUndefined();
    expect(wrongValueFor('geo_point')).toBeUndefined();
    expect(valueFor('TEXT')).toBeDefined();
    expect(valueFor('select')).toBeUndefined();
  });

  it('a date field also gets the calendar near misses a lenient parser reads, other kinds one wrong value', () => {
    expect(wrongValuesFor('DATE')).toEqual(['not-a-date', '2023-02-30', '2023-13-01']);
    expect(wrongValuesFor('number')).toEqual(['not a number']);
    expect(wrongValuesFor('json')).toEqual([]);
  });
});
