/**
 * The setup runner: applies a scenario's declarative steps, in order, to a fresh session. Object
 * steps go through the API server (so validation, defaulting and controllers behave as for
 * kubectl); file steps write a host's files and let the cluster react; breaks are in breaks.ts.
 * A step that cannot be applied is an authoring error: SetupError names the step.
 */
import { parseAllDocuments } from 'yaml';
import type { Session } from '../../shell/session.js';
import type { SetupStep } from '../schema.js';
import type { KObject } from '../../sim/api/types.js';
import { ApiError } from '../../sim/api/errors.js';
import { parseDuration } from '../../sim/fixture/build.js';
import { applyBreak } from './breaks.js';
import { SetupError, runLine } from './shell.js';

export { SetupError, runLine } from './shell.js';

export async function runSetup(session: Session, steps: readonly SetupStep[]): Promise<void> {
  for (const [i, step] of steps.entries()) {
    try {
      await runStep(session, step);
    } catch (e) {
      const msg = e instanceof ApiError || e instanceof SetupError || e instanceof Error ? e.message : String(e);
      throw new SetupError(`setup[${i}] (${Object.keys(step)[0]}): ${msg}`);
    }
  }
  session.cluster.settle();
}

async function runStep(session: Session, step: SetupStep): Promise<void> {
  const c = session.cluster;
  if ('apply' in step) return applyManifest(session, step.apply);
  if ('delete' in step) {
    session.api.delete(step.delete.kind, step.delete.namespace ?? 'default', step.delete.name);
    return;
  }
  if ('patch' in step) {
    const p = step.patch;
    const obj = session.api.get(p.kind, p.namespace ?? 'default', p.name);
    session.api.update(mergePatch(obj, p.merge) as KObject);
    return;
  }
  if ('exec' in step) {
    const e = typeof step.exec === 'string' ? { run: step.exec } : step.exec;
    await runLine(session, e.run, e.host);
    return;
  }
  if ('file' in step) {
    const f = step.file;
    const host = c.host(f.host);
    if (!host) throw new SetupError(`no host "${f.host}"`);
    if (f.remove) host.fs.remove(f.path);
    else if (f.content !== undefined) host.fs.write(f.path, f.content);
    else {
      let text = host.fs.read(f.path);
      for (const r of f.replace ?? []) {
        if (!text.includes(r.from)) throw new SetupError(`${f.host}:${f.path} does not contain ${JSON.stringify(r.from)}`);
        text = r.all ? text.split(r.from).join(r.to) : text.replace(r.from, () => r.to);
      }
      host.fs.write(f.path, text);
    }
    c.touchHosts();
    c.settle();
    return;
  }
  if ('break' in step) return applyBreak(session, step.break);
  c.advance(parseDuration(step.advance));
}

/** Create each document's object, or replace it when it exists (as `kubectl apply` ends up). */
function applyManifest(session: Session, text: string): void {
  for (const doc of parseAllDocuments(text)) {
    if (!('errors' in doc)) throw new SetupError('invalid YAML stream');
    if (doc.errors.length > 0) throw new SetupError(`manifest: ${doc.errors[0]!.message.split('\n')[0]}`);
    const obj = doc.toJS() as KObject | null;
    if (obj === null) continue;
    if (!obj.kind || !session.api.discovery().hasKind(obj.kind)) throw new SetupError(`manifest: unknown kind ${JSON.stringify(obj.kind)}`);
    const existing = session.api.tryGet(obj.kind, obj.metadata?.namespace ?? 'default', obj.metadata?.name ?? '');
    if (existing) session.api.update({ ...obj, metadata: { ...obj.metadata, resourceVersion: existing.metadata.resourceVersion } } as KObject);
    else session.api.create(obj);
  }
}

/** RFC 7386 JSON merge patch: objects merge, null deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
