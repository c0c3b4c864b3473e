/**
 * `kubectl certificate approve|deny NAME…` (k8s.io/kubectl pkg/cmd/certificates/certificates.go):
 * appends the Approved or Denied condition through the approval subresource. The API server
 * first checks the caller may approve for the request's signer
 * (plugin/pkg/admission/certificates/approval); an already approved request is left as it is.
 */
import { forbidden } from '../../../sim/api/errors.js';
import type { KObject } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { bool, str } from '../flags.js';
import { printObject } from '../printobj.js';

interface Csr extends KObject {
  spec: { signerName?: string };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string; lastUpdateTime?: string; lastTransitionTime?: string }[]; certificate?: string };
}

function decide(kind: 'approve' | 'deny'): Verb {
  const type = kind === 'approve' ? 'Approved' : 'Denied';
  const other = kind === 'approve' ? 'Denied' : 'Approved';
  return {
    name: `certificate ${kind}`,
    run(inv, env) {
      const p = inv.parsed;
      if (p.args.length === 0) throw new KubectlError('one or more CSRs must be specified as <name> or -f <filename>', `See 'kubectl certificate ${kind} -h' for help and examples`);
      let out = '';
      for (const name of p.args) {
        const csr = env.api.get<Csr>('CertificateSigningRequest', undefined, name);
        const conds = csr.status?.conditions ?? [];
        if (conds.some((c) => c.type === other) && !bool(p.flags, 'force')) throw new KubectlError(`certificate signing request "${name}" is already ${other.toLowerCase()}`);
        if (!conds.some((c) => c.type === type) || bool(p.flags, 'force')) {
          const signer = csr.spec.signerName ?? '';
          const verdict = env.api.review({ verb: 'approve', group: 'certificates.k8s.io', resource: 'signers', name: signer });
          if (!verdict.allowed) throw forbidden(`certificatesigningrequests.certificates.k8s.io "${name}" is forbidden: user not permitted to ${kind} requests with signerName "${signer}"`);
          const now = env.cluster.timestamp();
          const cond = { type, status: 'True', reason: kind === 'approve' ? 'KubectlApprove' : 'KubectlDeny', message: `This CSR was ${kind === 'approve' ? 'approved' : 'denied'} by kubectl certificate ${kind}.`, lastUpdateTime: now, lastTransitionTime: now };
          csr.status = { ...(csr.status ?? {}), conditions: [...conds, cond] };
          env.api.update(csr);
        }
        out += printObject(csr, { output: str(p.flags, 'output'), operation: kind === 'approve' ? 'approved' : 'denied', dryRun: 'none', generated: false });
      }
      return { stdout: out, stderr: '', exitCode: 0 };
    },
  };
}

export const certificateApproveVerb = decide('approve');
export const certificateDenyVerb = decide('deny');
