/**
 * bind9 presentation helpers (lib/dns/masterdump.c dig style): columns TTL 24, CLASS 32, TYPE 40,
 * RDATA 48 with tab width 8 — after each field `to = max(col, cur+1)`, emit
 * floor(to/8)-floor(cur/8) TABs (then continue from floor(to/8)*8) and pad with spaces to `to`.
 */
import { rdataText, type Question, type RR } from '../message.js';

/** A record line as dig prints it. Positions are counted without any leading prefix. */
export function digRecordLine(r: RR): string {
  let line = r.name;
  let width = line.length;
  const add = (text: string, col: number): void => {
    const before = width;
    const to = Math.max(col, before + 1);
    const tabs = Math.floor(to / 8) - Math.floor(before / 8);
    let pos = before;
    let pad = '';
    if (tabs > 0) {
      pad += '\t'.repeat(tabs);
      pos = Math.floor(to / 8) * 8;
    }
    pad += ' '.repeat(Math.max(0, to - pos));
    line += pad + text;
    width = to + text.length;
  };
  add(String(r.ttl), 24);
  add(r.class, 32);
  add(r.type, 40);
  add(rdataText(r), 48);
  return line;
}

/** The question line: `;` + owner, class at 32, type at 40 (the `;` not counted). */
export function digQuestionLine(q: Question): string {
  let line = q.name;
  let width = line.length;
  const add = (text: string, col: number): void => {
    const to = Math.max(col, width + 1);
    const tabs = Math.floor(to / 8) - Math.floor(width / 8);
    let pos = width;
    let pad = '';
    if (tabs > 0) {
      pad += '\t'.repeat(tabs);
      pos = Math.floor(to / 8) * 8;
    }
    pad += ' '.repeat(Math.max(0, to - pos));
    line += pad + text;
    width = to + text.length;
  };
  add(q.class, 32);
  add(q.type, 40);
  return `;${line}`;
}
