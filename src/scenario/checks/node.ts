/**
 * `node`: a fact of one node read from its own files and units, as the learner would see it
 * after `ssh`: a static pod's command-line flag from /etc/kubernetes/manifests/<component>.yaml
 * (what the kubelet will start), a sysctl from /proc/sys, a systemd unit's active/enabled state
 * (`systemctl is-active` / `is-enabled`), a field of the kubelet's configuration file, or a file's content.
 *
 * `kubeletConfig` reads /var/lib/kubelet/config.yaml as YAML (KubeletConfiguration, as the kubelet's
 * loadConfigFile does) and takes a `/`-separated field path, e.g. `evictionHard/memory.available`
 * (keys may contain dots): block and flow style, quoting and indentation then grade alike. A list
 * value is joined with `,`, a map is JSON.
 */
import { z } from 'zod/v4';
import { BASE_FIELDS, clip, defineCheck, templated } from './types.js';
import { MatcherSchema, match } from './matchers.js';
import { parse as parseYaml } from 'yaml';
import { KUBELET_CONFIG, MANIFEST_DIR, commandFlags, parseManifest, unitActiveState } from '../../sim/controlplane.js';
import type { Host } from '../../sim/node/host.js';

const Fact = {
  staticPodFlag: z.strictObject({ component: z.string(), flag: templated(/^[a-z0-9-]+$/, 'the flag name without leading dashes') }).optional(),
  sysctl: z.string().optional(),
  unit: z.string().optional(),
  unitEnabled: z.string().optional(),
  kubeletConfig: z.string().regex(/^[^/]+(\/[^/]+)*$/, 'a field path such as evictionHard/memory.available').optional(),
  file: z.string().startsWith('/').optional(),
};
const FACTS = Object.keys(Fact);

export const nodeCheck = defineCheck({
  kind: 'node',
  schema: z
    .strictObject({ ...BASE_FIELDS, kind: z.literal('node'), node: z.string(), ...Fact, expect: MatcherSchema })
    .refine((c) => FACTS.filter((k) => (c as Record<string, unknown>)[k] !== undefined).length === 1, { message: `give exactly one of ${FACTS.join(', ')}` }),
  evaluate(spec, ctx) {
    const host = ctx.cluster.host(spec.node);
    if (!host) return { ok: false, expected: `node ${spec.node}`, actual: 'no such node', problem: { code: 'missing', what: `node ${spec.node}` }, evidence: [] };
    const fact = readFact(host, spec);
    if ('error' in fact) return { ok: false, expected: fact.what, actual: fact.error, problem: { code: 'unreadable', what: fact.subject, error: fact.error }, evidence: fact.evidence };
    const r = match(fact.value, spec.expect);
    return { ok: r.ok, expected: `${fact.what} ${r.expected}`, actual: r.actual, problem: { code: 'value', what: fact.subject, actual: r.actual }, evidence: fact.evidence };
  },
});

type FactSpec = { [K in keyof typeof Fact]?: z.infer<(typeof Fact)[K]> };
/** `what` words the fact for authors; `subject` names it with identifiers only, for the learner. */
type FactValue = { what: string; subject: string; value: string; evidence: string[] } | { what: string; subject: string; error: string; evidence: string[] };

function readFact(host: Host, spec: FactSpec): FactValue {
  const on = `on ${host.name}`;
  if (spec.staticPodFlag) {
    const { component, flag } = spec.staticPodFlag;
    const path = `${MANIFEST_DIR}/${component}.yaml`;
    const what = `--${flag} of ${component} ${on}`;
    const subject = `${host.name}:${path} --${flag}`;
    const text = host.fs.tryRead(path);
    if (text === undefined) return { what, subject, error: `${path}: No such file or directory`, evidence: [] };
    const m = parseManifest(path, text);
    if (!m.ok) return { what, subject, error: m.error, evidence: [] };
    const flags = commandFlags(m.pod);
    const line = [...(m.pod.spec.containers[0]?.command ?? [])].find((a) => String(a).startsWith(`--${flag}=`) || a === `--${flag}`);
    const value = flags.get(flag);
    if (value === undefined) return { what, subject, error: `--${flag} is not set in ${path}`, evidence: [] };
    return { what, subject, value, evidence: [`${path}: ${String(line).trim()}`] };
  }
  if (spec.sysctl) {
    const path = `/proc/sys/${spec.sysctl.replace(/\./g, '/')}`;
    const v = host.fs.tryRead(path);
    const what = `sysctl ${spec.sysctl} ${on}`;
    const subject = `${host.name}: sysctl ${spec.sysctl}`;
    return v === undefined ? { what, subject, error: `cannot stat ${path}: No such file or directory`, evidence: [] } : { what, subject, value: v.trim(), evidence: [`${spec.sysctl} = ${v.trim()}`] };
  }
  if (spec.unit !== undefined || spec.unitEnabled !== undefined) {
    const name = (spec.unit ?? spec.unitEnabled)!.replace(/\.service$/, '');
    const u = host.data.units[name];
    const what = spec.unit !== undefined ? `unit ${name} ${on} (is-active)` : `unit ${name} ${on} (is-enabled)`;
    const subject = `${host.name}: systemctl ${spec.unit !== undefined ? 'is-active' : 'is-enabled'} ${name}`;
    if (!u) return { what, subject, error: `Unit ${name}.service could not be found.`, evidence: [] };
    // what is-active prints: a kubelet restarting on a config it cannot load is activating, not active
    const active = unitActiveState(host, name);
    const value = spec.unit !== undefined ? active : u.enabled ? 'enabled' : 'disabled';
    return { what, subject, value, evidence: [`${name}.service: ${active}, ${u.enabled ? 'enabled' : 'disabled'}`] };
  }
  if (spec.kubeletConfig !== undefined) return kubeletConfigField(host, spec.kubeletConfig);
  const path = spec.file!;
  const what = `${host.name}:${path}`;
  const v = host.fs.tryRead(path);
  return v === undefined ? { what, subject: what, error: 'No such file or directory', evidence: [] } : { what, subject: what, value: v, evidence: [`${what}:\n${clip(v)}`] };
}

/** One field of /var/lib/kubelet/config.yaml, found by its `/`-separated path in the parsed document. */
function kubeletConfigField(host: Host, field: string): FactValue {
  const what = `${field} in ${host.name}:${KUBELET_CONFIG}`;
  const subject = `${host.name}:${KUBELET_CONFIG} ${field}`;
  const text = host.fs.tryRead(KUBELET_CONFIG);
  if (text === undefined) return { what, subject, error: `${KUBELET_CONFIG}: No such file or directory`, evidence: [] };
  let v: unknown;
  try {
    v = parseYaml(text) as unknown;
  } catch (e) {
    return { what, subject, error: `${KUBELET_CONFIG} is not valid YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, evidence: [] };
  }
  for (const key of field.split('/')) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;
  if (v === undefined || v === null) return { what, subject, error: `${field} is not set`, evidence: [] };
  const value = Array.isArray(v) ? v.map(String).join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return { what, subject, value, evidence: [`${field}: ${value}`] };
}
