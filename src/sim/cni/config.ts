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

export function cniReady(host: Host): boolean {
  return cniStatus(host).ready;
}
