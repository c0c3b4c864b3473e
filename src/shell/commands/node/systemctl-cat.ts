/**
 * `systemctl cat UNIT…` and `systemctl list-units` for the node's simulated units (systemd 255,
 * src/systemctl/systemctl-cat.c and systemctl-list-units.c).
 *
 * cat: the unit's fragment (an /etc/systemd/system file overrides the packaged one under
 * /usr/lib/systemd/system) and then its drop-ins from every unit directory, each after a
 * `# PATH` line, a blank line before every file but the first (cat_file's `newline`).
 * list-units: the simulated units (kubelet, containerd) only, in the state unitActiveState gives (status and is-active agree); the real list also holds systemd's
 * own units, which the simulation does not model.
 */
import type { Vfs } from '../../../sim/node/vfs.js';
import type { Host } from '../../../sim/node/host.js';
import type { CommandResult } from '../../types.js';
import { UNIT_DESCRIPTION } from './journal.js';
import { unitActiveState } from '../../../sim/controlplane.js';

const UNIT_DIRS = ['/etc/systemd/system', '/run/systemd/system', '/usr/lib/systemd/system'];

function fragment(fs: Vfs, unit: string): string | undefined {
  return UNIT_DIRS.map((d) => `${d}/${unit}`).find((f) => fs.exists(f) && !fs.isDir(f));
}

/** Drop-ins by file name; one in /etc hides a same-named one in /usr/lib (unit_file_find_dropin_paths). */
function dropIns(fs: Vfs, unit: string): string[] {
  const byName = new Map<string, string>();
  for (const d of [...UNIT_DIRS].reverse()) {
    const dir = `${d}/${unit}.d`;
    if (!fs.exists(dir) || !fs.isDir(dir)) continue;
    for (const f of fs.list(dir)) if (f.endsWith('.conf')) byName.set(f, `${dir}/${f}`);
  }
  return [...byName.keys()].sort().map((k) => byName.get(k)!);
}

const asService = (arg: string): string => (arg.includes('.') ? arg : `${arg}.service`);

export function systemctlCat(fs: Vfs, args: string[]): CommandResult {
  if (args.length === 0) return { stdout: '', stderr: 'Too few arguments.\n', exitCode: 1 };
  let out = '';
  let err = '';
  let rc = 0;
  for (const arg of args) {
    const unit = asService(arg);
    const main = fragment(fs, unit);
    const files = [...(main ? [main] : []), ...dropIns(fs, unit)];
    if (files.length === 0) {
      err += `No files found for ${unit}.\n`;
      rc = 1;
      continue;
    }
    for (const f of files) out += `${out ? '\n' : ''}# ${f}\n${fs.read(f)}`;
  }
  return { stdout: out, stderr: err, exitCode: rc };
}

/**
 * ACTIVE and SUB as systemd 255 lists them (the unit's ActiveState and the service's SubState,
 * src/core/service.c state_table): a kubelet that keeps exiting on a config it cannot load is
 * `activating auto-restart` between Restart=always attempts (unitActiveState, as status and
 * is-active say), not `active running`.
 */
function activeSub(host: Host, name: string): { active: string; sub: string } {
  const state = unitActiveState(host, name);
  if (state === 'activating') return { active: 'activating', sub: 'auto-restart' };
  return state === 'active' ? { active: 'active', sub: 'running' } : { active: 'inactive', sub: 'dead' };
}

export function systemctlListUnits(host: Host, args: string[]): CommandResult {
  const all = args.includes('--all') || args.includes('-a');
  const legend = !args.includes('--no-legend');
  const type = args.find((a) => a.startsWith('--type='))?.slice(7) ?? (args.includes('-t') ? args[args.indexOf('-t') + 1] : undefined);
  const state = args.find((a) => a.startsWith('--state='))?.slice(8);
  const rows = Object.entries(host.data.units)
    .filter(([, st]) => all || st.active)
    .filter(() => !type || type.split(',').includes('service'))
    .map(([name]) => ({ unit: `${name}.service`, load: 'loaded', ...activeSub(host, name), desc: UNIT_DESCRIPTION[name] ?? name }))
    .filter((r) => !state || state.split(',').some((s) => s === r.active || s === r.sub || s === r.load))
    .sort((a, b) => (a.unit < b.unit ? -1 : 1));
  const w = (k: 'unit' | 'load' | 'active' | 'sub', head: string): number => Math.max(head.length, ...rows.map((r) => r[k].length));
  const [wu, wl, wa, ws] = [w('unit', 'UNIT'), w('load', 'LOAD'), w('active', 'ACTIVE'), w('sub', 'SUB')];
  const line = (u: string, l: string, a: string, s: string, d: string): string => `  ${u.padEnd(wu)} ${l.padEnd(wl)} ${a.padEnd(wa)} ${s.padEnd(ws)} ${d}`.trimEnd() + '\n';
  let out = legend ? line('UNIT', 'LOAD', 'ACTIVE', 'SUB', 'DESCRIPTION') : '';
  for (const r of rows) out += line(r.unit, r.load, r.active, r.sub, r.desc);
  if (legend) {
    out += '\nLegend: LOAD   → Reflects whether the unit definition was properly loaded.\n';
    out += '        ACTIVE → The high-level unit activation state, i.e. generalization of SUB.\n';
    out += '        SUB    → The low-level unit activation state, values depend on unit type.\n';
    out += `\n${rows.length} loaded units listed.${all ? '' : ' Pass --all to see loaded but inactive units, too.'}\n`;
    out += "To show all installed unit files use 'systemctl list-unit-files'.\n";
  }
  return { stdout: out, stderr: '', exitCode: 0 };
}
