import { TIME_UNITS } from '../parse/extract.ts';

const MS_PER_DAY = 86_400_000;

/** A date's fields (proleptic Gregorian, UTC) from its epoch day. */
function civil(epochDay: number): { year: number; month: number; day: number; dow: number } {
  const d = new Date(epochDay * MS_PER_DAY);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), dow: d.getUTCDay() };
}

/** ISO 8601's week number and week-based year: the week (Monday to Sunday) of the day's Thursday. */
function isoWeek(epochDay: number): { week: number; year: number } {
  const isoDow = (civil(epochDay).dow + 6) % 7; // Monday 0 .. Sunday 6
  const thursday = epochDay - isoDow + 3;
  const year = civil(thursday).year;
  const janFirst = Date.UTC(year, 0, 1) / MS_PER_DAY;
  return { week: Math.floor((thursday - janFirst) / 7) + 1, year };
}

/** A unit of the date (TIME_UNITS' 'date' ones) of an epoch day, as Flink's DateTimeUtils computes it. */
function dateField(unit: string, epochDay: number): number {
  const { year, month, day, dow } = civil(epochDay);
  switch (unit) {
    case 'YEAR':
      return year;
    case 'QUARTER':
      return Math.trunc((month + 2) / 3);
    case 'MONTH':
      return month;
    case 'DAY':
      return day;
    case 'WEEK':
      return isoWeek(epochDay).week;
    case 'ISOYEAR':
      return isoWeek(epochDay).year;
    case 'DOW': // Sunday 1 .. Saturday 7
      return dow + 1;
    case 'ISODOW': // Monday 1 .. Sunday 7
      return ((dow + 6) % 7) + 1;
    case 'DOY':
      return epochDay - Date.UTC(year, 0, 1) / MS_PER_DAY + 1;
    case 'DECADE':
      return Math.trunc(year / 10);
    case 'CENTURY':
      return year > 0 ? Math.trunc((year + 99) / 100) : Math.trunc((year - 99) / 100);
    case 'MILLENNIUM':
      return year > 0 ? Math.trunc((year + 999) / 1000) : Math.trunc((year - 999) / 1000);
    default:
      throw new Error(`EXTRACT: ${unit} is not a unit of a date`);
  }
}

/** A unit of the time of day from the milliseconds since midnight. */
function timeField(unit: string, msOfDay: number): number {
  switch (unit) {
    case 'HOUR':
      return Math.floor(msOfDay / 3_600_000);
    case 'MINUTE':
      return Math.floor(msOfDay / 60_000) % 60;
    case 'SECOND':
      return Math.floor(msOfDay / 1000) % 60;
    // Of the second (Flink's: the field below SECOND, not counting whole seconds), at TIMESTAMP(3)'s precision.
    case 'MILLISECOND':
      return msOfDay % 1000;
    case 'MICROSECOND':
      return (msOfDay % 1000) * 1000;
    case 'NANOSECOND':
      return (msOfDay % 1000) * 1_000_000;
    default:
      throw new Error(`EXTRACT: ${unit} is not a unit of the time of day`);
  }
}

/**
 * Flink's EXTRACT(unit FROM value) of a value as Weir holds it: a TIMESTAMP(3) or
 * TIMESTAMP_LTZ(3) in epoch milliseconds (an LTZ read in the session time zone, which is UTC),
 * a DATE in epoch days (validation allows a DATE the units of a date only). EPOCH is seconds
 * since 1970-01-01 00:00:00, truncated. Before 1970 a time-of-day unit is the field as written
 * (an hour is 0..23), as Weir's HOUR(), MINUTE() and SECOND() give it.
 */
export function extractField(unit: string, value: number, isDate: boolean): number {
  if (isDate) return unit === 'EPOCH' ? value * 86_400 : dateField(unit, value);
  // Java's long division, toward zero (+ 0: never -0).
  if (unit === 'EPOCH') return Math.trunc(value / 1000) + 0;
  const epochDay = Math.floor(value / MS_PER_DAY);
  const msOfDay = value - epochDay * MS_PER_DAY;
  return TIME_UNITS[unit] === 'time' ? timeField(unit, msOfDay) : dateField(unit, epochDay);
}
