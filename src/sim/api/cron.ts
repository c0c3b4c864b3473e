/**
 * The schedule check the API server runs on a CronJob (pkg/apis/batch/validation/validation.go
 * validateScheduleFormat → github.com/robfig/cron/v3 ParseStandard, parser.go): five fields or a
 * `@` descriptor, each field a comma list of `*`, `?`, numbers, names, ranges and steps within its
 * bounds. Returns robfig's error text, or undefined when the schedule parses.
 */
interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** Minute, hour, day of month, month, day of week (parser.go's bounds). */
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's fmt of a []string: `[a b c]`. */
const goList = (xs: readonly string[]): string => `[${xs.join(' ')}]`;

/** strconv.Atoi as mustParseInt uses it. */
function parseIntStrict(expr: string): number {
  if (!/^[+-]?[0-9]+$/.test(expr)) throw new Error(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  const n = Number(expr);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names: Record<string, number> | undefined): number {
  const named = names?.[expr.toLowerCase()];
  return named ?? parseIntStrict(expr);
}

/** getRange: `*`, `?`, `a`, `a-b`, each optionally `/step`. */
function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r.names);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  if (rangeAndStep.length === 2) {
    const step = parseIntStrict(rangeAndStep[1]!);
    if (singleDigit) end = r.max;
    if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
  } else if (rangeAndStep.length > 2) throw new Error(`too many slashes: ${expr}`);
  if (start < r.min) throw new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
}

export function cronScheduleError(spec: string): string | undefined {
  try {
    if (spec.length === 0) throw new Error('empty spec string');
    let rest = spec;
    // CRON_TZ=/TZ= prefixes are parsed (the API server forbids them separately)
    if (/^(CRON_TZ|TZ)=/.test(rest)) {
      const i = rest.indexOf(' ');
      rest = rest.slice(i + 1).trim();
    }
    if (rest.startsWith('@')) {
      if (DESCRIPTORS.has(rest) || rest.startsWith('@every ')) return undefined;
      throw new Error(`unrecognized descriptor: ${rest}`);
    }
    const fields = rest.split(/\s+/).filter((f) => f !== '');
    if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: ${goList(fields)}`);
    fields.forEach((f, i) => {
      for (const part of f.split(',')) checkRange(part, FIELDS[i]!);
    });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
