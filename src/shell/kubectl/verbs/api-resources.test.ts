/**
 * `kubectl api-resources` against the discovery of a default kubeadm v1.35 kube-apiserver.
 *
 * The expected set is what the v1.35 apiserver serves with no --runtime-config: the GA versions of
 * every group (pkg/controlplane/apiserver/options + the RESTStorageProviders of
 * pkg/controlplane/instance.go), the discovery documents of kubernetes/kubernetes
 * api/discovery/*.json for short names, verbs and categories. Beta APIs are off by default
 * (KEP-3136), so v1beta1 MutatingAdmissionPolicy, ClusterTrustBundle, LeaseCandidate,
 * PodCertificateRequest and StorageVersionMigration are absent. Order, columns and filters follow
 * k8s.io/kubectl pkg/cmd/apiresources (sortableResource: group, then name; print_flags.go for wide).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

async function run(fixture: 'kubeadm-calico' | 'flannel-single', command: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const { stdout, stderr, exitCode } = await new Session(loadFixture(fixture, 0)).exec(command);
  return { stdout, stderr, exitCode };
}

/** `kubectl api-resources -o name` of a v1.35 kubeadm cluster with no CRDs, in kubectl's order. */
const V135 = [
  'bindings', 'componentstatuses', 'configmaps', 'endpoints', 'events', 'limitranges', 'namespaces', 'nodes',
  'persistentvolumeclaims', 'persistentvolumes', 'pods', 'podtemplates', 'replicationcontrollers', 'resourcequotas',
  'secrets', 'serviceaccounts', 'services',
  'mutatingwebhookconfigurations.admissionregistration.k8s.io', 'validatingadmissionpolicies.admissionregistration.k8s.io',
  'validatingadmissionpolicybindings.admissionregistration.k8s.io', 'validatingwebhookconfigurations.admissionregistration.k8s.io',
  'customresourcedefinitions.apiextensions.k8s.io',
  'apiservices.apiregistration.k8s.io',
  'controllerrevisions.apps', 'daemonsets.apps', 'deployments.apps', 'replicasets.apps', 'statefulsets.apps',
  'selfsubjectreviews.authentication.k8s.io', 'tokenreviews.authentication.k8s.io',
  'localsubjectaccessreviews.authorization.k8s.io', 'selfsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectrulesreviews.authorization.k8s.io', 'subjectaccessreviews.authorization.k8s.io',
  'horizontalpodautoscalers.autoscaling',
  'cronjobs.batch', 'jobs.batch',
  'certificatesigningrequests.certificates.k8s.io',
  'leases.coordination.k8s.io',
  'endpointslices.discovery.k8s.io',
  'events.events.k8s.io',
  'flowschemas.flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io',
  'ingressclasses.networking.k8s.io', 'ingresses.networking.k8s.io', 'ipaddresses.networking.k8s.io',
  'networkpolicies.networking.k8s.io', 'servicecidrs.networking.k8s.io',
  'runtimeclasses.node.k8s.io',
  'poddisruptionbudgets.policy',
  'clusterrolebindings.rbac.authorization.k8s.io', 'clusterroles.rbac.authorization.k8s.io',
  'rolebindings.rbac.authorization.k8s.io', 'roles.rbac.authorization.k8s.io',
  'deviceclasses.resource.k8s.io', 'resourceclaims.resource.k8s.io', 'resourceclaimtemplates.resource.k8s.io',
  'resourceslices.resource.k8s.io',
  'priorityclasses.scheduling.k8s.io',
  'csidrivers.storage.k8s.io', 'csinodes.storage.k8s.io', 'csistoragecapacities.storage.k8s.io',
  'storageclasses.storage.k8s.io', 'volumeattachments.storage.k8s.io', 'volumeattributesclasses.storage.k8s.io',
];

describe('kubectl api-resources (v1.35 default discovery)', () => {
  it('lists every built-in resource of a v1.35 kubeadm cluster, sorted by group then name', async () => {
    const r = await run('flannel-single', 'kubectl api-resources -o name');
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.stdout.trimEnd().split('\n'), V135);
  });

  it('sorts the CNI CRDs in among the built-in groups', async () => {
    const names = (await run('kubeadm-calico', 'kubectl api-resources -o name')).stdout.trimEnd().split('\n');
    const at = (n: string): number => names.indexOf(n);
    assert.ok(at('leases.coordination.k8s.io') < at('bgpconfigurations.crd.projectcalico.org'));
    assert.ok(at('tiers.crd.projectcalico.org') < at('endpointslices.discovery.k8s.io'));
    assert.ok(at('customresourcedefinitions.apiextensions.k8s.io') < at('apiservices.apiregistration.k8s.io'));
  });

  it('prints short names, versions and scope in the default table', async () => {
    const r = await run('flannel-single', 'kubectl api-resources --api-group=networking.k8s.io');
    assert.equal(
      r.stdout,
      [
        'NAME              SHORTNAMES   APIVERSION             NAMESPACED   KIND',
        'ingressclasses                 networking.k8s.io/v1   false        IngressClass',
        'ingresses         ing          networking.k8s.io/v1   true         Ingress',
        'ipaddresses       ip           networking.k8s.io/v1   false        IPAddress',
        'networkpolicies   netpol       networking.k8s.io/v1   true         NetworkPolicy',
        'servicecidrs                   networking.k8s.io/v1   false        ServiceCIDR',
        '',
      ].join('\n'),
    );
    const storage = (await run('flannel-single', 'kubectl api-resources --api-group=storage.k8s.io --no-headers')).stdout;
    assert.match(storage, /^volumeattributesclasses +vac +storage\.k8s\.io\/v1 +false +VolumeAttributesClass$/m);
    assert.match(storage, /^csistoragecapacities +storage\.k8s\.io\/v1 +true +CSIStorageCapacity$/m);
  });

  it('-o wide adds VERBS and CATEGORIES from the discovery documents', async () => {
    const r = await run('flannel-single', 'kubectl api-resources -o wide');
    const row = (name: string): string[] => (r.stdout.split('\n').find((l) => l.startsWith(`${name} `)) ?? '').trim().split(/ {2,}/);
    assert.deepEqual(r.stdout.split('\n')[0]!.split(/ +/), ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', 'VERBS', 'CATEGORIES']);
    assert.deepEqual(row('tokenreviews'), ['tokenreviews', 'authentication.k8s.io/v1', 'false', 'TokenReview', 'create']);
    assert.deepEqual(row('componentstatuses'), ['componentstatuses', 'cs', 'v1', 'false', 'ComponentStatus', 'get,list']);
    assert.deepEqual(row('namespaces'), ['namespaces', 'ns', 'v1', 'false', 'Namespace', 'create,delete,get,list,patch,update,watch']);
    assert.deepEqual(row('pods'), ['pods', 'po', 'v1', 'true', 'Pod', 'create,delete,deletecollection,get,list,patch,update,watch', 'all']);
    assert.deepEqual(row('validatingwebhookconfigurations'), [
      'validatingwebhookconfigurations', 'admissionregistration.k8s.io/v1', 'false', 'ValidatingWebhookConfiguration',
      'create,delete,deletecollection,get,list,patch,update,watch', 'api-extensions',
    ]);
  });

  // Expected texts recorded from kubectl v1.35.2 run against a discovery server serving the same
  // resources (apiresources.go RunAPIResources + print_flags.go; cli-runtime json.go/yaml.go/kyaml.go).
  it('-o json, yaml and kyaml print the flattened APIResourceList', async () => {
    const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
    const json = await run('flannel-single', 'kubectl api-resources --api-group=policy -o json');
    assert.equal(
      json.stdout,
      [
        '{', '    "kind": "APIResourceList",', '    "apiVersion": "v1",', '    "groupVersion": "",', '    "resources": [', '        {',
        '            "name": "poddisruptionbudgets",', '            "singularName": "poddisruptionbudget",', '            "namespaced": true,',
        '            "group": "policy",', '            "version": "v1",', '            "kind": "PodDisruptionBudget",', '            "verbs": [',
        ...verbs.map((v, i) => `                "${v}"${i < verbs.length - 1 ? ',' : ''}`),
        '            ],', '            "shortNames": [', '                "pdb"', '            ]', '        }', '    ]', '}', '',
      ].join('\n'),
    );
    const yaml = await run('flannel-single', 'kubectl api-resources --api-group=policy -o YAML');
    assert.equal(
      yaml.stdout,
      [
        'apiVersion: v1', 'groupVersion: ""', 'kind: APIResourceList', 'resources:', '- group: policy', '  kind: PodDisruptionBudget',
        '  name: poddisruptionbudgets', '  namespaced: true', '  shortNames:', '  - pdb', '  singularName: poddisruptionbudget', '  verbs:',
        ...verbs.map((v) => `  - ${v}`), '  version: v1', '',
      ].join('\n'),
    );
    const kyaml = await run('flannel-single', 'kubectl api-resources --api-group=policy -o kyaml');
    assert.equal(
      kyaml.stdout,
      [
        '---', '{', '  kind: "APIResourceList",', '  apiVersion: "v1",', '  groupVersion: "",', '  resources: [{', '    name: "poddisruptionbudgets",',
        '    singularName: "poddisruptionbudget",', '    namespaced: true,', '    group: "policy",', '    version: "v1",',
        '    kind: "PodDisruptionBudget",', '    verbs: [', ...verbs.map((v) => `      "${v}",`), '    ],', '    shortNames: [', '      "pdb",',
        '    ],', '  }],', '}', '',
      ].join('\n'),
    );
    // the core group has no `group` member (omitempty) and nothing filtered out leaves `resources: null`
    const core = (await run('flannel-single', 'kubectl api-resources --api-group= -o json')).stdout;
    assert.match(core, /"name": "bindings",\n {12}"singularName": "binding",\n {12}"namespaced": true,\n {12}"version": "v1",\n {12}"kind": "Binding",/);
    assert.equal((await run('flannel-single', 'kubectl api-resources --api-group=nope -o yaml')).stdout, 'apiVersion: v1\ngroupVersion: ""\nkind: APIResourceList\nresources: null\n');
  });

  it('refuses an -o it has no printer for with PrintFlags\' sorted list', async () => {
    for (const o of ['foo', 'Wide', 'NAME']) {
      assert.deepEqual(await run('flannel-single', `kubectl api-resources -o ${o}`), {
        stdout: '',
        stderr: `error: unable to match a printer suitable for the output format "${o}", allowed formats are: json,kyaml,name,wide,yaml\n`,
        exitCode: 1,
      });
    }
  });

  it('--verbs and --categories keep the resources that have all the values given', async () => {
    const created = (await run('flannel-single', 'kubectl api-resources --verbs=create --namespaced=true -o name')).stdout;
    assert.ok(created.includes('localsubjectaccessreviews.authorization.k8s.io\n'));
    const listable = (await run('flannel-single', 'kubectl api-resources --verbs=list,watch -o name')).stdout.split('\n');
    assert.ok(!listable.includes('tokenreviews.authentication.k8s.io'));
    assert.ok(!listable.includes('componentstatuses'));
    const ext = (await run('flannel-single', 'kubectl api-resources --categories=api-extensions -o name')).stdout;
    assert.equal(
      ext,
      [
        'mutatingwebhookconfigurations.admissionregistration.k8s.io',
        'validatingadmissionpolicies.admissionregistration.k8s.io',
        'validatingadmissionpolicybindings.admissionregistration.k8s.io',
        'validatingwebhookconfigurations.admissionregistration.k8s.io',
        'customresourcedefinitions.apiextensions.k8s.io',
        'apiservices.apiregistration.k8s.io',
        '',
      ].join('\n'),
    );
  });

  it('serves the new resources to get: an empty list, and 405 for the create-only reviews', async () => {
    assert.deepEqual(await run('flannel-single', 'kubectl get runtimeclasses'), { stdout: '', stderr: 'No resources found\n', exitCode: 0 });
    assert.deepEqual(await run('flannel-single', 'kubectl get csistoragecapacities'), { stdout: '', stderr: 'No resources found in default namespace.\n', exitCode: 0 });
    assert.deepEqual(await run('flannel-single', 'kubectl get vac'), { stdout: '', stderr: 'No resources found\n', exitCode: 0 });
    // installer.go registers no GET/LIST route for a create-only storage: go-restful's 405
    const r = await run('flannel-single', 'kubectl get tokenreviews');
    assert.equal(r.stderr, 'Error from server (MethodNotAllowed): the server does not allow this method on the requested resource\n');
    assert.equal(r.exitCode, 1);
  });
});

describe('tables of the added kinds (pkg/printers/internalversion/printers.go)', () => {
  it('RuntimeClass, CSIDriver, ValidatingAdmissionPolicy(Binding) and webhook configurations print their columns', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const manifest = [
      'apiVersion: node.k8s.io/v1', 'kind: RuntimeClass', 'metadata:', '  name: gvisor', 'handler: runsc', '---',
      'apiVersion: storage.k8s.io/v1', 'kind: CSIDriver', 'metadata:', '  name: hostpath.csi.k8s.io', 'spec:', '  podInfoOnMount: true',
      '  volumeLifecycleModes: [Persistent, Ephemeral]', '  tokenRequests: [{audience: vault}, {audience: gcp}]', '---',
      'apiVersion: admissionregistration.k8s.io/v1', 'kind: ValidatingAdmissionPolicy', 'metadata:', '  name: max-replicas', 'spec:',
      '  paramKind: {apiVersion: v1, kind: ConfigMap}', '  validations:', '  - expression: "object.spec.replicas <= 5"', '---',
      'apiVersion: admissionregistration.k8s.io/v1', 'kind: ValidatingAdmissionPolicyBinding', 'metadata:', '  name: b1', 'spec:',
      '  policyName: max-replicas', '  validationActions: [Deny]', '  paramRef: {name: limits, parameterNotFoundAction: Deny}', '---',
      'apiVersion: admissionregistration.k8s.io/v1', 'kind: ValidatingWebhookConfiguration', 'metadata:', '  name: none',
    ].join('\n');
    const w = await s.exec(`cat > /root/o.yaml <<'EOF'\n${manifest}\nEOF`);
    assert.equal(w.exitCode, 0, w.stderr);
    const c = await s.exec('kubectl create -f /root/o.yaml');
    assert.equal(c.stderr, '');
    assert.equal((await s.exec('kubectl get runtimeclass')).stdout, 'NAME     HANDLER   AGE\ngvisor   runsc     0s\n');
    assert.equal(
      (await s.exec('kubectl get csidrivers')).stdout,
      'NAME                  ATTACHREQUIRED   PODINFOONMOUNT   STORAGECAPACITY   TOKENREQUESTS   REQUIRESREPUBLISH   MODES                  AGE\n' +
        'hostpath.csi.k8s.io   true             true             false             vault,gcp       false               Persistent,Ephemeral   0s\n',
    );
    assert.equal((await s.exec('kubectl get validatingadmissionpolicies')).stdout, 'NAME           VALIDATIONS   PARAMKIND      AGE\nmax-replicas   1             v1/ConfigMap   0s\n');
    assert.equal((await s.exec('kubectl get validatingadmissionpolicybindings')).stdout, 'NAME   POLICYNAME     PARAMREF   AGE\nb1     max-replicas   */limits   0s\n');
    assert.equal((await s.exec('kubectl get validatingwebhookconfigurations')).stdout, 'NAME   WEBHOOKS   AGE\nnone   0          0s\n');
  });
});

describe('objects the control plane keeps for the added kinds', () => {
  it('every node has its CSINode, with no drivers and the kubelet as owner (nodeinfomanager)', async () => {
    assert.deepEqual(await run('flannel-single', 'kubectl get csinodes'), { stdout: 'NAME     DRIVERS   AGE\nncss-i   0         2d2h\n', stderr: '', exitCode: 0 });
    const y = (await run('kubeadm-calico', 'kubectl get csinode cka-w1 -o jsonpath={.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}/{.spec}')).stdout;
    assert.equal(y, 'Node/cka-w1/{"drivers":null}');
  });
});
