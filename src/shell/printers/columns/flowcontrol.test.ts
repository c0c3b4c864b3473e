/**
 * The APF and ComponentStatus tables, case by case against printers.go printFlowSchema,
 * printFlowSchemaList (FlowSchemaSequence order), printPriorityLevelConfiguration and
 * printComponentStatus (k8s.io/kubernetes pkg/printers/internalversion).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tableRows } from '../table.js';
import { generic, T0 } from '../testing/factories.js';

const NOW = Date.parse(T0) + 3 * 86_400_000;
const FC = 'flowcontrol.apiserver.k8s.io/v1';

test('FlowSchema rows: distinguisher, Dangling status or ?, list in matching order', () => {
  const fs = (name: string, prec: number, extra: Record<string, unknown>, status?: unknown) =>
    generic(FC, 'FlowSchema', name, { spec: { matchingPrecedence: prec, priorityLevelConfiguration: { name: 'pl' }, ...extra }, ...(status ? { status } : {}) });
  const rows = tableRows(
    [
      fs('zeta', 100, { distinguisherMethod: { type: 'ByNamespace' } }, { conditions: [{ type: 'Dangling', status: 'True' }] }),
      fs('beta', 5000, {}),
      fs('alpha', 100, {}, { conditions: [{ type: 'Other', status: 'True' }, { type: 'Dangling', status: 'False' }] }),
    ],
    { now: NOW },
  );
  assert.deepEqual(rows, [
    ['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL'],
    ['alpha', 'pl', '100', '<none>', '3d', 'False'],
    ['zeta', 'pl', '100', 'ByNamespace', '3d', 'True'],
    ['beta', 'pl', '5000', '<none>', '3d', '?'],
  ]);
});

test('PriorityLevelConfiguration rows: exempt, rejecting and queuing levels', () => {
  const plc = (name: string, spec: Record<string, unknown>) => generic(FC, 'PriorityLevelConfiguration', name, { spec });
  const rows = tableRows(
    [
      plc('ex', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0 } }),
      plc('rej', { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } }),
      plc('q', { type: 'Limited', limited: { nominalConcurrencyShares: 40, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } }),
    ],
    { now: NOW },
  );
  assert.deepEqual(rows, [
    ['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE'],
    ['ex', 'Exempt', '<none>', '<none>', '<none>', '<none>', '3d'],
    ['rej', 'Limited', '5', '<none>', '<none>', '<none>', '3d'],
    ['q', 'Limited', '40', '64', '6', '50', '3d'],
  ]);
});

test('ComponentStatus rows: Healthy condition True, False, or none', () => {
  const cs = (name: string, conditions: unknown[]) => generic('v1', 'ComponentStatus', name, { conditions });
  const rows = tableRows(
    [
      cs('scheduler', [{ type: 'Healthy', status: 'True', message: 'ok' }]),
      cs('etcd-0', [{ type: 'Healthy', status: 'False', error: 'boom' }]),
      cs('other', []),
    ],
    { now: NOW },
  );
  assert.deepEqual(rows, [
    ['NAME', 'STATUS', 'MESSAGE', 'ERROR'],
    ['scheduler', 'Healthy', 'ok', ''],
    ['etcd-0', 'Unhealthy', '', 'boom'],
    ['other', 'Unknown', '', ''],
  ]);
});
