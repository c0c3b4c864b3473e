/**
 * hostnamectl (systemd 255 src/hostname/hostnamectl.c print_status_info): the status table of a
 * node, a libvirt/QEMU q35 VM as the exam's are. Machine and boot IDs are the ones the kubelet
 * reports in the Node's nodeInfo (sim/node/ids.ts; a reboot draws a new boot ID), the OS from
 * /etc/os-release, the kernel and architecture from the node. Changing the hostname would change
 * the node's identity, which the simulation does not model, and is refused with a clear message.
 */
import type { CommandFn } from '../../types.js';
import { bootIdSeed, machineId } from '../../../sim/node/ids.js';
import { hostEnv, notInstalled } from './host.js';

/** SeaBIOS as Debian/Ubuntu's qemu ships it: the firmware libvirt VMs report. */
const FIRMWARE = { version: '1.16.3-debian-1.16.3-2', date: Date.UTC(2014, 3, 1) };

/** systemd format_timespan with day accuracy (time-util.c): "10y 8month 1w 3d". */
export function timespanDays(ms: number): string {
  const units: Array<[string, number]> = [
    ['y', 31_557_600],
    ['month', 2_629_800],
    ['w', 604_800],
    ['d', 86_400],
  ];
  let t = Math.floor(ms / 1000);
  const out: string[] = [];
  for (const [name, secs] of units) {
    if (t < secs) continue;
    out.push(`${Math.floor(t / secs)}${name}`);
    t %= secs;
  }
  return out.join(' ') || '0';
}

const WEEKDAY = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export const hostnamectl: CommandFn = (ctx) => {
  const env = hostEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1).filter((a) => a !== '--no-pager');
  const verb = args[0] ?? 'status';
  if (verb === 'hostname' && args.length === 1) return { stdout: `${env.host.name}\n`, stderr: '', exitCode: 0 };
  if (verb === 'hostname' || verb === 'set-hostname' || verb === 'icon-name' || verb === 'chassis' || verb === 'deployment' || verb === 'location') {
    return { stdout: '', stderr: `hostnamectl: cka-lab does not simulate changing a node's identity (${verb})\n`, exitCode: 1 };
  }
  if (verb !== 'status') return { stdout: '', stderr: `Unknown command verb '${verb}'.\n`, exitCode: 1 };
  const { host, cluster } = env;
  const os = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(host.fs.tryRead('/etc/os-release') ?? '')?.[1] ?? host.data.os.image;
  const fw = new Date(FIRMWARE.date);
  const rows: Array<[string, string]> = [
    ['Static hostname', host.name],
    ['Icon name', 'computer-vm'],
    ['Chassis', 'vm 🖴'],
    ['Machine ID', machineId(host.name, false)],
    ['Boot ID', machineId(bootIdSeed(host.name, host.data.state.reboots), false)],
    ['Virtualization', 'kvm'],
    ['Operating System', os],
    ['Kernel', `Linux ${host.data.os.kernel}`],
    ['Architecture', host.data.os.arch === 'arm64' ? 'arm64' : 'x86-64'],
    ['Hardware Vendor', 'QEMU'],
    ['Hardware Model', 'Standard PC _Q35 + ICH9, 2009_'],
    ['Firmware Version', FIRMWARE.version],
    ['Firmware Date', `${WEEKDAY[fw.getUTCDay()]} ${fw.toISOString().slice(0, 10)}`],
    ['Firmware Age', timespanDays(cluster.now() - FIRMWARE.date)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return { stdout: rows.map(([k, v]) => `${k.padStart(width)}: ${v}\n`).join(''), stderr: '', exitCode: 0 };
};
