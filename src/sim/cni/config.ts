/**
 * The CNI configuration a node's container runtime loads: the first `*.conflist`/`*.conf` in
 * /etc/cni/net.d (lexical order, as libcni ConfFiles does) that parses and names a plugin binary
 * present in /opt/cni/bin. Without one the runtime reports NetworkReady=false and the kubelet
 * keeps the node NotReady.
 */
import type { Host } from '../node/host.js';
import { remember } from '../../util/bounded-map.js';

export const CNI_CONF_DIR = '/etc/cni/net.d';
export const CNI_BIN_DIR = '/opt/cni/bin';

export interface CniStatus {
  ready: boolean;
  /** The file loaded, when ready. */
  file?: string;
  /** The container runtime's message when not ready. */
  message?: string;
}

export function cniStatus(host: Host): CniStatus {
  const files = host.fs.list(CNI_CONF_DIR).filter((f) => /\.(conflist|conf|json)$/.test(f));
  for (const f of files) {
    const path = `${CNI_CONF_DIR}/${f}`;
    let text: string;
    try {
      text = host.fs.read(path);
    } catch {
      continue;
    }
    const types = pluginTypes(text);
    if (types === undefined || types.length === 0 || types.some((t) => !t)) continue;
    const missing = types.find((t) => !host.fs.isFile(`${CNI_BIN_DIR}/${t}`));
    if (missing) return { ready: false, message: `failed to find plugin "${missing}" in path [/opt/cni/bin]` };
    return { ready: true, file: path };
  }
  return { ready: false, message: 'cni plugin not initialized' };
}

/**
 * The plugin types a CNI config names (its `plugins`' types, or its own for a single-plugin
 * `.conf`), undefined when it is not JSON: a pure function of the file's text, memoised by it.
 * The kubelet asks at every new pod sandbox and the node-status loop at each of its syncs, and
 * parsing the same conflist again was most of what they spent here. Bounded.
 */
const TYPES = new Map<string, readonly (string | undefined)[] | undefined>();

let typeParses = 0;

/** How many config texts have been parsed rather than found in TYPES (tests). */
export function cniConfigParses(): number {
  return typeParses;
}

function pluginTypes(text: string): readonly (string | undefined)[] | undefined {
  if (TYPES.has(text)) return TYPES.get(text);
  typeParses++;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return remember(TYPES, text, undefined, 64);
  }
  // a document of another shape throws here, every time, as it did (nothing is kept for it)
  const d = doc as { plugins?: { type?: string }[]; type?: string };
  const types = d.plugins ? d.plugins.map((p) => p.type) : [d.type];
  return remember(TYPES, text, Object.freeze(types), 64);
}

/**
 * cniStatus of a host, remembered while `generation` stands: Cluster.hostGenerationOf(host.name),
 * which moves with every change of that node's own files (its Vfs tells the cluster) and with
 * every touch that names no host. cniStatus reads that node's files under CNI_CONF_DIR and
 * CNI_BIN_DIR alone (no virtual file lies there), so while the generation is the one the answer
 * was read at, the files it read are the same and so is the answer. The node-status controller
 * and the kubelet ask at every run. Kept by the Host (a copy or restore of the cluster has new
 * ones, with their own generations); the answer is frozen, shared by every caller.
 */
const REMEMBERED = new WeakMap<Host, { generation: string; status: Readonly<CniStatus> }>();

/**
 * The same answers by the filesystem's frozen maps: a snapshot freezes a host's files, links and
 * directory list, and every copy of it shares them until it writes one (Vfs ownFiles). Those three
 * are all cniStatus reads (Vfs list, read, isFile and follow; the virtual files lie elsewhere), so
 * the same frozen three give the same answer in any copy: a copy's first look needs no walk of
 * every file on the node.
 */
const BY_FILES = new WeakMap<object, { dirs: readonly string[]; links: object | undefined; status: Readonly<CniStatus> }>();

export function cniStatusAt(host: Host, generation: string): Readonly<CniStatus> {
  const had = REMEMBERED.get(host);
  if (had !== undefined && had.generation === generation) return had.status;
  const { files, dirs, links } = host.fs.data;
  const frozen = Object.isFrozen(files) && Object.isFrozen(dirs) && (links === undefined || Object.isFrozen(links));
  const shared = frozen ? BY_FILES.get(files) : undefined;
  const status = shared !== undefined && shared.dirs === dirs && shared.links === links ? shared.status : Object.freeze(cniStatus(host));
  if (frozen) BY_FILES.set(files, { dirs, links, status });
  REMEMBERED.set(host, { generation, status });
  return status;
}
