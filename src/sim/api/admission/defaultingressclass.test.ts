/**
 * DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass/admission.go): an Ingress
 * created without a class gets the default IngressClass's name; one that names a class (even "")
 * or carries kubernetes.io/ingress.class keeps what it has; with several defaults the newest wins.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../../shell/session.js';

const ingressClass = (name: string, isDefault: boolean): string =>
  `apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: ${name}\n${isDefault ? '  annotations:\n    ingressclass.kubernetes.io/is-default-class: "true"\n' : ''}spec:\n  controller: k8s.io/ingress-nginx\n`;
const ingress = (name: string, extra = ''): string =>
  `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: ${name}\n${extra}spec:\n  defaultBackend:\n    service:\n      name: web\n      port:\n        number: 80\n`;

async function setup(s: Session, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) assert.equal((await s.exec(`cat > ${path} <<'EOF'\n${text}EOF`)).exitCode, 0);
}

const classOf = async (s: Session, name: string): Promise<string> => (await s.exec(`kubectl get ingress ${name} -o jsonpath='{.spec.ingressClassName}'`)).stdout;

describe('DefaultIngressClass admission', () => {
  it('sets the default class on an Ingress created without one', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await setup(s, { '/root/ic.yaml': `${ingressClass('nginx', true)}---\n${ingressClass('other', false)}`, '/root/i.yaml': ingress('plain') });
    await s.exec('kubectl create -f /root/ic.yaml');
    assert.equal((await s.exec('kubectl create -f /root/i.yaml')).stdout, 'ingress.networking.k8s.io/plain created\n');
    assert.equal(await classOf(s, 'plain'), 'nginx');
    assert.match((await s.exec('kubectl get ingress plain')).stdout, /^plain +nginx +\* /m);
  });

  it('leaves a named class, an empty one and the legacy annotation alone, and only defaults on create', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await setup(s, {
      '/root/ic.yaml': ingressClass('nginx', true),
      '/root/named.yaml': ingress('named').replace('spec:\n', 'spec:\n  ingressClassName: other\n'),
      '/root/empty.yaml': ingress('empty').replace('spec:\n', 'spec:\n  ingressClassName: ""\n'),
      '/root/legacy.yaml': ingress('legacy', '  annotations:\n    kubernetes.io/ingress.class: traefik\n'),
      '/root/early.yaml': ingress('early'),
    });
    await s.exec('kubectl create -f /root/early.yaml');
    await s.exec('kubectl create -f /root/ic.yaml');
    await s.exec('kubectl create -f /root/named.yaml -f /root/empty.yaml -f /root/legacy.yaml');
    assert.equal(await classOf(s, 'named'), 'other');
    assert.equal((await s.exec("kubectl get ingress empty -o jsonpath='{.spec}'")).stdout.includes('"ingressClassName":""'), true);
    assert.equal(await classOf(s, 'legacy'), '');
    // an update is no create: the Ingress made before the default existed keeps no class
    await s.exec('kubectl label ingress early x=y');
    assert.equal(await classOf(s, 'early'), '');
  });

  it('with several defaults the newest is taken, the lowest name on a tie', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await setup(s, { '/root/a.yaml': `${ingressClass('b-old', true)}---\n${ingressClass('a-old', true)}`, '/root/c.yaml': ingressClass('z-new', true), '/root/i.yaml': ingress('i1'), '/root/j.yaml': ingress('i2') });
    await s.exec('kubectl create -f /root/a.yaml');
    await s.exec('kubectl create -f /root/i.yaml');
    assert.equal(await classOf(s, 'i1'), 'a-old');
    await s.exec('sleep 2; kubectl create -f /root/c.yaml');
    await s.exec('kubectl create -f /root/j.yaml');
    assert.equal(await classOf(s, 'i2'), 'z-new');
  });
});
