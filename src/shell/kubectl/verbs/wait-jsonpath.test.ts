/**
 * `kubectl wait --for=jsonpath='{…}'[=VALUE]` on fields that are JSON null, absent, floats,
 * objects and lists, against real kubectl v1.35.2 (recorded by scripts/record-wait-jsonpath.mjs
 * from a stub server serving testdata/wait-jsonpath/object.json; k8s.io/kubectl pkg/cmd/wait/json.go
 * checkCondition and compareResults): the parser allows missing keys, so an absent field (or one
 * under a null) is "not met", never an error; a null field is a result, met without a value and
 * printed by fmt's `%v` as `<nil>`; a float64 of the unstructured object prints in `%v`'s shortest
 * `%g` form (`1.2345675e+06`, `1e-05`, and `1e+20` for an integer past int64).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const dir = new URL('./testdata/wait-jsonpath/', import.meta.url);

interface Case {
  argv: string[];
  exit: number;
  stdout: string;
  stderr: string;
}

function cases(): Case[] {
  const text = readFileSync(new URL('cases.txt', dir), 'utf8');
  assert.match(text, /^# Client Version: v1\.35\.\d+\n/);
  const out: Case[] = [];
  const re = /argv: (.*)\nexit: (\d+)\n--- stdout\n([\s\S]*?)--- stderr\n([\s\S]*?)--- end\n/g;
  for (const m of text.matchAll(re)) out.push({ argv: JSON.parse(m[1]!) as string[], exit: Number(m[2]), stdout: m[3]!, stderr: m[4]! });
  return out;
}

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: probes.example.com
spec:
  group: example.com
  names: {kind: Probe, plural: probes, singular: probe, listKind: ProbeList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
`;

const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

describe('kubectl wait --for=jsonpath against real kubectl v1.35.2 (null, absent, floats, lists)', async () => {
  const s = new Session(loadFixture('flannel-single', 0));
  const object = JSON.parse(readFileSync(new URL('object.json', dir), 'utf8')) as { spec: unknown };
  const cr = JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Probe', metadata: { name: 'p' }, spec: object.spec });
  const fs = s.cluster.host(s.cluster.meta.workstation)!.fs;
  fs.write('/root/crd.yaml', CRD);
  fs.write('/root/p.json', cr);
  assert.equal((await s.exec('kubectl create -f /root/crd.yaml')).exitCode, 0);
  const created = await s.exec('kubectl create -f /root/p.json');
  assert.equal(created.stderr, '');
  for (const c of cases()) {
    it(c.argv.slice(3).join(' '), async () => {
      const { stdout, stderr, exitCode } = await s.exec(`kubectl ${c.argv.map(quote).join(' ')}`);
      assert.deepEqual({ stdout, stderr, exitCode }, { stdout: c.stdout, stderr: c.stderr, exitCode: c.exit });
    });
  }
});
