/**
 * Go's time.Time.Format for `helm list --time-format LAYOUT` (helm v4.1.4 pkg/cmd/list.go:
 * `tspb.Format(timeFormat)`), with the layout chunks of Go's time/format.go nextStdChunk:
 * January/Jan, Monday/Mon, 2006/06, 01/1, 02/_2/2, 002/__2 (day of year), 15/03/3, 04/4, 05/5,
 * PM/pm, MST, the -0700/-07:00/-07/-070000/-07:00:00 offsets and their Z forms, and fractional
 * seconds `.000`/`.999` (or with a comma). Release times are UTC (the Secret driver's JSON), so
 * the zone is `UTC`, offsets are `+0000`, and the Z forms print `Z`. Anything else is literal.
 */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Format the instant `iso` (nanoseconds kept from its fraction) with a Go layout. */
export function goFormat(iso: string, layout: string): string {
  const d = new Date(iso);
  const frac = /\.(\d+)/.exec(iso)?.[1] ?? '';
  const nanos = (frac + '000000000').slice(0, 9);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth();
  const day = d.getUTCDate();
  const hour = d.getUTCHours();
  const yday = Math.floor((Date.UTC(year, month, day) - Date.UTC(year, 0, 1)) / 86_400_000) + 1;
  const p = (n: number, w = 2, c = '0'): string => String(n).padStart(w, c);
  const at = (i: number, s: string): boolean => layout.startsWith(s, i);
  let out = '';
  let i = 0;
  while (i < layout.length) {
    const ch = layout[i]!;
    const emit = (text: string, len: number): void => {
      out += text;
      i += len;
    };
    if (ch === 'J' && at(i, 'January')) emit(MONTHS[month]!, 7);
    else if (ch === 'J' && at(i, 'Jan')) emit(MONTHS[month]!.slice(0, 3), 3);
    else if (ch === 'M' && at(i, 'Monday')) emit(DAYS[d.getUTCDay()]!, 6);
    else if (ch === 'M' && at(i, 'Mon')) emit(DAYS[d.getUTCDay()]!.slice(0, 3), 3);
    else if (ch === 'M' && at(i, 'MST')) emit('UTC', 3);
    else if (ch === '0' && /[1-6]/.test(layout[i + 1] ?? '')) {
      const v = { '1': month + 1, '2': day, '3': hour % 12 || 12, '4': d.getUTCMinutes(), '5': d.getUTCSeconds(), '6': year % 100 }[layout[i + 1] as '1'];
      emit(p(v), 2);
    } else if (ch === '0' && at(i, '002')) emit(p(yday, 3), 3);
    else if (ch === '1' && at(i, '15')) emit(p(hour), 2);
    else if (ch === '1') emit(String(month + 1), 1);
    else if (ch === '2' && at(i, '2006')) emit(p(year, 4), 4);
    else if (ch === '2') emit(String(day), 1);
    else if (ch === '_' && at(i, '_2006')) emit(`_${p(year, 4)}`, 5);
    else if (ch === '_' && at(i, '__2')) emit(p(yday, 3, ' '), 3);
    else if (ch === '_' && at(i, '_2')) emit(p(day, 2, ' '), 2);
    else if (ch === '3') emit(String(hour % 12 || 12), 1);
    else if (ch === '4') emit(String(d.getUTCMinutes()), 1);
    else if (ch === '5') emit(String(d.getUTCSeconds()), 1);
    else if (ch === 'P' && at(i, 'PM')) emit(hour >= 12 ? 'PM' : 'AM', 2);
    else if (ch === 'p' && at(i, 'pm')) emit(hour >= 12 ? 'pm' : 'am', 2);
    else if (ch === '-' || ch === 'Z') {
      const forms: [string, string][] = [['070000', '+000000'], ['07:00:00', '+00:00:00'], ['0700', '+0000'], ['07:00', '+00:00'], ['07', '+00']];
      const f = forms.find(([k]) => at(i + 1, k));
      if (f) emit(ch === 'Z' ? 'Z' : f[1], f[0].length + 1);
      else emit(ch, 1);
    } else if ((ch === '.' || ch === ',') && (layout[i + 1] === '0' || layout[i + 1] === '9')) {
      const c = layout[i + 1]!;
      let j = i + 1;
      while (layout[j] === c) j++;
      if (/[0-9]/.test(layout[j] ?? '')) emit(ch, 1);
      else {
        const n = Math.min(j - i - 1, 9);
        const digits = nanos.slice(0, n);
        // .999 trims trailing zeros, and the separator with them when nothing is left
        const shown = c === '9' ? digits.replace(/0+$/, '') : digits;
        emit(shown ? `${ch}${shown}` : '', j - i);
      }
    } else emit(ch, 1);
  }
  return out;
}
