/** The plugins this simulator implements, by directive name. */
import type { PluginDef } from '../plugin.js';
import { filePlugin } from './file.js';
import { autopathPlugin } from './autopath.js';
import { minimalPlugin } from './minimal.js';
import { headerPlugin } from './header.js';
import { debugPlugin } from './debug.js';
import { bufsizePlugin } from './bufsize.js';
import { anyPlugin } from './any.js';
import { aclPlugin } from './acl.js';
import { cachePlugin } from './cache.js';
import { errorsPlugin } from './errors.js';
import { forwardPlugin } from './forward.js';
import { healthPlugin } from './health.js';
import { hostsPlugin } from './hosts.js';
import { k8sExternalPlugin } from './k8s_external.js';
import { kubernetesPlugin } from './kubernetes.js';
import { loadbalancePlugin } from './loadbalance.js';
import { logPlugin } from './log.js';
import { loopPlugin } from './loop.js';
import { prometheusPlugin } from './prometheus.js';
import { readyPlugin } from './ready.js';
import { reloadPlugin } from './reload.js';
import { rewritePlugin } from './rewrite.js';
import { templatePlugin } from './template.js';
import { whoamiPlugin } from './whoami.js';

export const PLUGINS: ReadonlyMap<string, PluginDef> = new Map(
  [
    filePlugin,
    autopathPlugin,
    minimalPlugin,
    headerPlugin,
    debugPlugin,
    bufsizePlugin,
    anyPlugin,
    aclPlugin,
    cachePlugin,
    errorsPlugin,
    forwardPlugin,
    healthPlugin,
    hostsPlugin,
    k8sExternalPlugin,
    kubernetesPlugin,
    loadbalancePlugin,
    logPlugin,
    loopPlugin,
    prometheusPlugin,
    readyPlugin,
    reloadPlugin,
    rewritePlugin,
    templatePlugin,
    whoamiPlugin,
  ].map((p) => [p.name, p]),
);
