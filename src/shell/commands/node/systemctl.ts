/**
 * `systemctl` (systemd 255, Ubuntu 24.04) for the node's units in host.data.units (kubelet,
 * containerd): status, start, stop, restart, enable, disable, is-active, is-enabled,
 * daemon-reload; cat and list-units are in systemctl-cat.ts. `status` follows systemd's layout (unit file and preset, the kubeadm drop-in
 * directory, Active with the since time, Docs, Main PID, CGroup, then the last 10 journal lines).
 * Stopping or starting a unit updates `since` and calls cluster.touchHosts(): the node lifecycle
 * controller marks the node NotReady 50 s (node-monitor-grace-period) after its kubelet stops posting status.
 */
import type { CommandContext, CommandFn, CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { unitActiveState } from '../../../sim/controlplane.js';
import { kubeletCmdline } from '../../../sim/node/kubelet-cmdline.js';
import { isRoot, nodeEnv, notInstalled, pidOf, systemdTime } from './host.js';
import { UNIT_DESCRIPTION, keepStartHistory, kubeletStarted, logLine, restartAt, startPid, unitEntries } from './journal.js';
import { systemctlCat, systemctlListUnits } from './systemctl-cat.js';

interface UnitInfo {
  file: string;
  docs: string;
  dropInDir?: string;
  exec: string;
}

const UNITS: Record<string, UnitInfo> = {
  kubelet: {
    file: '/usr/lib/systemd/system/kubelet.service',
    docs: 'https://kubernetes.io/docs/',
    dropInDir: '/usr/lib/systemd/system/kubelet.service.d',
    exec: '/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS',
  },
  containerd: { file: '/usr/lib/systemd/system/containerd.service', docs: 'https://containerd.io', exec: '/usr/bin/containerd' },
};

function unitName(arg: string): string {
  return arg.replace(/\.service$/, '');
}

/** systemd's format_timestamp_relative. */
export function relative(ms: number): string {
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (s >= 14 * 86400) return `${Math.floor(d / 7)} weeks ${d % 7} days ago`;
  if (s >= 7 * 86400) return `1 week ${d - 7} days ago`;
  if (s >= 2 * 86400) return `${d} days ago`;
  if (s >= 25 * 3600) return `1 day ${h}h ago`;
  if (s >= 6 * 3600) return `${Math.floor(s / 3600)}h ago`;
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${m}min ago`;
  if (s >= 300) return `${Math.floor(s / 60)}min ago`;
  if (s >= 60) return `${Math.floor(s / 60)}min ${s % 60}s ago`;
  if (s >= 1) return `${s}s ago`;
  return 'now';
}

export { kubeletCmdline };

function status(c: Cluster, host: Host, unit: string): CommandResult {
  const info = UNITS[unit]!;
  const st = host.data.units[unit]!;
  const now = c.now();
  const failing = unitActiveState(host, unit) === 'activating';
  const pid = pidOf(host, unit);
  const dot = st.active && !failing ? '●' : '○';
  let s = `${dot} ${unit}.service - ${UNIT_DESCRIPTION[unit]}\n`;
  s += `     Loaded: loaded (${info.file}; ${st.enabled ? 'enabled' : 'disabled'}; preset: enabled)\n`;
  if (info.dropInDir) {
    const files = host.fs.list(info.dropInDir).filter((f) => f.endsWith('.conf'));
    if (files.length) {
      s += `    Drop-In: ${info.dropInDir}\n`;
      s += `             └─${files.join(', ')}\n`;
    }
  }
  const since = `since ${systemdTime(st.since)}; ${relative(now - st.since)}`;
  if (failing) {
    const last = restartAt(st.since, now);
    s += `     Active: activating (auto-restart) (Result: exit-code) since ${systemdTime(last)}; ${relative(now - last)}\n`;
    s += `       Docs: ${info.docs}\n`;
    // the process of the last restart (journal.ts startPid)
    const lastPid = startPid(host, unit, last);
    s += `    Process: ${lastPid} ExecStart=${info.exec} (code=exited, status=1/FAILURE)\n`;
    s += `   Main PID: ${lastPid} (code=exited, status=1/FAILURE)\n`;
  } else if (st.active) {
    s += `     Active: active (running) ${since}\n`;
    s += `       Docs: ${info.docs}\n`;
    s += `   Main PID: ${pid} (${unit})\n`;
    s += `     CGroup: /system.slice/${unit}.service\n`;
    s += `             └─${pid} ${unit === 'kubelet' ? kubeletCmdline(host) : info.exec}\n`;
  } else {
    s += `     Active: inactive (dead) ${since}\n`;
    s += `       Docs: ${info.docs}\n`;
  }
  const lines = unitEntries(c, host, unit).slice(-10);
  if (lines.length) s += `\n${lines.map((e) => e.text).join('\n')}\n`;
  return { stdout: s, stderr: '', exitCode: st.active && !failing ? 0 : 3 };
}

function setActive(c: Cluster, host: Host, unit: string, active: boolean): void {
  const st = host.data.units[unit]!;
  const now = c.now();
  const desc = UNIT_DESCRIPTION[unit];
  if (st.active !== active) keepStartHistory(c, host);
  if (st.active && !active) {
    logLine(host, unit, now, 'systemd[1]', `Stopping ${unit}.service - ${desc}...`);
    logLine(host, unit, now, 'systemd[1]', `${unit}.service: Deactivated successfully.`);
    logLine(host, unit, now, 'systemd[1]', `Stopped ${unit}.service - ${desc}.`);
  }
  if (!st.active && active) logLine(host, unit, now, 'systemd[1]', `Started ${unit}.service - ${desc}.`);
  if (st.active !== active) {
    st.active = active;
    st.since = now;
    if (unit === 'kubelet' && active) kubeletStarted(c, host);
    c.touchHosts();
  }
}

const ROOT_VERBS = new Set(['start', 'stop', 'restart', 'reload-or-restart', 'try-restart', 'enable', 'disable', 'daemon-reload']);

export const systemctl: CommandFn = (ctx: CommandContext) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const { cluster: c, host } = env;
  const args = ctx.argv.slice(1).filter((a) => !['--no-pager', '-l', '--full', '--quiet', '-q'].includes(a));
  const listing = args.find((a) => !a.startsWith('-') && (!args.includes('-t') || a !== args[args.indexOf('-t') + 1]));
  if (listing === undefined || listing === 'list-units') return systemctlListUnits(host, args);
  if (listing === 'cat') return systemctlCat(host.fs, args.filter((a) => a !== 'cat' && !a.startsWith('-')));
  const now = args.includes('--now');
  const [verb, ...rest] = args.filter((a) => a !== '--now' && a !== '--no-legend');
  if (!verb) return systemctlListUnits(host, args);
  if (verb === 'daemon-reload') return isRoot(ctx) ? { stdout: '', stderr: '', exitCode: 0 } : authFail('reload daemon');
  if (rest.length === 0) return { stdout: '', stderr: `Too few arguments.\n`, exitCode: 1 };
  let out = '';
  let err = '';
  let rc = 0;
  for (const arg of rest) {
    const unit = unitName(arg);
    const known = !!UNITS[unit] && !!host.data.units[unit];
    const st = host.data.units[unit];
    switch (verb) {
      case 'status': {
        if (!known) {
          err += `Unit ${unit}.service could not be found.\n`;
          rc = 4;
          break;
        }
        const r = status(c, host, unit);
        out += (out ? '\n' : '') + r.stdout;
        rc = Math.max(rc, r.exitCode);
        break;
      }
      case 'is-active': {
        // the unit's ActiveState; only active (or reloading) is success, anything else exits 3
        // (systemd systemctl-is-active.c check_unit_generic, EXIT_PROGRAM_NOT_RUNNING)
        const state = known ? unitActiveState(host, unit) : 'inactive';
        out += `${state}\n`;
        if (state !== 'active') rc = 3;
        break;
      }
      case 'is-enabled':
        if (!known) {
          err += `Failed to get unit file state for ${unit}.service: No such file or directory\n`;
          rc = 1;
        } else {
          out += `${st!.enabled ? 'enabled' : 'disabled'}\n`;
          if (!st!.enabled) rc = 1;
        }
        break;
      case 'start':
      case 'stop':
      case 'restart':
      case 'try-restart':
      case 'reload-or-restart':
      case 'enable':
      case 'disable': {
        if (!isRoot(ctx) && ROOT_VERBS.has(verb)) return authFail(verb, unit);
        if (!known) {
          if (verb === 'enable' || verb === 'disable') err += `Failed to ${verb} unit: Unit file ${unit}.service does not exist.\n`;
          else err += `Failed to ${verb} ${unit}.service: Unit ${unit}.service not found.\n`;
          rc = verb === 'enable' || verb === 'disable' ? 1 : 5;
          break;
        }
        if (verb === 'start') setActive(c, host, unit, true);
        else if (verb === 'stop') setActive(c, host, unit, false);
        else if (verb === 'restart' || verb === 'reload-or-restart' || (verb === 'try-restart' && st!.active)) {
          setActive(c, host, unit, false);
          setActive(c, host, unit, true);
        } else if (verb === 'enable') {
          if (!st!.enabled) err += `Created symlink /etc/systemd/system/multi-user.target.wants/${unit}.service → ${UNITS[unit]!.file}.\n`;
          st!.enabled = true;
          if (now) setActive(c, host, unit, true);
        } else if (verb === 'disable') {
          if (st!.enabled) err += `Removed "/etc/systemd/system/multi-user.target.wants/${unit}.service".\n`;
          st!.enabled = false;
          if (now) setActive(c, host, unit, false);
        }
        break;
      }
      default:
        return { stdout: '', stderr: `Unknown command verb '${verb}'.\n`, exitCode: 1 };
    }
  }
  return { stdout: out, stderr: err, exitCode: rc };
};

function authFail(verb: string, unit?: string): CommandResult {
  if (!unit) return { stdout: '', stderr: 'Failed to reload daemon: Access denied\n', exitCode: 1 };
  if (verb === 'enable' || verb === 'disable')
    return { stdout: '', stderr: `Failed to ${verb} unit: Access denied\n`, exitCode: 1 };
  return { stdout: '', stderr: `Failed to ${verb} ${unit}.service: Access denied\nSee system logs and 'systemctl status ${unit}.service' for details.\n`, exitCode: 1 };
}
