/**
 * `etcdctl member add NAME --peer-urls=URLS [--learner]` and `etcdctl member remove ID`
 * (etcdctl/ctlv3/command/member_command.go, printer_simple.go): membership changes of the
 * running etcd (sim/etcd/member.ts). The new member is unstarted (no name, no client URLs) until
 * an etcd with that peer URL starts, which only `kubeadm join --control-plane` on a real node would
 * do; a failed join leaves it behind. The cluster ID stays the same on add and remove. Quorum loss
 * after adding an unstarted voting member is not modelled; a learner never votes, as in etcd.
 */
import type { CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { EtcdMemberState } from '../../../sim/etcd/member.js';
import { hexId, memberId } from '../../../sim/etcd/db.js';

const res = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ stdout, stderr, exitCode });
const fail = (msg: string, code = 1): CommandResult => res('', `Error: ${msg}\n`, code);

/** `%16x`: hex, left-padded with spaces to 16 characters. */
const x16 = (id: string): string => hexId(id).padStart(16, ' ');

export function memberAdd(c: Cluster, m: EtcdMemberState, args: string[], flags: Map<string, string>, format: string): CommandResult {
  if (args.length !== 1) return fail('member name not provided', 1);
  const name = args[0]!;
  const urls = (flags.get('peer-urls') ?? '').split(',').filter(Boolean);
  if (urls.length === 0) return fail('member peer urls not provided', 1);
  const taken = m.members.flatMap((x) => x.peerURLs).find((u) => urls.includes(u));
  if (taken) return fail('etcdserver: Peer URLs already exists', 1);
  const learner = flags.get('learner') === 'true';
  // etcd derives the ID of an added member from its peer URLs and the time (membership.NewMember).
  const id = memberId(urls, `${m.clusterId}/${c.now()}`);
  m.members.push({ id, name: '', peerURLs: urls, clientURLs: [], ...(learner ? { isLearner: true } : {}) });
  if (format === 'json') return res(`${JSON.stringify({ header: { cluster_id: Number(BigInt(`0x${m.clusterId}`) & 0x1fffffffffffffn), member_id: Number(BigInt(`0x${m.localId}`) & 0x1fffffffffffffn), raft_term: m.term }, member: { ID: Number(BigInt(`0x${id}`) & 0x1fffffffffffffn), peerURLs: urls, ...(learner ? { isLearner: true } : {}) } })}\n`);
  const conf = [...m.members]
    .sort((a, b) => (BigInt(`0x${a.id}`) < BigInt(`0x${b.id}`) ? -1 : 1))
    .flatMap((x) => x.peerURLs.map((u) => `${x.id === id ? name : x.name}=${u}`));
  return res(
    `Member ${x16(id)} added${learner ? ' as learner ' : ' '}to cluster ${x16(m.clusterId)}\n\n` +
      `ETCD_NAME="${name}"\nETCD_INITIAL_CLUSTER="${conf.join(',')}"\nETCD_INITIAL_ADVERTISE_PEER_URLS="${urls.join(',')}"\nETCD_INITIAL_CLUSTER_STATE="existing"\n`,
  );
}

export function memberRemove(m: EtcdMemberState, args: string[]): CommandResult {
  if (args.length !== 1) return fail('member ID is not provided', 1);
  const arg = args[0]!;
  if (!/^[0-9a-fA-F]{1,16}$/.test(arg)) return fail(`bad member ID arg (strconv.ParseUint: parsing "${arg}": invalid syntax), expecting ID in Hex`, 1);
  const id = BigInt(`0x${arg}`);
  const i = m.members.findIndex((x) => BigInt(`0x${x.id}`) === id);
  if (i < 0) return fail('etcdserver: member not found', 1);
  const voters = m.members.filter((x) => !x.isLearner);
  // removing the only voting member would leave no quorum (etcdserver.ErrNotEnoughStartedMembers)
  if (!m.members[i]!.isLearner && voters.length === 1) return fail('etcdserver: re-configuration failed due to not enough started members', 1);
  const removed = m.members[i]!;
  m.members.splice(i, 1);
  return res(`Member ${x16(removed.id)} removed from cluster ${x16(m.clusterId)}\n`);
}
