/** base64 — GNU coreutils src/basenc.c: encode wrapping at 76 columns (-w N, -w 0 none) or -d decode. */
import { decodeBytes, encodeBytes } from '../../util/bytes.js';
import type { CommandFn } from '../types.js';
import { getopt, has, readInput, value } from './util.js';

export const base64: CommandFn = (ctx) => {
  const p = getopt('base64', ctx.argv.slice(1), { short: 'dw:i', long: { decode: { key: 'd', arg: false }, wrap: { key: 'w', arg: true }, 'ignore-garbage': { key: 'i', arg: false } } });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'base64 --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  if (o.operands.length > 1) return { stdout: '', stderr: `base64: extra operand ‘${o.operands[1]}’\nTry 'base64 --help' for more information.\n`, exitCode: 1 };
  const f = o.operands[0] ?? '-';
  const r = readInput(ctx, f);
  if (!r.ok) return { stdout: '', stderr: `base64: ${f}: ${r.error}\n`, exitCode: 1 };
  if (has(o, 'd')) {
    let t = r.text.replace(/\n/g, '');
    if (has(o, 'i')) t = t.replace(/[^A-Za-z0-9+/=]/g, '');
    const valid = /^[A-Za-z0-9+/]*={0,2}$/.test(t);
    // Decode what is valid; GNU writes the decodable prefix then reports the error.
    const good = valid ? t : t.slice(0, t.search(/[^A-Za-z0-9+/=]|=[^=]/) >>> 0);
    const usable = good.slice(0, good.length - (good.length % 4));
    const bytes = Buffer.from(usable, 'base64');
    const partialOk = valid && t.length % 4 === 0;
    return { stdout: decodeBytes(bytes), stderr: partialOk ? '' : 'base64: invalid input\n', exitCode: partialOk ? 0 : 1 };
  }
  const w = value(o, 'w');
  const width = w === undefined ? 76 : Number(w);
  if (!Number.isInteger(width) || width < 0) return { stdout: '', stderr: `base64: invalid wrap size: ‘${w}’\n`, exitCode: 1 };
  const enc = Buffer.from(encodeBytes(r.text)).toString('base64');
  if (width === 0) return { stdout: enc, stderr: '', exitCode: 0 };
  let out = '';
  for (let i = 0; i < enc.length; i += width) out += `${enc.slice(i, i + width)}\n`;
  return { stdout: out, stderr: '', exitCode: 0 };
};
