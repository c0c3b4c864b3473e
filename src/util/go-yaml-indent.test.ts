/**
 * go-yaml's wording and line for badly indented block YAML. Expected values are what the real tools
 * printed for the same text: kubectl v1.35.2 `create --dry-run=client -f` ("error converting YAML to
 * JSON: yaml: line N: …") and helm v4.1.4 `helm template` of a chart whose `toYaml | nindent 8`
 * sits left of the container's keys.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goYamlIndentError } from './go-yaml-indent.js';

test('a key dedented onto an indented sequence: expected \'-\' indicator, on the line before it (1-based)', () => {
  const text = 'a:\n  containers:\n    - name: x\n      ports:\n        - name: http\n      resources:\n    limits:\n      memory: 1\n';
  assert.deepEqual(goYamlIndentError(text), { line: 6, problem: "did not find expected '-' indicator" });
});

test('a key dedented between two mapping levels: expected key', () => {
  assert.deepEqual(goYamlIndentError('a:\n  b:\n    c: 1\n   d: 2\n'), { line: 3, problem: 'did not find expected key' });
});

test('helm: a toYaml block at nindent 8 under a container (line 26 of the rendered file)', () => {
  const doc = [
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: api-ledger', '  labels:', '    app.kubernetes.io/name: ledger', '    app.kubernetes.io/instance: api',
    'spec:', '  replicas: 2', '  selector:', '    matchLabels:', '      app.kubernetes.io/name: ledger', '      app.kubernetes.io/instance: api', '  template:', '    metadata:',
    '      labels:', '        app.kubernetes.io/name: ledger', '        app.kubernetes.io/instance: api', '    spec:', '      containers:', '        - name: ledger',
    '          image: "nginx:1.27.3"', '          ports:', '            - name: http', '              containerPort: 80', '          resources:', '        limits:',
    '          memory: 128Mi', '        requests:', '          cpu: 50m', '          memory: 64Mi',
  ].join('\n');
  assert.deepEqual(goYamlIndentError(doc), { line: 26, problem: "did not find expected '-' indicator" });
});

test('well-formed block YAML, indentless sequences included, has no indentation error', () => {
  assert.equal(goYamlIndentError('a:\n- x: 1\n  y: 2\n- z\nb:\n  c:\n  - 1\n  d: 2\n'), undefined);
});
