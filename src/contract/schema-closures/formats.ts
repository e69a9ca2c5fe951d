/**
 * The formats the browser build registers: only those the schemas it compiles use (contract/openapi.json,
 * contract/data.schema.json and the agent contract use `date-time` and `uri`, nothing else). ajv-formats'
 * whole `fullFormats` object (~2.7 KB of a page's gzip) is not kept in a page for two of its entries.
 * A schema with any other format fails to compile, naming the format and the schema path (./values.ts),
 * and test/schema-closures-formats.test.ts walks the contract so that adding a format there fails first.
 *
 * Ported from ajv-formats 3.0.1 `dist/formats.js` (full mode), kept to the same outcome on every string
 * (held to ajv-formats by a property test):
 * MIT License, Copyright (c) 2020 Evgeny Poberezkin. https://github.com/ajv-validator/ajv-formats
 */
import type { Format } from 'ajv/dist/2020.js';

// https://tools.ietf.org/html/rfc3339#appendix-C
const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** full-date of RFC 3339 section 5.6. */
function date(str: string): boolean {
  const matches = DATE.exec(str);
  if (!matches) return false;
  const year = +(matches[1] ?? '');
  const month = +(matches[2] ?? '');
  const day = +(matches[3] ?? '');
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= (month === 2 && isLeapYear(year) ? 29 : (DAYS[month] ?? 0))
  );
}

const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;

/** full-time of RFC 3339 section 5.6, the zone required (ajv-formats' `getTime(true)`). */
function time(str: string): boolean {
  const matches = TIME.exec(str);
  if (!matches) return false;
  const hr = +(matches[1] ?? '');
  const min = +(matches[2] ?? '');
  const sec = +(matches[3] ?? '');
  const tz = matches[4];
  const tzSign = matches[5] === '-' ? -1 : 1;
  const tzH = +(matches[6] || 0);
  const tzM = +(matches[7] || 0);
  if (tzH > 23 || tzM > 59 || !tz) return false;
  if (hr <= 23 && min <= 59 && sec < 60) return true;
  // A leap second: 23:59:60 in UTC, whatever the local offset.
  const utcMin = min - tzM * tzSign;
  const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
}

const DATE_TIME_SEPARATOR = /t|\s/i;

/** date-time of RFC 3339 section 5.6 (ajv-formats' `getDateTime(true)`). */
function dateTime(str: string): boolean {
  const parts = str.split(DATE_TIME_SEPARATOR);
  return parts.length === 2 && date(parts[0] ?? '') && time(parts[1] ?? '');
}

/** ajv-formats' order of two date-times (what `formatMaximum` and its kin would use). */
function compareDateTime(dt1: string, dt2: string): number | undefined {
  if (!(dt1 && dt2)) return undefined;
  const d1 = new Date(dt1).valueOf();
  const d2 = new Date(dt2).valueOf();
  if (!(d1 && d2)) return undefined;
  return d1 - d2;
}

// http://jmrware.com/articles/2009/uri_regexp/URI_regex.html + optional protocol + required "."
const NOT_URI_FRAGMENT = /\/|:/;
const URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/**
 * An absolute URI of RFC 3986 (ajv-formats' full `uri`). NOT_URI_FRAGMENT holds wherever URI matches (a
 * scheme ends in `:`); ajv-formats tests it first as a quick reject, kept here to stay its copy.
 */
function uri(str: string): boolean {
  return NOT_URI_FRAGMENT.test(str) && URI.test(str);
}

/** The formats the closure build registers, by name, each as ajv-formats' full format of that name. */
export const closureFormats: Readonly<Record<string, Format>> = {
  'date-time': { validate: dateTime, compare: compareDateTime },
  uri,
};
