/**
 * busybox grep (findutils/grep.c, v1.36) as a container's script runs it: `wget -qO- web | grep -q
 * nginx && echo up`, `grep -c ERROR /var/log/app.log`. BRE by default, -E/-F, -i -v -w -x -n -c
 * -o -q -s -l -h -H, -e PATTERN; exit 0 on a match, 1 on none, 2 on an error (a file it cannot
 * open: `grep: FILE: No such file or directory`, unless -s). Patterns go through the same POSIX
 * translation and linear-time engine as the shell's grep (util/posix-regex.ts), so a script's
 * pathological pattern cannot hang the simulation.
 */
import { compileTranslated, posixToJs } from '../../util/posix-regex.js';

export interface GrepRun {
  out: string;
  err: string;
  code: number;
}

interface Opts {
  flags: Set<string>;
  patterns: string[];
  files: string[];
}

/** busybox getopt32 over "EFivwxncoqslhHe:*": bundled short options, `-e P` / `-eP`, `--` ends them. */
function parse(args: readonly string[]): Opts | string {
  const flags = new Set<string>();
  const patterns: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      rest.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      rest.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const f = a[j]!;
      if (f === 'e') {
        const p = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (p === undefined) return "grep: option requires an argument -- 'e'\n";
        patterns.push(p);
        break;
      }
      if (!'EFivwxncoqslhHr'.includes(f)) return `grep: invalid option -- '${f}'\n`;
      flags.add(f);
    }
  }
  if (patterns.length === 0) {
    const p = rest.shift();
    if (p === undefined) return 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: grep [-HhnlLoqvsrRiwFE] [-m N] [-A|B|C N] { PATTERN | -e PATTERN... | -f FILE... } [FILE]...\n';
    patterns.push(...p.split('\n'));
  }
  return { flags, patterns, files: rest };
}

function matcher(o: Opts): RegExp {
  const f = o.flags;
  const srcs = o.patterns.map((p) => (f.has('F') ? p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : posixToJs(p, f.has('E') ? 'ere' : 'bre')));
  let src = srcs.map((s) => `(?:${s})`).join('|');
  if (f.has('x')) src = `^(?:${src})$`;
  else if (f.has('w')) src = `(?<![A-Za-z0-9_])(?:${src})(?![A-Za-z0-9_])`;
  return compileTranslated(src, f.has('i') ? 'gi' : 'g');
}

/** What grep prints and its status, for `args` over stdin or the files (`readFile` as the script sees them). */
export function grepRun(args: readonly string[], stdin: string, readFile: (path: string) => string | undefined): GrepRun {
  const o = parse(args);
  if (typeof o === 'string') return { out: '', err: o, code: 2 };
  let re: RegExp;
  try {
    re = matcher(o);
  } catch (e) {
    return { out: '', err: `grep: ${(e as Error).message}\n`, code: 2 };
  }
  const f = o.flags;
  const inputs = o.files.length ? o.files : ['-'];
  const prefix = (name: string): string => ((inputs.length > 1 && !f.has('h')) || f.has('H') ? `${name === '-' ? '(standard input)' : name}:` : '');
  let out = '';
  let err = '';
  let matched = false;
  let failed = false;
  for (const name of inputs) {
    const text = name === '-' ? stdin : readFile(name);
    if (text === undefined) {
      if (!f.has('s')) err += `grep: ${name}: No such file or directory\n`;
      failed = true;
      continue;
    }
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    let count = 0;
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      re.lastIndex = 0;
      const hit = re.test(line) !== f.has('v');
      if (!hit) continue;
      count++;
      matched = true;
      if (f.has('q')) return { out, err, code: 0 };
      if (f.has('l') || f.has('c')) continue;
      const pre = prefix(name) + (f.has('n') ? `${n + 1}:` : '');
      if (f.has('o') && !f.has('v')) {
        re.lastIndex = 0;
        for (const m of line.matchAll(re)) if (m[0] !== '') out += `${pre}${m[0]}\n`;
      } else out += `${pre}${line}\n`;
    }
    if (f.has('c')) out += `${prefix(name)}${count}\n`;
    else if (f.has('l') && count > 0) out += `${name === '-' ? '(standard input)' : name}\n`;
  }
  return { out, err, code: failed && !(f.has('q') && matched) ? 2 : matched ? 0 : 1 };
}
